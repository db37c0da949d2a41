/**
 * The plugin's wire format: property trees as protobuf Structs, secrets as Pulumi wraps them, and the error
 * that keeps a resource (ErrorResourceInitFailed) as the engine reads it.
 */
import { DECLARED } from "../model/marks";
import * as grpc from "@grpc/grpc-js";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { KeptResourceError } from "../lifecycle/errors";
import { declare, withoutUndefinedProps } from "../model/mapping";
import { isObject, type Props, type ResourceSpec } from "../model/table";

/** The key/value Pulumi wraps a secret in, on the wire. */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const isSecret = (v: unknown): v is { value: unknown } => isObject(v) && v[SIG] === SECRET_SIG;
export const secret = (value: unknown): unknown => (isSecret(value) ? value : { [SIG]: SECRET_SIG, value });

/** The plain value of a property tree: secrets unwrapped at any depth (the engine keeps track of them). */
export function unwrap(v: unknown): unknown {
  if (isSecret(v)) return unwrap(v.value);
  if (Array.isArray(v)) return v.map(unwrap);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
  return v;
}

/** The engine's properties (a Struct's), secrets unwrapped. */
export const unwrapProps = (v: Props): Props => {
  const plain = unwrap(v);
  return isObject(plain) ? plain : {};
};

/** A property tree without null values (an object left with nothing is dropped too). */
export function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (v && typeof v === "object") {
    const entries = Object.entries(v)
      .map(([k, x]) => [k, withoutNulls(x)] as const)
      .filter(([, x]) => x !== null && x !== undefined && !(typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 0));
    return Object.fromEntries(entries);
  }
  return v;
}

/**
 * An import's inputs: what the API shows, without its nulls (a null is a value not set, never an input),
 * in the form the table gives it once checked (a profile's devices with all eight slots, as a refresh reads
 * them back, so the next refresh changes nothing), and without what the table would refuse as an input or
 * leaves to the program (`notImported`).
 */
export function importedInputs(spec: ResourceSpec, read: Props): Props {
  const inputs: Props = {};
  for (const [k, v] of Object.entries(read)) {
    if (v === null || v === undefined) continue;
    const f = spec.fields.find((x) => x.name === k);
    if (f?.notImported) continue;
    if (!f?.schema) {
      inputs[k] = withoutNulls(v);
      continue;
    }
    const checked = f.schema.safeParse(withoutNulls(v));
    if (checked.success) inputs[k] = checked.data;
  }
  return inputs;
}

/** The top-level keys holding a secret (the engine's secret inputs), to mark the same outputs. */
export const secretKeys = (props: Props): string[] => Object.keys(props).filter((k) => containsSecret(props[k]));
export function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (v && typeof v === "object") return Object.values(v).some(containsSecret);
  return false;
}

/** The secret properties of a type: its table's, and those whose input was secret. */
export function markSecrets(spec: ResourceSpec, outs: Props, secretInputs: string[]): Props {
  const out: Props = { ...outs };
  for (const f of spec.fields) if (f.secret && out[f.name] !== undefined && out[f.name] !== null) out[f.name] = secret(out[f.name]);
  for (const k of secretInputs) if (out[k] !== undefined && out[k] !== null) out[k] = secret(out[k]);
  return out;
}

/**
 * Outputs as the plugin writes them to the state: without `__declared` (the inputs the program declared),
 * which the engine's old inputs tell again on every request that needs it (`withDeclared`): a quarter of
 * the state per resource is the plugin's target, and these names were 30 to 80 bytes of each.
 */
export function stateOf(spec: ResourceSpec, outs: Props, secretInputs: string[]): Props {
  const { [DECLARED]: _declared, ...rest } = outs;
  return markSecrets(spec, rest, secretInputs);
}

/**
 * Old outputs as the resource code reads them: with `__declared` from the old inputs when the state has
 * none (the plugin's own state; a state of the dynamic classes, or of an earlier plugin, carries it).
 */
export function withDeclared(spec: ResourceSpec, olds: Props, oldInputs: Props): Props {
  if (olds[DECLARED] !== undefined || Object.keys(oldInputs).length === 0) return olds;
  return declare(spec, olds, oldInputs);
}

export const toStruct = (v: Props) => structproto.Struct.fromJavaScript(withoutUndefinedProps(v));
export const fromStruct = (s: structproto.Struct | undefined): Props => (s ? s.toJavaScript() : {});

/**
 * A gRPC error; a failure that keeps the resource (`id` and `properties`) goes as ErrorResourceInitFailed, with
 * the resource's `refresh_before_update` as a success would give it.
 */
export function failure(e: unknown, spec?: ResourceSpec, secretInputs: string[] = [], refreshBeforeUpdate = false): Partial<grpc.StatusObject> {
  const message = e instanceof Error ? e.message : String(e);
  const metadata = new grpc.Metadata();
  // Only a failure that says what exists (a create that made the resource, an update whose result is
  // known: a KeptResourceError) may set the resource's outputs; any other keeps the state as it was.
  if (e instanceof KeptResourceError && spec) {
    const { __provider: _p, ...props } = e.properties;
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(e.id);
    detail.setProperties(toStruct(stateOf(spec, props, secretInputs)));
    detail.setReasonsList(e.reasons);
    detail.setRefreshBeforeUpdate(refreshBeforeUpdate);
    const details = new anyproto.Any();
    details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(details);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}
