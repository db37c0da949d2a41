import { z } from "zod";
import type { Field } from "../../provider/model/table";
import { isAny, type Json } from "./schema-walk";

/** JSON Schema of a field (zod's, of the input): what the provider accepts, with its bounds. */
export function jsonSchemaOf(f: Field): Json {
  if (!f.schema) return { type: f.outputType ?? "string" };
  const { $schema: _s, ...rest } = z.toJSONSchema(f.schema, { io: "input", unrepresentable: "any" }) as Json;
  return rest;
}

/** The JSON Schema of a field the table declares without zod (output-only fields, function results). */
export function outputJson(f: Field): Json {
  const item: Json = f.itemType === "object" ? { type: "object" } : { type: f.itemType ?? "string" };
  return f.outputType === "array" ? { type: "array", items: item } : { type: f.outputType ?? "string" };
}

/** A field's JSON Schema: its zod schema's, else its simple output type. */
export const fieldJson = (f: Field): Json => (f.schema ? jsonSchemaOf(f) : outputJson(f));

/** A field's JSON Schema as its output: zod's of the output when it can say it, else the input's. */
export function outputJsonOf(f: Field): Json {
  if (!f.schema) return fieldJson(f);
  const { $schema: _s, ...js } = z.toJSONSchema(f.schema, { io: "output", unrepresentable: "any" }) as Json;
  return isAny(js) ? fieldJson(f) : js;
}

/**
 * A field's description as the schema, the SDKs and the docs print it: the table's, and for an output another
 * resource changes (`changedBy`) what the stack holds of it.
 */
export function describedField(f: Field): string {
  if (!f.changedBy) return f.description;
  return `${f.description} As last read (made, updated or refreshed): ${f.changedBy} changes it afterwards, and \`pulumi refresh\` (or \`pulumi up --refresh\`) reads it anew.`;
}

/**
 * Whether a resource always reports a field as an output (a required property of its outputs): a required
 * input, an output, or an input the service fills in when it is left out; not a value that may be null, one
 * kept from the inputs only (`writeOnly`: a password, a file's hash, there when the program or the provider
 * gave one), one cleared to null, nor one the API reports only in some cases (`presentWhen`).
 */
export function alwaysReported(f: Field): boolean {
  if (f.required) return true;
  if (f.kind === "input" && !f.computed) return false;
  return !f.writeOnly && !f.presentWhen && f.clearTo !== null && !mayBeNullJson(fieldJson(f));
}

/** Whether a JSON Schema node admits null (zod's `.nullable()`: `type: [..., "null"]`, or a union with a null member). */
export function mayBeNullJson(js: Json): boolean {
  if (js.type === "null") return true;
  if (Array.isArray(js.type)) return js.type.includes("null");
  const members = (Array.isArray(js.anyOf) ? js.anyOf : Array.isArray(js.oneOf) ? js.oneOf : []) as Json[];
  return members.some(mayBeNullJson);
}

/** Fields whose name starts with `__` are the provider's own bookkeeping: never in the schema or the sdk. */
export const visible = (fs: readonly Field[]): Field[] => fs.filter((f) => !f.name.startsWith("__"));
