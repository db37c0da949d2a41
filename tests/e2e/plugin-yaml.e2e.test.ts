/**
 * The provider plugin from a YAML program (tests/programs/yaml), with the plain CLI and the YAML language
 * host. The plugin is installed as a user installs it (`npm run package:plugin`'s archive, then
 * `pulumi plugin install resource compute <version> --file <archive>`): the program has no `plugins:` block
 * and PATH has no plugin. Up, refresh after a change by hand, update in place, replace, destroy; settings
 * that cannot work fail the preview.
 */
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, inventory } from "../helpers/emulator";
import { installPlugin, PLUGIN_VERSION, type InstalledPlugin } from "../helpers/plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
let plugin: InstalledPlugin;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  plugin = await installPlugin();
  stack = new TestStack("tests/programs/yaml", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(71) },
    secrets: { "compute:token": emu.token },
    env: plugin.env,
  });
});
afterAll(async () => {
  stack?.cleanup();
  plugin?.cleanup();
  await emu?.close();
});

test("the archive installs with pulumi plugin install, and pulumi plugin ls lists it", async () => {
  expect(plugin.installed).toContain(`installing`);
  const ls = await plugin.pulumi(["plugin", "ls", "--json"]);
  const listed = (JSON.parse(ls.stdout) as Array<{ name: string; kind: string; version: string }>).map((p) => [p.name, p.kind, p.version]);
  expect(listed).toEqual([["compute", "resource", PLUGIN_VERSION]]);
});

test("YAML: up, refresh, update in place, replace, destroy, through the plugin", async () => {
  const first = await stack.run("up");
  expect(first.code).toBe(0);
  expect(first.output).not.toMatch(/from \$PATH/); // found where it was installed, not on PATH
  const up = first.json;
  expect(up.summary).toEqual({ create: 4 });
  let inv = await inventory(emu);
  expect(inv.sshkeys.map((k) => k.label)).toEqual(["ops-key"]);
  expect(inv.vpcs.map((v) => [v.label, v.region, v.description])).toEqual([[up.outputs.vpcLabel, "us-east", "made from YAML"]]);
  expect(up.outputs.vpcLabel).toMatch(/^net-[0-9a-f]{7}$/); // auto-named by the plugin
  expect(inv.subnets.map((s) => [s.label, s.ipv4])).toEqual([["backend", "10.0.1.0/24"]]);

  // The state holds the plugin's resources (no serialized dynamic provider), and the token only encrypted.
  const exported = await stack.ok("export");
  expect(resourcesOf(exported, "compute:index:SshKey")).toHaveLength(1);
  expect(JSON.stringify(exported)).not.toContain("__provider");
  expect(JSON.stringify(exported)).not.toContain(emu.token);
  expect(resourcesOf(exported, "pulumi:providers:compute")).toHaveLength(1);

  // A change by hand: refresh brings it into the state; the next up puts the program's value back.
  await call(emu, "PUT", `/profile/sshkeys/${up.outputs.keyId}`, { body: { label: "by-hand" } });
  const refresh = await stack.run("refresh");
  expect(refresh.code).toBe(0);
  expect(refresh.json.summary).toEqual({ same: 3, update: 1 });
  const back = await stack.ok("up");
  expect(back.summary).toEqual({ same: 3, update: 1 });
  expect((await inventory(emu)).sshkeys.map((k) => k.label)).toEqual(["ops-key"]);
  expect((await stack.ok("up")).summary).toEqual({ same: 4 });

  // In place: the key keeps its id.
  const renamed = (await stack.upAsPlanned({ config: { keyLabel: "ops-key-2" } })).up.json;
  expect(renamed.summary).toEqual({ same: 3, update: 1 });
  expect(renamed.outputs.keyId).toBe(up.outputs.keyId);
  expect((await inventory(emu)).sshkeys.map((k) => [String(k.id), k.label])).toEqual([[up.outputs.keyId, "ops-key-2"]]);

  // Replace: a VPC's region cannot change; the preview names the field, and its subnet follows it.
  const preview = await stack.run("preview", { config: { vpcRegion: "eu-central" }, flags: ["--diff"] });
  expect(preview.code).toBe(0);
  expect(preview.stdout).toMatch(/\+-compute:index:Vpc: \(replace\)[\s\S]*~ region: "us-east" => "eu-central"/);
  const moved = (await stack.upAsPlanned({ config: { vpcRegion: "eu-central" } })).up.json;
  expect(moved.summary).toEqual({ same: 2, replace: 2 });
  inv = await inventory(emu);
  expect(inv.vpcs.map((v) => [String(v.id), v.region])).toEqual([[moved.outputs.vpcId, "eu-central"]]);
  expect(moved.outputs.vpcId).not.toBe(up.outputs.vpcId);
  expect(inv.subnets.map((s) => [String(s.id), s.label])).toEqual([[moved.outputs.subnetId, "backend"]]);

  const destroy = await stack.ok("destroy");
  expect(destroy.summary).toEqual({ delete: 4 });
  inv = await inventory(emu);
  expect([inv.sshkeys, inv.vpcs, inv.subnets]).toEqual([[], [], []]);
});

test("settings that cannot work fail the preview: no token names compute:token and COMPUTE_TOKEN, a bad apiUrl names compute:apiUrl", async () => {
  const s = new TestStack("tests/programs/yaml", `e2e-settings-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(72) },
    env: { ...plugin.env, COMPUTE_TOKEN: "", COMPUTE_API_URL: "" },
  });
  try {
    emu.log.length = 0;
    const noToken = await s.run("preview", { flags: ["--diff"] });
    expect(noToken.code).not.toBe(0);
    expect(noToken.output).toMatch(/No API token is set: run `pulumi config set --secret compute:token <token>` or set the COMPUTE_TOKEN environment variable/);
    const badUrl = await s.run("preview", { config: { "compute:apiUrl": "127.0.0.1:1/v4" }, secrets: { "compute:token": emu.token }, flags: ["--diff"] });
    expect(badUrl.code).not.toBe(0);
    expect(badUrl.output).toMatch(/compute:apiUrl \(or COMPUTE_API_URL\) must be an http\(s\) URL/);
    expect(badUrl.output).not.toContain(emu.token);
    expect(emu.log).toEqual([]);
  } finally {
    s.cleanup();
  }
});
