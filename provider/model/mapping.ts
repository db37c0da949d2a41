import { DECLARED, IMPORTED } from "./marks";
import { valueFor } from "./check";
import { asDeclared } from "./shape";
import { apiKey, apiName, camel, convertKeys, type ApiRecord, type Field, type FieldName, type Props, type ResourceSpec } from "./table";

/** API mapping from the table: request bodies from inputs, outputs from API records, and what `read` reports. */

/** The API body for the given inputs (only the fields set, under their API names; never control or path fields). */
export function toApiBody<F extends readonly Field[]>(spec: ResourceSpec<ApiRecord, F>, inputs: Props, only?: readonly FieldName<F>[]): Props {
  const body: Props = {};
  for (const f of spec.fields) {
    if (f.kind !== "input" || f.control || f.inPath || (only && !only.includes(f.name))) continue;
    const v = inputs[f.name];
    if (v !== undefined) body[apiName(f)] = f.raw ? v : convertKeys(v, apiKey(f));
  }
  return body;
}

/** The body of an update of the `changed` fields: their new values, and `clearTo` for those the program removed. */
export function updateBody(spec: ResourceSpec, news: Props, changed: string[]): Props {
  const cleared: Props = { ...news };
  for (const name of changed) cleared[name] = valueFor(spec, news, name);
  return toApiBody(spec, cleared, changed);
}

/** Outputs from an API record: every field the API returns, plus write-only inputs kept from `inputs`. */
export function fromApi(spec: ResourceSpec, api: object, inputs: Props): Props {
  const rec: Props = { ...api };
  const out: Props = {};
  for (const f of spec.fields) {
    const key = apiName(f);
    if (f.writeOnly || f.control || !(key in rec)) {
      if (inputs[f.name] !== undefined) out[f.name] = inputs[f.name];
      continue;
    }
    // undefined is not a value Pulumi can carry (protobuf Struct rejects it): leave the key out. An output-only
    // field is its declared shape (provider/model/shape.ts); an input's value is compared with the program's as the API gives it.
    if (rec[key] !== undefined)
      out[f.name] = f.raw ? rec[key] : f.kind === "output" ? asDeclared(f, convertKeys(rec[key], camel)) : convertKeys(rec[key], camel);
  }
  return out;
}

/** The outputs with `__declared`: the names of the inputs the user declared (see check.ts). */
export function declare(spec: ResourceSpec, outs: Props, inputs: Props): Props {
  return { ...outs, [DECLARED]: spec.fields.filter((f) => f.kind === "input" && inputs[f.name] !== undefined).map((f) => f.name) };
}

/** What `read` reports as the resource's current inputs: the declared inputs' current values. */
export function inputsOf(spec: ResourceSpec, outs: Props): Props {
  const d = outs[DECLARED];
  const declared = Array.isArray(d) ? d.map(String) : undefined;
  const ins: Props = {};
  for (const f of spec.fields) {
    if (f.kind !== "input" || outs[f.name] === undefined || (declared && !declared.includes(f.name))) continue;
    ins[f.name] = outs[f.name];
  }
  return ins;
}

/** The result of `read`: outputs (keeping `__declared`) and the declared inputs as they are now. */
export function readResult(spec: ResourceSpec, id: string, outs: Props, props: Props): { id: string; props: Props; inputs: Props } {
  const full = { ...outs };
  for (const k of [DECLARED, IMPORTED]) if (props[k] !== undefined) full[k] = props[k];
  return { id, props: full, inputs: inputsOf(spec, full) };
}

/** A JSON value: what Pulumi's wire format (protobuf Struct) carries. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A value as Pulumi's wire format carries it, which has no undefined: such keys dropped and such list items null,
 * at any depth. A value JSON has no form for (a function, a symbol, a bigint) is an error naming its kind.
 */
export function withoutUndefined(v: unknown): Json {
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map((x) => withoutUndefined(x));
  if (typeof v === "object") return withoutUndefinedProps(v);
  throw new TypeError(`a ${typeof v} is no value the engine can carry`);
}

/** An object's keys whose value is not undefined, each value as `withoutUndefined` gives it. */
export function withoutUndefinedProps(v: object): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = withoutUndefined(x);
  return out;
}
