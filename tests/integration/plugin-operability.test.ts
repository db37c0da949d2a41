/**
 * The plugin's operability: its Handshake (in this process, over gRPC: what it supports, one answer with
 * Configure's, and each resource's `refresh_before_update`), and its Attach through the real CLI: the built
 * plugin started by hand (`node dist/provider/plugin/main.js`, as under a debugger), and
 * `PULUMI_DEBUG_PROVIDERS=compute:<port>` making the engine use that process instead of starting one.
 *
 * The CLI test needs the Pulumi CLI already built (scripts/ensure-pulumi; `npm test` ensures it before
 * Jest) and `dist/` (every test tier builds first); without the CLI it is skipped with a note, so that the
 * fast tier never builds one.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Emulator } from "../../emulator/server";
import { cancel, isCancelled } from "../../provider/lifecycle/cancel";
import { engineAddressOf, PROTOCOL, serve } from "../../provider/plugin/server";
import { pulumiBin } from "../../scripts/pulumi";
import { call, emulator, get } from "../helpers/emulator";
import { secret, urn } from "../helpers/plugin-rpc";
import { resourcesOf, TestStack } from "../helpers/pulumi";
import { waitUntil } from "../helpers/wait";
import { resetSession } from "../../provider/session";

type Props = Record<string, any>;
/** Configure's answer has no byte-string field: the engine learns that only from the Handshake. */
const withoutByteString = ({ acceptsByteString: _b, ...rest }: Props) => rest;
const ROOT = path.resolve(__dirname, "..", "..");
const PLUGIN_MAIN = path.join(ROOT, "dist", "provider", "plugin", "main.js");
const INSTANCE = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "A-str0ng-Passw0rd!x" };

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  resetSession();
  await emu.close();
});

