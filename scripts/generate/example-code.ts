/**
 * An example program (provider/model/example.ts; the names in example-program.ts) printed in each language
 * of the SDKs, by one small printer per language over the same data, so the four cannot drift apart:
 * TypeScript and Python on their generated SDKs (or the dynamic classes, for the docs pages), Go laid out as
 * gofmt does, and Pulumi YAML.
 */
import {
  camel,
  isRef,
  isScalar,
  isSmall,
  pascal,
  referenced,
  snake,
  str,
  type Example,
  type Fields,
  type MapOf,
  type Obj,
  type Res,
  type Value,
} from "./example-program";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, PYTHON_SDK_PACKAGE } from "./packages";

/** The languages of each example, in the order they appear. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** An example's code in every language. */
export function exampleCode(ex: Example, opts: { nodePackage?: string } = {}): Record<ExampleLanguage, string> {
  return { typescript: typescript(ex, opts.nodePackage ?? NODE_SDK_PACKAGE), python: python(ex), go: go(ex), yaml: yaml(ex) };
}

// --- TypeScript (the generated Node.js SDK) -----------------------------------------------------------------

const typescript = (ex: Example, nodePackage: string): string => [`import * as compute from "${nodePackage}";`, "", ...typescriptStatements(ex)].join("\n");

/** The statements of an example in TypeScript (without its import): its resources, then its exports. */
export function typescriptStatements(ex: Example): string[] {
  const ind = (n: number) => "    ".repeat(n);
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : str(k));
  const value = (v: Value, depth: number): string => {
    if (typeof v === "string") return str(v);
    if (typeof v !== "object") return String(v);
    if (isRef(v)) return `${camel(v.of.name)}.${v.prop}`;
    if (Array.isArray(v)) {
      if (v.every(isScalar)) return `[${v.map((x) => value(x, depth)).join(", ")}]`;
      return `[\n${v.map((x) => `${ind(depth + 1)}${value(x, depth + 1)},\n`).join("")}${ind(depth)}]`;
    }
    if (v.kind === "object" && !Object.keys(v.fields).length) return "{}";
    if (v.kind === "object" && isSmall(v))
      return `{ ${Object.entries(v.fields)
        .map(([k, x]) => `${key(k)}: ${value(x, depth)}`)
        .join(", ")} }`;
    return object(v.kind === "object" ? v.fields : v.entries, depth);
  };
  const object = (fields: Fields, depth: number) =>
    `{\n${Object.entries(fields)
      .map(([k, x]) => `${ind(depth + 1)}${key(k)}: ${value(x, depth + 1)},\n`)
      .join("")}${ind(depth)}}`;
  const lines: string[] = [];
  for (const r of ex.resources)
    lines.push(`const ${camel(r.name)} = new compute.${r.type}(${str(r.name)}, ${object(r.props, 0)}${r.options?.protect ? ", { protect: true }" : ""});`);
  for (const [k, v] of Object.entries(ex.outputs)) lines.push(`export const ${k} = ${value(v, 0)};`);
  return lines;
}

// --- Python (the generated Python SDK) --------------------------------------------------------------------

const python = (ex: Example): string => ["import pulumi", `import ${PYTHON_SDK_PACKAGE} as compute`, "", ...pythonStatements(ex)].join("\n");

/** The statements of an example in Python (without its imports): its resources, then its exports. */
export function pythonStatements(ex: Example): string[] {
  const ind = (n: number) => "    ".repeat(n);
  const value = (v: Value, depth: number): string => {
    if (typeof v === "string") return str(v);
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "number") return String(v);
    if (isRef(v)) return `${snake(v.of.name)}.${snake(v.prop)}`;
    if (Array.isArray(v)) {
      if (v.every(isScalar)) return `[${v.map((x) => value(x, depth)).join(", ")}]`;
      return `[\n${v.map((x) => `${ind(depth + 1)}${value(x, depth + 1)},\n`).join("")}${ind(depth)}]`;
    }
    if (v.kind === "map") {
      return `{\n${Object.entries(v.entries)
        .map(([k, x]) => `${ind(depth + 1)}${str(k)}: ${value(x, depth + 1)},\n`)
        .join("")}${ind(depth)}}`;
    }
    if (isSmall(v))
      return `compute.${v.type}Args(${Object.entries(v.fields)
        .map(([k, x]) => `${snake(k)}=${value(x, depth)}`)
        .join(", ")})`;
    return `compute.${v.type}Args(\n${kwargs(v.fields, depth + 1)}${ind(depth)})`;
  };
  const kwargs = (fields: Fields, depth: number) =>
    Object.entries(fields)
      .map(([k, x]) => `${ind(depth)}${snake(k)}=${value(x, depth)},\n`)
      .join("");
  const lines: string[] = [];
  for (const r of ex.resources) {
    const opts = r.options?.protect ? `${ind(1)}opts=pulumi.ResourceOptions(protect=True),\n` : "";
    lines.push(`${snake(r.name)} = compute.${r.type}(\n${ind(1)}${str(r.name)},\n${kwargs(r.props, 1)}${opts})`);
  }
  for (const [k, v] of Object.entries(ex.outputs)) lines.push(`pulumi.export(${str(k)}, ${value(v, 0)})`);
  return lines;
}

