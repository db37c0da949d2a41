import { enumValues, isAny, isEmptyList, upper, walk, withoutConst, type Json, type Literal, type Printer, type Shape } from "./schema-walk";
import { union, wrap } from "./ts";

/**
 * TypeScript types of the generated sdk classes, from the fields' JSON Schema (zod's), as Pulumi's own
 * generated SDKs write them: an input is `pulumi.Input<T>` at every level, an enum is `string | Enum` (a
 * const object of its values and a type of the same name, so that a program passing a plain string still
 * compiles), an object marked `.meta({ typeName })` is a named interface (sdk/types.ts), and an output is
 * the plain type, with the enum's type for an enum. A constant on its own is the type it is of, and a list
 * of types (`type: ["string", "null"]`, zod's nullable primitive) is their union (`string | null`: the dynamic
 * classes hand on the API's null as it is).
 */

export interface EnumType {
  name: string;
  values: Literal[];
  description: string;
}

/** The enums and named object types met while writing types, to be declared once. */
export class TypeRegistry {
  readonly enums = new Map<string, EnumType>();
  readonly named = new Map<string, Json>();

  enumOf(name: string, values: Literal[], description: string): string {
    const known = this.enums.get(name);
    if (known && JSON.stringify(known.values) !== JSON.stringify(values)) throw new Error(`two enums are named ${name}`);
    this.enums.set(name, { name, values, description });
    return name;
  }
}

const primitive = (s: Extract<Shape, { kind: "primitive" }>) => (s.type === "integer" ? "number" : s.type);

/** The input printer: `description` goes to an enum met at this node (or its union's members), not below. */
function inputs(reg: TypeRegistry, description = ""): Printer<string> {
  const nested = () => inputs(reg);
  const asEnum = (values: Literal[], name: string) => `${typeof values[0] === "number" ? "number" : "string"} | ${reg.enumOf(name, values, description)}`;
  return {
    union: (s, at) => {
      const values = enumValues(s);
      if (values) return asEnum(values, at.name);
      return union(s.members.filter((x) => !isEmptyList(x)).map((x) => at.member(x)));
    },
    enum: (s, at) => asEnum(s.values, at.name),
    const: (_s, at) => at.member(withoutConst(at.js)),
    primitive,
    null: () => "null",
    array: (s, at) => `pulumi.Input<${s.items ? at.item(s.items, nested()) : "unknown"}>[]`,
    object: (s, at) => {
      if (s.typeName) {
        if (!reg.named.has(s.typeName)) reg.named.set(s.typeName, at.js);
        return s.typeName;
      }
      return `{ ${Object.entries(s.properties)
        .map(([k, v]) => `${k}${s.required.includes(k) ? "" : "?"}: pulumi.Input<${at.property(k, v, nested())}>`)
        .join("; ")} }`;
    },
    record: (s, at) => `Record<string, ${s.values ? `pulumi.Input<${at.item(s.values, nested())}>` : "unknown"}>`,
    any: () => "unknown",
  };
}

/** The output printer: `complete` says every property of an object is there (a partial field's outputs). */
function outputs(reg: TypeRegistry, complete: boolean): Printer<string> {
  const asEnum = (values: Literal[], name: string) => (reg.enums.has(name) ? name : values.map((v) => JSON.stringify(v)).join(" | "));
  return {
    union: (s, at) => {
      const values = enumValues(s);
      if (values) return asEnum(values, at.name);
      return union(s.members.filter((x) => !isEmptyList(x) && !isAny(x)).map((x) => at.member(x))) || "unknown";
    },
    enum: (s, at) => asEnum(s.values, at.name),
    const: (_s, at) => at.member(withoutConst(at.js)),
    primitive,
    null: () => "null",
    array: (s, at) => `${wrap(s.items ? at.item(s.items) : "unknown")}[]`,
    object: (s, at) =>
      `{ ${Object.entries(s.properties)
        .map(([k, v]) => `${k}${complete || s.required.includes(k) ? "" : "?"}: ${at.property(k, v, undefined, s.typeName)}`)
        .join("; ")} }`,
    record: (s, at) => `Record<string, ${s.values ? at.item(s.values) : "unknown"}>`,
    any: () => "unknown",
  };
}

/** The type of a field's input, without the outer `pulumi.Input<>` (the caller adds it). */
export const inputType = (js: Json, name: string, reg: TypeRegistry, description = ""): string => walk(js, name, inputs(reg, description));

/** The plain type of an output (an input's as the service reports it, or an output-only field's). */
export const outputType = (js: Json, name: string, reg: TypeRegistry, complete = false): string => walk(js, name, outputs(reg, complete));

/** An enum's const object and type, Pulumi's way: `Disk.filesystem` takes `DiskFilesystem.Ext4` or `"ext4"`. */
export function enumDeclaration(e: EnumType): string[] {
  const key = (v: Literal) => {
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
