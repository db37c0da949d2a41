/**
 * `compute-cost`'s exits (provider/cost/cli.ts) on previews written by hand in the CLI's JSON form, pricing by the
 * emulator's catalogue: the budget gate when a price after the change is not known, and what is refused (exit 2).
 * The reports of real previews through the CLI are tests/e2e/cost.e2e.test.ts's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { runCommand } from "../helpers/command";
import { emulator } from "../helpers/emulator";
import { UNKNOWN } from "../../provider/model/unknown";

const CLI = path.resolve(__dirname, "..", "..", "dist", "provider", "cost", "cli.js");
const dir = mkdtempSync(path.join(tmpdir(), "compute-cost-"));
let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runCommand(process.execPath, [CLI, ...args], { env: { ...process.env, COMPUTE_API_URL: emu.url } });
const file = (name: string, value: unknown) => {
  const f = path.join(dir, name);
  writeFileSync(f, JSON.stringify(value));
  return f;
};
const I = "compute:index:Instance";
const create = (name: string, inputs: Record<string, unknown>) => ({ op: "create", urn: `urn:pulumi:dev::app::${I}::${name}`, newState: { type: I, inputs } });
/** A new stack's preview, as `pulumi preview --json` writes it: its steps and its count of each. */
const previewOf = (...steps: Array<ReturnType<typeof create>>) => ({ steps, changeSummary: { create: steps.length } });

test("the budget gate fails when a price after the change is not known, naming it; passes with every price known and within", async () => {
  const unknown = file("unknown.json", previewOf(create("web", { type: UNKNOWN, region: "us-east" })));
  const r = await run(["--preview", unknown, "--fail-over", "100"]);
  expect([r.code, r.stderr.trim()]).toEqual([
    1,
    "compute-cost: The budget cannot be checked: the price after the change of web waits on a value the preview does not know, so the cost after it may be over the budget of $100.00.",
  ]);
  expect(r.stdout.split("\n")[2]).toBe(
    "**The budget cannot be checked**: the price after the change of web waits on a value the preview does not know, so the cost after it may be over the budget of $100.00.",
  );
  expect(r.stdout).toContain("counted at its price now: web.");
  // Without a budget, the report alone: exit 0.
  expect((await run(["--preview", unknown])).code).toBe(0);
  const known = file("known.json", previewOf(create("web", { type: "c1-standard-2", region: "us-east" })));
  const ok = await run(["--preview", known, "--fail-over", "13.14", "--format", "json"]);
  expect([ok.code, JSON.parse(ok.stdout).after.monthly, JSON.parse(ok.stdout).verdict]).toEqual([0, 13.14, { budget: 13.14, result: "within", by: 0 }]);
});

