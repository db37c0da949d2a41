import { z } from "zod";
import { isObject, type Field, type Props } from "./table";

/**
 * What the provider hands on of an API record is what its table declares: the real API adds fields the spec's
 * tables do not have (a region's `monitors`, an instance's `specs.accelerated_devices` before its table had it),
 * and a value the schema does not declare reaches a TypeScript program untyped while the Go and Python SDKs
 * drop it. So an output's object keeps the keys of its declared shape, and a read function's item the fields of
 * its item type (tests/e2e/sdk-matrix.e2e.test.ts holds every language's reads to the schema).
 */

type Json = Record<string, unknown>;
const shapes = new WeakMap<z.ZodType, Json>();

/** A field's declared shape (zod's JSON Schema of its output), made once. */
function shapeOf(schema: z.ZodType): Json {
  let js = shapes.get(schema);
  if (!js) {
    js = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });
    shapes.set(schema, js);
  }
  return js;
}

/** A value cut to a JSON Schema node: an object to its `properties`, a list's items and a map's values each to theirs. */
function cut(v: unknown, js: Json): unknown {
  if (v === null || v === undefined) return v;
  const members = [...((js.anyOf ?? js.oneOf ?? []) as Json[])];
  if (Array.isArray(js.type)) members.push(...(js.type as string[]).map((type) => ({ ...js, type })));
  if (members.length) {
    const fit = members.find((m) => (Array.isArray(v) ? m.type === "array" : isObject(v) ? m.type === "object" : false));
    return fit ? cut(v, fit) : v;
  }
  if (Array.isArray(v)) return isObject(js.items) ? v.map((x) => cut(x, js.items as Json)) : v;
  if (!isObject(v)) return v;
  if (isObject(js.properties)) {
    const props = js.properties as Record<string, Json>;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k in props)
        .map(([k, x]) => [k, cut(x, props[k])]),
    );
  }
  if (isObject(js.additionalProperties)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, js.additionalProperties as Json)]));
  return v;
}

/** A field's value as its table declares it (a field without a zod shape, or the user's own JSON, as it is). */
export const asDeclared = (f: Field, v: unknown): unknown => (f.schema && !f.raw ? cut(v, shapeOf(f.schema)) : v);

/** An item of a read function: its declared fields only, each as declared. */
export function itemAsDeclared(item: Props, fields: readonly Field[]): Props {
  const out: Props = {};
  for (const f of fields) if (f.name in item) out[f.name] = asDeclared(f, item[f.name]);
  return out;
}
