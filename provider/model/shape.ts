import { z } from "zod";
import { isObject, type Field, type Props } from "./table";

/**
 * What the provider hands on of an API record is what its table declares: the real API adds fields the spec's
 * tables do not have (a region's `monitors`, an instance's `specs.accelerated_devices` before its table had it),
 * and a value the schema does not declare reaches a TypeScript program untyped while the Go and Python SDKs
 * drop it. So an output's object keeps the keys of its declared shape, and a read function's item the fields of
 * its item type (tests/e2e/sdk-matrix.e2e.test.ts holds every language's reads to the schema).
 */

/** A node of a JSON Schema as zod writes one: the parts the provider reads (the rest is left out). */
export interface SchemaNode {
  type?: string | string[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}

const schemaNode: z.ZodType<SchemaNode> = z.lazy(() =>
  z.object({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    items: schemaNode.optional(),
    properties: z.record(z.string(), schemaNode).optional(),
    additionalProperties: z.union([schemaNode, z.boolean()]).optional(),
    anyOf: z.array(schemaNode).optional(),
    oneOf: z.array(schemaNode).optional(),
  }),
);

const shapes = { input: new WeakMap<z.ZodType, SchemaNode>(), output: new WeakMap<z.ZodType, SchemaNode>() };

/** A zod schema's JSON Schema (of its input or its output), read as nodes, made once per schema. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): SchemaNode {
  let js = shapes[io].get(schema);
  if (!js) {
    js = schemaNode.parse(z.toJSONSchema(schema, { io, unrepresentable: "any" }));
    shapes[io].set(schema, js);
  }
  return js;
}

/** A value cut to a JSON Schema node: an object to its `properties`, a list's items and a map's values each to theirs. */
function cut(v: unknown, js: SchemaNode): unknown {
  if (v === null || v === undefined) return v;
  const members = [...(js.anyOf ?? js.oneOf ?? [])];
  if (Array.isArray(js.type)) members.push(...js.type.map((type) => ({ ...js, type })));
  if (members.length) {
    const fit = members.find((m) => (Array.isArray(v) ? m.type === "array" : isObject(v) ? m.type === "object" : false));
    return fit ? cut(v, fit) : v;
  }
  const { items, properties, additionalProperties: values } = js;
  if (Array.isArray(v)) return items ? v.map((x) => cut(x, items)) : v;
  if (!isObject(v)) return v;
  if (properties) {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k in properties)
        .map(([k, x]) => [k, cut(x, properties[k])]),
    );
  }
  if (values && typeof values === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, values)]));
  return v;
}

/** A field's value as its table declares it (a field without a zod shape, or the user's own JSON, as it is). */
export const asDeclared = (f: Field, v: unknown): unknown => (f.schema && !f.raw ? cut(v, jsonSchemaOf(f.schema, "output")) : v);

/** An item of a read function: its declared fields only, each as declared. */
export function itemAsDeclared(item: Props, fields: readonly Field[]): Props {
  const out: Props = {};
  for (const f of fields) if (f.name in item) out[f.name] = asDeclared(f, item[f.name]);
  return out;
}