test("refused, exit 2, saying what: an empty or negative budget, a state that is not an export, an unwritable --out, a preview that is not one", async () => {
  const known = file("known.json", previewOf(create("web", { type: "c1-standard-2", region: "us-east" })));
  const cases: Array<[string[], RegExp]> = [
    [["--preview", known, "--fail-over="], /--fail-over: an amount in US dollars, not ""/],
    [["--preview", known, "--fail-over=-5"], /--fail-over: an amount in US dollars, not "-5"/],
    // Fresh eyes: hexadecimal, spaces and exponents were taken as amounts.
    [["--preview", known, "--fail-over=0x64"], /--fail-over: an amount in US dollars, not "0x64"/],
    [["--preview", known, "--fail-over= 100"], /--fail-over: an amount in US dollars, not " 100"/],
    [["--preview", known, "--fail-over=1e21"], /--fail-over: an amount in US dollars, not "1e21"/],
    // A catalogue at a URL with credentials: neither they nor the query reach the report.
    [
      ["--preview", known, "--api-url", "http://admin:s3cr3tpass@127.0.0.1:9/v4?token=abc"],
      /cannot read the price catalogue from http:\/\/127\.0\.0\.1:9\/v4: /,
    ],
    [["--preview", known, "--state", file("nostate.json", { version: 3 })], /not the JSON of `pulumi stack export` \(no deployment\)/],
    [["--preview", known, "--out", path.join(dir, "no", "such", "folder", "cost.md")], /ENOENT/],
    [["--preview", file("notpreview.json", { hello: 1 })], /not the JSON of `pulumi preview --json` \(no steps or no changeSummary\)/],
    [["--preview", path.join(dir, "missing.json")], /--preview .*missing\.json/],
    [["--preview", known, "--format", "yaml"], /--format: markdown or json, not yaml/],
    [["--preview", known, "--bogus"], /Unknown option '--bogus'/],
  ];
  for (const [args, says] of cases) {
    const r = await run(args);
    expect(r.stdout + r.stderr).not.toMatch(/s3cr3tpass|token=abc/);
    expect([args.join(" "), r.code]).toEqual([args.join(" "), 2]);
    expect(r.stderr).toMatch(says);
    // What a pipeline posts is never empty: the report's place says there is none, and why (the report itself
    // where only --out could not be written).
    if (args.includes("--out")) expect(r.stdout.split("\n")[0]).toBe("### Monthly cost of stack `dev`: $0.00 → $13.14 (+$13.14)");
    else
      expect([r.stdout.split("\n")[0], r.stdout]).toEqual([
        expect.stringMatching(/^### No cost report for (the stack|stack `dev`)$/),
        expect.stringMatching(says),
      ]);
  }
});

test("a report that could mislead is refused, its place saying why (also in --out, and in JSON): a preview that leaves resources out, a failed preview", async () => {
  const web = `urn:pulumi:prod::app::${I}::web`;
  const root = "urn:pulumi:prod::app::pulumi:pulumi:Stack::app-prod";
  // Without --show-sames: two resources left alone, not listed.
  const partial = file("partial.json", {
    steps: [
      { op: "same", urn: root },
      {
        op: "update",
        urn: web,
        oldState: { urn: web, type: I, outputs: { type: "c1-standard-2", region: "us-east" } },
        newState: { type: I, inputs: { type: "c1-standard-4", region: "us-east" } },
      },
    ],
    changeSummary: { same: 3, update: 1 },
  });
  const out = path.join(dir, "cost.md");
  const r = await run(["--preview", partial, "--out", out]);
  expect(r.code).toBe(2);
  expect(r.stdout.split("\n")[0]).toBe("### No cost report for stack `prod`");
  expect(r.stdout).toContain(
    "the preview leaves 2 of the stack's resources alone without listing them, so their cost is not in it: run `pulumi preview --json --show-sames`",
  );
  expect(readFileSync(out, "utf8")).toBe(r.stdout);
  const js = await run(["--preview", partial, "--format", "json"]);
  expect([js.code, JSON.parse(js.stdout).stack, JSON.parse(js.stdout).error]).toEqual([2, "prod", expect.stringMatching(/^the preview leaves 2/)]);
  const failed = file("failed.json", {
    ...previewOf(create("web", { type: "c1-standard-2", region: "us-east" })),
    diagnostics: [{ severity: "error", message: "Preview failed: boom\n" }],
  });
  const f = await run(["--preview", failed]);
  expect([f.code, f.stdout]).toEqual([2, expect.stringContaining("the preview failed, so it lists only some of the change: Preview failed: boom")]);
  // Fresh eyes: a YAML program's failed preview, whose errors the YAML host prints as its output (info#err), was
  // "$0.00 within the budget", exit 0.
  const yaml = file("yaml-failed.json", {
    steps: [{ op: "same", urn: "urn:pulumi:prod::app::pulumi:pulumi:Stack::app-prod" }],
    changeSummary: { same: 1 },
    diagnostics: [{ severity: "info#err", message: "Error: web has no property typeo\n" }],
  });
  const y = await run(["--preview", yaml, "--fail-over", "500"]);
  expect([y.code, y.stdout]).toEqual([2, expect.stringContaining("the preview failed, so it lists only some of the change: Error: web has no property typeo")]);
});

test("fresh eyes: an API whose list has no pages is refused at once, not read page after page", async () => {
  const { createServer } = await import("node:http");
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const known = file("known2.json", previewOf(create("web", { type: "c1-standard-2", region: "us-east" })));
    const r = await run(["--preview", known, "--api-url", `http://127.0.0.1:${port}/v4`]);
    expect([r.code, r.stdout]).toEqual([2, expect.stringContaining("not a list of the API")]);
    expect(requests).toBeLessThanOrEqual(3);
  } finally {
    server.close();
  }
});
