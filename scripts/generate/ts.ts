import type { Field } from "../../provider/model/table";
import { fieldJson } from "./field-schema";
import { walk, type Printer } from "./schema-walk";

/** TypeScript as text, for the generated sdk files: doc comments, unions, and the plain type of a field. */

export const doc = (s: string, indent = "") => `${indent}/** ${s.replace(/\*\//g, "*\\/").replace(/\n/g, " ")} */`;

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
export const union = (types: string[]) => [...new Set(types.flatMap(topLevelParts))].join(" | ");
/** A type as an array's item: in parentheses if it is a union. */
export const wrap = (t: string) => (topLevelParts(t).length > 1 ? `(${t})` : t);

/**
 * The plain TypeScript of a JSON Schema, as the lookups' arguments and items (sdk/lookups.ts) and the docs of
 * the read functions show it: values as literals, every member of a union (a nullable primitive's null too),
 * objects and maps inline.
 */
const plain: Printer<string> = {
  union: (s, at) => [...new Set(s.members.map((m) => at.member(m)))].join(" | "),
  enum: (s) => s.values.map((v) => JSON.stringify(v)).join(" | "),
  const: (s) => JSON.stringify(s.value),
  primitive: (s) => (s.type === "integer" ? "number" : s.type),
  null: () => "null",
  array: (s, at) => {
    const item = s.items ? at.item(s.items) : "unknown";
    return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
  },
  object: (s, at) =>
    `{ ${Object.entries(s.properties)
      .map(([k, v]) => `${k}${s.required.includes(k) ? "" : "?"}: ${at.property(k, v)}`)
      .join("; ")} }`,
  record: (s, at) => `Record<string, ${s.values ? at.item(s.values) : "unknown"}>`,
  any: () => "unknown",
};

/** A field's plain TypeScript type, for the generated sdk lookups and the docs. */
export const tsField = (f: Field): string => walk(fieldJson(f), f.name, plain);
