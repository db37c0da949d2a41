/**
 * Code on the generated SDKs, per language, for what a resource example alone does not show: a read function's
 * call (its plain form and its Output form) and the reading of its result, and the reading of a resource's
 * outputs. The names are the ones each SDK's generator gives (Pulumi's codegen: `getImage` is `get_image` in
 * Python and `LookupImage` in Go, since `Image` is a resource; a filter is `GetDisksFilter` in Python's and Go's
 * plain form, `GetDisksFilterArgs` in Go's Output form), and the arguments are typed from schema.json. The docs
 * print these calls (docs.ts) and the SDK matrix runs them (sdk-matrix.ts); tests/e2e/sdk-matrix.e2e.test.ts
 * runs the matrix in each language, so a name printed wrong here fails there.
 */
import { camel, isRef, pascal, snake, str, type Fields, type Ref, type Value } from "./example-program";
import { upper } from "./schema-walk";

export type Language = "typescript" | "python" | "go" | "yaml";
/** The plain form of a read function returns its result (a Promise in TypeScript); the Output form takes and gives Outputs. */
export type Form = "plain" | "output";

/** A Pulumi TypeSpec (schema.json), as far as the code needs it. */
export interface TypeSpec {
  type?: string;
  $ref?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  oneOf?: TypeSpec[];
}
export interface ObjectSpec {
  properties: Record<string, TypeSpec>;
  required?: string[];
}
export interface PackageSchema {
  resources: Record<string, ObjectSpec & { inputProperties: Record<string, TypeSpec>; requiredInputs?: string[] }>;
  functions: Record<string, { inputs?: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
}

const TOKEN = "compute:index:";
/** The name of a `$ref`'s type (`#/types/compute:index:GetDisksFilter`: `GetDisksFilter`). */
export const refName = (t: TypeSpec): string => t.$ref!.slice(`#/types/${TOKEN}`.length);

/** Python's keywords (and builtins the generator avoids), which a name takes a trailing `_` to stay clear of. */
const PY_RESERVED = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);
/** Python's name of a property (`isPublic`: `is_public`; `class`: `class_`), as the Python generator makes it. */
export const pyName = (name: string): string => (PY_RESERVED.has(snake(name)) ? `${snake(name)}_` : snake(name));
/** Go's name of a property (`isPublic`: `IsPublic`). */
export const goName = (name: string): string => pascal(name);

/** The names a language's SDK gives a function: its plain form, its Output form, and Go's argument and result types. */
export function functionNames(fn: string, schema: PackageSchema): { plain: string; output: string; goArgs: string; goOutputArgs: string; goResult: string } {
  const rest = upper(fn).replace(/^Get/, "");
  // The Go generator: a `get` function named like a resource is `Lookup<Resource>` (a `Get<Resource>` function reads the resource's state).
  const goBase = `${TOKEN}${rest}` in schema.resources ? `Lookup${rest}` : upper(fn);
  return { plain: fn, output: `${fn}Output`, goArgs: `${goBase}Args`, goOutputArgs: `${goBase}OutputArgs`, goResult: `${goBase}Result` };
}

const goFn = (fn: string, schema: PackageSchema): string => functionNames(fn, schema).goArgs.replace(/Args$/, "");

// --- argument values ------------------------------------------------------------------------------------------

/** What a reference is written as: a resource's output (the Output form), or the plain value an apply hands on. */
export type RefCode = (r: Ref) => string;

/** A value of the arguments in TypeScript (both forms: object literals). */
function tsValue(v: Value, refCode: RefCode): string {
  if (typeof v === "string") return str(v);
  if (typeof v !== "object") return String(v);
  if (isRef(v)) return refCode(v);
  if (Array.isArray(v)) return `[${v.map((x) => tsValue(x, refCode)).join(", ")}]`;
  const fields = v.kind === "object" ? v.fields : v.entries;
  return `{ ${Object.entries(fields)
    .map(([k, x]) => `${k}: ${tsValue(x, refCode)}`)
    .join(", ")} }`;
}

