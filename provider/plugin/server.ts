/**
 * The resource provider plugin `pulumi-resource-compute`: Pulumi's provider protocol (gRPC) over the same
 * resource code as the dynamic providers (provider/index.ts). It adds what dynamic providers cannot have:
 * provider configuration per provider resource (explicit providers), import, `customTimeouts`, secrets
 * marked by the provider, invokes, and a schema for every Pulumi language.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { cancel, counted, resetCancel } from "../cancel";
import { IMPORTED } from "../check";
import { detailedDiff } from "../diff-paths";
import { FunctionArgsError, invoke } from "../functions";
import { importId } from "../imports";
import { AUTONAMING, NAME_SUFFIX, RESOURCE_NAME, SUFFIX_LENGTH, type NamingPolicy } from "../naming";
import { definitions } from "../registry";
import type { DynamicProviderImpl } from "../rest-provider";
import { client, configure, settingsProblems } from "../settings";
import type { Props, ResourceSpec } from "../table";
import { withCustomTimeout } from "../timeouts";
import { failure, fromStruct, importedInputs, markSecrets, secret, secretKeys, stateOf, toStruct, unwrap, withDeclared } from "./wire";

export { importedInputs, isSecret, secret, unwrap, withoutNulls } from "./wire";
type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Callback<Res> = (err: grpc.ServiceError | Partial<grpc.StatusObject> | null, value?: Res | null, trailer?: grpc.Metadata) => void;

/** The package's folder (package.json, schema.json): above dist/provider/plugin when built, provider/plugin in tests. */
const PACKAGE_ROOT = ((): string => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) if (existsSync(path.join(dir, "schema.json"))) return dir;
  return path.join(__dirname, "..", "..", "..");
})();

/** `compute:index:SshKey` → the resource type and its spec. */
function resourceOf(urn: string): { type: string; name: string; spec: ResourceSpec; impl: DynamicProviderImpl } {
  // urn:pulumi:<stack>::<project>::<qualified type>::<name>
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  const token = qualified.split("$").pop() ?? "";
  const name = parts.slice(3).join("::");
  const m = /^compute:index:([A-Za-z]+)$/.exec(token);
  const d = m ? definitions.find((x) => x.spec.type === m[1]) : undefined;
  if (!m || !d)
    throw new Error(
      `pulumi-compute: unknown resource type "${token}" (this plugin knows ${definitions.map((x) => `compute:index:${x.spec.type}`).join(", ")})`,
    );
  return { type: d.spec.type, name, spec: d.spec, impl: d.provider };
}

/** Runs a handler and answers with its result or its error (counted: a signal lets it answer first). */
function answer<Res>(cb: Callback<Res>, fn: () => Promise<Res>, onError: (e: unknown) => Partial<grpc.StatusObject> = (e) => failure(e)): void {
  counted(fn).then(
    (r) => cb(null, r),
    (e: unknown) => {
      const f = onError(e);
      cb(f, null, f.metadata);
    },
  );
}

/**
 * Create and Update: the inputs unwrapped, run within the operation's customTimeouts, outputs as the state
 * keeps them (`stateOf`: marked secret, the table's and those whose input was); a failure that keeps the
 * resource carries the same.
 */
function mutation<Res>(
  cb: Callback<Res>,
  urn: string,
  raw: Props,
  timeoutSeconds: number,
  refresh: (spec: ResourceSpec, inputs: Props) => boolean,
  run: (t: ReturnType<typeof resourceOf>, inputs: Props, mark: (outs: Props) => Props) => Promise<Res>,
): void {
  let spec: ResourceSpec | undefined;
  const secrets = secretKeys(raw);
  const inputs = unwrap(raw) as Props;
  answer(
    cb,
    async () => {
      const t = resourceOf(urn);
      spec = t.spec;
      return withCustomTimeout(timeoutSeconds * 1000, () => run(t, inputs, (outs) => stateOf(t.spec, outs, secrets)));
    },
    (e) => failure(e, spec, secrets, spec !== undefined && refresh(spec, inputs)),
  );
}

/**
 * What the plugin supports of the protocol: the Handshake's answer, and Configure's for an engine that does not
 * handshake (the proto says they must match). The engine takes them from the Handshake when there is one.
 */
