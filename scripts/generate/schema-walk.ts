/**
 * The one walker of JSON Schema (zod's dialect, `z.toJSONSchema`, and the tables' simple output types) that
 * every generator prints from: schema.json's Pulumi types (pulumi-types.ts), the sdk classes' TypeScript
 * (ts-types.ts) and the plain TypeScript of the lookups and the docs (ts.ts).
 *
 * `shapeOf` reads one node, once for all of them: a union, an enum, a constant, a primitive, null, an array, an
 * object with properties, a map (a record), or anything (what JSON Schema does not say). `walk` hands the node's
 * shape to a printer, one function per shape, with its children to walk on demand (a printer that stops at a
 * named type never walks inside it) and named by one rule: a union's member keeps the union's name, an array's
 * item and a map's value take the singular of it (`tags`: `tag`), a property is `<owner><Property>`.
 */

/** JSON Schema, as the generators read it (zod's output, or the table's simple output types). */
export type Json = Record<string, unknown>;
export type Literal = string | number | boolean;
export type Primitive = "string" | "integer" | "number" | "boolean";

/** What one JSON Schema node is. */
export type Shape =
  /**
   * `anyOf` (zod's union), `oneOf` (zod's discriminated union), or a list of types (`type: ["string", "null"]`,
   * zod's nullable primitive; its members: one node per type).
   */
  | { kind: "union"; members: Json[]; of: "anyOf" | "oneOf" | "types" }
  | { kind: "enum"; values: Literal[] }
  /** A constant (zod's literal). */
  | { kind: "const"; value: Literal }
  | { kind: "primitive"; type: Primitive }
  | { kind: "null" }
  /** `items`: what the items are, unless the schema says nothing of them. */
  | { kind: "array"; items?: Json }
  /** An object with `properties` (`typeName`: zod's `.meta({ typeName })`, a type that has a name of its own). */
  | { kind: "object"; properties: Record<string, Json>; required: string[]; typeName?: string }
  /** A map (`additionalProperties`): `values`, what its values are, unless the schema says nothing of them. */
  | { kind: "record"; values?: Json }
  | { kind: "any" };
export type Kind = Shape["kind"];

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export const isNull = (js: Json): boolean => js.type === "null";
/** zod's "empty list" branch (`z.array(z.never()).length(0)`, `items: { not: {} }`): `[]` is a list of any type already. */
export const isEmptyList = (js: Json): boolean => js.type === "array" && js.maxItems === 0;
/** What zod writes for what JSON Schema cannot say (a transform's output): `{}`. */
export const isAny = (js: Json): boolean => Object.keys(js).filter((k) => k !== "description" && k !== "$schema").length === 0;
/** A child schema that says something (not `{}`), else undefined. */
const said = (v: unknown): Json | undefined => (isObject(v) && !isAny(v) ? v : undefined);

/** The node without its constant: what type the constant is of (`{ type: "number", const: 1 }`: a number). */
export const withoutConst = (js: Json): Json => {
  const { const: _c, ...rest } = js;
  return rest;
};

/** A map's values: its `additionalProperties`, unless they say nothing (`{}`, `true`, `false`, absent). */
export const mapValues = (js: Json): Json | undefined => said(js.additionalProperties);

export function shapeOf(js: Json): Shape {
  if (Array.isArray(js.enum)) return { kind: "enum", values: js.enum as Literal[] };
  if (js.const !== undefined) return { kind: "const", value: js.const as Literal };
  if (Array.isArray(js.anyOf)) return { kind: "union", members: js.anyOf as Json[], of: "anyOf" };
  if (Array.isArray(js.oneOf)) return { kind: "union", members: js.oneOf as Json[], of: "oneOf" };
  if (Array.isArray(js.type)) return { kind: "union", members: (js.type as string[]).map((type) => ({ ...js, type })), of: "types" };
  switch (js.type) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { kind: "primitive", type: js.type };
    case "null":
      return { kind: "null" };
    case "array": {
      const items = said(js.items);
      return { kind: "array", ...(items ? { items } : {}) };
    }
    case "object": {
      if (isObject(js.properties)) {
        const required = Array.isArray(js.required) ? (js.required as string[]) : [];
        const typeName = typeof js.typeName === "string" ? js.typeName : undefined;
        return { kind: "object", properties: js.properties as Record<string, Json>, required, ...(typeName ? { typeName } : {}) };
      }
      const values = mapValues(js);
      return { kind: "record", ...(values ? { values } : {}) };
    }
    default:
      return { kind: "any" };
  }
}

/** The values of an enum, or of a union whose every member is a constant (`z.union([z.literal(1), z.literal(3)])`). */
export function enumValues(shape: Shape): Literal[] | undefined {
  if (shape.kind === "enum") return shape.values;
  if (shape.kind === "union" && shape.members.length && shape.members.every((m) => m.const !== undefined)) return shape.members.map((m) => m.const as Literal);
  return undefined;
}

export const upper = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const singular = (s: string): string => (s.endsWith("ies") ? s.slice(0, -3) + "y" : s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);
/** The name of an owner's property (`Instance` and `alerts`: `InstanceAlerts`): a nested type's, an enum's. */
export const propertyName = (owner: string, key: string): string => owner + upper(key);

/** A node being printed: its schema and name, and its children, walked by the same printer unless one is given. */
export interface At<T> {
  js: Json;
  name: string;
  /** A member of this union: the union's name. */
  member(js: Json, printer?: Printer<T>): T;
  /** This array's item, or this map's value: the singular of this name. */
  item(js: Json, printer?: Printer<T>): T;
  /** A property of this object: `<owner><Key>`, the owner being this node's name unless another is given. */
  property(key: string, js: Json, printer?: Printer<T>, owner?: string): T;
}

/** What a generator prints for each shape. */
export type Printer<T> = { [K in Kind]: (shape: Extract<Shape, { kind: K }>, at: At<T>) => T };

/** Prints `js`, named `name`, with `printer`. */
export function walk<T>(js: Json, name: string, printer: Printer<T>): T {
  const shape = shapeOf(js);
  const at: At<T> = {
    js,
    name,
    member: (m, p = printer) => walk(m, name, p),
    item: (i, p = printer) => walk(i, singular(name), p),
    property: (key, v, p = printer, owner = name) => walk(v, propertyName(owner, key), p),
  };
  return (printer[shape.kind] as (shape: Shape, at: At<T>) => T)(shape, at);
}