/** A value in Python: an object is its input type's class (`compute.GetDisksFilter(...)`), as the plain and Output forms both take. */
function pyValue(v: Value, t: TypeSpec | undefined, refCode: RefCode): string {
  if (typeof v === "string") return str(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return String(v);
  if (isRef(v)) return refCode(v);
  if (Array.isArray(v)) return `[${v.map((x) => pyValue(x, t?.items, refCode)).join(", ")}]`;
  const fields = v.kind === "object" ? v.fields : v.entries;
  if (!t?.$ref) throw new Error(`an object where the schema has no object type: ${JSON.stringify(fields)}`);
  return `compute.${refName(t)}(${Object.entries(fields)
    .map(([k, x]) => `${pyName(k)}=${pyValue(x, undefined, refCode)}`)
    .join(", ")})`;
}

/** A plain scalar in Go, typed by its TypeSpec: a pointer (`pulumi.StringRef`) where the property is optional. */
function goScalar(v: string | number | boolean, t: TypeSpec | undefined, required: boolean): string {
  const lit = typeof v === "string" ? str(v) : String(v);
  const kind = t?.type === "string" ? "String" : t?.type === "integer" ? "Int" : t?.type === "number" ? "Float64" : t?.type === "boolean" ? "Bool" : undefined;
  if (!kind) return lit; // interface{}: a oneOf, or Any
  return required ? lit : `pulumi.${kind}Ref(${lit})`;
}

/** A Go type for a plain value of a TypeSpec (an array's items, a map's values). */
function goPlainType(t: TypeSpec | undefined): string {
  if (!t || t.oneOf || !t.type) return t?.$ref ? `compute.${refName(t)}` : "interface{}";
  if (t.type === "array") return `[]${goPlainType(t.items)}`;
  if (t.type === "object") return `map[string]${goPlainType(t.additionalProperties)}`;
  return { string: "string", integer: "int", number: "float64", boolean: "bool" }[t.type] ?? "interface{}";
}

/** A value of a plain-form argument in Go (`compute.GetDisksArgs`): Go's own values, pointers for what is optional. */
function goPlainValue(v: Value, t: TypeSpec | undefined, required: boolean, schema: PackageSchema, refCode: RefCode): string {
  if (isRef(v)) {
    if (t?.type)
      throw new Error(`Go's plain form: a reference to a resource where the argument is a ${t.type} (only an untyped argument takes it as it comes)`);
    return refCode(v);
  }
  if (typeof v !== "object") return goScalar(v, t, required);
  if (Array.isArray(v)) {
    const item = t?.items;
    const elems = v.map((x) => {
      const s = goPlainValue(x, item, true, schema, refCode);
      return item?.$ref ? s.replace(/^compute\.\w+/, "") : s; // the element type is implied in a composite literal
    });
    return `${goPlainType(t)}{${elems.join(", ")}}`;
  }
  const fields = v.kind === "object" ? v.fields : v.entries;
  if (!t?.$ref) throw new Error(`an object where the schema has no object type: ${JSON.stringify(fields)}`);
  const type = schema.types[`${TOKEN}${refName(t)}`];
  return `${required ? "" : "&"}compute.${refName(t)}{${Object.entries(fields)
    .map(([k, x]) => `${goName(k)}: ${goPlainValue(x, type.properties[k], type.required?.includes(k) ?? false, schema, refCode)}`)
    .join(", ")}}`;
}

/** A value of an Output-form argument in Go (`compute.GetDisksOutputArgs`): Inputs (`pulumi.String`, `compute.GetDisksFilterArray`). */
function goInputValue(v: Value, t: TypeSpec | undefined, required: boolean, schema: PackageSchema, refCode: RefCode): string {
  if (isRef(v)) return refCode(v);
  if (typeof v !== "object") {
    const kind = typeof v === "string" ? "String" : typeof v === "boolean" ? "Bool" : Number.isInteger(v) ? "Int" : "Float64";
    const lit = typeof v === "string" ? str(v) : String(v);
    return `pulumi.${kind}${t?.type && !required ? "Ptr" : ""}(${lit})`;
  }
  if (Array.isArray(v)) {
    const item = t?.items;
    const array = item?.$ref
      ? `compute.${refName(item)}Array`
      : item?.type && !item.oneOf && item.type !== "array" && item.type !== "object"
        ? `pulumi.${{ string: "String", integer: "Int", number: "Float64", boolean: "Bool" }[item.type]}Array`
        : "pulumi.Array";
    return `${array}{${v.map((x) => goInputValue(x, item, true, schema, refCode)).join(", ")}}`;
  }
  const fields = v.kind === "object" ? v.fields : v.entries;
  if (!t?.$ref) throw new Error(`an object where the schema has no object type: ${JSON.stringify(fields)}`);
  const type = schema.types[`${TOKEN}${refName(t)}`];
  return `${required ? "" : "&"}compute.${refName(t)}Args{${Object.entries(fields)
    .map(([k, x]) => `${goName(k)}: ${goInputValue(x, type.properties[k], type.required?.includes(k) ?? false, schema, refCode)}`)
    .join(", ")}}`;
}

// --- calls ------------------------------------------------------------------------------------------------

/**
 * A read function's call, as an expression of a language (YAML's is a mapping: `yamlInvoke`). `dynamic`: in
 * TypeScript, on the dynamic classes (`pulumi-compute`), whose reads of one item by id take the id itself
 * (`getImage("compute/debian12")`), where the plugin SDK takes `{ id }`.
 */
export function callExpression(lang: Language, form: Form, fn: string, args: Fields, schema: PackageSchema, refCode: RefCode, dynamic = false): string {
  const spec = schema.functions[`${TOKEN}${fn}`];
  const inputs = spec.inputs?.properties ?? {};
  const required = spec.inputs?.required ?? [];
  const names = functionNames(fn, schema);
  const entries = Object.entries(args);
  for (const [k] of entries) if (!(k in inputs)) throw new Error(`${fn}: no argument ${k} in schema.json`);
  switch (lang) {
    case "typescript": {
      const name = form === "plain" ? names.plain : names.output;
      if (dynamic && entries.length === 1 && entries[0][0] === "id" && Object.keys(inputs).length === 1)
        return `compute.${name}(${tsValue(entries[0][1], refCode)})`;
      return `compute.${name}(${entries.length ? tsValue(obj(args), refCode) : ""})`;
    }
    case "python": {
      const name = form === "plain" ? pyName(names.plain) : `${pyName(names.plain)}_output`;
      return `compute.${name}(${entries.map(([k, v]) => `${pyName(k)}=${pyValue(v, inputs[k], refCode)}`).join(", ")})`;
    }
    case "go": {
      const base = goFn(fn, schema);
      if (!spec.inputs) return `compute.${base}${form === "plain" ? "" : "Output"}(ctx)`;
      const fields = entries.map(([k, v]) =>
        form === "plain"
          ? `${goName(k)}: ${goPlainValue(v, inputs[k], required.includes(k), schema, refCode)}`
          : `${goName(k)}: ${goInputValue(v, inputs[k], required.includes(k), schema, refCode)}`,
      );
      return form === "plain"
        ? `compute.${base}(ctx, &compute.${names.goArgs}{${fields.join(", ")}})`
        : `compute.${base}Output(ctx, compute.${names.goOutputArgs}{${fields.join(", ")}})`;
    }
    case "yaml":
      throw new Error("YAML's call is a mapping: yamlInvoke");
  }
}

const obj = (fields: Fields): Value => ({ kind: "object", type: "", fields });

/** A YAML `fn::invoke` under a variable, at `depth`: its lines. `options` (resource options' version and server) when given. */
export function yamlInvoke(fn: string, args: Fields, depth: number, refCode: RefCode, options?: Record<string, string>): string[] {
  const ind = (n: number) => "  ".repeat(n);
  const scalar = (v: Value): string => {
    if (isRef(v)) return str(refCode(v)); // quoted: `${...}` in a flow collection is not plain YAML
    if (typeof v === "string") return /^[A-Za-z][\w./-]*$/.test(v) && !/^(true|false|null|yes|no|on|off)$/i.test(v) ? v : str(v);
    return String(v);
  };
  const flow = (v: Value): string => {
    if (typeof v !== "object" || isRef(v)) return scalar(v);
    if (Array.isArray(v)) return `[${v.map(flow).join(", ")}]`;
    const fields = v.kind === "object" ? v.fields : v.entries;
    return `{ ${Object.entries(fields)
      .map(([k, x]) => `${k}: ${flow(x)}`)
      .join(", ")} }`;
  };
  const lines = [`${ind(depth)}fn::invoke:`, `${ind(depth + 1)}function: ${TOKEN}${fn}`];
  const entries = Object.entries(args);
  if (entries.length) {
    lines.push(`${ind(depth + 1)}arguments:`);
    for (const [k, v] of entries) {
      if (Array.isArray(v) && v.some((x) => typeof x === "object" && !isRef(x))) {
        lines.push(`${ind(depth + 2)}${k}:`, ...v.map((x) => `${ind(depth + 3)}- ${flow(x)}`));
      } else lines.push(`${ind(depth + 2)}${k}: ${flow(v)}`);
    }
  }
  if (options) lines.push(`${ind(depth + 1)}options:`, ...Object.entries(options).map(([k, v]) => `${ind(depth + 2)}${k}: ${v}`));
  return lines;
}

/** The references the arguments hold, in order, each once. */
export function refsOf(args: Fields): Ref[] {
  const out: Ref[] = [];
  const visit = (x: Value): void => {
    if (isRef(x)) {
      if (!out.some((r) => r.of === x.of && r.prop === x.prop)) out.push(x);
    } else if (Array.isArray(x)) x.forEach(visit);
    else if (typeof x === "object") Object.values(x.kind === "object" ? x.fields : x.entries).forEach(visit);
  };
  Object.values(args).forEach(visit);
  return out;
}

/** A resource's output read in a language: `host.id`, `host.id`, `host.ID()`, `${host.id}`. */
export function outputRef(lang: Language, r: Ref): string {
  switch (lang) {
    case "typescript":
      return `${camel(r.of.name)}.${r.prop}`;
    case "python":
      return `${snake(r.of.name)}.${pyName(r.prop)}`;
    case "go":
      return `${camel(r.of.name)}.${r.prop === "id" ? "ID()" : goName(r.prop)}`;
    case "yaml":
      return `\${${r.of.name}.${r.prop}}`;
  }
}

// --- a call as the docs show it ----------------------------------------------------------------------------

/**
 * What a function's doc example reads back: of a list, the first item's `id` (or its first field); of one
 * item, its `label` (or its first field but the id). A path below the result, and the property's TypeSpec.
 */
export function docRead(fn: string, listKey: string | undefined, schema: PackageSchema): { path: string[]; type: TypeSpec; required: boolean } {
  const result = schema.functions[`${TOKEN}${fn}`].outputs;
  const item = listKey ? schema.types[`${TOKEN}${refName(result.properties[listKey].items!)}`] : result;
  const names = Object.keys(item.properties);
  const field = listKey ? (names.includes("id") ? "id" : names[0]) : names.includes("label") ? "label" : names.find((n) => n !== "id")!;
  return { path: listKey ? [listKey, "0", field] : [field], type: item.properties[field], required: item.required?.includes(field) ?? false };
}

/** The variable a doc example names a function's result (`getDisks`: `disks`, `getImage`: `image`; `getType`: `instanceType`, as `type` is Go's keyword). */
export const resultVariable = (fn: string): string => {
  const v = fn.charAt(3).toLowerCase() + fn.slice(4);
  return v === "type" ? "instanceType" : v;
};

/** A Go value of a plain read as an Input, typed by its TypeSpec (`pulumi.StringPtrFromPtr(image.Label)`). */
function goExport(code: string, t: TypeSpec, required: boolean): string {
  const kind = { string: "String", integer: "Int", number: "Float64", boolean: "Bool" }[t.type ?? ""];
  if (!kind) return `pulumi.Any(${code})`;
  return required ? `pulumi.${kind}(${code})` : `pulumi.${kind}PtrFromPtr(${code})`;
}

/**
 * A read function's doc example in a language: the call (its Output form when its arguments refer to
 * resources, else its plain form) and one read of its result, exported as `exportKey`. `refCode` names the
 * resources it refers to. The lines stand in a program's body (Go: a `pulumi.Run` function's; YAML: the
 * `variables:` and `outputs:` entries, at their indentation, under `yaml.variables` and `yaml.outputs`;
 * `yamlOptions`: the invoke's options, a version and a server).
 */
export function callSnippet(
  lang: Language,
  fn: string,
  listKey: string | undefined,
  args: Fields,
  schema: PackageSchema,
  refCode: RefCode,
  exportKey: string,
  dynamic = false,
  yamlOptions?: Record<string, string>,
): { lines: string[]; yaml?: { variables: string[]; outputs: string[] } } {
  const form: Form = refsOf(args).length ? "output" : "plain";
  const v = resultVariable(fn);
  const read = docRead(fn, listKey, schema);
  switch (lang) {
    case "typescript": {
      const path = read.path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join("");
      const exported = form === "output" ? `${v}${path}` : `${v}.then((r) => r${path})`;
      return { lines: [`const ${v} = ${callExpression("typescript", form, fn, args, schema, refCode, dynamic)};`, `export const ${exportKey} = ${exported};`] };
    }
    case "python": {
      const path = read.path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${pyName(p)}`)).join("");
      return {
        lines: [`${pyName(v)} = ${callExpression("python", form, fn, args, schema, refCode)}`, `pulumi.export(${str(exportKey)}, ${pyName(v)}${path})`],
      };
    }
    case "go": {
      if (form === "output") {
        const path = read.path.map((p) => (/^\d+$/.test(p) ? `.Index(pulumi.Int(${p}))` : `.${goName(p)}()`)).join("");
        return { lines: [`${v} := ${callExpression("go", form, fn, args, schema, refCode)}`, `ctx.Export(${str(exportKey)}, ${v}${path})`] };
      }
      const path = read.path.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${goName(p)}`)).join("");
      return {
        lines: [
          `${v}, err := ${callExpression("go", form, fn, args, schema, refCode)}`,
          "if err != nil {",
          "\treturn err",
          "}",
          `ctx.Export(${str(exportKey)}, ${goExport(`${v}${path}`, read.type, read.required)})`,
        ],
      };
    }
    case "yaml": {
      const path = read.path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : `${i ? "." : ""}${p}`)).join("");
      const variables = [`  ${v}:`, ...yamlInvoke(fn, args, 2, refCode, yamlOptions)];
      return { lines: [], yaml: { variables, outputs: [`  ${exportKey}: \${${v}.${path}}`] } };
    }
  }
}
