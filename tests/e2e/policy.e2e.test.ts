/**
 * The policy pack (@pulumi-compute/policy, policy/) through the plain CLI: `pulumi preview --policy-pack` on a
 * TypeScript program (tests/programs/pipeline, on the plugin SDK) and on the same program in Python
 * (tests/programs/policy-python), each once breaking every rule and once keeping them all: every policy fires
 * on the first, naming the resource and the fix, and none on the second. The levels and the budget from
 * `--policy-pack-config`. docs/cost-and-policy.md's pipeline is tests/e2e/pipeline.e2e.test.ts's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { ed25519Key, emulator, inventory } from "../helpers/emulator";
import { acquirePlugin, type AcquiredPlugin } from "../helpers/plugin";
import { TestStack, type PulumiResult } from "../helpers/pulumi";
import { activated, newestPulumi, pythonWheel, venvWith } from "../helpers/python";

jest.setTimeout(600_000);
const ROOT = path.resolve(__dirname, "..", "..");
const PROGRAM = path.join(ROOT, "tests", "programs", "pipeline");
/** The pack as a user installs it: a dev dependency of the TypeScript program. */
const PACK = path.join(PROGRAM, "node_modules", "@pulumi-compute", "policy");

let emu: Emulator;
let plugin: AcquiredPlugin;
let ts: TestStack;
let py: TestStack;
const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-policy-"));

/** The violations a preview printed: `<level> <policy> <Type>: <resource>` each (a stack's: `<level> <policy>`), sorted. */
function violations(r: PulumiResult): string[] {
  return [...r.stdout.matchAll(/\[(advisory|mandatory)\]\s+([\w-]+)\s+(?:\(([^)]*)\))?/g)]
    .map((m) => {
      const of = /^compute:index:(\w+): (\S+)$/.exec(m[3] ?? "");
      return of ? `${m[1]} ${m[2]} ${of[1]}: ${of[2]}` : `${m[1]} ${m[2]}`;
    })
    .sort();
}

/** A preview with the pack (text output, where the CLI prints the policies' findings). */
const preview = (stack: TestStack, secure: boolean, flags: string[] = []) =>
  stack.run("preview", { config: { secure: String(secure) }, flags: ["--policy-pack", PACK, ...flags] });

/** Every rule broken by the program with `secure: false`: the mandatory ones fail the preview. */
const BROKEN = (type: string) =>
  [
    "advisory instance-backups Instance: web",
    "advisory public-interface-with-vpc Instance: web",
    "advisory root-password-without-keys Instance: web",
    "mandatory database-open-to-the-world MysqlDatabase: db",
    "mandatory token-every-scope Token: ci",
    "mandatory token-no-expiry Token: ci",
  ].map((v) => `${type}:${v}`);

beforeAll(async () => {
  emu = await emulator();
  emu.timing.speed = TEST_SPEED;
  // Node on PATH: the TypeScript program and the pack run with it (the Python program does not).
  plugin = await acquirePlugin({ withNode: true });
  const settings = { config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(61) }, secrets: { "compute:token": emu.token } };
  ts = new TestStack(PROGRAM, `policy-ts-${process.pid}`, { ...settings, env: plugin.env });
  const python = venvWith(newestPulumi(), pythonWheel(dir));
  const env = activated(python);
  py = new TestStack("tests/programs/policy-python", `policy-py-${process.pid}`, {
    ...settings,
    env: { ...plugin.env, ...env, PATH: [env.PATH, path.dirname(process.execPath)].join(path.delimiter) },
  });
});
afterAll(async () => {
  ts?.cleanup();
  py?.cleanup();
  await plugin?.cleanup();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const [language, stack] of [
  ["TypeScript", () => ts],
  ["Python", () => py],
] as const) {
  test(`${language}: each policy fires on the program that breaks it, naming the resource and the fix; none on the one that keeps them`, async () => {
    const broken = await preview(stack(), false);
    expect(broken.code).not.toBe(0); // mandatory violations fail the preview
    expect(violations(broken).map((v) => `x:${v}`)).toEqual(BROKEN("x"));
    expect(broken.stdout).toContain("MysqlDatabase db: allowList has 0.0.0.0/0, which lets every address on the internet connect");
    expect(broken.stdout).toContain('Token ci: scopes is "*", every scope of the account: give only the scopes its user needs');
    expect(broken.stdout).toContain("Instance web: no backups: set backupsEnabled: true");
    const clean = await preview(stack(), true);
    expect([clean.code, violations(clean)]).toEqual([0, []]);
    expect(clean.stdout).toMatch(/✅ compute@v0\.1\.0/);
    // A preview: nothing was made.
    expect((await inventory(emu)).instances).toEqual([]);
  });
}

test("--policy-pack-config: a policy's level raised or disabled, and the monthly budget from the prices the plugin plans", async () => {
  const config = (name: string, value: unknown) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(value));
    return ["--policy-pack-config", file];
  };
  const levels = await preview(ts, false, config("levels", { "instance-backups": "mandatory", "database-open-to-the-world": "disabled" }));
  expect(violations(levels)).toEqual(
    BROKEN("")
      .map((v) => v.slice(1))
      .filter((v) => !v.includes("database-open"))
      .map((v) => v.replace("advisory instance-backups", "mandatory instance-backups"))
      .sort(),
  );
  // The program that keeps the rules: c1-standard-2 with backups, 13.14 + 3.29; a one-node MySQL cluster, 30.
  for (const stack of [ts, py]) {
    const over = await preview(stack, true, config("budget", { "monthly-budget": { maxMonthly: 40 } }));
    expect([over.code, violations(over)]).toEqual([expect.any(Number), ["mandatory monthly-budget"]]);
    expect(over.code).not.toBe(0);
    expect(over.stdout).toContain(
      "The stack costs $46.43 a month, over the budget of $40.00 (maxMonthly): MysqlDatabase db $30.00, Instance web $16.43. Choose smaller types or fewer resources, or raise the budget.",
    );
    const within = await preview(stack, true, config("roomy", { "monthly-budget": { maxMonthly: 46.43 } }));
    expect([within.code, violations(within)]).toEqual([0, []]);
  }
});
