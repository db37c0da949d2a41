/**
 * The plugin's methods that are not a resource's: the Handshake and the Attach (what the engine tells this
 * process), the plugin's info and schema, the provider's configuration (CheckConfig, DiffConfig, Configure),
 * the functions (Invoke), Cancel, the components (Construct, construct.ts), and what the plugin does not implement.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { beginRun, cancel } from "../lifecycle/cancel";
import { FunctionArgsError, invoke } from "../functions";
import { client, configure, settingsProblems } from "../transport/settings";
import { UNKNOWN, type Props } from "../model/table";
import { constructMethod } from "./construct";
import { configureResponse, handshakeResponse, PACKAGE_ROOT, version, type EngineLink } from "./engine";
import { answer, toCheckFailure, unimplemented, type Call, type Callback } from "./rpc";
import { fromStruct, secret, toStruct, unwrap, unwrapProps } from "./wire";

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

/** The provider's methods, telling `engine` what the engine tells this process (its address, what it reads). */
export function providerMethods(engine: EngineLink) {
  return {
    // The engine's first call (before Configure, which still answers the same for an engine that does not
    // handshake): what the plugin supports, and what the engine does.
    handshake(call: Call<provproto.ProviderHandshakeRequest>, cb: Callback<provproto.ProviderHandshakeResponse>) {
      const r = call.request;
      if (r.getEngineAddress()) engine.address = r.getEngineAddress();
      engine.refreshBeforeUpdate = r.getSupportsRefreshBeforeUpdate();
      cb(null, handshakeResponse());
    },

    // PULUMI_DEBUG_PROVIDERS=compute:<port>: the engine did not start this process (a user did, under a
    // debugger say), and attaches to it. Each run attaches anew (more than once, without configuring again),
    // and each run's engine sends Cancel as it closes its plugins: the Cancel of an earlier run must not end
    // this run's waits (the rest of the session is kept: the settings are not sent again).
    attach(call: Call<plugproto.PluginAttach>, cb: Callback<emptyproto.Empty>) {
      engine.address = call.request.getAddress();
      beginRun();
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
        if (inputs.token !== undefined && inputs.token !== null && inputs.token !== UNKNOWN) inputs.token = secret(inputs.token);
        res.setInputs(toStruct(inputs));
        res.setFailuresList(checkConfig(news).map(toCheckFailure));
        return res;
      });
    },

    diffConfig(call: Call<provproto.DiffRequest>, cb: Callback<provproto.DiffResponse>) {
      answer(cb, async () => {
        const olds = unwrapProps(fromStruct(call.request.getOldInputs() ?? call.request.getOlds()));
        const news = unwrapProps(fromStruct(call.request.getNews()));
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
        const args = unwrapProps(fromStruct(call.request.getArgs()));
        const vars = call.request.getVariablesMap();
        const value = (k: string): string | undefined => {
          const v = args[k] ?? vars.get(`compute:config:${k}`) ?? vars.get(`compute:${k}`);
          return typeof v === "string" && v !== "" && v !== UNKNOWN ? v : undefined;
        };
        configure({ get: (key: string) => value(key.replace(/^compute:/, "")) });
        return configureResponse();
      });
    },

    invoke(call: Call<provproto.InvokeRequest>, cb: Callback<provproto.InvokeResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const res = new provproto.InvokeResponse();
        const m = /^compute:index:(\w+)$/.exec(r.getTok());
        if (!m) throw new Error(`pulumi-compute: unknown function "${r.getTok()}"`);
        const args = unwrapProps(fromStruct(r.getArgs()));
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
    construct: constructMethod,
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