// --- Go (the generated Go SDK), laid out as gofmt does -----------------------------------------------------

/** A Go string literal: JSON's, with the byte order mark escaped (Go refuses one in its source). */
const goStr = (s: string) => str(s).replace(/\uFEFF/g, "\\uFEFF");

function go(ex: Example): string {
  const ind = (n: number) => "\t".repeat(n);
  const imports = [GO_SDK_IMPORT, "github.com/pulumi/pulumi/sdk/v3/go/pulumi"].sort();
  return [
    "package main",
    "",
    "import (",
    ...imports.map((i) => `${ind(1)}${str(i)}`),
    ")",
    "",
    "func main() {",
    `${ind(1)}pulumi.Run(func(ctx *pulumi.Context) error {`,
    ...goStatements(ex).map((l) => `${ind(2)}${l}`),
    `${ind(2)}return nil`,
    `${ind(1)}})`,
    "}",
  ].join("\n");
}

/**
 * The statements of an example in Go, at the indentation of a function's body (without its `return nil`): its
 * resources, each with its error check, then its exports. A resource no statement refers to is assigned to
 * `_`, unless `used` holds it (code added after these statements refers to it). `depth`: the body's indentation.
 */
export function goStatements(ex: Example, used: Set<Res> = referenced(ex), depth = 2): string[] {
  const ind = (n: number) => "\t".repeat(n);
  const scalar = (v: string | number | boolean) =>
    typeof v === "string" ? `pulumi.String(${goStr(v)})` : typeof v === "number" ? `pulumi.Int(${v})` : `pulumi.Bool(${String(v)})`;
  const value = (v: Value, depth: number): string => {
    if (typeof v !== "object") return scalar(v);
    if (isRef(v)) return `${camel(v.of.name)}.${v.prop === "id" ? "ID()" : pascal(v.prop)}`;
    if (Array.isArray(v)) {
      if (v.every(isScalar)) {
        const kind = v.some((x) => typeof x === "number") ? "Int" : v.some((x) => typeof x === "boolean") ? "Bool" : "String";
        return `pulumi.${kind}Array{${v.map((x) => value(x, depth)).join(", ")}}`;
      }
      const item = (v[0] as Obj).type;
      return `compute.${item}Array{\n${v.map((x) => `${ind(depth + 1)}${value(x, depth + 1)},\n`).join("")}${ind(depth)}}`;
    }
    if (v.kind === "map") return `compute.${v.type}Map{\n${entries(Object.entries(v.entries), depth + 1, str)}${ind(depth)}}`;
    if (isSmall(v))
      return `&compute.${v.type}Args{${Object.entries(v.fields)
        .map(([k, x]) => `${pascal(k)}: ${value(x, depth)}`)
        .join(", ")}}`;
    return `&compute.${v.type}Args{\n${entries(Object.entries(v.fields), depth + 1, pascal)}${ind(depth)}}`;
  };
  // gofmt aligns the values of consecutive one-line `key: value` entries; an entry over several lines
  // stands alone and ends the run.
  const entries = (list: Array<[string, Value]>, depth: number, keyOf: (k: string) => string) => {
    const rendered = list.map(([k, x]) => ({ key: `${keyOf(k)}:`, value: value(x, depth) }));
    let out = "";
    for (let i = 0; i < rendered.length;) {
      let j = i;
      while (j < rendered.length && !rendered[j].value.includes("\n")) j++;
      if (j === i) {
        out += `${ind(depth)}${rendered[i].key} ${rendered[i].value},\n`;
        i++;
        continue;
      }
      const width = Math.max(...rendered.slice(i, j).map((e) => e.key.length));
      for (const e of rendered.slice(i, j)) out += `${ind(depth)}${e.key.padEnd(width)} ${e.value},\n`;
      i = j;
    }
    return out;
  };
  const body: string[] = [];
  let errDeclared = false;
  for (const r of ex.resources) {
    const name = used.has(r) ? camel(r.name) : "_";
    const assign = name !== "_" || !errDeclared ? ":=" : "=";
    errDeclared = true;
    body.push(
      `${name}, err ${assign} compute.New${r.type}(ctx, ${str(r.name)}, &compute.${r.type}Args{\n${entries(Object.entries(r.props), depth + 1, pascal)}${ind(depth)}}${r.options?.protect ? ", pulumi.Protect(true)" : ""})`,
      "if err != nil {",
      `${ind(1)}return err`,
      "}",
    );
  }
  for (const [k, v] of Object.entries(ex.outputs)) body.push(`ctx.Export(${str(k)}, ${value(v, depth)})`);
  return body;
}

