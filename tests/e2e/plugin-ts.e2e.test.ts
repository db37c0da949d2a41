/**
 * A TypeScript program on the SDK generated from schema.json (tests/programs/plugin), run by the plugin with
 * the plain CLI. Nothing is installed: the engine downloads the plugin by itself from the release the SDK's
 * package.json names (version and server), served on the loopback (tests/helpers/plugin.ts), into a fresh
 * PULUMI_HOME: no wiring, no PATH entry. Import of
 * resources made out of band (`pulumi import` and the `import` option), explicit providers on two APIs with
 * different tokens, customTimeouts, secrets kept encrypted.
 */
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { call, ed25519Key, emulator, inventory } from "../helpers/emulator";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(400_000);

const ROOT_PASS = "Plug1n-R00t-Pass!";
const EU_TOKEN = "eu-token-0123456789abcdef0123";
let home: Emulator;
let eu: Emulator;
let stack: TestStack;
let env: Record<string, string>;
let plugin: AcquiredPlugin;

beforeAll(async () => {
  home = await emulator();
  eu = await emulator({ token: EU_TOKEN });
  stack = new TestStack("tests/programs/plugin", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": home.url, publicKey: ed25519Key(81), euApiUrl: eu.url },
    secrets: { "compute:token": home.token, euToken: EU_TOKEN, rootPass: ROOT_PASS },
  });
  plugin = await acquirePlugin({ withNode: true });
  env = plugin.env;
});
afterAll(async () => {
  stack?.cleanup();
  await plugin?.cleanup();
  await home?.close();
  await eu?.close();
});

test("import, explicit providers, customTimeouts and secrets through the plugin and the generated Node SDK", async () => {
  // Made out of band: a key, an instance and a disk of it.
  const laptopKey = ed25519Key(82, "me@laptop");
  const key = await call(home, "POST", "/profile/sshkeys", { body: { label: "laptop", ssh_key: laptopKey } });
  const inst = await call(home, "POST", "/compute/instances", {
    body: { label: "legacy-1", region: "us-east", type: "c1-standard-2", tags: ["legacy"] },
  });
  const disk = await call(home, "POST", `/compute/instances/${inst.body.id}/disks`, { body: { label: "data", size: 1024, filesystem: "ext4" } });
  expect([key.status, inst.status, disk.status]).toEqual([200, 200, 200]);

  // `pulumi import` (README, "Import existing resources"): the key joins the stack as it is.
  const imported = await stack.run("import", {
    env,
    flags: ["compute:index:SshKey", "laptop", String(key.body.id), "--generate-code=false", "--protect=false"],
  });
  expect(imported.code).toBe(0);
  expect(imported.output).not.toMatch(/from \$PATH/); // the downloaded plugin, not one on PATH
  expect(plugin.installed()).toEqual([`resource-compute-v${PLUGIN_VERSION}`]);
  expect(imported.json.summary).toMatchObject({ import: 1 });

  // The program declares the key as it is, and adopts the instance and its disk with the import option.
  const config = { laptopKey, legacyInstanceId: String(inst.body.id), legacyDiskId: String(disk.body.id) };
  const preview = await stack.run("preview", { env, config });
  expect(preview.code).toBe(0);
  expect(preview.json.changeSummary).toEqual({ same: 2, import: 2, create: 3 });

  // --json: the engine's events, debug ones too, which carried every output of the SDK's answers
  // (sdk/debug-redaction.ts); the audit below reads them.
  const up = await stack.ok("up", { env, config, flags: ["--json"] });
  expect(up.summary).toEqual({ same: 2, import: 2, create: 3 });
  expect(up.outputs).toMatchObject({ laptopId: String(key.body.id), legacyStatus: "offline", legacyDataSize: 1024 });
  let inv = await inventory(home);
  expect(inv.instances.map((i) => i.id)).toEqual([inst.body.id]); // adopted, not made again
  expect(inv.disks.map((d) => d.id)).toEqual([disk.body.id]);
  expect(inv.sshkeys.map((k) => k.label).sort()).toEqual(["laptop", up.outputs.homeLabel].sort());
  expect(up.outputs.homeLabel).toMatch(/^home-[0-9a-f]{7}$/);
  // Each provider sends to its own API, with its own token.
  const euInv = await inventory(eu);
  expect(euInv.sshkeys.map((k) => [String(k.id), k.label])).toEqual([[up.outputs.euKeyId, "eu-key"]]);

  // After the imports, the program matches: nothing to do.
  const again = await stack.run("preview", { env, config });
  expect(again.json.changeSummary).toEqual({ same: 7 }); // the stack, the eu provider and six resources: nothing to do

  // Secrets: no token, root password or plain key material of a secret in the state or the CLI's output.
  const exported = await stack.ok("export", { env });
  const text = JSON.stringify(exported);
  for (const s of [home.token, EU_TOKEN, ROOT_PASS]) expect(text).not.toContain(s);
  expect(
    resourcesOf(exported, "pulumi:providers:compute")
      .map((p: any) => p.urn.split("::").pop())
      .sort(),
  ).toEqual([`default_${PLUGIN_VERSION.replace(/\./g, "_")}_https_/github.com/pulumi-compute/pulumi-compute/releases/download/v__VERSION_`, "eu"]); // the engine names a default provider by its version and release
  expect(stack.transcript.join("\n")).not.toContain(ROOT_PASS);
  // The SDK's answers (every output, secrets in plain text) never reach the events: the guard cut them
  // from each answer of this package's resources (the stack's registration may answer before it loads).
  const answers = stack.transcript.join("\n").match(/RegisterResource RPC finished: resource:[^;]*; err: null, resp: .{10}/g) ?? [];
  const ours = answers.filter((a) => a.includes("[compute:index:"));
  expect(ours.length).toBeGreaterThanOrEqual(5);
  expect(ours.filter((a) => !a.endsWith("[left out:"))).toEqual([]);

  // customTimeouts: on a slow API, a create timeout of 2s gives up the boot wait and keeps the instance.
  home.timing.speed = 100 * (8 / 74); // 100 when an instance create took 8 s at speed 1, 74 s now: as slow as then
  const slow = await stack.run("up", { env, config: { ...config, slowTimeout: "2s" } });
  home.timing.speed = TEST_SPEED;
  expect(slow.code).not.toBe(0);
  expect(slow.output).toMatch(/timed out after 2s waiting for instance \d+ to be running/);
  inv = await inventory(home);
  expect(inv.instances).toHaveLength(2);

  const destroy = await stack.ok("destroy", { env });
  expect(destroy.summary).toEqual({ delete: 8 }); // the stack, the eu provider, six resources and the slow instance
  inv = await inventory(home);
  expect([inv.instances, inv.sshkeys, inv.disks]).toEqual([[], [], []]);
  expect((await inventory(eu)).sshkeys).toEqual([]);
});