export const PROTOCOL = {
  /** Secrets arrive as secret values (unwrapped here); the plugin marks its secret outputs itself. */
  acceptSecrets: true,
  /** A resource reference arrives as its id (or URN), not as a resource value. */
  acceptResources: false,
  /** Inputs arrive as plain values (or the unknown value at preview), never as output values. */
  acceptOutputs: false,
  /** Create and Update answer at preview with the planned outputs (provider/plan.ts): Configure's supportsPreview. */
  supportsPreview: true,
  /** The engine's naming policies (pulumi:autonaming) reach Check (CheckRequest.autonaming). */
  supportsAutonamingConfiguration: true,
  /** Strings that are not valid UTF-8 (the byte-string values) are not taken: the API is JSON. */
  acceptsByteString: false,
} as const;

/**
 * What the engine told this process: its address (the plugin's argument when the engine starts it, the
 * Handshake's, or the Attach's when the plugin was started by hand), and whether it reads a resource's
 * `refresh_before_update` (the Handshake's `supports_refresh_before_update`; an engine that does not
 * handshake does not know the field, and ignores it).
 */
export interface EngineLink {
  address?: string;
  refreshBeforeUpdate: boolean;
}

/** The engine's address among the plugin's arguments: the last that is not a flag (the engine may put `--logtostderr`, `-v=9`, `--tracing <endpoint>` first). */
export function engineAddressOf(args: string[]): string | undefined {
  let address: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) address = args[i];
  }
  return address;
}

/**
 * `refresh_before_update` (Create, Update and Read's answers, and a failure that keeps the resource): the
 * engine then reads the resource before each up, preview or destroy, and diffs from what it is now. So for a
 * resource that keeps a power state (`booted` declared, read back from the instance's status): the power
 * state changes by itself (a shutdown by hand, a crash, the host's maintenance), and the next up puts the
 * program's back (a boot or a shutdown) instead of waiting for a `pulumi refresh`. Other resources change only
 * when someone changes them, and are not read before every run.
 */
export function refreshesBeforeUpdate(spec: ResourceSpec, inputs: Props): boolean {
  return spec.fields.some((f) => f.name === "booted" && f.kind === "input") && inputs.booted !== undefined && inputs.booted !== null;
}

