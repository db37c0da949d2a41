#!/usr/bin/env node
/**
 * `pulumi-resource-noop`: the benchmark's do-nothing plugin. The same protocol, the same gRPC and protobuf
 * modules and the same packaging as pulumi-resource-compute (one esbuild bundle, installed with `pulumi plugin
 * install`), and no API behind it: a `noop:index:Key` with a `label` and an `sshKey` (a change of the key
 * replaces it, as an SshKey's does) is made, read, changed and deleted in memory. It speaks what
 * pulumi-resource-compute speaks, so that the engine calls it as often: the same Handshake and Configure
 * answers (handshakeResponse, configureResponse), and the preview's Create and Update answered with planned outputs (what the API assigns
 * unknown), as the plugin's are. What the engine takes to drive it is the least any plugin like ours can
 * take: bench/results.md compares pulumi-resource-compute with it.
 */
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { configureResponse, handshakeResponse } from "../provider/plugin/engine";
import { UNKNOWN } from "../provider/model/unknown";
import { timedService, timedStart } from "../provider/plugin/rpc-times";

export const NOOP_VERSION = "0.1.0";
export const NOOP_TYPE = "noop:index:Key";

type Props = Record<string, unknown>;
type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Callback<Res> = (err: grpc.ServiceError | null, value?: Res | null) => void;

const toStruct = (v: Props) => structproto.Struct.fromJavaScript(v as Record<string, structproto.JavaScriptValue>);
const fromStruct = (s: structproto.Struct | undefined): Props => (s ? s.toJavaScript() : {});
const answer = <Res>(cb: Callback<Res>, fn: () => Res) => {
  try {
    cb(null, fn());
  } catch (e) {
    cb({ code: grpc.status.UNKNOWN, details: String(e) } as grpc.ServiceError);
  }
};
const SCHEMA = JSON.stringify({
  name: "noop",
  version: NOOP_VERSION,
  resources: {
    [NOOP_TYPE]: {
      properties: { label: { type: "string" }, sshKey: { type: "string" }, created: { type: "string" } },
      inputProperties: { label: { type: "string" }, sshKey: { type: "string" } },
    },
  },
});

export function service(): grpc.UntypedServiceImplementation {
  const echo = (req: { getNews(): structproto.Struct | undefined }) => {
    const res = new provproto.CheckResponse();
    res.setInputs(req.getNews());
    return res;
  };
  const none = () => {
    const res = new provproto.DiffResponse();
    res.setChanges(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    return res;
  };
  return {
    getPluginInfo: (_c: Call<emptyproto.Empty>, cb: Callback<plugproto.PluginInfo>) =>
      answer(cb, () => {
        const info = new plugproto.PluginInfo();
        info.setVersion(NOOP_VERSION);
        return info;
      }),
    getSchema: (_c: Call<provproto.GetSchemaRequest>, cb: Callback<provproto.GetSchemaResponse>) =>
      answer(cb, () => {
        const res = new provproto.GetSchemaResponse();
        res.setSchema(SCHEMA);
        return res;
      }),
    checkConfig: (c: Call<provproto.CheckRequest>, cb: Callback<provproto.CheckResponse>) => answer(cb, () => echo(c.request)),
    diffConfig: (_c: Call<provproto.DiffRequest>, cb: Callback<provproto.DiffResponse>) => answer(cb, none),
    handshake: (_c: Call<provproto.ProviderHandshakeRequest>, cb: Callback<provproto.ProviderHandshakeResponse>) => answer(cb, handshakeResponse),
    configure: (_c: Call<provproto.ConfigureRequest>, cb: Callback<provproto.ConfigureResponse>) => answer(cb, configureResponse),
    check: (c: Call<provproto.CheckRequest>, cb: Callback<provproto.CheckResponse>) => answer(cb, () => echo(c.request)),
    diff: (c: Call<provproto.DiffRequest>, cb: Callback<provproto.DiffResponse>) =>
      answer(cb, () => {
        const olds = fromStruct(c.request.getOlds());
        const news = fromStruct(c.request.getNews());
        const changed = ["label", "sshKey"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        if (!changed.length) return none();
        const res = new provproto.DiffResponse();
        res.setChanges(provproto.DiffResponse.DiffChanges.DIFF_SOME);
        res.setDiffsList(changed);
        res.setReplacesList(changed.filter((k) => k === "sshKey"));
        return res;
      }),
    create: (c: Call<provproto.CreateRequest>, cb: Callback<provproto.CreateResponse>) =>
      answer(cb, () => {
        const res = new provproto.CreateResponse();
        // A preview plans the outputs: the inputs, and what the create assigns unknown (no id yet).
        const preview = c.request.getPreview();
        if (!preview) res.setId(randomUUID());
        res.setProperties(toStruct({ ...fromStruct(c.request.getProperties()), created: preview ? UNKNOWN : new Date().toISOString().slice(0, 19) }));
        return res;
      }),
    read: (c: Call<provproto.ReadRequest>, cb: Callback<provproto.ReadResponse>) =>
      answer(cb, () => {
        const res = new provproto.ReadResponse();
        res.setId(c.request.getId());
        res.setProperties(c.request.getProperties());
        res.setInputs(c.request.getInputs());
        return res;
      }),
    update: (c: Call<provproto.UpdateRequest>, cb: Callback<provproto.UpdateResponse>) =>
      answer(cb, () => {
        const res = new provproto.UpdateResponse();
        res.setProperties(toStruct({ ...fromStruct(c.request.getNews()), created: fromStruct(c.request.getOlds()).created ?? null }));
        return res;
      }),
    delete: (_c: Call<provproto.DeleteRequest>, cb: Callback<emptyproto.Empty>) => answer(cb, () => new emptyproto.Empty()),
    cancel: (_c: Call<emptyproto.Empty>, cb: Callback<emptyproto.Empty>) => answer(cb, () => new emptyproto.Empty()),
  };
}

if (require.main === module) {
  const server = new grpc.Server();
  server.addService(provrpc.ResourceProviderService, timedService(service()));
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      console.error(`pulumi-resource-noop: cannot start: ${err.message}`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
    timedStart();
  });
}
