/**
 * `compute-cost`'s exits (provider/cost/cli.ts) on previews written by hand in the CLI's JSON form, pricing by the
 * emulator's catalogue: the budget gate when a price after the change is not known, and what is refused (exit 2).
 * The reports of real previews through the CLI are tests/e2e/cost.e2e.test.ts's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

test("the budget gate fails when a price after the change is not known, naming it; passes with every price known and within", async () => {
  const unknown = file("unknown.json", { steps: [create("web", { type: UNKNOWN, region: "us-east" })] });
  const r = await run(["--preview", unknown, "--fail-over", "100"]);
  expect([r.code, r.stderr.trim()]).toEqual([
    1,
    "compute-cost: the stack's monthly cost after the change is not known, so the budget of $100.00 cannot be checked: the price of web waits on a value the preview does not know",
  ]);
  expect(r.stdout).toContain("counted at its price now: web.");
  // Without a budget, the report alone: exit 0.
  expect((await run(["--preview", unknown])).code).toBe(0);
  const known = file("known.json", { steps: [create("web", { type: "c1-standard-2", region: "us-east" })] });
  const ok = await run(["--preview", known, "--fail-over", "13.14", "--format", "json"]);
  expect([ok.code, JSON.parse(ok.stdout).after.monthly]).toEqual([0, 13.14]);
});

test("refused, exit 2, saying what: an empty or negative budget, a state that is not an export, an unwritable --out, a preview that is not one", async () => {
  const known = file("known.json", { steps: [create("web", { type: "c1-standard-2", region: "us-east" })] });
  const cases: Array<[string[], RegExp]> = [
    [["--preview", known, "--fail-over="], /--fail-over: an amount in US dollars, not ""/],
    [["--preview", known, "--fail-over=-5"], /--fail-over: an amount in US dollars, not "-5"/],
    [["--preview", known, "--state", file("nostate.json", { version: 3 })], /not the JSON of `pulumi stack export` \(no deployment\)/],
    [["--preview", known, "--out", path.join(dir, "no", "such", "folder", "cost.md")], /ENOENT/],
    [["--preview", file("notpreview.json", { hello: 1 })], /not the JSON of `pulumi preview --json` \(no steps\)/],
    [["--preview", path.join(dir, "missing.json")], /--preview .*missing\.json/],
  ];
  for (const [args, says] of cases) {
    const r = await run(args);
    expect([args.join(" "), r.code]).toEqual([args.join(" "), 2]);
    expect(r.stderr).toMatch(says);
  }
});
