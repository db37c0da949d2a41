/**
 * The program of a resource's example, as data (examples.ts writes one per resource type, example-code.ts
 * prints it in each language): its resources, the values of their inputs (references to other resources'
 * outputs, objects and maps of the schema's named types), and what it exports; and the names the languages
 * derive from a resource's logical name.
 */

export { mapOf, obj, ref, resource, type Example, type Fields, type MapOf, type Obj, type Ref, type Res, type Value } from "../../provider/model/example";
import type { Example, Obj, Res, Value, Ref } from "../../provider/model/example";

// --- names ------------------------------------------------------------------------------------------------

export const camel = (name: string) => name.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const snake = (name: string) =>
  name
    .replace(/-/g, "_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
export const pascal = (name: string) => name.charAt(0).toUpperCase() + camel(name).slice(1);
export const isRef = (v: Value): v is Ref => typeof v === "object" && !Array.isArray(v) && v.kind === "ref";
export const isScalar = (v: Value) => typeof v !== "object" || isRef(v);
/** A small object (at most two fields, each a scalar) is written on one line. */
export const isSmall = (o: Obj) => Object.keys(o.fields).length <= 2 && Object.values(o.fields).every(isScalar);
export const str = (s: string) => JSON.stringify(s);

/** Every resource an example's resources or outputs refer to. */
export function referenced(ex: Example): Set<Res> {
  const seen = new Set<Res>();
  const walk = (v: Value): void => {
    if (isRef(v)) seen.add(v.of);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object") Object.values(v.kind === "object" ? v.fields : v.entries).forEach(walk);
  };
  for (const r of ex.resources) Object.values(r.props).forEach(walk);
  Object.values(ex.outputs).forEach(walk);
  return seen;
}