describe("Handshake (gRPC, in process)", () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let client: provrpc.ResourceProviderClient;
  const rpc = <Req, Res>(method: string, req: Req): Promise<Res> =>
    new Promise((resolve, reject) => {
      (client as any)[method](req, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
    });
  const handshake = (supportsRefreshBeforeUpdate: boolean) => {
    const req = new provproto.ProviderHandshakeRequest();
    req.setEngineAddress("127.0.0.1:40001");
    req.setConfigureWithUrn(true);
    req.setSupportsViews(true);
    req.setSupportsRefreshBeforeUpdate(supportsRefreshBeforeUpdate);
    req.setInvokeWithPreview(true);
    req.setAcceptsByteString(true);
    return rpc<provproto.ProviderHandshakeRequest, provproto.ProviderHandshakeResponse>("handshake", req);
  };
  const create = async (type: string, props: Props) => {
    const req = new provproto.CreateRequest();
    req.setUrn(urn(type, "r"));
    req.setProperties(structproto.Struct.fromJavaScript(props));
    const res = await rpc<provproto.CreateRequest, provproto.CreateResponse>("create", req);
    return { id: res.getId(), outs: res.getProperties()!.toJavaScript(), refreshBeforeUpdate: res.getRefreshBeforeUpdate() };
  };
  const read = async (type: string, id: string, outs: Props, inputs: Props) => {
    const req = new provproto.ReadRequest();
    req.setUrn(urn(type, "r"));
    req.setId(id);
    req.setProperties(structproto.Struct.fromJavaScript(outs));
    req.setInputs(structproto.Struct.fromJavaScript(inputs));
    const res = await rpc<provproto.ReadRequest, provproto.ReadResponse>("read", req);
    return { inputs: res.getInputs()!.toJavaScript(), refreshBeforeUpdate: res.getRefreshBeforeUpdate() };
  };

  beforeAll(async () => {
    server = await serve();
    client = new provrpc.ResourceProviderClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  });
  afterAll(() => {
    client.close();
    server.server.forceShutdown();
    resetSession();
  });

  test("answers what the plugin supports, as Configure does for an engine that does not handshake", async () => {
    const hs = await handshake(true);
    const answered = {
      acceptSecrets: hs.getAcceptSecrets(),
      acceptResources: hs.getAcceptResources(),
      acceptOutputs: hs.getAcceptOutputs(),
      supportsAutonamingConfiguration: hs.getSupportsAutonamingConfiguration(),
      acceptsByteString: hs.getAcceptsByteString(),
    };
    expect(answered).toEqual({
      acceptSecrets: true,
      acceptResources: false,
      acceptOutputs: false,
      supportsAutonamingConfiguration: true,
      acceptsByteString: false,
    });
    expect(server.engine).toEqual({ address: "127.0.0.1:40001", refreshBeforeUpdate: true });

    const req = new provproto.ConfigureRequest();
    req.setArgs(structproto.Struct.fromJavaScript({ apiUrl: emu.url, token: secret(emu.token) }));
    const cfg = await rpc<provproto.ConfigureRequest, provproto.ConfigureResponse>("configure", req);
    expect({
      acceptSecrets: cfg.getAcceptsecrets(),
      acceptResources: cfg.getAcceptresources(),
      acceptOutputs: cfg.getAcceptoutputs(),
      supportsAutonamingConfiguration: cfg.getSupportsAutonamingConfiguration(),
      supportsPreview: cfg.getSupportspreview(),
    }).toEqual({ ...withoutByteString(answered), supportsPreview: true });
    expect(PROTOCOL).toEqual({ ...answered, supportsPreview: true });
  });

  test("refresh_before_update: an instance whose power state the program keeps (booted) is read before each update", async () => {
    await handshake(true);
    const kept = await create("Instance", { ...INSTANCE, label: "rbu-kept", booted: true });
    expect(kept).toMatchObject({ refreshBeforeUpdate: true, outs: { status: "running" } });
    // Shut down by hand: the read the engine makes before the next up sees it (booted false, as an input).
    await call(emu, "POST", `/compute/instances/${kept.id}/shutdown`);
    await waitUntil(async () => (await get(emu, `/compute/instances/${kept.id}`)).status === "offline", { what: "the instance to be offline" });
    const r = await read("Instance", kept.id, kept.outs, { ...INSTANCE, label: "rbu-kept", booted: true });
    expect(r).toMatchObject({ refreshBeforeUpdate: true, inputs: { booted: false } });

    // Not for what changes only when someone changes it: an instance whose power state is left alone, an SSH key.
    expect((await create("Instance", { ...INSTANCE, label: "rbu-free" })).refreshBeforeUpdate).toBe(false);
    // An engine that says it does not read the flag (PULUMI_DISABLE_REFRESH_BEFORE_UPDATE) does not get it.
    await handshake(false);
    expect(server.engine.refreshBeforeUpdate).toBe(false);
    expect((await create("Instance", { ...INSTANCE, label: "rbu-off", booted: false })).refreshBeforeUpdate).toBe(false);
  });

  test("Attach takes the engine's address, and a new run is not cancelled by the last one's Cancel", async () => {
    cancel("the last run's engine closing its plugins");
    const said = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const req = new plugproto.PluginAttach();
    req.setAddress("127.0.0.1:40002");
    await rpc("attach", req);
    expect(said.mock.calls).toEqual([["pulumi-resource-compute: attached to the engine at 127.0.0.1:40002"]]);
    said.mockRestore();
    expect(server.engine.address).toBe("127.0.0.1:40002");
    expect(isCancelled()).toBe(false);
  });

  test("the engine's address among the plugin's arguments", () => {
    expect(engineAddressOf([])).toBeUndefined();
    expect(engineAddressOf(["127.0.0.1:5000"])).toBe("127.0.0.1:5000");
    expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "http://127.0.0.1:9411", "127.0.0.1:5000"])).toBe("127.0.0.1:5000");
  });
});

/** The CLI's folder when it is already built (never building it here: see the header). */
function builtCli(): string | undefined {
  const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { pulumiCompute: { pulumiCli: string } }).pulumiCompute.pulumiCli;
  const cache = process.env.PULUMI_COMPUTE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-compute");
  const cached = path.join(cache, `pulumi-v${version}`, "bin");
  const onPath = (process.env.PATH ?? "")
    .split(path.delimiter)
    .find((d) => d && existsSync(path.join(d, "pulumi")) && existsSync(path.join(d, "pulumi-language-yaml")));
  return existsSync(path.join(cached, "pulumi")) && existsSync(path.join(cached, "pulumi-language-yaml")) ? pulumiBin() : onPath ? pulumiBin() : undefined;
}
const cli = builtCli();
if (!cli) console.warn("plugin-operability: no Pulumi CLI built yet (scripts/ensure-pulumi): the Attach test through the CLI is skipped");

