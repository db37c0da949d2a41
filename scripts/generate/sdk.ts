import { functionSpecs, ITEM_TYPES, type FunctionSpec } from "../../provider/functions";
import { filterFields } from "../../provider/functions/filters";
import type { Field, ResourceSpec } from "../../provider/model/table";
import { upper } from "./schema-walk";
import { doc, tsField } from "./ts";

/**
 * sdk/tables.ts: what the sdk classes take from the field tables (every property name, so that each gets
 * an output property; the secret inputs to wrap; the secret outputs to mark), so that no class keeps a copy.
 */
export function sdkTables(specs: ResourceSpec[]): string {
  const rows = specs.map((s) => {
    const names = (fs: readonly Field[]) => JSON.stringify(fs.map((f) => f.name));
    const secret = s.fields.filter((f) => f.secret);
    return `  ${s.type}: {\n    props: ${names(s.fields)},\n    secretInputs: ${names(secret.filter((f) => f.kind === "input"))},\n    secretOutputs: ${names(secret)},\n  },`;
  });
  return [
    "// Generated from the field tables (provider/resources) by `npm run gen:schema`: do not edit.",
    "",
    "/** Per resource type: every property (inputs and outputs), the inputs stored as secrets, every secret output. */",
    "export const TABLES = {",
    ...rows,
    "} as const;",
    "",
    "export type ResourceType = keyof typeof TABLES;",
    "",
  ].join("\n");
}

/**
 * sdk/lookups.ts: the filtered read functions, typed from the tables (their arguments and item types), each
 * in a Promise form `getX(args, opts)` and an Output form `getXOutput(args, opts)`; both run the function of
 * provider/functions/index.ts that the plugin's Invoke runs too.
 */
export function sdkLookups(functions: FunctionSpec[] = functionSpecs): string {
  // The lists of reference data that also have the array form are in sdk/reference.ts (where they were).
  const fns = functions.filter((f) => f.filterable && f.listKey && !f.arrayForm);
  // The item types of every function (the reference functions of sdk/reference.ts too), declared once here.
  const items = [...new Set(functions.map((f) => f.item))];
  const out = [
    "// Generated from provider/functions/index.ts by `npm run gen:schema`: do not edit.",
    'import * as pulumi from "@pulumi/pulumi";',
    'import { afterDependencies, checkFieldNames, runFunction, type ReadOptions, type ReadOutputOptions } from "./invoke";',
    "",
    "/** Each argument as a plain value or an Output (the Output form of a function takes these), filters too. */",
    'export type Inputs<T> = { [K in keyof T]: K extends "filters" ? pulumi.Input<pulumi.Input<FilterInput>[]> : pulumi.Input<T[K]> };',
    "",
    doc("A filter of an Output form: its name and values may be Outputs."),
    "export interface FilterInput {",
    "  name: pulumi.Input<string>;",
    "  values: pulumi.Input<pulumi.Input<string | number | boolean>[]>;",
    "}",
    "",
    doc("One filter: the items whose field `name` equals one of `values` (a list field: holds one of them)."),
    "export interface Filter {",
    "  name: string;",
    "  values: Array<string | number | boolean>;",
    "}",
    "",
  ];
  for (const name of items) {
    const t = ITEM_TYPES[name];
    out.push(doc(t.description), `export interface ${name} {`);
    for (const f of t.fields) out.push(doc(f.description, "  "), `  ${f.name}${f.name === "id" || f.required ? "" : "?"}: ${tsField(f)};`);
    out.push("}", "");
  }
  for (const fn of fns) {
    const U = upper(fn.name);
    const optional = fn.inputs.every((f) => !f.required);
    out.push(
      ...listTypes(fn),
      doc(`${fn.description} Every page is read; filters and order apply on the client.`),
      `export function ${fn.name}(args${optional ? "?" : ""}: ${U}Args, opts?: ReadOptions): Promise<${U}Result> {`,
      `  checkFieldNames("${fn.name}", { ...args });`,
      `  return runFunction("${fn.name}", { ...args }, opts) as Promise<unknown> as Promise<${U}Result>;`,
      "}",
      doc(`${fn.description} The Output form: takes Outputs (of other resources) and returns an Output.`),
      `export function ${fn.name}Output(args${optional ? "?" : ""}: Inputs<${U}Args>, opts?: ReadOutputOptions): pulumi.Output<${U}Result> {`,
      `  checkFieldNames("${fn.name}", { ...args });`,
      `  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => ${fn.name}(a as ${U}Args, opts));`,
      "}",
      "",
    );
  }
  return out.join("\n");
}

/** The fields `orderBy` may name: the items' plain fields (a field of objects cannot be compared). */
const itemFieldNames = (fn: FunctionSpec): string[] => filterFields(ITEM_TYPES[fn.item]?.fields ?? []);

/** A function's arguments as the members of its `<Fn>Args` interface, each with its doc comment. */
const argLines = (fields: Field[]): string[] => fields.flatMap((f) => [doc(f.description, "  "), `  ${f.name}${f.required ? "" : "?"}: ${tsField(f)};`]);

