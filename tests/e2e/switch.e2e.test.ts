/**
 * A stack moves from pulumi-compute's dynamic classes to @pulumi-compute/plugin-sdk without replacement:
 * examples/all's program, up with `import * as compute from "pulumi-compute"`, then the same program with
 * `import * as compute from "@pulumi-compute/plugin-sdk"` (the one line a user changes). The generated
 * classes alias their type to the dynamic one (schema.json), and the installed plugin reads the dynamic
 * form's state: the preview plans nothing, up changes nothing, the first refresh is clean and leaves the
 * plugin's own entries (no serialized provider), and, once every profile has been booted (so interfaces are
 * active, which the API will not delete), destroy deletes everything through the plugin.
 *
 * The program runs in a folder of its own whose node_modules is tests/programs/switch's (both packages, one
 * @pulumi/pulumi), under examples/all's project name.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { Project } from "../../scripts/pulumi";
import { accountBefore, apiCounts, apiRecords, collectionsOf } from "../helpers/api-records";
import { call, ed25519Key, emulator, get, inventory, list } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { waitUntil } from "../helpers/wait";

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, "..", "..");
const EXAMPLE = path.join(ROOT, "examples", "all");
const SECRETS = {
  rootPass: "Sw1tch-R00t-Passw0rd!",
  scriptData: '{"greeting":"switch-script-secret-value"}',
  userData: Buffer.from("#cloud-config\n# switch-user-data-secret\n").toString("base64"),
};

let emu: Emulator;
let plugin: InstalledPlugin;
let dir: string;
let project: Project;

beforeAll(async () => {
  emu = await emulator({ speed: 0 });
  plugin = await installPlugin();
  dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-switch-"));
  for (const f of ["Pulumi.yaml", "tsconfig.json", "index.ts"]) copyFileSync(path.join(EXAMPLE, f), path.join(dir, f));
  const packages = path.join(ROOT, "tests", "programs", "switch");
  copyFileSync(path.join(packages, "package.json"), path.join(dir, "package.json"));
  symlinkSync(path.join(packages, "node_modules"), path.join(dir, "node_modules"), "dir");
  project = new Project(dir, `switch-${process.pid}`, path.join(dir, ".state"), plugin.env);
  await project.configure(
    { "compute:apiUrl": emu.url, "all-example:publicKey": ed25519Key(93) },
    {
      "compute:token": emu.token,
      "all-example:rootPass": SECRETS.rootPass,
      "all-example:scriptData": SECRETS.scriptData,
      "all-example:userData": SECRETS.userData,
    },
  );
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  plugin?.cleanup();
  await emu?.close();
});

async function ok(op: "up" | "preview" | "refresh" | "destroy" | "export") {
  const r = await project.run(op);
  if (r.code !== 0) throw new Error(`pulumi ${op} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.json;
}

type Entry = { type: string; urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
const entries = async (): Promise<Entry[]> =>
  ((await ok("export")).deployment.resources as Entry[]).filter((r) => r.id !== undefined && !r.type.startsWith("pulumi:"));

test("examples/all moves from the dynamic classes to the plugin SDK: same for every resource, then refresh clean, then destroy", async () => {
  const account = await accountBefore(emu);
  const up = await ok("up");
  const made = up.summary.create as number;
  expect(made).toBeGreaterThanOrEqual(17);
  const before = await entries();
  expect(before.every((r) => r.type.startsWith("pulumi-nodejs:dynamic/compute:"))).toBe(true);
  const ids = Object.fromEntries(before.map((r) => [r.urn.split("::").pop(), r.id]));
  // What the API shows: the account's objects, and every record of every type of the registry in the
  // collections the stack's resources are in (tests/helpers/api-records.ts: tokens and snapshots too).
  const collections = collectionsOf(before);
  const apiBefore = { inventory: await inventory(emu), records: await apiRecords(emu, collections, account) };

  // The one line a user changes.
  const program = readFileSync(path.join(dir, "index.ts"), "utf8");
  const switched = program.replace('import * as compute from "pulumi-compute";', 'import * as compute from "@pulumi-compute/plugin-sdk";');
  expect(switched).not.toBe(program);
  writeFileSync(path.join(dir, "index.ts"), switched);

  const preview = await ok("preview");
  expect(preview.changeSummary).toEqual({ same: made });
  const after = await ok("up");
  expect(after.summary).toEqual({ same: made });
  expect(after.outputs.ids).toEqual(up.outputs.ids);

  // The entries are the plugin's now (its types and provider), each with the id it had.
  const moved = await entries();
  expect(moved.map((r) => r.type.replace("compute:index:", "")).sort()).toEqual(before.map((r) => r.type.replace("pulumi-nodejs:dynamic/compute:", "")).sort());
  expect(Object.fromEntries(moved.map((r) => [r.urn.split("::").pop(), r.id]))).toEqual(ids);

  // The first refresh is clean, and leaves no serialized dynamic provider in the state.
  const refresh = await ok("refresh");
  expect(refresh.summary).toEqual({ same: made });
  expect(JSON.stringify(await entries())).not.toContain("__provider");
  expect((await ok("preview")).changeSummary).toEqual({ same: made });

  // Nothing was made, changed or deleted in the API by the switch.
  expect({ inventory: await inventory(emu), records: await apiRecords(emu, collections, account) }).toEqual(apiBefore);

  // Every profile booted (each instance rebooted into each of its profiles in turn): the interfaces of the
  // last one are active, which the API will not delete (interfaces rule 4). The destroy still completes.
  for (const inst of await list(emu, "/compute/instances")) {
    for (const cfg of await list(emu, `/compute/instances/${inst.id}/configs`)) {
      const action = (await get(emu, `/compute/instances/${inst.id}`)).status === "offline" ? "boot" : "reboot";
      expect((await call(emu, "POST", `/compute/instances/${inst.id}/${action}`, { body: { config_id: cfg.id } })).status).toBe(200);
      await waitUntil(async () => (await get(emu, `/compute/instances/${inst.id}`)).status === "running");
    }
  }
  const active = async () =>
    (await Promise.all((await list(emu, "/compute/instances")).map(async (i) => list(emu, `/compute/instances/${i.id}/configs`))))
      .flat()
      .flatMap((c) => c.interfaces)
      .filter((i: { active: boolean }) => i.active).length;
  expect(await active()).toBeGreaterThan(0);

  const down = await ok("destroy");
  expect(down.summary).toEqual({ delete: made });
  // Nothing left of any type (but what the account held before: the emulator's token, the public images).
  expect(await apiCounts(emu, collections, account)).toEqual(Object.fromEntries(Object.keys(collections).map((type) => [type, 0])));
});
