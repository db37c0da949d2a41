/**
 * The cost report (`compute-cost`, provider/cost/) on real previews through the plain CLI: a YAML
 * program on the plugin, changed step by step (create, resize, add backups, delete, replace); each preview's
 * JSON and the stack's export read by the command as a pipeline runs it, its figures held to the catalogue's
 * prices (emulator/data/catalog.json) summed by hand; a resize's preview through the plugin shows the price
 * change in the diff; `--fail-over` gates a budget.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { runCommand } from "../helpers/command";
import { emulator } from "../helpers/emulator";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);
const ROOT = path.resolve(__dirname, "..", "..");
const COST = path.join(ROOT, "dist", "provider", "cost", "cli.js");

let emu: Emulator;
let plugin: AcquiredPlugin;
let stack: TestStack;
const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-cost-"));

/** The program: an instance and a MySQL cluster, as the step gives them (a resource left out is deleted). */
function program(web: { type: string; backups: boolean } | undefined, db: { region: string; clusterSize?: number } | undefined): void {
  const lines = ["name: cost-e2e", "runtime: yaml", "resources:"];
  const options = [
    "    options:",
    `      version: ${PLUGIN_VERSION}`,
    `      pluginDownloadURL: https://github.com/pulumi-compute/pulumi-compute/releases/download/v${PLUGIN_VERSION}/`,
  ];
  if (web)
    lines.push(
      "  web:",
      "    type: compute:index:Instance",
      "    properties:",
      "      region: us-east",
      `      type: ${web.type}`,
      `      backupsEnabled: ${web.backups}`,
      ...options,
    );
  if (db)
    lines.push(
      "  db:",
      "    type: compute:index:MysqlDatabase",
      "    properties:",
      `      region: ${db.region}`,
      "      type: c1-standard-2",
      "      engine: mysql/8.0.35",
      ...(db.clusterSize ? [`      clusterSize: ${db.clusterSize}`] : []),
      ...options,
    );
  // The instance's price as a stack output: a preview shows its change.
  if (web) lines.push("outputs:", "  webMonthly: ${web.monthlyPrice}");
  writeFileSync(path.join(dir, "Pulumi.yaml"), lines.join("\n") + "\n");
}

/**
 * The command on the preview as a pipeline runs it: `pulumi preview --json --show-sames`, which lists every
 * resource of the stack. With the export taken right after it (`--state`, checked against it), the same report.
 */
async function report(args: string[] = []): Promise<{ code: number; stdout: string; stderr: string; json: any; markdown: string }> {
  const preview = await stack.run("preview", { flags: ["--show-sames"] });
  expect([preview.code, preview.stderr]).toEqual([0, expect.anything()]);
  writeFileSync(path.join(dir, "preview.json"), preview.stdout);
  const md = await cost("markdown", ["--preview", path.join(dir, "preview.json"), ...args]);
  const js = await cost("json", ["--preview", path.join(dir, "preview.json")]);
  const json = JSON.parse(js.stdout);
  writeFileSync(path.join(dir, "state.json"), (await stack.run("export")).stdout);
  const withState = await cost("json", ["--preview", path.join(dir, "preview.json"), "--state", path.join(dir, "state.json")]);
  // The same report, its resources in the export's order.
  const byName = (r: any) => ({ ...r, resources: [...r.resources].sort((a: any, b: any) => a.name.localeCompare(b.name)) });
  expect([withState.code, byName(JSON.parse(withState.stdout))]).toEqual([0, byName(json)]);
  return { code: md.code, stdout: md.stdout, stderr: md.stderr, json, markdown: md.stdout };
}

const cost = (format: string, args: string[]) =>
  runCommand(process.execPath, [COST, "--format", format, ...args], { env: { ...process.env, COMPUTE_API_URL: emu.url } });

const monthly = (r: any) => Object.fromEntries(r.resources.map((x: any) => [x.name, [x.op, x.before?.monthly ?? null, x.after?.monthly ?? null]]));