/** A filterable list's `<Fn>Args` (its own arguments, then filters and order) and `<Fn>Result` (`{ <listKey>: items }`). */
function listTypes(fn: FunctionSpec): string[] {
  const U = upper(fn.name);
  const args = fn.inputs.filter((f) => !["filters", "orderBy", "order"].includes(f.name));
  return [
    `export interface ${U}Args {`,
    ...argLines(args),
    doc("Keep the items that match every filter.", "  "),
    "  filters?: Filter[];",
    doc(`Sort by this field of the items: ${itemFieldNames(fn).join(", ")}.`, "  "),
    "  orderBy?: string;",
    '  order?: "asc" | "desc";',
    "}",
    `export interface ${U}Result {`,
    `  ${fn.listKey}: ${fn.item}[];`,
    "}",
  ];
}

/**
 * sdk/reference.ts: the read functions of the reference data: one item `getX(id, opts)` or `getX(opts)`, and
 * the lists that had an array form before they took filters (`arrayForm`): `getX(args, opts)` returns
 * `{ <listKey>: [...] }` as every lookup does, and `getX()` / `getX(opts)` still return the list as an array
 * (which also holds the list key; deprecated), so that programs of the release before compile and run. Each
 * with its Output form, typed with the item types of sdk/lookups.ts.
 */
export function sdkReference(functions: FunctionSpec[] = functionSpecs): string {
  const fns = functions.filter((f) => !f.filterable || f.arrayForm);
  const items = [...new Set(fns.map((f) => f.item))].sort();
  const arrayForms = fns.some((f) => f.arrayForm);
  const withArgs = fns.some((f) => !f.listKey && f.inputs.some((i) => i.name !== "id"));
  const out = [
    "// Generated from provider/functions/reference.ts by `npm run gen:schema`: do not edit.",
    'import * as pulumi from "@pulumi/pulumi";',
    `import { afterDependencies, ${arrayForms ? "checkFieldNames, " : ""}runFunction, type ReadOptions, type ReadOutputOptions } from "./invoke";`,
    `import type { ${[...(arrayForms ? ["Filter"] : []), ...(arrayForms || withArgs ? ["Inputs"] : []), ...items].join(", ")} } from "./lookups";`,
    "",
    "export type { ReadOptions, ReadOutputOptions };",
    "",
  ];
  if (arrayForms) out.push(...ARRAY_FORM_HELPERS);
  for (const fn of fns) {
    const U = upper(fn.name);
    if (fn.arrayForm && fn.listKey) {
      out.push(...arrayFormFunction(fn));
    } else if (fn.listKey) {
      out.push(
        doc(fn.description),
        `export async function ${fn.name}(opts?: ReadOptions): Promise<${fn.item}[]> {`,
        `  return ((await runFunction("${fn.name}", {}, opts)) as Record<string, ${fn.item}[]>).${fn.listKey};`,
        "}",
        doc(`${fn.description} The Output form.`),
        `export function ${fn.name}Output(opts?: ReadOutputOptions): pulumi.Output<${fn.item}[]> {`,
        `  return afterDependencies(opts).apply(() => ${fn.name}(opts));`,
        "}",
        "",
      );
    } else if (!fn.inputs.length) {
      out.push(
        doc(fn.description),
        `export async function ${fn.name}(opts?: ReadOptions): Promise<${fn.item}> {`,
        `  return (await runFunction("${fn.name}", {}, opts)) as unknown as ${fn.item};`,
        "}",
        doc(`${fn.description} The Output form.`),
        `export function ${fn.name}Output(opts?: ReadOutputOptions): pulumi.Output<${fn.item}> {`,
        `  return afterDependencies(opts).apply(() => ${fn.name}(opts));`,
        "}",
        "",
      );
    } else if (fn.inputs.some((f) => f.name !== "id")) {
      // One item from arguments (getPrice): `getX(args, opts)`, and the Output form taking Inputs.
      out.push(
        `export interface ${U}Args {`,
        ...argLines(fn.inputs),
        "}",
        doc(fn.description),
        `export async function ${fn.name}(args: ${U}Args, opts?: ReadOptions): Promise<${fn.item}> {`,
        `  return (await runFunction("${fn.name}", { ...args }, opts)) as unknown as ${fn.item};`,
        "}",
        doc(`${fn.description} The Output form.`),
        `export function ${fn.name}Output(args: Inputs<${U}Args>, opts?: ReadOutputOptions): pulumi.Output<${fn.item}> {`,
        `  return pulumi.all([pulumi.output(args), afterDependencies(opts)]).apply(([a]) => ${fn.name}(a as ${U}Args, opts));`,
        "}",
        "",
      );
    } else {
      out.push(
        doc(fn.description),
        `export async function ${fn.name}(id: string, opts?: ReadOptions): Promise<${fn.item}> {`,
        `  return (await runFunction("${fn.name}", { id }, opts)) as unknown as ${fn.item};`,
        "}",
        doc(`${fn.description} The Output form: takes the id as an Output.`),
        `export function ${U === fn.name ? fn.name : fn.name}Output(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<${fn.item}> {`,
        `  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => ${fn.name}(i, opts));`,
        "}",
        "",
      );
    }
  }
  return out.join("\n");
}

