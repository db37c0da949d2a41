/**
 * The provider plugin from a YAML program (tests/programs/yaml), with the plain CLI and the YAML language
 * host. Nothing is installed: a fresh PULUMI_HOME, automatic plugin acquisition on, and the engine downloads
 * the plugin by itself from a release folder served on the loopback (the program names the version and the
 * release's URL, which PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sends to the loopback, as a mirror would). PATH
 * holds the CLI only: no `node`, which the plugin (a single executable) does not need. Up, refresh after a
 * change by hand, update in place, replace, destroy; the program's reads (fn::invoke with filters: the
 * newest image of a vendor, a type by vCPUs and memory, a region where it is available) held to the
 * emulator's catalogue; settings that cannot work fail the preview; a missing or corrupt archive fails with
 * a clear error and leaves nothing installed.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import catalog from "../../emulator/data/catalog.json";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, inventory } from "../helpers/emulator";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { archiveName, executableName, hostPlatform } from "../../scripts/package-plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
let plugin: AcquiredPlugin;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  plugin = await acquirePlugin();
  stack = new TestStack("tests/programs/yaml", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(71) },
    secrets: { "compute:token": emu.token },
    env: plugin.env,
  });
});
afterAll(async () => {
  stack?.cleanup();
  await plugin?.cleanup();
  await emu?.close();
});

test("YAML: the engine downloads the plugin by itself; up, refresh, update in place, replace, destroy, through it", async () => {
  expect(plugin.installed()).toEqual([]);
  const first = await stack.run("up");
  expect(first.code).toBe(0);
  expect(first.output).not.toMatch(/from \$PATH/); // found where it was installed, not on PATH
  // Downloaded once from the release (the archive of this platform), installed into PULUMI_HOME.
  const archive = archiveName(PLUGIN_VERSION, hostPlatform());
  expect(plugin.server.requests).toEqual([`200 /v${PLUGIN_VERSION}/${archive}`]);
  const ls = await plugin.pulumi(["plugin", "ls", "--json"]);
  const listed = (JSON.parse(ls.stdout) as Array<{ name: string; kind: string; version: string }>).map((p) => [p.name, p.kind, p.version]);
  expect(listed).toEqual([["compute", "resource", PLUGIN_VERSION]]);
  // The plugin is a native executable (ELF here), not a script for `node`, which is not on this PATH.
  const exe = readFileSync(path.join(plugin.home, "plugins", `resource-compute-v${PLUGIN_VERSION}`, executableName(hostPlatform())));
  expect(exe.subarray(0, 4).toString("latin1")).toBe(process.platform === "darwin" ? "\xcf\xfa\xed\xfe" : "\x7fELF");
  expect(plugin.env.PATH.split(path.delimiter)).not.toContain(path.dirname(process.execPath));
  // The CLI reads the package from the executable itself (what `pulumi package add <path>` starts with).
  const info = await plugin.pulumi([
    "package",
    "info",
    path.join(plugin.home, "plugins", `resource-compute-v${PLUGIN_VERSION}`, executableName(hostPlatform())),
  ]);
  expect(info.stdout).toMatch(new RegExp(`Name: compute\\nModule: index\\nVersion: ${PLUGIN_VERSION.replace(/\./g, "\\.")}\\n`));
  const up = first.json;
  expect(up.summary).toEqual({ create: 4 });
  // The program's reads (fn::invoke through the plugin, filters with values as YAML text), as the emulator's
  // catalogue has it: the newest public Debian image (by `created`), the premium type with 2 vCPUs and 4096
  // MB, and the first region (by id) where that type is available now.
  const debian = catalog.images.filter((i) => i.vendor === "Debian" && i.is_public).sort((a, b) => b.created.localeCompare(a.created));
  const premium = catalog.types.filter((t) => t.vcpus === 2 && t.memory === 4096 && t.class === "premium");
  expect(premium.map((t) => t.id)).toEqual(["c1-premium-4", "g7-premium-2"]); // the program takes the first
  const soldIn = (catalog.availability as Record<string, string[]>)[premium[0].id].filter((r) => catalog.regions.some((x) => x.id === r && x.status === "ok"));
  const picked = { newestImage: debian[0].id, pickedType: premium[0].id, typeRegion: [...soldIn].sort()[0] };
  expect(picked).toEqual({ newestImage: "compute/debian12", pickedType: "c1-premium-4", typeRegion: "eu-central" });
  expect({ newestImage: up.outputs.newestImage, pickedType: up.outputs.pickedType, typeRegion: up.outputs.typeRegion }).toEqual(picked);
  expect(emu.log.map((l) => l.path)).toEqual(expect.arrayContaining([expect.stringMatching(/^\/v4\/regions\/availability\?/)]));
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
  expect(moved.outputs).toMatchObject(picked); // the reads run again on every up, with the same answers
  inv = await inventory(emu);
  expect(inv.vpcs.map((v) => [String(v.id), v.region])).toEqual([[moved.outputs.vpcId, "eu-central"]]);
  expect(moved.outputs.vpcId).not.toBe(up.outputs.vpcId);
  expect(inv.subnets.map((s) => [String(s.id), s.label])).toEqual([[moved.outputs.subnetId, "backend"]]);

  const destroy = await stack.ok("destroy");
  expect(destroy.summary).toEqual({ delete: 4 });
  inv = await inventory(emu);
  expect([inv.sshkeys, inv.vpcs, inv.subnets]).toEqual([[], [], []]);
});

test("the executable starts from its code cache (scripts/plugin-loader.ts): V8 takes the cache made when it was built", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "plugin-start-"));
  const times = path.join(dir, "times.jsonl");
  // As the engine downloaded it (the test above).
  const exe = path.join(plugin.home, "plugins", `resource-compute-v${PLUGIN_VERSION}`, executableName(hostPlatform()));
  const child = spawn(exe, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "ignore"], env: { PULUMI_COMPUTE_RPC_TIMES: times } });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("error", reject);
  });
  // The start's line follows the port: wait for it (a kill at once could come first).
  for (let i = 0; i < 100 && !existsSync(times); i++) await new Promise((r) => setTimeout(r, 50));
  child.kill();
  const lines = readFileSync(times, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  rmSync(dir, { recursive: true, force: true });
  expect(lines).toEqual([{ rpc: "start", ms: expect.any(Number), ok: true, at: expect.any(Number), codeCache: "used" }]);
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

test("a release without this version, or with a corrupt archive, fails with a clear error and installs nothing", async () => {
  // Nothing at the URL: the CLI names the plugin, the version and the answer.
  const home = await acquirePlugin();
  try {
    const missing = await home
      .pulumi(["plugin", "install", "resource", "compute", "9.9.9", "--server", `${home.server.url}/v9.9.9/`])
      .catch((e: { stderr: string }) => e);
    expect(missing.stderr).toMatch(/compute[\s\S]*9\.9\.9[\s\S]*404/);
    // A corrupt archive (a release cut short): the CLI refuses it and keeps nothing of it.
    const dir = path.join(home.server.dir, "v9.9.8");
    mkdirSync(dir);
    const good = readFileSync(path.join(home.server.dir, `v${PLUGIN_VERSION}`, archiveName(PLUGIN_VERSION, hostPlatform())));
    writeFileSync(path.join(dir, archiveName("9.9.8", hostPlatform())), good.subarray(0, good.length >> 1));
    const corrupt = await home
      .pulumi(["plugin", "install", "resource", "compute", "9.9.8", "--server", `${home.server.url}/v9.9.8/`])
      .catch((e: { stderr: string }) => e);
    expect(corrupt.stderr).toMatch(/compute[\s\S]*9\.9\.8[\s\S]*(unexpected EOF|gzip|tar|extract)/i);
    // Nothing of it is installed: not listed, and no plugin folder (the CLI of 3.259 kept what it unpacked
    // marked `.partial`, never loaded; 3.274 removes it); the next install, once the release is whole again,
    // works.
    const listed = async () => (JSON.parse((await home.pulumi(["plugin", "ls", "--json"])).stdout) as Array<{ version: string }>).map((p) => p.version);
    expect(await listed()).toEqual([]);
    expect(home.installed().filter((f) => f === "resource-compute-v9.9.8")).toEqual([]);
    writeFileSync(path.join(dir, archiveName("9.9.8", hostPlatform())), good);
    await home.pulumi(["plugin", "install", "resource", "compute", "9.9.8", "--server", `${home.server.url}/v9.9.8/`]);
    expect(await listed()).toEqual(["9.9.8"]);
    expect(home.installed().filter((f) => f.endsWith(".partial"))).toEqual([]);
  } finally {
    await home.cleanup();
  }
});
