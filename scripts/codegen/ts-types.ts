import { z } from "zod";
import type { Field } from "../../provider/table";
import { fieldJson, singular, upper, type Json } from "./json";

/**
 * TypeScript types of the generated sdk classes, from the fields' JSON Schema (zod's), as Pulumi's own
 * generated SDKs write them: an input is `pulumi.Input<T>` at every level, an enum is `string | Enum` (a
 * const object of its values and a type of the same name, so that a program passing a plain string still
 * compiles), an object marked `.meta({ typeName })` is a named interface (sdk/types.ts), and an output is
 * the plain type, with the enum's type for an enum.
 */

export interface EnumType {
  name: string;
  values: Array<string | number>;
  description: string;
}

/** The enums and named object types met while writing types, to be declared once. */
export class TypeRegistry {
  readonly enums = new Map<string, EnumType>();
  readonly named = new Map<string, Json>();

  enumOf(name: string, values: Array<string | number>, description: string): string {
    const known = this.enums.get(name);
    if (known && JSON.stringify(known.values) !== JSON.stringify(values)) throw new Error(`two enums are named ${name}`);
    this.enums.set(name, { name, values, description });
    return name;
  }
}

const isNull = (js: Json) => js.type === "null";
/** zod's "empty list" branch (`z.array(z.never()).length(0)`): `[]` is a list of any type already. */
const isEmptyList = (js: Json) => js.type === "array" && js.maxItems === 0;
/** What zod writes for what JSON Schema cannot say (a transform's output): `{}`. */
const isAny = (js: Json) => Object.keys(js).filter((k) => k !== "description" && k !== "$schema").length === 0;
const members = (js: Json): Json[] | undefined => (js.anyOf ?? js.oneOf) as Json[] | undefined;
const enumValues = (js: Json): Array<string | number> | undefined => {
  if (Array.isArray(js.enum)) return js.enum as Array<string | number>;
  const m = members(js);
  if (m?.length && m.every((x) => x.const !== undefined)) return m.map((x) => x.const as string | number);
  return undefined;
};
const wrap = (t: string) => (topLevelParts(t).length > 1 ? `(${t})` : t);

/** The members of a union type's text, split at its top level only (never inside `{ }`, `< >`, `( )` or `[ ]`). */
function topLevelParts(t: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if ("{<([".includes(ch)) depth++;
    else if ("}>)]".includes(ch)) depth--;
    else if (depth === 0 && t.startsWith(" | ", i)) {
      parts.push(t.slice(start, i));
      start = i + 3;
      i += 2;
    }
  }
  parts.push(t.slice(start));
  return parts;
}
/** A union of the given types' members, each once. */
const union = (types: string[]) => [...new Set(types.flatMap(topLevelParts))].join(" | ");

/** The type of a field's input, without the outer `pulumi.Input<>` (the caller adds it). */
export function inputType(js: Json, name: string, reg: TypeRegistry, description = ""): string {
  if (typeof js.typeName === "string") {
    if (!reg.named.has(js.typeName)) reg.named.set(js.typeName, js);
    return js.typeName;
  }
  const values = enumValues(js);
  if (values) return `${typeof values[0] === "number" ? "number" : "string"} | ${reg.enumOf(name, values, description)}`;
  const m = members(js);
  if (m) {
    const kept = m.filter((x) => !isEmptyList(x));
    return union(kept.map((x) => (isNull(x) ? "null" : inputType(x, name, reg, description))));
  }
  switch (js.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `pulumi.Input<${js.items ? inputType(js.items as Json, singular(name), reg) : "unknown"}>[]`;
    case "object":
      return objectType(js, name, reg, (v, n) => `pulumi.Input<${inputType(v, n, reg)}>`, false);
    default:
      return "unknown";
  }
}

/** The plain type of an output (an input's as the service reports it, or an output-only field's). */
export function outputType(js: Json, name: string, reg: TypeRegistry, complete = false): string {
  const values = enumValues(js);
  if (values) return reg.enums.has(name) ? name : values.map((v) => JSON.stringify(v)).join(" | ");
  const m = members(js);
  if (m) {
    const kept = m.filter((x) => !isEmptyList(x) && !isAny(x));
    return union(kept.map((x) => (isNull(x) ? "null" : outputType(x, name, reg, complete)))) || "unknown";
  }
  switch (js.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = js.items ? outputType(js.items as Json, singular(name), reg, complete) : "unknown";
      return `${wrap(item)}[]`;
    }
    case "object":
      return objectType(js, name, reg, (v, n) => outputType(v, n, reg, complete), complete);
    default:
      return "unknown";
  }
}

function objectType(js: Json, name: string, reg: TypeRegistry, type: (v: Json, name: string) => string, complete: boolean): string {
  const props = js.properties as Record<string, Json> | undefined;
  if (props) {
    const req = (js.required as string[] | undefined) ?? [];
    const owner = typeof js.typeName === "string" ? js.typeName : name;
    return `{ ${Object.entries(props)
      .map(([k, v]) => `${k}${complete || req.includes(k) ? "" : "?"}: ${type(v, owner + upper(k))}`)
      .join("; ")} }`;
  }
  const add = js.additionalProperties;
  return `Record<string, ${add && typeof add === "object" && !isAny(add as Json) ? type(add as Json, singular(name)) : "unknown"}>`;
}

/** A field's JSON Schema as its output: zod's of the output when it can say it, else the input's. */
export function outputJsonOf(f: Field): Json {
  if (!f.schema) return fieldJson(f);
  const { $schema: _s, ...js } = z.toJSONSchema(f.schema, { io: "output", unrepresentable: "any" }) as Json;
  return isAny(js) ? fieldJson(f) : js;
}

/** An enum's const object and type, Pulumi's way: `Disk.filesystem` takes `DiskFilesystem.Ext4` or `"ext4"`. */
export function enumDeclaration(e: EnumType): string[] {
  const key = (v: string | number) => {
    const k = String(v)
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map(upper)
      .join("");
    return /^[A-Za-z_]/.test(k) ? k : `V${k}`;
  };
  return [
    `/** ${e.description ? `${e.description.replace(/\*\//g, "*\\/")} ` : ""}The values of \`${e.name}\`. */`,
    `export const ${e.name} = {`,
    ...e.values.map((v) => `  ${key(v)}: ${JSON.stringify(v)},`),
    "} as const;",
    `export type ${e.name} = (typeof ${e.name})[keyof typeof ${e.name}];`,
  ];
}
