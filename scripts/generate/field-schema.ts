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

/** Fields whose name starts with `__` are the provider's own bookkeeping: never in the schema or the sdk. */
export const visible = (fs: readonly Field[]): Field[] => fs.filter((f) => !f.name.startsWith("__"));
