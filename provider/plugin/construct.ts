/**
 * The plugin's Construct: a component (provider/components/) made by speaking to the engine's ResourceMonitor
 * directly over gRPC (the request's `monitorEndpoint`). Its inputs are checked first (refused as a resource's
 * check refuses, naming the component's input); then the component is registered (the request's type, name,
 * parent, aliases, protect, providers and dependencies), each child under it (`custom`, its inputs with their
 * dependencies: the component inputs' it takes and the children whose outputs it takes, so that the engine
 * orders creates and deletes; the program's `compute` provider, else the default provider the generated SDKs
 * name: the plugin's version and download URL), and the component's outputs with their dependencies.
 *
 * Raw gRPC rather than @pulumi/pulumi's runtime: its provider Server class is not exported, and its runtime is
 * process-wide state that a plugin serving several Constructs at once would share.
 */
import * as grpc from "@grpc/grpc-js";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as errorproto from "@pulumi/pulumi/proto/errors_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { components, type ComponentDefinition } from "../components";
import { checkComponentInputs, Linked, plainValues, type Child, type ComponentContext } from "../components/component";
import { typeDisk } from "../resources/instance-types";
import { client } from "../transport/settings";
import { UNKNOWN, type Props } from "../model/table";
import { pluginDownloadURL, version } from "./engine";
import { answer, type Call, type Callback } from "./rpc";
import { failure, fromStruct, toStruct } from "./wire";

/** A component's inputs refused at preview: each `{ property, reason }` as a check failure says it. */
export class ComponentInputsRefused extends Error {
  constructor(
    readonly type: string,
    readonly failures: ReadonlyArray<{ property: string; reason: string; unknown?: boolean }>,
  ) {
    super(failures.map((f) => f.reason).join("; "));
  }
}

/** The refusal as the engine reads a provider's refused inputs (pulumirpc.InputPropertiesError, as @pulumi/pulumi's own Construct sends it). */
function refusedStatus(e: ComponentInputsRefused): Partial<grpc.StatusObject> {
  const detail = new errorproto.InputPropertiesError();
  for (const f of e.failures) {
    const p = new errorproto.InputPropertiesError.PropertyError();
    p.setPropertyPath(f.property);
    p.setReason(f.reason);
    detail.addErrors(p);
  }
  const any = new anyproto.Any();
  any.pack(detail.serializeBinary(), "pulumirpc.InputPropertiesError");
  const status = new statusproto.Status();
  status.setCode(grpc.status.INVALID_ARGUMENT);
  status.setMessage(e.message);
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.INVALID_ARGUMENT, details: e.message, metadata };
}

/** A property tree with its Linked values resolved: the values, and the URNs each top-level key depends on. */
export function resolveLinked(props: Record<string, unknown>): { values: Props; deps: Record<string, string[]> } {
  const values: Props = {};
  const deps: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(props)) {
    const found = new Set<string>();
    const walk = (x: unknown): unknown => {
      if (x instanceof Linked) {
        x.deps.forEach((d) => found.add(d));
        return x.value;
      }
      if (Array.isArray(x)) return x.map(walk);
      if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([key, y]) => [key, walk(y)]));
      return x;
    };
    const value = walk(v);
    if (value === undefined) continue;
    values[k] = value;
    deps[k] = [...found];
  }
  return { values, deps };
}

/** The engine's ResourceMonitor, its calls as promises. */
class Monitor {
  private readonly client: resrpc.ResourceMonitorClient;
  constructor(endpoint: string) {
    this.client = new resrpc.ResourceMonitorClient(endpoint, grpc.credentials.createInsecure(), { "grpc.max_receive_message_length": 1024 * 1024 * 400 });
  }
  register(req: resproto.RegisterResourceRequest): Promise<resproto.RegisterResourceResponse> {
    return new Promise((resolve, reject) => this.client.registerResource(req, (err, res) => (err ? reject(err) : resolve(res))));
  }
  outputs(urn: string, outputs: Props): Promise<void> {
    const req = new resproto.RegisterResourceOutputsRequest();
    req.setUrn(urn);
    req.setOutputs(toStruct(outputs));
    return new Promise((resolve, reject) => this.client.registerResourceOutputs(req, (err) => (err ? reject(err) : resolve())));
  }
  close(): void {
    this.client.close();
  }
}

const dependencies = (urns: string[]) => new resproto.RegisterResourceRequest.PropertyDependencies().setUrnsList(urns);

/**
 * A child's registration: under the component, its inputs and their dependencies (and `after`, the children it
 * depends on beyond its inputs'), the compute provider.
 */
