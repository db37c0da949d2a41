import type { Field } from "../../provider/table";
import { fieldJson, type Json } from "./json";

/** A TypeScript type from a field's JSON Schema, for the generated sdk lookups. */
function tsOf(js: Json): string {
  if (Array.isArray(js.enum)) return js.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (js.const !== undefined) return JSON.stringify(js.const);
  if (Array.isArray(js.type)) return js.type.map((t) => tsOf({ ...js, type: t })).join(" | ");
  const union = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map(tsOf))].join(" | ");
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
      const item = js.items ? tsOf(js.items as Json) : "unknown";
      return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object": {
      const props = js.properties as Record<string, Json> | undefined;
      if (props) {
        const req = (js.required as string[] | undefined) ?? [];
        return `{ ${Object.entries(props)
          .map(([k, v]) => `${k}${req.includes(k) ? "" : "?"}: ${tsOf(v)}`)
          .join("; ")} }`;
      }
      const add = js.additionalProperties;
      return `Record<string, ${add && typeof add === "object" ? tsOf(add as Json) : "unknown"}>`;
    }
    default:
      return "unknown";
  }
}
export const tsField = (f: Field): string => tsOf(fieldJson(f));
export const doc = (s: string, indent = "") => `${indent}/** ${s.replace(/\*\//g, "*\\/").replace(/\n/g, " ")} */`;