(cli ? describe : describe.skip)("Attach (PULUMI_DEBUG_PROVIDERS, through the CLI)", () => {
  jest.setTimeout(180_000);
  let dir: string;
  let plugin: ChildProcessWithoutNullStreams;
  let pluginErr = "";
  let port: number;
  let stack: TestStack;

  beforeAll(async () => {
    if (!existsSync(PLUGIN_MAIN)) throw new Error(`${path.relative(ROOT, PLUGIN_MAIN)} is missing: build first (npx tsc -p .)`);
    dir = mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-attach-"));
    // A YAML program with no plugins block, and an empty PULUMI_HOME: no plugin installed anywhere, and PATH
    // holds only the CLI's folder and Node's: only the plugin attached to can serve `compute`.
    const program = path.join(dir, "program");
    const home = path.join(dir, "home");
    mkdirSync(program);
    mkdirSync(home);
    writeFileSync(
      path.join(program, "Pulumi.yaml"),
      [
        "name: attach-program",
        "runtime: yaml",
        "resources:",
        "  web:",
        "    type: compute:index:Instance",
        "    properties:",
        ...Object.entries(INSTANCE).map(([k, v]) => `      ${k}: ${v}`),
        "      booted: true",
        "outputs:",
        "  webId: ${web.id}",
        "",
      ].join("\n"),
    );

    // Started by hand, as under a debugger: no engine address; it prints its port, then waits.
    plugin = spawn(process.execPath, [PLUGIN_MAIN], { stdio: ["pipe", "pipe", "pipe"] });
    plugin.stderr.on("data", (d: Buffer) => (pluginErr += d.toString()));
    port = await new Promise<number>((resolve, reject) => {
      let out = "";
      plugin.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /^(\d+)\n/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      plugin.on("exit", (code) => reject(new Error(`the plugin ended (${code}) before printing its port:\n${pluginErr}`)));
    });

    stack = new TestStack(program, `attach-${process.pid}`, {
      config: { "compute:apiUrl": emu.url },
      secrets: { "compute:token": emu.token },
      env: {
        PULUMI_HOME: home,
        PULUMI_DEBUG_PROVIDERS: `compute:${port}`,
        PATH: [cli!, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
      },
    });
  });
  afterAll(async () => {
    if (plugin && plugin.exitCode === null) {
      const exited = new Promise((resolve) => plugin.once("exit", resolve));
      plugin.kill("SIGTERM");
      await exited;
    }
    stack?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the engine attaches to the plugin started by hand, run after run; an instance shut down by hand is booted by the next up", async () => {
    await waitUntil(() => pluginErr.includes(`waiting for an engine to attach (PULUMI_DEBUG_PROVIDERS=compute:${port})`), { what: "the plugin's note" });

    const first = await stack.run("up");
    if (first.code !== 0) throw new Error(`pulumi up failed (${first.code}):\n${first.output}\nthe plugin's stderr:\n${pluginErr}`);
    expect(first.json.summary).toEqual({ create: 2 });
    // The engine attached (the plugin was never started by the engine: nothing to start it from) and the
    // running process made the instance.
    expect(pluginErr).toMatch(/attached to the engine at 127\.0\.0\.1:\d+/);
    const id = String(first.json.outputs.webId);
    expect((await get(emu, `/compute/instances/${id}`)).status).toBe("running");
    const exported = await stack.ok("export");
    expect(resourcesOf(exported, "compute:index:Instance")[0]).toMatchObject({ id, refreshBeforeUpdate: true });

    // Shut down by hand. The next up (the same plugin process, although the first run's engine sent it Cancel
    // as it closed) reads the instance before the update, and boots it again: a wait that a Cancel carried
    // over would have ended at once.
    await call(emu, "POST", `/compute/instances/${id}/shutdown`);
    await waitUntil(async () => (await get(emu, `/compute/instances/${id}`)).status === "offline", { what: "the instance to be offline" });
    emu.log.length = 0;
    const second = await stack.run("up");
    if (second.code !== 0) throw new Error(`pulumi up failed (${second.code}):\n${second.output}\nthe plugin's stderr:\n${pluginErr}`);
    expect(second.json.summary).toEqual({ same: 1, update: 1 });
    expect((await get(emu, `/compute/instances/${id}`)).status).toBe("running");
    // First the read (the refresh before the update), then the update's boot.
    const calls = emu.log.map((e) => `${e.method} ${e.path.replace(/^\/v4/, "")}`);
    expect(calls[0]).toBe(`GET /compute/instances/${id}`);
    expect(calls).toContain(`POST /compute/instances/${id}/boot`);
    expect(plugin.exitCode).toBeNull(); // still running, for the next run
  });
});