export function childRequest(
  type: string,
  name: string,
  props: Record<string, unknown>,
  parent: { urn: string; provider?: string; protect: boolean },
  after: readonly string[] = [],
): resproto.RegisterResourceRequest {
  const { values, deps } = resolveLinked(props);
  const req = new resproto.RegisterResourceRequest();
  req.setType(`compute:index:${type}`);
  req.setName(name);
  req.setParent(parent.urn);
  req.setCustom(true);
  req.setProtect(parent.protect);
  // Alias specs (none of its own): the engine gives a child the aliases its parent's aliases imply.
  req.setAliasspecs(true);
  req.setObject(toStruct(values));
  req.setDependenciesList([...new Set([...Object.values(deps).flat(), ...after])]);
  for (const [k, urns] of Object.entries(deps)) req.getPropertydependenciesMap().set(k, dependencies(urns));
  if (parent.provider) req.setProvider(parent.provider);
  else {
    req.setVersion(version());
    req.setPlugindownloadurl(pluginDownloadURL());
  }
  req.setAcceptsecrets(true);
  req.setAcceptresources(false);
  req.setSupportspartialvalues(true);
  return req;
}

/** The component's own registration, from the Construct request. */
function componentRequest(r: provproto.ConstructRequest): resproto.RegisterResourceRequest {
  const req = new resproto.RegisterResourceRequest();
  req.setType(r.getType());
  req.setName(r.getName());
  req.setParent(r.getParent());
  req.setCustom(false);
  req.setProtect(r.getProtect() ?? false);
  req.setObject(new structproto.Struct());
  req.setDependenciesList(r.getDependenciesList());
  req.setAliasesList(r.getAliasesList());
  req.setAliasspecs(true);
  for (const [pkg, ref] of r.getProvidersMap().entries()) req.getProvidersMap().set(pkg, ref);
  req.setAcceptsecrets(true);
  req.setSupportspartialvalues(true);
  return req;
}

/** The component a Construct request names. */
function componentOf(token: string): ComponentDefinition {
  const m = /^compute:index:(\w+)$/.exec(token);
  const def = m ? components.find((c) => c.type === m[1]) : undefined;
  if (!def) throw new Error(`pulumi-compute: unknown component "${token}" (this plugin has ${components.map((c) => `compute:index:${c.type}`).join(", ")})`);
  return def;
}

/** What the engine asked for, made: the component, its children, its outputs. */
export async function construct(
  r: provproto.ConstructRequest,
  typeDiskOf: (type: string) => Promise<number | undefined> = (t) => typeDisk(client(), t),
): Promise<provproto.ConstructResponse> {
  const def = componentOf(r.getType());
  const raw = fromStruct(r.getInputs());
  const refused = checkComponentInputs(def, raw);
  if (!refused.length && def.check) refused.push(...(await def.check(plainValues(raw), { typeDisk: typeDiskOf })));
  if (refused.length) throw new ComponentInputsRefused(def.type, refused);
  const monitor = new Monitor(r.getMonitorendpoint());
  try {
    const component = await monitor.register(componentRequest(r));
    const parent = { urn: component.getUrn(), provider: r.getProvidersMap().get("compute"), protect: r.getProtect() ?? false };
    const inputDeps = r.getInputdependenciesMap();
    const inputs = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, new Linked(v, inputDeps.get(k)?.getUrnsList() ?? [])]));
    const dryRun = r.getDryrun();
    const ctx: ComponentContext = {
      name: r.getName(),
      inputs,
      dryRun,
      async child(type, name, props, after = []): Promise<Child> {
        const res = await monitor.register(
          childRequest(
            type,
            name,
            props,
            parent,
            after.map((c) => c.urn),
          ),
        );
        const urn = res.getUrn();
        const outs = fromStruct(res.getObject());
        // At preview a resource to be made has no id yet, and what its plan does not give is not known.
        const id = res.getId() === "" && dryRun ? UNKNOWN : res.getId();
        return { urn, id: new Linked(id, [urn]), out: (k) => new Linked(outs[k] === undefined && dryRun ? UNKNOWN : outs[k], [urn]) };
      },
    };
    const { values, deps } = resolveLinked(await def.construct(ctx));
    await monitor.outputs(parent.urn, values);
    const res = new provproto.ConstructResponse();
    res.setUrn(parent.urn);
    res.setState(toStruct(values));
    for (const [k, urns] of Object.entries(deps))
      res.getStatedependenciesMap().set(k, new provproto.ConstructResponse.PropertyDependencies().setUrnsList(urns));
    return res;
  } finally {
    monitor.close();
  }
}

/** The Construct method of the ResourceProvider service. */
export function constructMethod(call: Call<provproto.ConstructRequest>, cb: Callback<provproto.ConstructResponse>): void {
  answer(
    cb,
    () => construct(call.request),
    // Refused inputs as the engine reads them, but for an input not known at preview: the engine would print its
    // value, and the CLI (3.274.1) panics on an unknown one (`unsupported property value`). A plain error then.
    (e) =>
      e instanceof ComponentInputsRefused && !e.failures.some((f) => f.unknown)
        ? refusedStatus(e)
        : failure(e instanceof ComponentInputsRefused ? new Error(`${e.type}: ${e.message}`) : e),
  );
}