beforeAll(async () => {
  emu = await emulator();
  emu.timing.speed = TEST_SPEED;
  plugin = await acquirePlugin();
  program({ type: "c1-standard-2", backups: false }, { region: "us-east" });
  stack = new TestStack(dir, `e2e-${process.pid}`, { config: { "compute:apiUrl": emu.url }, secrets: { "compute:token": emu.token }, env: plugin.env });
});
afterAll(async () => {
  stack?.cleanup();
  await plugin?.cleanup();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("create, resize, add backups, delete, replace: each preview's cost, summed by hand from the catalogue", async () => {
  // Create: c1-standard-2 in us-east 13.14 a month; a one-node MySQL cluster of c1-standard-2 30.
  const created = await report();
  expect(monthly(created.json)).toEqual({ web: ["create", 0, 13.14], db: ["create", 0, 30] });
  expect([created.json.before.monthly, created.json.after.monthly, created.json.delta.monthly]).toEqual([0, 43.14, 43.14]);
  expect(created.markdown.split("\n")[0]).toBe(`### Monthly cost of stack \`${stack.stack}\`: $0.00 → $43.14 (+$43.14)`);
  await stack.ok("up");
  // The outputs the up recorded are the catalogue's prices too.
  const web = stack.resources().find((r) => r.type === "compute:index:Instance");
  expect([web?.outputs?.hourlyPrice, web?.outputs?.monthlyPrice]).toEqual([0.018, 13.14]);

  // Resize: c1-standard-4 is 26.28; the cluster, left alone, is counted from the state.
  program({ type: "c1-standard-4", backups: false }, { region: "us-east" });
  const resized = await report();
  expect(monthly(resized.json)).toEqual({ web: ["update", 13.14, 26.28], db: ["same", 30, 30] });
  expect([resized.json.before.monthly, resized.json.after.monthly]).toEqual([43.14, 56.28]);
  expect(resized.markdown).toContain("| web (Instance) | update | c1-standard-4 in us-east | $13.14 | $26.28 | +$13.14 |");
  // The plugin's preview shows the price change (an exact preview: the planned output, known).
  const diff = await stack.run("preview", { flags: ["--diff"] });
  expect(diff.stdout).toMatch(/~ webMonthly: 13\.14 => 26\.28/);

  // Add backups: the add-on of c1-standard-2 is 3.29.
  program({ type: "c1-standard-2", backups: true }, { region: "us-east" });
  const backups = await report();
  expect(monthly(backups.json).web).toEqual(["update", 13.14, 16.43]);
  expect(backups.json.after.monthly).toBe(46.43);

  // Delete the instance.
  program(undefined, { region: "us-east" });
  const deleted = await report();
  expect(monthly(deleted.json)).toEqual({ web: ["delete", 13.14, 0], db: ["same", 30, 30] });
  expect([deleted.json.after.monthly, deleted.json.delta.monthly]).toEqual([30, -13.14]);
  expect(deleted.markdown.split("\n")[0]).toBe(`### Monthly cost of stack \`${stack.stack}\`: $43.14 → $30.00 (-$13.14)`);

  // Replace the cluster (a new region): the same price after.
  program({ type: "c1-standard-2", backups: false }, { region: "eu-central" });
  const replaced = await report();
  expect(monthly(replaced.json)).toEqual({ web: ["same", 13.14, 13.14], db: [expect.stringMatching(/replace/), 30, 30] });
  expect(replaced.json.delta.monthly).toBe(0);
  expect(replaced.markdown).toContain("No resource's cost changes.");
});

test("--fail-over: a budget gate that fails the job when the cost after is over it, and passes at or under", async () => {
  program({ type: "c1-standard-4", backups: true }, { region: "us-east" });
  // 26.28 + 6.57 + 30 = 62.85
  const over = await report(["--fail-over", "60"]);
  expect([over.code, over.stderr.trim()]).toEqual([1, "compute-cost: Over the budget: $62.85 a month after the change is $2.85 over the budget of $60.00."]);
  expect(over.markdown.split("\n").slice(0, 3)).toEqual([
    `### Monthly cost of stack \`${stack.stack}\`: $43.14 → $62.85 (+$19.71)`,
    "",
    "**Over the budget**: $62.85 a month after the change is $2.85 over the budget of $60.00.",
  ]);
  const within = await report(["--fail-over", "62.85"]);
  expect([within.code, within.markdown.split("\n")[2]]).toEqual([
    0,
    "**Within the budget**: $62.85 a month after the change, $0.00 under the budget of $62.85.",
  ]);
});

test("a state that is not the one the preview was made from is refused, naming the check: taken before the last up, another stack's, an empty one; a preview without --show-sames is refused", async () => {
  // The stack as it is: web c1-standard-2 and db. Its export now, then an up that resizes web.
  program({ type: "c1-standard-2", backups: false }, { region: "us-east" });
  await stack.ok("up");
  writeFileSync(path.join(dir, "stale.json"), (await stack.run("export")).stdout);
  program({ type: "c1-standard-4", backups: false }, { region: "us-east" });
  await stack.ok("up");
  // The next change, to the database only: the export from before the last up differs in web, which it leaves alone.
  program({ type: "c1-standard-4", backups: false }, { region: "us-east", clusterSize: 3 });
  writeFileSync(path.join(dir, "whole.json"), (await stack.run("preview", { flags: ["--show-sames"] })).stdout);
  const stale = await cost("markdown", ["--preview", path.join(dir, "whole.json"), "--state", path.join(dir, "stale.json"), "--fail-over", "100"]);
  expect(stale.code).toBe(2);
  expect(stale.stdout.split("\n")[0]).toBe(`### No cost report for stack \`${stack.stack}\``);
  expect(stale.stdout).toMatch(
    /does not match the preview: web in the state is not as the preview found it \(modified .*\): the stack changed between the export and the preview/,
  );
  // Another stack's export: the same program's, made anew under another name.
  const other = new TestStack(dir, `other-${process.pid}`, { config: { "compute:apiUrl": emu.url }, secrets: { "compute:token": emu.token }, env: plugin.env });
  try {
    writeFileSync(path.join(dir, "other.json"), (await other.run("export")).stdout);
    const empty = await cost("markdown", ["--preview", path.join(dir, "whole.json"), "--state", path.join(dir, "other.json")]);
    expect([empty.code, empty.stdout]).toEqual([
      2,
      expect.stringMatching(/does not match the preview: the state has no resources, and the preview finds 3 resources in the stack/),
    ]);
    await other.ok("up");
    writeFileSync(path.join(dir, "other.json"), (await other.run("export")).stdout);
    const wrong = await cost("markdown", ["--preview", path.join(dir, "whole.json"), "--state", path.join(dir, "other.json")]);
    expect([wrong.code, wrong.stdout]).toEqual([
      2,
      expect.stringContaining(`the state is of stack other-${process.pid} (project cost-e2e), the preview of stack ${stack.stack} (project cost-e2e)`),
    ]);
    await other.ok("destroy");
  } finally {
    other.cleanup();
  }
  // A preview without --show-sames leaves web out: refused, with an export or without one.
  writeFileSync(path.join(dir, "partial.json"), (await stack.run("preview")).stdout);
  writeFileSync(path.join(dir, "state.json"), (await stack.run("export")).stdout);
  for (const args of [[], ["--state", path.join(dir, "state.json")]]) {
    const alone = await cost("markdown", ["--preview", path.join(dir, "partial.json"), ...args]);
    expect([alone.code, alone.stdout]).toEqual([2, expect.stringContaining("the preview leaves 1 of the stack's resources alone without listing them")]);
  }
  // The whole preview: 26.28 + a 3-node cluster, from 56.28.
  const right = await report(["--fail-over", "1000"]);
  expect([right.code, right.json.before.monthly]).toEqual([0, 56.28]);
});