/** The helpers of the functions with an array form (not exported). */
const ARRAY_FORM_HELPERS = [
  doc(
    "How a function with an array form was called: `()` or `(opts)` (a first argument that names none of its arguments) is the array form, `(args, opts)` the form of every lookup.",
  ),
  "function callForm<A, O>(names: string[], a: unknown[]): { args: A; opts: O | undefined; arrayForm: boolean } {",
  "  const first = a[0] as Record<string, unknown> | undefined;",
  "  const arrayForm = a.length < 2 && !names.some((n) => first?.[n] !== undefined);",
  "  return arrayForm ? { args: {} as A, opts: first as O | undefined, arrayForm } : { args: (first ?? {}) as A, opts: a[1] as O | undefined, arrayForm };",
  "}",
  doc(
    "Runs a list function: `{ <key>: [...] }`, or in the array form the list as an array that also holds `<key>` (not enumerable: the array's own keys stay its indexes).",
  ),
  "async function runList(name: string, key: string, args: Record<string, unknown>, opts: ReadOptions | undefined, arrayForm: boolean): Promise<unknown> {",
  "  const r = await runFunction(name, args, opts);",
  "  if (!arrayForm) return r;",
  "  const list = r[key] as unknown[];",
  "  return Object.defineProperty([...list], key, { value: list, enumerable: false });",
  "}",
  "",
];

/** A list with an array form: its Args and Result types, the array type, and both forms' overloads. */
function arrayFormFunction(fn: FunctionSpec): string[] {
  const U = upper(fn.name);
  const key = fn.listKey!;
  const names = JSON.stringify(fn.inputs.map((f) => f.name));
  const deprecated = (form: string) =>
    doc(
      `@deprecated The array form of the release before filters: call \`${fn.name}${form}({}, opts)\` (or with \`filters\`, \`orderBy\`, \`order\`) and read \`.${key}\`. The array still holds \`${key}\` too.`,
    );
  return [
    ...listTypes(fn),
    doc(
      `What \`${fn.name}()\` and \`${fn.name}(opts)\` return: the array form of the release before filters (an array of the items), which also holds \`${key}\`.`,
    ),
    `export type ${U}Array = ${fn.item}[] & ${U}Result;`,
    doc(
      `${fn.description} Every page is read. Without arguments, the result is an array that also holds \`${key}\`: read \`.${key}\` (reading it as an array is the deprecated form of the release before filters).`,
    ),
    `export function ${fn.name}(opts?: undefined): Promise<${U}Array>;`,
    deprecated(""),
    `export function ${fn.name}(opts: ReadOptions | undefined): Promise<${U}Array>;`,
    doc(`${fn.description} Every page is read; filters and order apply on the client. Returns \`{ ${key} }\`.`),
    `export function ${fn.name}(args: ${U}Args | undefined, opts?: ReadOptions): Promise<${U}Result>;`,
    `export function ${fn.name}(...a: unknown[]): Promise<${U}Result | ${U}Array> {`,
    `  const c = callForm<${U}Args, ReadOptions>(${names}, a);`,
    `  checkFieldNames("${fn.name}", { ...c.args });`,
    `  return runList("${fn.name}", "${key}", { ...c.args }, c.opts, c.arrayForm) as Promise<${U}Result | ${U}Array>;`,
    "}",
    doc(`${fn.description} The Output form, without arguments: an array that also holds \`${key}\` (read \`.${key}\`).`),
    `export function ${fn.name}Output(opts?: undefined): pulumi.Output<${U}Array>;`,
    deprecated("Output"),
    `export function ${fn.name}Output(opts: ReadOutputOptions | undefined): pulumi.Output<${U}Array>;`,
    doc(`${fn.description} The Output form: takes Outputs (of other resources) and returns an Output of \`{ ${key} }\`.`),
    `export function ${fn.name}Output(args: Inputs<${U}Args> | undefined, opts?: ReadOutputOptions): pulumi.Output<${U}Result>;`,
    `export function ${fn.name}Output(...a: unknown[]): pulumi.Output<${U}Result | ${U}Array> {`,
    `  const c = callForm<Inputs<${U}Args>, ReadOutputOptions>(${names}, a);`,
    `  checkFieldNames("${fn.name}", { ...c.args });`,
    "  return pulumi",
    "    .all([pulumi.output(c.args), afterDependencies(c.opts)])",
    `    .apply(([x]) => runList("${fn.name}", "${key}", { ...x }, c.opts, c.arrayForm) as Promise<${U}Result | ${U}Array>);`,
    "}",
    "",
  ];
}
