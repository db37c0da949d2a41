import type { Field } from "../../provider/model/table";
import { describedField, fieldJson, mayBeNullJson } from "./field-schema";
import { isEmptyList, isNull, mapValues, propertyName, walk, type Json, type Printer } from "./schema-walk";

/**
 * A field's JSON Schema (from zod) as a Pulumi type, for schema.json: primitives stay, arrays keep their item
 * type, an object with properties becomes a named object type under `types` (`compute:index:<name>`), a record
 * becomes a map, an enum or a union of constants becomes its primitive type (the values go in the
 * description), a union of primitives (an id given as a number or a string of digits, a filter's value) a `oneOf`,
 * and a value that may be null (`type: ["string", "null"]`, zod's `.nullable()`) the type it is when it is not:
 * its property is optional instead (`requiredOf`), which every generator types so (`Optional[str]` in Python,
 * `*string` in Go, `string | undefined` in TypeScript). What is left, `pulumi.json#/Any`, is a value the API
 * itself leaves open (a deployment script's JSON); tests/unit/schema-types.test.ts holds the list. Bounds and
 * patterns are not said in a Pulumi schema: the provider checks them at preview.
 */

export const PKG = "compute";
const ANY = { $ref: "pulumi.json#/Any" };
const PRIMITIVES = ["string", "integer", "number", "boolean"];
/** A Pulumi type (TypeSpec), and the allowed values when the JSON Schema had an enum (said in the description). */
interface Mapped {
  type: Json;
  values?: unknown[];
}
const primitiveOf = (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v === "boolean" ? "boolean" : "string");

/** The printer of Pulumi types; the object types it meets are added to `types`. */
function pulumiTypes(types: Record<string, Json>): Printer<Mapped> {
  const map = (values: Json | undefined, at: { item(js: Json): Mapped }): Mapped => ({
    type: { type: "object", additionalProperties: values ? at.item(values).type : ANY },
  });
  return {
    union: (s, at) => {
      if (s.of === "oneOf") return { type: ANY };
      const members = s.members.filter((m) => !isNull(m) && !isEmptyList(m));
      if (members.length === 1) return at.member(members[0]);
      const mapped = members.map((m) => at.member(m));
      const kinds = [...new Set(mapped.map((m) => m.type.type))];
      if (mapped.every((m) => m.values) && kinds.length === 1) return { type: { type: kinds[0] }, values: mapped.flatMap((m) => m.values!) };
      if (mapped.every((m) => !m.values && PRIMITIVES.includes(String(m.type.type)) && Object.keys(m.type).length === 1))
        return kinds.length === 1 ? { type: { type: kinds[0] } } : { type: { oneOf: kinds.map((k) => ({ type: k })) } };
      return { type: ANY };
    },
    enum: (s) => ({ type: { type: primitiveOf(s.values[0]) }, values: s.values }),
    const: (s) => ({ type: { type: primitiveOf(s.value) }, values: [s.value] }),
    primitive: (s) => ({ type: { type: s.type } }),
    null: () => ({ type: ANY }),
    array: (s, at) => ({ type: { type: "array", items: s.items ? at.item(s.items).type : ANY } }),
    object: (s, at) => {
      const props = Object.entries(s.properties);
      if (!props.length) return map(mapValues(at.js), at);
      const token = `${PKG}:index:${at.name}`;
      const required = s.required.filter((k) => !mayBeNull(s.properties[k]));
      types[token] = {
        type: "object",
        properties: Object.fromEntries(props.map(([k, v]) => [k, described(v, at.property(k, v))])),
        ...(required.length ? { required } : {}),
      };
      return { type: { $ref: `#/types/${token}` } };
    },
    record: (s, at) => map(s.values, at),
    any: () => ({ type: ANY }),
  };
}

/** Whether a JSON Schema node admits null (zod's `.nullable()`). */
export const mayBeNull = mayBeNullJson;

/** The allowed values, said in the description unless it names them all already. */
function describe(description: string | undefined, values?: unknown[]): string | undefined {
  if (!values?.length || values.every((v) => description?.includes(String(v)))) return description;
  const list = `One of ${values.map((v) => `\`${JSON.stringify(v).replace(/^"|"$/g, "")}\``).join(", ")}.`;
  return description ? `${description} ${list}` : list;
}

/** A PropertySpec from a JSON Schema node (a nested object's property) and its Pulumi type. */
function described(js: Json, m: Mapped): Json {
  const description = describe(typeof js.description === "string" ? js.description : undefined, m.values);
  return { ...m.type, ...(description ? { description } : {}) };
}

/** A resource's or function's PropertySpec for one field; nested object types are named `<owner><Field>`. */
export function fieldProperty(f: Field, owner: string, types: Record<string, Json>): Json {
  const m = walk(fieldJson(f), propertyName(owner, f.name), pulumiTypes(types));
  return {
    ...m.type,
    description: describe(describedField(f), m.values),
    ...(f.secret ? { secret: true } : {}),
    // No `replaceOnChanges`: the plugin's Diff says which changes replace (the table's forceNew, and the
    // rules of each resource), and the SDKs would write the option into every resource's state entry.
  };
}