// --- YAML (a Pulumi YAML program) -------------------------------------------------------------------------

function yaml(ex: Example): string {
  const { resources, outputs } = yamlSections(ex);
  return `resources:\n${resources}outputs:\n${outputs}`.trimEnd();
}

/**
 * An example's YAML sections: the entries of `resources:` and of `outputs:` (each at their indentation under
 * the section's key), and the printer of a mapping's entries at a depth, for more of them.
 */
export function yamlSections(ex: Example): { resources: string; outputs: string; mapping: (fields: Record<string, Value>, depth: number) => string } {
  const ind = (n: number) => "  ".repeat(n);
  // What YAML would read as another scalar is quoted: a boolean or null of YAML 1.1 or 1.2, a number (`1e3`, `0x10`, `1_000`, `1.`).
  const notString = /^(true|false|null|yes|no|on|off|y|n|[\d.]+|[-+]?(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(e[-+]?\d+)?|[-+]?0(x[\da-f_]+|o[0-7_]+|b[01_]+))$/i;
  const plain = (s: string) => /^[A-Za-z0-9/][\w./ -]*$/.test(s) && !notString.test(s) && !s.endsWith(" ");
  const scalar = (v: Value): string => {
    // A literal `$` is written `$$` (Pulumi YAML reads `${...}` in any string as an interpolation, and `$$` as `$`).
    if (typeof v === "string") return plain(v) ? v : str(v.replace(/\$/g, () => "$$"));
    if (isRef(v)) return `\${${v.of.name}.${v.prop}}`;
    return String(v);
  };
  // A mapping's entries at `depth`, each `key: value` or `key:` and its block below.
  const mapping = (fields: Record<string, Value>, depth: number): string =>
    Object.entries(fields)
      .map(([k, x]) => {
        if (isScalar(x)) return `${ind(depth)}${k}: ${scalar(x)}\n`;
        if (isEmpty(x)) return `${ind(depth)}${k}: ${Array.isArray(x) ? "[]" : "{}"}\n`;
        return `${ind(depth)}${k}:\n${block(x, depth + 1)}`;
      })
      .join("");
  const isEmpty = (v: Value) =>
    Array.isArray(v) ? !v.length : typeof v === "object" && !isRef(v) && !Object.keys(v.kind === "object" ? v.fields : v.entries).length;
  const block = (v: Value, depth: number): string => {
    if (Array.isArray(v)) {
      return v
        .map((x) => {
          if (isScalar(x)) return `${ind(depth)}- ${scalar(x)}\n`;
          // A mapping as a list item: its first line after the dash, the others under it.
          const inner = block(x, depth + 1);
          return `${ind(depth)}- ${inner.slice(ind(depth + 1).length)}`;
        })
        .join("");
    }
    const o = v as Obj | MapOf;
    return mapping(o.kind === "object" ? o.fields : o.entries, depth);
  };
  let resources = "";
  for (const r of ex.resources) {
    resources += `${ind(1)}${r.name}:\n${ind(2)}type: compute:index:${r.type}\n${ind(2)}properties:\n${mapping(r.props, 3)}`;
    const options = Object.entries(r.options ?? {}).filter(([, v]) => v !== undefined);
    if (options.length) resources += `${ind(2)}options:\n${options.map(([k, v]) => `${ind(3)}${k}: ${scalar(v)}\n`).join("")}`;
  }
  return { resources, outputs: mapping(ex.outputs, 1), mapping };
}
