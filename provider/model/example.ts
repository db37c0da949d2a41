/**
 * A resource's example, as data: a small program (its resources, the values of their inputs: references to
 * other resources' outputs, objects and maps of the schema's named types; and what it exports). Each
 * definition has one (`example` in provider/definition.ts); scripts/generate/example-code.ts prints it in each
 * language for schema.json, the Registry page and the docs, and tests/integration/examples.test.ts compiles
 * and runs them.
 */

import type { Field, InputName } from "./table";

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
  /**
   * Its resource options, where it has any (an adopted resource's `protect`; in YAML, which has no SDK to name them,
   * the plugin's `version` and `pluginDownloadURL`).
   */
  options?: { protect?: boolean; version?: string; pluginDownloadURL?: string };
}
/** An example: a title, its resources in order (parents first), and the stack outputs. */
export interface Example {
  title: string;
  resources: Res[];
  outputs: Record<string, Ref>;
}

/**
 * The inputs an example may give a resource of each type, by its type name: each resource's module adds its own
 * entry from its table (`declare module "../model/example" { interface ExampleInputs { SshKey: ExampleProps<...> } }`),
 * so that an example naming an input its table has not (`lable`) does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each resource's module (declaration merging)
export interface ExampleInputs {}

/** The inputs of a table, each a value of an example (a literal, a reference, an object of a schema type). */
export type ExampleProps<F extends readonly Field[]> = { [K in InputName<F>]?: Value };

export const resource = <T extends keyof ExampleInputs>(type: T, name: string, props: ExampleInputs[T]): Res => ({ name, type, props });
export const ref = (of: Res, prop = "id"): Ref => ({ kind: "ref", of, prop });
export const obj = (type: string, fields: Fields): Obj => ({ kind: "object", type, fields });
export const mapOf = (type: string, entries: Record<string, Obj>): MapOf => ({ kind: "map", type, entries });

/**
 * A read function's example: a call and its arguments (values, and references to the resources of a resource's
 * example, whose program the call then extends). A lookup's is made from its resource's example
 * (scripts/generate/function-examples.ts); the reference functions have one each (provider/functions/reference.ts).
 * The docs print it in each language, and the SDK matrix (scripts/generate/sdk-matrix.ts) runs it in each.
 */
export interface FunctionExample {
  title: string;
  /** The resource type whose example program the call reads from (`of` finds its resources), if any. */
  uses?: string;
  /** The arguments; `of(type)` is the last resource of that type in the example `uses` names. */
  args: (of: (type: string) => Res) => Fields;
}
