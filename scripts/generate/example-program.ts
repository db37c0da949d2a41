/**
 * The program of a resource's example, as data (examples.ts writes one per resource type, example-code.ts
 * prints it in each language): its resources, the values of their inputs (references to other resources'
 * outputs, objects and maps of the schema's named types), and what it exports; and the names the languages
 * derive from a resource's logical name.
 */

/** Another resource's output: `id`, or any property of it. */
export interface Ref {
  kind: "ref";
  of: Res;
  prop: string;
}
/** An object of a named schema type (`compute:index:<type>`). */
export interface Obj {
  kind: "object";
  type: string;
  fields: Fields;
}
/** A map of objects of a named schema type (a Config's `devices`). */
export interface MapOf {
  kind: "map";
  type: string;
  entries: Record<string, Obj>;
}
export type Value = string | number | boolean | Ref | Obj | MapOf | Value[];
export type Fields = Record<string, Value>;
/** A resource of the program: its logical name (kebab-case; the variables are named after it), type and inputs. */
export interface Res {
  name: string;
  type: string;
  props: Fields;
}
/** An example: a title, its resources in order (parents first), and the stack outputs. */
export interface Example {
  title: string;
  resources: Res[];
  outputs: Record<string, Ref>;
}

export const resource = (type: string, name: string, props: Fields): Res => ({ name, type, props });
export const ref = (of: Res, prop = "id"): Ref => ({ kind: "ref", of, prop });
export const obj = (type: string, fields: Fields): Obj => ({ kind: "object", type, fields });
export const mapOf = (type: string, entries: Record<string, Obj>): MapOf => ({ kind: "map", type, entries });

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
