/**
 * The policy pack (@pulumi-compute/policy, policy/) through the plain CLI: `pulumi preview --policy-pack` on a
 * TypeScript program (tests/programs/pipeline, on the plugin SDK) and on the same program in Python
 * (tests/programs/policy-python), each once breaking every rule and once keeping them all: every policy fires
 * on the first, naming the resource and the fix, and none on the second. The levels and the budget from
 * `--policy-pack-config`, and a config's mistakes refused, each named. The budget on the dynamic classes
 * (tests/programs/policy-dynamic), whose previews plan no prices: each resource it cannot count named, and the
 * preview failed. docs/cost-and-policy.md's pipeline is
 * tests/e2e/pipeline.e2e.test.ts's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { runCommand } from "../helpers/command";
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
let dyn: TestStack;
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
  dyn = new TestStack("tests/programs/policy-dynamic", `policy-dyn-${process.pid}`, { ...settings, env: plugin.env });
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
  dyn?.cleanup();
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

/** `--policy-pack-config` with a file of this value. */
const config = (name: string, value: unknown) => {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  return ["--policy-pack-config", file];
};

test("--policy-pack-config: a policy's level raised or disabled, and the monthly budget from the prices the plugin plans", async () => {
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

test("--policy-pack-config: a mistake fails the preview before the program runs, naming it (a policy or a setting the pack has not, a level, a type)", async () => {
  const PACK_AT = `configuring policy pack "compute" at "${PACK}": `;
  const mistakes: Array<[string, unknown, string]> = [
    // Refused by the pack (policy/config.ts), which the CLI passed on before.
    [
      "policy",
      { "instance-backup": "mandatory" },
      `${PACK_AT}"instance-backup" is not a policy of compute (did you mean "instance-backups"?): its policies are database-open-to-the-world, token-every-scope, token-no-expiry, instance-backups, root-password-without-keys, public-interface-with-vpc, monthly-budget (and "all", for every policy's level)`,
    ],
    [
      "setting",
      { "monthly-budget": { maxMonthy: 50 } },
      `${PACK_AT}monthly-budget has no setting "maxMonthy" (did you mean "maxMonthly"?): its settings are maxMonthly (and enforcementLevel)`,
    ],
    // Refused by the CLI itself.
    ["level", { "instance-backups": "mandetory" }, 'parsing enforcement level for "instance-backups": "mandetory" is not a valid enforcement level'],
    ["type", { "monthly-budget": { maxMonthly: "50" } }, "monthly-budget: maxMonthly: Invalid type. Expected: number, given: string"],
  ];
  for (const [name, value, message] of mistakes) {
    const r = await preview(ts, true, config(`mistake-${name}`, value));
    expect([name, r.code === 0, r.output.includes(message) ? message : r.output]).toEqual([name, false, message]);
    expect(r.stdout).not.toMatch(/compute:index:\w+ \w+ create/); // refused before the program's resources
  }
  // The same names, right: the preview passes.
  const right = await preview(ts, true, config("right", { "instance-backups": "mandatory", "monthly-budget": { maxMonthly: 50 }, all: "advisory" }));
  expect([right.code, violations(right)]).toEqual([0, []]);
});

test("the dynamic classes: the budget names each priced resource whose price their preview does not plan, and fails; after up it counts them", async () => {
  // An instance c1-standard-2 with backups, 13.14 + 3.29, and a one-node MySQL cluster, 30: $46.43 a month.
  const budget = (max: number) => preview(dyn, true, config(`dynamic-${max}`, { "monthly-budget": { maxMonthly: max } }));
  const created = await budget(50);
  expect([created.code === 0, violations(created)]).toEqual([false, ["mandatory monthly-budget"]]);
  expect(created.stdout.replace(/\s*\n\s*/g, " ")).toContain(
    "The stack's monthly cost cannot be checked against the budget of $50.00 (maxMonthly): Instance web and MysqlDatabase db have no monthlyPrice (the dynamic classes' preview plans none), so the budget cannot count them, and the rest cost $0.00 a month. The dynamic classes (pulumi-compute) price a resource after `pulumi up` only: check the budget with `pulumi preview --json --show-sames > preview.json && compute-cost --preview preview.json --fail-over 50` (@pulumi-compute/pipeline), which prices each from its inputs, or use the plugin SDK (@pulumi-compute/plugin-sdk), whose previews plan prices.",
  );
  // What the message points to: the cost command prices the same preview from its inputs.
  const planned = await dyn.run("preview", { flags: ["--show-sames"] });
  writeFileSync(path.join(dir, "dynamic-preview.json"), planned.stdout);
  const cost = (max: number) =>
    runCommand(
      process.execPath,
      [path.join(ROOT, "dist", "provider", "cost", "cli.js"), "--preview", path.join(dir, "dynamic-preview.json"), "--fail-over", String(max)],
      {
        env: { ...process.env, COMPUTE_API_URL: emu.url },
      },
    );
  expect((await cost(50)).code).toBe(0);
  const costOver = await cost(40);
  expect([costOver.code, costOver.stderr]).toEqual([1, expect.stringMatching(/\$46\.43.* over the budget of \$40\.00/)]);
  // Made (without the pack), the resources have their prices in the state: the budget counts them.
  expect((await dyn.run("up")).code).toBe(0);
  const over = await budget(40);
  expect([over.code === 0, violations(over)]).toEqual([false, ["mandatory monthly-budget"]]);
  expect(over.stdout).toContain(
    "The stack costs $46.43 a month, over the budget of $40.00 (maxMonthly): MysqlDatabase db $30.00, Instance web $16.43. Choose smaller types or fewer resources, or raise the budget.",
  );
  const within = await budget(46.43);
  expect([within.code, violations(within)]).toEqual([0, []]);
  expect((await dyn.run("destroy")).code).toBe(0);
});
