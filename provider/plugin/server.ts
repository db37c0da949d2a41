/**
 * The resource provider plugin `pulumi-resource-compute`: Pulumi's provider protocol (gRPC) over the same
 * resource code as the dynamic providers (provider/index.ts). It adds what dynamic providers cannot have:
 * provider configuration per provider resource (explicit providers), import, `customTimeouts`, secrets
 * marked by the provider, invokes, and a schema for every Pulumi language.
 *
 * Its modules: `engine.ts` (the protocol, the engine's link, the package's version), `rpc.ts` (what every
 * method shares), `provider-methods.ts` (handshake, attach, info, schema, configuration, invokes, Cancel),
 * `resource-methods.ts` (a resource's check, diff, create, read, update, delete), `wire.ts` (the wire format).
 */
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type { EngineLink } from "./engine";
import { providerMethods } from "./provider-methods";
import { resourceMethods } from "./resource-methods";
import { timedService } from "./rpc-times";

export { engineAddressOf, PROTOCOL, version, type EngineLink } from "./engine";
export { refreshesBeforeUpdate } from "./resource-methods";
export { importedInputs, isSecret, secret, unwrap, withoutNulls } from "./wire";

/** The ResourceProvider service: the provider's methods and the resources', for the engine `engine`. */
export function service(engine: EngineLink = { refreshBeforeUpdate: true }): grpc.UntypedServiceImplementation {
  return { ...providerMethods(engine), ...resourceMethods(engine) };
}

/**
 * Starts the server on a free local port and returns it (the plugin prints it for the engine), with what the
 * engine tells it (`engine`: its address, from `engineAddress` when the engine started the plugin, else from
 * the Handshake or the Attach).
 */
export async function serve(opts: { engineAddress?: string } = {}): Promise<{ port: number; server: grpc.Server; engine: EngineLink }> {
  const engine: EngineLink = { address: opts.engineAddress, refreshBeforeUpdate: true };
  const server = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  // Timed per RPC when the bench asks (PULUMI_COMPUTE_RPC_TIMES), else as it is.
  server.addService(provrpc.ResourceProviderService, timedService(service(engine)));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { port, server, engine };
}
