/**
 * A value held to its schema.json type: what a program read through an SDK's typed accessor must be. Each
 * mismatch is a line naming where it is (`fn_getImage_plain.vendor: a string, got {}`): a property the type
 * does not declare, a required one missing or null, a value of another kind.
 */
import type { ObjectSpec, PackageSchema, TypeSpec } from "../../scripts/generate/sdk-code";

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 80) ?? String(v);

/** The mismatches of an object against an object type (its declared properties, its required ones). */
export function objectErrors(at: string, value: unknown, spec: ObjectSpec, schema: PackageSchema): string[] {
  if (!isPlainObject(value)) return [`${at}: an object, got ${show(value)}`];
  const out: string[] = [];
  for (const k of Object.keys(value)) if (!(k in spec.properties)) out.push(`${at}.${k}: not a property of its type`);
  for (const [k, t] of Object.entries(spec.properties)) {
    const v = value[k];
    if (v === undefined || v === null) {
      if (spec.required?.includes(k)) out.push(`${at}.${k}: required, got ${v === null ? "null" : "nothing"}`);
      continue;
    }
    out.push(...typeErrors(`${at}.${k}`, v, t, schema));
  }
  return out;
}

/** The mismatches of a value (not null) against a TypeSpec. */
export function typeErrors(at: string, v: unknown, t: TypeSpec, schema: PackageSchema): string[] {
  if (t.$ref === "pulumi.json#/Any") return [];
  if (t.$ref) {
    const type = schema.types[t.$ref.slice("#/types/".length)];
    if (!type) return [`${at}: the schema has no type ${t.$ref}`];
    return objectErrors(at, v, type, schema);
  }
  if (t.oneOf)
    return t.oneOf.some((m) => typeErrors(at, v, m, schema).length === 0) ? [] : [`${at}: one of ${t.oneOf.map((m) => m.type).join(", ")}, got ${show(v)}`];
  switch (t.type) {
    case "string":
      return typeof v === "string" ? [] : [`${at}: a string, got ${show(v)}`];
    case "integer":
      return Number.isInteger(v) ? [] : [`${at}: an integer, got ${show(v)}`];
    case "number":
      return typeof v === "number" ? [] : [`${at}: a number, got ${show(v)}`];
    case "boolean":
      return typeof v === "boolean" ? [] : [`${at}: a boolean, got ${show(v)}`];
    case "array":
      return Array.isArray(v)
        ? v.flatMap((x, i) => (x === null ? [`${at}[${i}]: null`] : typeErrors(`${at}[${i}]`, x, t.items ?? {}, schema)))
        : [`${at}: a list, got ${show(v)}`];
    case "object":
      if (!isPlainObject(v)) return [`${at}: a map, got ${show(v)}`];
      return Object.entries(v).flatMap(([k, x]) =>
        x === null ? [] : typeErrors(`${at}.${k}`, x, t.additionalProperties ?? { $ref: "pulumi.json#/Any" }, schema),
      );
    default:
      return [`${at}: the schema's type ${JSON.stringify(t)} is not one this check knows`];
  }
}

/**
 * A value as two reads of it compare: without its nulls, and without its empty lists and maps, which Go reads a
 * null as (its zero value: a profile's `authorizedKeys` of null is `[]string(nil)`, exported as `[]`; a
 * profile's empty device slot, null in a map of `ConfigDevice`, is `ConfigDevice{}`).
 */
export function withoutNulls(v: unknown): unknown {
  const empty = (x: unknown) => x === null || x === undefined || (Array.isArray(x) && x.length === 0) || (isPlainObject(x) && Object.keys(x).length === 0);
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .map(([k, x]) => [k, withoutNulls(x)] as const)
      .filter(([, x]) => !empty(x)),
  );
}
