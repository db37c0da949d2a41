/**
 * A Go program on the generated Go SDK (tests/programs/go, .gen/sdks/go) runs: Pulumi's Automation API runs
 * it as an inline program with the plain CLI (no Go language host). Nothing is installed: the engine
 * downloads the plugin by itself from the release the SDK names (version and pluginDownloadURL), served on
 * the loopback (tests/helpers/plugin.ts), into a fresh PULUMI_HOME; PATH holds the CLI only, no `node`. Up, an update in place, refresh after a change
 * by hand, destroy; the token's value is a secret output and stays encrypted in the state; a naming policy
 * (`pulumi:autonaming`) names the VPC.
 *
 * Needs Go (as scripts/ensure-pulumi does to build the CLI) and the modules of tests/programs/go/go.sum in
 * the Go module cache or the proxy; without Go the suite fails, naming Go (`COMPUTE_SKIP_GO=1` skips it
 * outside CI: tests/helpers/go.ts).
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, inventory } from "../helpers/emulator";
import { describeWithGo } from "../helpers/go";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, "..", "..");

interface Step {
  summary: Record<string, number>;
  outputs?: Record<string, { value: unknown; secret: boolean }>;
}

describeWithGo("plugin-go.e2e")("a Go program through the Automation API", () => {
  let emu: Emulator;
  let plugin: AcquiredPlugin;
  let tmp: string;
  let program: string;

  beforeAll(async () => {
    emu = await emulator();
    plugin = await acquirePlugin();
    tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-go-"));
    program = path.join(tmp, "go-program");
    mkdirSync(path.join(tmp, "state"));
    // -mod=mod: go.sum is filled from the module cache where it lacks a line (the SDK is a local replace).
    const built = spawnSync("go", ["build", "-o", program, "."], {
      cwd: path.join(ROOT, "tests", "programs", "go"),
      env: { ...process.env, GOFLAGS: "-mod=mod" },
      encoding: "utf8",
    });
    if (built.status !== 0) throw new Error(`go build of tests/programs/go failed:\n${built.stderr}`);
  });
  afterAll(async () => {
    await plugin?.cleanup();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    await emu?.close();
  });

  /** One operation of the program (up, preview, refresh, destroy), its JSON answer. */
  function run(op: string, settings: { keyLabel: string }): Promise<{ json: any; stderr: string }> {
    const env = {
      ...process.env,
      ...plugin.env,
      PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "go-program-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      STACK: "dev",
      API_URL: emu.url,
      API_TOKEN: emu.token,
      PUBLIC_KEY: ed25519Key(91, "go@laptop"),
      KEY_LABEL: settings.keyLabel,
      // A naming policy for the whole program: the engine proposes the names, the plugin takes them.
      NAMING_PATTERN: "${stack}-${name}-${hex(4)}",
    };
    return new Promise((resolve, reject) => {
      execFile(program, [op], { env, cwd: tmp, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`go-program ${op} failed:\n${stderr}\n${stdout}`));
        else resolve({ json: JSON.parse(stdout), stderr });
      });
    });
  }

  test("up, an update in place, refresh after a change by hand, destroy; the secret output stays encrypted", async () => {
    expect(plugin.installed()).toEqual([]);
    const up = (await run("up", { keyLabel: "go-key" })).json as Step;
    expect(up.summary).toEqual({ create: 5 });
    expect(plugin.installed()).toEqual([`resource-compute-v${PLUGIN_VERSION}`]);
    expect(plugin.server.requests).toHaveLength(1);
    const outputs = up.outputs!;
    expect(outputs.keyLabel).toEqual({ value: "go-key", secret: false });
    expect(outputs.vpcLabel.value).toMatch(/^dev-net-[0-9a-f]{4}$/); // named by the stack's pulumi:autonaming pattern
    expect(outputs.tokenValue.secret).toBe(true);
    const tokenValue = String(outputs.tokenValue.value);
    let inv = await inventory(emu);
    expect(inv.sshkeys.map((k) => [String(k.id), k.label])).toEqual([[outputs.keyId.value, "go-key"]]);
    expect(inv.vpcs.map((v) => [v.label, v.description])).toEqual([[outputs.vpcLabel.value, "made from Go"]]);
    expect(inv.subnets.map((s) => [String(s.id), s.label, s.ipv4])).toEqual([[outputs.subnetId.value, "backend", "10.0.1.0/24"]]);
    const tokens = async () => (await call(emu, "GET", "/profile/tokens")).body.data.map((t: { label: string }) => t.label);
    expect(await tokens()).toContain("ci-from-go");

    // In place: the key keeps its id.
    const renamed = (await run("up", { keyLabel: "go-key-2" })).json as Step;
    expect(renamed.summary).toEqual({ same: 4, update: 1 });
    expect(renamed.outputs!.keyId.value).toBe(outputs.keyId.value);
    expect((await inventory(emu)).sshkeys.map((k) => k.label)).toEqual(["go-key-2"]);

    // A change by hand: refresh brings it into the state; the next up puts the program's value back.
    await call(emu, "PUT", `/profile/sshkeys/${String(outputs.keyId.value)}`, { body: { label: "by-hand" } });
    expect(((await run("refresh", { keyLabel: "go-key-2" })).json as Step).summary).toEqual({ same: 4, update: 1 });
    expect(((await run("preview", { keyLabel: "go-key-2" })).json as Step).summary).toEqual({ same: 4, update: 1 });
    expect(((await run("up", { keyLabel: "go-key-2" })).json as Step).summary).toEqual({ same: 4, update: 1 });
    expect((await inventory(emu)).sshkeys.map((k) => k.label)).toEqual(["go-key-2"]);

    // The state as the backend holds it (every file: the stack, its backups and history): the token's value
    // and the API token only encrypted; the plugin's types, no dynamic provider.
    const state = path.join(tmp, "state", ".pulumi");
    const files = readdirSync(state, { recursive: true, encoding: "utf8" }).filter((f) => statSync(path.join(state, f)).isFile());
    expect(files).toContain(path.join("stacks", "go-program", "dev.json"));
    for (const f of files) {
      const text = readFileSync(path.join(state, f), "utf8");
      expect([f, text.includes(tokenValue), text.includes(emu.token)]).toEqual([f, false, false]);
    }
    const checkpoint = JSON.parse(readFileSync(path.join(state, "stacks", "go-program", "dev.json"), "utf8"));
    const resources: Array<{ type: string; outputs?: Record<string, unknown> }> = checkpoint.checkpoint.latest.resources;
    expect(JSON.stringify(resources)).not.toContain("__provider");
    const stackOutputs = resources.find((r) => r.type === "pulumi:pulumi:Stack")!.outputs!;
    expect(stackOutputs.tokenValue).toHaveProperty("4dabf18193072939515e22adb298388d", "1b47061264138c4ac30d75fd1eb44270"); // a secret
    expect(resources.map((r) => r.type).sort()).toEqual(
      ["compute:index:SshKey", "compute:index:Subnet", "compute:index:Token", "compute:index:Vpc", "pulumi:providers:compute", "pulumi:pulumi:Stack"].sort(),
    );

    const down = (await run("destroy", { keyLabel: "go-key-2" })).json as Step;
    expect(down.summary).toEqual({ delete: 5 });
    inv = await inventory(emu);
    expect([inv.sshkeys, inv.vpcs, inv.subnets]).toEqual([[], [], []]);
    expect(await tokens()).not.toContain("ci-from-go");
  });
});