const unimplemented = (what: string) => (_call: unknown, cb: Callback<unknown>) =>
  cb({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by pulumi-resource-compute` });

export function version(): string {
  return (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** Provider configuration keys (`compute:token`, `compute:apiUrl`) in a Configure or CheckConfig request. */
const CONFIG_KEYS = ["token", "apiUrl"] as const;

/**
 * The provider's settings at preview, as the dynamic provider checks them: a token (given, or
 * COMPUTE_TOKEN) and an API URL that parses (given, or COMPUTE_API_URL). A value not known yet passes.
 */
function checkConfig(news: Props): { property: string; reason: string }[] {
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return settingsProblems({ token: text(unwrap(news.token)), apiUrl: text(unwrap(news.apiUrl)) }, { tokenRequired: true });
}
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The auto-name suffix from the engine's random seed: the same seed gives the same name (the engine keeps it
 * for a resource within one deployment, and across preview and up when an update plan is used).
 */
function suffixFrom(seed: Uint8Array): string | undefined {
  if (!seed.length) return undefined;
  return createHash("sha256").update(seed).digest("hex").slice(0, SUFFIX_LENGTH);
}

/** The engine's naming policy for a resource (`pulumi:autonaming`: the name it proposes, and how binding it is). */
function namingPolicy(a: provproto.CheckRequest.AutonamingOptions): NamingPolicy {
  const M = provproto.CheckRequest.AutonamingOptions.Mode;
  const mode = a.getMode() === M.DISABLE ? "disable" : a.getMode() === M.ENFORCE ? "enforce" : "propose";
  return { mode, proposedName: mode === "disable" ? undefined : a.getProposedName(), setting: "the pulumi:autonaming setting" };
}

export function service(engine: EngineLink = { refreshBeforeUpdate: true }): grpc.UntypedServiceImplementation {
  const refresh = (spec: ResourceSpec, inputs: Props) => engine.refreshBeforeUpdate && refreshesBeforeUpdate(spec, inputs);
  return {
    // The engine's first call (before Configure, which still answers the same for an engine that does not
    // handshake): what the plugin supports, and what the engine does.
    handshake(call: Call<provproto.ProviderHandshakeRequest>, cb: Callback<provproto.ProviderHandshakeResponse>) {
      const r = call.request;
      if (r.getEngineAddress()) engine.address = r.getEngineAddress();
      engine.refreshBeforeUpdate = r.getSupportsRefreshBeforeUpdate();
      const res = new provproto.ProviderHandshakeResponse();
      res.setAcceptSecrets(PROTOCOL.acceptSecrets);
      res.setAcceptResources(PROTOCOL.acceptResources);
      res.setAcceptOutputs(PROTOCOL.acceptOutputs);
      res.setSupportsAutonamingConfiguration(PROTOCOL.supportsAutonamingConfiguration);
      res.setAcceptsByteString(PROTOCOL.acceptsByteString);
      cb(null, res);
    },

    // PULUMI_DEBUG_PROVIDERS=compute:<port>: the engine did not start this process (a user did, under a
    // debugger say), and attaches to it. Each run attaches anew, and each run's engine sends Cancel as it
    // closes its plugins: the Cancel of an earlier run must not end this run's waits.
    attach(call: Call<plugproto.PluginAttach>, cb: Callback<emptyproto.Empty>) {
      engine.address = call.request.getAddress();
      resetCancel();
      console.error(`pulumi-resource-compute: attached to the engine at ${engine.address}`);
      cb(null, new emptyproto.Empty());
    },

    getPluginInfo(_call: Call<emptyproto.Empty>, cb: Callback<plugproto.PluginInfo>) {
      answer(cb, async () => {
        const info = new plugproto.PluginInfo();
        info.setVersion(version());
        return info;
      });
    },

    getSchema(_call: Call<provproto.GetSchemaRequest>, cb: Callback<provproto.GetSchemaResponse>) {
      answer(cb, async () => {
        const res = new provproto.GetSchemaResponse();
        res.setSchema(readFileSync(path.join(PACKAGE_ROOT, "schema.json"), "utf8"));
        return res;
      });
    },

    checkConfig(call: Call<provproto.CheckRequest>, cb: Callback<provproto.CheckResponse>) {
      answer(cb, async () => {
        const news = fromStruct(call.request.getNews());
        const res = new provproto.CheckResponse();
        // The token is a secret wherever it came from (an explicit provider's plain string too).
        const inputs: Props = { ...news };
        if (inputs.token !== undefined && inputs.token !== null && inputs.token !== UNKNOWN_VALUE) inputs.token = secret(inputs.token);
        res.setInputs(toStruct(inputs));
        res.setFailuresList(checkConfig(news).map(toCheckFailure));
        return res;
      });
    },

    diffConfig(call: Call<provproto.DiffRequest>, cb: Callback<provproto.DiffResponse>) {
      answer(cb, async () => {
        const olds = unwrap(fromStruct(call.request.getOldInputs() ?? call.request.getOlds())) as Props;
        const news = unwrap(fromStruct(call.request.getNews())) as Props;
        const changed = CONFIG_KEYS.filter((k) => (olds[k] ?? null) !== (news[k] ?? null));
        const res = new provproto.DiffResponse();
        // A new token or URL changes the provider in place: its resources stay as they are.
        res.setChanges(changed.length ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
        res.setDiffsList([...changed]);
        return res;
      });
    },

    configure(call: Call<provproto.ConfigureRequest>, cb: Callback<provproto.ConfigureResponse>) {
      answer(cb, async () => {
        const args = unwrap(fromStruct(call.request.getArgs())) as Props;
        const vars = call.request.getVariablesMap();
        const value = (k: string): string | undefined => {
          const v = args[k] ?? vars.get(`compute:config:${k}`) ?? vars.get(`compute:${k}`);
          return typeof v === "string" && v !== "" && v !== UNKNOWN_VALUE ? v : undefined;
        };
        configure({ get: (key: string) => value(key.replace(/^compute:/, "")) });
        // The protocol, as the Handshake answers it (an engine that handshook takes it from there).
        const res = new provproto.ConfigureResponse();
        res.setAcceptsecrets(PROTOCOL.acceptSecrets);
        res.setAcceptresources(PROTOCOL.acceptResources);
        res.setAcceptoutputs(PROTOCOL.acceptOutputs);
        // A preview plans what the up does, instead of taking an updated resource's inputs for its outputs.
        res.setSupportspreview(PROTOCOL.supportsPreview);
        res.setSupportsAutonamingConfiguration(PROTOCOL.supportsAutonamingConfiguration);
        return res;
      });
    },

    check(call: Call<provproto.CheckRequest>, cb: Callback<provproto.CheckResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const { spec, impl, name } = resourceOf(r.getUrn());
        const rawNews = fromStruct(r.getNews());
        const secrets = secretKeys(rawNews);
        const news = unwrap(rawNews) as Props;
        const olds = unwrap(fromStruct(r.getOlds())) as Props;
        const seed = suffixFrom(r.getRandomseed_asU8());
        const checked = await impl.check(olds, {
          ...news,
          [RESOURCE_NAME]: name,
          ...(seed ? { [NAME_SUFFIX]: seed } : {}),
          ...(r.hasAutonaming() ? { [AUTONAMING]: namingPolicy(r.getAutonaming()!) } : {}),
        });
        const res = new provproto.CheckResponse();
        res.setInputs(toStruct(markSecrets(spec, checked.inputs, secrets)));
        res.setFailuresList(checked.failures.map(toCheckFailure));
        return res;
      });
    },

    diff(call: Call<provproto.DiffRequest>, cb: Callback<provproto.DiffResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const { impl, spec } = resourceOf(r.getUrn());
        const olds = withDeclared(spec, unwrap(fromStruct(r.getOlds())) as Props, unwrap(fromStruct(r.getOldInputs())) as Props);
        const news = unwrap(fromStruct(r.getNews())) as Props;
        const d = await impl.diff(r.getId(), olds, news);
        const res = new provproto.DiffResponse();
        const changed = d.changed ?? [];
        res.setChanges(d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
        res.setReplacesList(d.replaces);
        res.setDeletebeforereplace(d.deleteBeforeReplace);
        res.setDiffsList(changed);
        res.setHasdetaileddiff(true);
        // Where inside each input the change is (alerts.cpu, interfaces[0].ipv4.vpc), and whether it replaces.
        const K = provproto.PropertyDiff.Kind;
        const kinds = { add: [K.ADD, K.ADD_REPLACE], delete: [K.DELETE, K.DELETE_REPLACE], update: [K.UPDATE, K.UPDATE_REPLACE] };
        const detailed = res.getDetaileddiffMap();
        for (const { path, change, replace } of detailedDiff(spec, olds, news, changed, d.replaces)) {
          const pd = new provproto.PropertyDiff();
          pd.setKind(kinds[change][replace ? 1 : 0]);
          pd.setInputdiff(true);
          detailed.set(path, pd);
        }
        return res;
      });
    },

    create(call: Call<provproto.CreateRequest>, cb: Callback<provproto.CreateResponse>) {
      const r = call.request;
      mutation(cb, r.getUrn(), fromStruct(r.getProperties()), r.getTimeout(), refresh, async (t, inputs, mark) => {
        const res = new provproto.CreateResponse();
        res.setRefreshBeforeUpdate(refresh(t.spec, inputs));
        // A preview: the planned outputs, with no request (provider/plan.ts).
        if (r.getPreview()) {
          res.setProperties(toStruct(mark(t.impl.plan(undefined, {}, inputs))));
          return res;
        }
        const created = await t.impl.create(inputs);
        res.setId(created.id);
        res.setProperties(toStruct(mark(created.outs)));
        return res;
      });
    },

    read(call: Call<provproto.ReadRequest>, cb: Callback<provproto.ReadResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const { impl, spec } = resourceOf(r.getUrn());
        const raw = fromStruct(r.getProperties());
        const rawInputs = fromStruct(r.getInputs());
        const secrets = [...new Set([...secretKeys(raw), ...secretKeys(rawInputs)])];
        const props = withDeclared(spec, unwrap(raw) as Props, unwrap(rawInputs) as Props);
        // No state: an import (or a get), whose id names the parents of a child resource.
        const fresh = Object.keys(props).length === 0 && Object.keys(rawInputs).length === 0;
        const { id, parents } = importId(spec, r.getId(), props);
        const state = { ...props, ...parents };
        const got = await withCustomTimeout(r.getTimeout() * 1000, () => impl.read(id, state));
        const res = new provproto.ReadResponse();
        if (!got.id) return res; // gone
        const outs = { ...got.props, ...(fresh ? { [IMPORTED]: true } : {}) };
        res.setId(got.id);
        res.setProperties(toStruct(stateOf(spec, outs, secrets)));
        const inputs = fresh ? importedInputs(spec, got.inputs ?? {}) : (got.inputs ?? {});
        res.setInputs(toStruct(markSecrets(spec, inputs, secrets)));
        res.setRefreshBeforeUpdate(refresh(spec, inputs));
        return res;
      });
    },

    update(call: Call<provproto.UpdateRequest>, cb: Callback<provproto.UpdateResponse>) {
      const r = call.request;
      mutation(cb, r.getUrn(), fromStruct(r.getNews()), r.getTimeout(), refresh, async (t, news, mark) => {
        const olds = withDeclared(t.spec, unwrap(fromStruct(r.getOlds())) as Props, unwrap(fromStruct(r.getOldInputs())) as Props);
        const res = new provproto.UpdateResponse();
        res.setRefreshBeforeUpdate(refresh(t.spec, news));
        if (r.getPreview()) {
          res.setProperties(toStruct(mark(t.impl.plan(r.getId(), olds, news))));
          return res;
        }
        const updated = await t.impl.update(r.getId(), olds, news);
        res.setProperties(toStruct(mark(updated.outs)));
        return res;
      });
    },

    delete(call: Call<provproto.DeleteRequest>, cb: Callback<emptyproto.Empty>) {
      answer(cb, async () => {
        const r = call.request;
        const { impl, spec } = resourceOf(r.getUrn());
        const props = withDeclared(spec, unwrap(fromStruct(r.getProperties())) as Props, unwrap(fromStruct(r.getOldInputs())) as Props);
        await withCustomTimeout(r.getTimeout() * 1000, () => impl.delete(r.getId(), props));
        return new emptyproto.Empty();
      });
    },

    invoke(call: Call<provproto.InvokeRequest>, cb: Callback<provproto.InvokeResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const res = new provproto.InvokeResponse();
        const m = /^compute:index:(\w+)$/.exec(r.getTok());
        if (!m) throw new Error(`pulumi-compute: unknown function "${r.getTok()}"`);
        const args = unwrap(fromStruct(r.getArgs())) as Props;
        try {
          res.setReturn(toStruct(await invoke(client(), m[1], args)));
        } catch (e) {
          if (!(e instanceof FunctionArgsError)) throw e;
          const f = new provproto.CheckFailure();
          f.setProperty("");
          f.setReason(e.message);
          res.setFailuresList([f]);
        }
        return res;
      });
    },

    // Ctrl-C: every wait of this process ends now; each operation under way answers with what it made.
    cancel(_call: Call<emptyproto.Empty>, cb: Callback<emptyproto.Empty>) {
      cancel("the engine's Cancel: Ctrl-C");
      cb(null, new emptyproto.Empty());
    },

    parameterize: unimplemented("Parameterize"),
    construct: unimplemented("Construct"),
    call: unimplemented("Call"),
    getMapping(_call: Call<provproto.GetMappingRequest>, cb: Callback<provproto.GetMappingResponse>) {
      cb(null, new provproto.GetMappingResponse());
    },
    getMappings(_call: Call<provproto.GetMappingsRequest>, cb: Callback<provproto.GetMappingsResponse>) {
      cb(null, new provproto.GetMappingsResponse());
    },
    list(call: grpc.ServerWritableStream<unknown, unknown>) {
      call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented by pulumi-resource-compute" });
    },
  };
}

function toCheckFailure(f: { property: string; reason: string }): provproto.CheckFailure {
  const out = new provproto.CheckFailure();
  out.setProperty(f.property);
  out.setReason(f.reason);
  return out;
}

/**
 * Starts the server on a free local port and returns it (the plugin prints it for the engine), with what the
 * engine tells it (`engine`: its address, from `engineAddress` when the engine started the plugin, else from
 * the Handshake or the Attach).
 */
export async function serve(opts: { engineAddress?: string } = {}): Promise<{ port: number; server: grpc.Server; engine: EngineLink }> {
  const engine: EngineLink = { address: opts.engineAddress, refreshBeforeUpdate: true };
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  server.addService(provrpc.ResourceProviderService, service(engine));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { port, server, engine };
}
