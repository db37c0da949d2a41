import { z } from "zod";
import type { Field } from "../../provider/table";

/** JSON Schema, as the codegen reads it (zod's output, or the table's simple output types). */
export type Json = Record<string, unknown>;

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

export const upper = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const singular = (s: string): string => (s.endsWith("ies") ? s.slice(0, -3) + "y" : s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);

/** Fields whose name starts with `__` are the provider's own bookkeeping: never in the schema or the sdk. */
export const visible = (fs: Field[]): Field[] => fs.filter((f) => !f.name.startsWith("__"));
