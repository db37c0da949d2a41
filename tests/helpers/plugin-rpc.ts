/**
 * The provider plugin's gRPC server, called as the engine calls it (in the test's process): a client with
 * one method per RPC the tests use, in the engine's terms (urn, olds, news, preview...).
 */
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { serve } from "../../provider/plugin/server";

type Props = Record<string, any>;
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
export const secret = (value: unknown) => ({ [SIG]: SECRET, value });
export const isSecretValue = (v: unknown): v is { value: unknown } => Boolean(v && typeof v === "object" && (v as Props)[SIG] === SECRET);
/** The engine's unknown value on the wire. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const urn = (type: string, name: string) => `urn:pulumi:dev::proj::compute:index:${type}::${name}`;
/** A property tree as a protobuf Struct; a key given as undefined is left out (as the engine leaves out a removed input). */
const struct = (v: Props) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)) as Props);

/** The ErrorResourceInitFailed detail of a failure (what the engine keeps), if any. */
export function initFailed(err: grpc.ServiceError): { id: string; props: Props } | undefined {
  const bin = err.metadata.get("grpc-status-details-bin")[0];
  if (!bin) return undefined;
  const status = statusproto.Status.deserializeBinary(bin as Buffer);
  const detail = status.getDetailsList()[0].unpack(provproto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed")!;
  return { id: detail.getId(), props: detail.getProperties()!.toJavaScript() };
}

export interface PluginClient {
  server: grpc.Server;
  client: provrpc.ResourceProviderClient;
  rpc<Req, Res>(method: string, req: Req): Promise<Res>;
  configure(args: Props): Promise<provproto.ConfigureResponse>;
  check(
    type: string,
    name: string,
    news: Props,
    olds?: Props,
    seed?: string,
    autonaming?: { proposedName?: string; mode: number },
  ): Promise<{ inputs: Props; failures: string[][] }>;
  create(type: string, name: string, props: Props, opts?: { timeoutSeconds?: number; preview?: boolean }): Promise<{ id: string; outs: Props }>;
  read(type: string, id: string, props?: Props, inputs?: Props): Promise<{ id: string; outs: Props; inputs: Props }>;
  diff(
    type: string,
    id: string,
    olds: Props,
    news: Props,
    oldInputs?: Props,
  ): Promise<{ changes: number; replaces: string[]; diffs: string[]; dbr: boolean; kinds: Record<string, number> }>;
  update(type: string, id: string, olds: Props, news: Props, opts?: { preview?: boolean; oldInputs?: Props }): Promise<Props>;
  del(type: string, id: string, props: Props): Promise<void>;
  invoke(tok: string, args?: Props): Promise<{ ret: Props; failures: string[] }>;
  close(): void;
}

/** Starts the plugin's server in this process and a client of it. */
export async function pluginClient(): Promise<PluginClient> {
  const s = await serve();
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  const rpc = <Req, Res>(method: string, req: Req): Promise<Res> =>
    new Promise((resolve, reject) => {
      (client as any)[method](req, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
    });
  return {
    server: s.server,
    client,
    rpc,
    configure(args) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(struct(args));
      return rpc("configure", req);
    },
    async check(type, name, news, olds = {}, seed = "seed-1", autonaming) {
      const req = new provproto.CheckRequest();
      req.setUrn(urn(type, name));
      req.setNews(struct(news));
      req.setOlds(struct(olds));
      req.setRandomseed(Buffer.from(seed));
      if (autonaming) {
        const a = new provproto.CheckRequest.AutonamingOptions();
        if (autonaming.proposedName !== undefined) a.setProposedName(autonaming.proposedName);
        a.setMode(autonaming.mode);
        req.setAutonaming(a);
      }
      const res = await rpc<provproto.CheckRequest, provproto.CheckResponse>("check", req);
      return { inputs: res.getInputs()!.toJavaScript(), failures: res.getFailuresList().map((f) => [f.getProperty(), f.getReason()]) };
    },
    async create(type, name, props, opts = {}) {
      const req = new provproto.CreateRequest();
      req.setUrn(urn(type, name));
      req.setProperties(struct(props));
      req.setTimeout(opts.timeoutSeconds ?? 0);
      req.setPreview(opts.preview ?? false);
      const res = await rpc<provproto.CreateRequest, provproto.CreateResponse>("create", req);
      return { id: res.getId(), outs: res.getProperties()!.toJavaScript() };
    },
    async read(type, id, props = {}, inputs = {}) {
      const req = new provproto.ReadRequest();
      req.setUrn(urn(type, "r"));
      req.setId(id);
      req.setProperties(struct(props));
      req.setInputs(struct(inputs));
      const res = await rpc<provproto.ReadRequest, provproto.ReadResponse>("read", req);
      return { id: res.getId(), outs: res.getProperties()?.toJavaScript() as Props, inputs: res.getInputs()?.toJavaScript() as Props };
    },
    async diff(type, id, olds, news, oldInputs) {
      const req = new provproto.DiffRequest();
      req.setUrn(urn(type, "r"));
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      if (oldInputs) req.setOldInputs(struct(oldInputs));
      const res = await rpc<provproto.DiffRequest, provproto.DiffResponse>("diff", req);
      const kinds = Object.fromEntries(
        res
          .getDetaileddiffMap()
          .toArray()
          .map(([k, v]) => [k, (v as unknown as unknown[])[0]]),
      ) as Record<string, number>;
      return { changes: res.getChanges(), replaces: res.getReplacesList(), diffs: res.getDiffsList(), dbr: res.getDeletebeforereplace(), kinds };
    },
    async update(type, id, olds, news, opts = {}) {
      const req = new provproto.UpdateRequest();
      req.setUrn(urn(type, "r"));
      req.setId(id);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      if (opts.oldInputs) req.setOldInputs(struct(opts.oldInputs));
      req.setPreview(opts.preview ?? false);
      const res = await rpc<provproto.UpdateRequest, provproto.UpdateResponse>("update", req);
      return res.getProperties()!.toJavaScript();
    },
    async del(type, id, props) {
      const req = new provproto.DeleteRequest();
      req.setUrn(urn(type, "r"));
      req.setId(id);
      req.setProperties(struct(props));
      await rpc("delete", req);
    },
    async invoke(tok, args = {}) {
      const req = new provproto.InvokeRequest();
      req.setTok(tok);
      req.setArgs(struct(args));
      const res = await rpc<provproto.InvokeRequest, provproto.InvokeResponse>("invoke", req);
      return { ret: res.getReturn()?.toJavaScript() as Props, failures: res.getFailuresList().map((f) => f.getReason()) };
    },
    close() {
      client.close();
      s.server.forceShutdown();
    },
  };
}
