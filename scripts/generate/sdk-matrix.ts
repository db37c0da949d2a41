/**
 * The SDK matrix: one program per language of the generated SDKs (TypeScript on the plugin SDK, Python, Go,
 * YAML), generated from the registry, that makes every resource of every resource's example and reads back
 * every output of each example's resource through its typed accessor, and calls every read function in each of
 * its forms (the plain one and the Output one; YAML has one) with its example's arguments and reads back
 * every property of its result the same way. Each read is a stack output, named as `reads` says, which
 * tests/e2e/sdk-matrix.e2e.test.ts holds to schema.json's types; `scripts/sdk-matrix` runs every language,
 * the test a sample.
 *
 * The examples are merged as they are (each resource renamed `<type>-<name>`, so that the parents each
 * example makes for itself stay apart), so the matrix runs the very programs the docs show.
 */
import { definitions } from "../../provider/registry";
import { goStatements, pythonStatements, typescriptStatements, yamlSections } from "./example-code";
import { camel, ref, referenced, str, type Example, type Fields, type Ref, type Res, type Value } from "./example-program";
import { callExamples, type CallExample } from "./function-examples";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, PROJECT, PYTHON_SDK_PACKAGE } from "./packages";
import {
  callExpression,
  callSnippet,
  functionNames,
  goName,
  outputRef,
  pyName,
  refsOf,
  resultVariable,
  yamlInvoke,
  type Form,
  type Language,
  type PackageSchema,
} from "./sdk-code";
import { goFile } from "./go-driver";
import { upper } from "./schema-walk";

/** The languages of the generated SDKs, and `dynamic`: TypeScript on the dynamic classes (`pulumi-compute`), the docs' other TypeScript. */
export type MatrixLanguage = Language | "dynamic";
export const MATRIX_LANGUAGES: MatrixLanguage[] = ["typescript", "dynamic", "python", "go", "yaml"];
const TOKEN = "compute:index:";

/** What one stack output of the matrix holds: a resource's outputs, or a function's result. */
export type Read =
  | { key: string; kind: "resource"; type: string; name: string }
  | { key: string; kind: "function"; fn: string; form: Form | "invoke" }
  /** A function's doc example (docs/functions.md), as printed there: its one read. */
  | { key: string; kind: "doc"; fn: string };

export interface Matrix {
  /** Every resource example, merged. */
  program: Example;
  /** Each example's resources of its own type, whose every output is read. */
  resources: Array<{ key: string; res: Res }>;
  /** Every function's example, its references into the merged program. */
  calls: CallExample[];
}

const kebab = (type: string) => type.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

/** Every resource example merged into one program, and every function example's call into it. */
export function matrix(): Matrix {
  const programs = new Map(definitions.map((d) => [d.spec.type, d.example()]));
  const renamed = new Map<Res, Res>();
  const merged: Example = { title: "every resource example", resources: [], outputs: {} };
  const copy = (v: Value): Value => {
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v !== "object") return v;
    if (v.kind === "ref") return ref(renamed.get(v.of)!, v.prop);
    if (v.kind === "object") return { ...v, fields: copyFields(v.fields) };
    return { ...v, entries: Object.fromEntries(Object.entries(v.entries).map(([k, o]) => [k, copy(o)])) } as Value;
  };
  const copyFields = (f: Fields): Fields => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, copy(v)]));
  const resources: Matrix["resources"] = [];
  for (const [type, ex] of programs) {
    const prefix = kebab(type);
    for (const r of ex.resources) {
      const r2: Res = { name: `${prefix}-${r.name}`, type: r.type, props: {} };
      renamed.set(r, r2);
      r2.props = copyFields(r.props);
      merged.resources.push(r2);
      if (r.type === type) resources.push({ key: `res_${camel(r2.name)}`, res: r2 });
    }
    for (const [k, v] of Object.entries(ex.outputs)) merged.outputs[`${camel(prefix)}${upper(k)}`] = copy(v) as Ref;
  }
  const calls = callExamples((t) => programs.get(t)!).map((c) => ({ ...c, program: merged, args: copyFields(c.args) }));
  return { program: merged, resources, calls };
}

/** The stack outputs a language's matrix program exports (every resource read, every call in each of its forms). */
export function reads(m: Matrix, lang: MatrixLanguage): Read[] {
  const forms: Array<Form | "invoke"> = lang === "yaml" ? ["invoke"] : ["plain", "output"];
  return [
    ...m.resources.map(({ key, res }) => ({ key, kind: "resource" as const, type: res.type, name: res.name })),
    ...m.calls.flatMap((c) => forms.map((form) => ({ key: `fn_${c.fn.name}_${form}`, kind: "function" as const, fn: c.fn.name, form }))),
    ...m.calls.map((c) => ({ key: `doc_${c.fn.name}`, kind: "doc" as const, fn: c.fn.name })),
  ];
}

/** A resource's output properties, as schema.json lists them, and its id. */
const outputsOf = (type: string, schema: PackageSchema): string[] => ["id", ...Object.keys(schema.resources[`${TOKEN}${type}`].properties)];
/** A function's result properties. */
const resultOf = (fn: string, schema: PackageSchema): string[] => Object.keys(schema.functions[`${TOKEN}${fn}`].outputs.properties);

// --- TypeScript --------------------------------------------------------------------------------------------

function typescriptProgram(m: Matrix, schema: PackageSchema, dynamic: boolean): string {
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    `import * as compute from "${dynamic ? "pulumi-compute" : NODE_SDK_PACKAGE}";`,
    "",
    ...typescriptStatements(m.program),
    "",
  ];
  for (const { key, res } of m.resources)
    lines.push(
      `export const ${key} = { ${outputsOf(res.type, schema)
        .map((p) => `${p}: ${outputRef("typescript", ref(res, p))}`)
        .join(", ")} };`,
    );
  for (const c of m.calls) {
    const fn = c.fn.name;
    // The result's type as the function declares it (the plugin SDK's `GetDisksResult`, the dynamic classes' own).
    lines.push(
      `const read_${fn} = (r: Awaited<ReturnType<typeof compute.${fn}>>) => ({ ${resultOf(fn, schema)
        .map((p) => `${p}: r.${p}`)
        .join(", ")} });`,
    );
    const refs = refsOf(c.args);
    const plain = (code: (r: Ref) => string) => callExpression("typescript", "plain", fn, c.args, schema, code, dynamic);
    lines.push(
      refs.length
        ? `export const fn_${fn}_plain = pulumi.all([${refs.map((r) => outputRef("typescript", r)).join(", ")}]).apply(([${refs.map((_, i) => `a${i}`).join(", ")}]) => ${plain((r) => `a${refs.indexOf(refs.find((x) => x.of === r.of && x.prop === r.prop)!)}`)}.then(read_${fn}));`
        : `export const fn_${fn}_plain = ${plain(() => "")}.then(read_${fn});`,
      `export const fn_${fn}_output = ${callExpression("typescript", "output", fn, c.args, schema, (r) => outputRef("typescript", r), dynamic)}.apply(read_${fn});`,
      ...callSnippet("typescript", fn, c.fn.listKey, c.args, schema, (r) => outputRef("typescript", r), `doc_${fn}`, dynamic).lines,
    );
  }
  return lines.join("\n") + "\n";
}

// --- Python ------------------------------------------------------------------------------------------------

function pythonProgram(m: Matrix, schema: PackageSchema): string {
  const lines = ["import pulumi", `import ${PYTHON_SDK_PACKAGE} as compute`, "", ...pythonStatements(m.program), ""];
  for (const { key, res } of m.resources)
    lines.push(
      `pulumi.export(${str(key)}, {${outputsOf(res.type, schema)
        .map((p) => `${str(p)}: ${outputRef("python", ref(res, p))}`)
        .join(", ")}})`,
    );
  for (const c of m.calls) {
    const fn = c.fn.name;
    const reader = `read_${pyName(fn)}`;
    lines.push(
      "",
      "",
      `def ${reader}(r):`,
      `    return {${resultOf(fn, schema)
        .map((p) => `${str(p)}: r.${pyName(p)}`)
        .join(", ")}}`,
      "",
      "",
    );
    const refs = refsOf(c.args);
    const index = (r: Ref) => refs.findIndex((x) => x.of === r.of && x.prop === r.prop);
    lines.push(
      refs.length
        ? `pulumi.export(${str(`fn_${fn}_plain`)}, pulumi.Output.all(${refs.map((r) => outputRef("python", r)).join(", ")}).apply(lambda a: ${reader}(${callExpression("python", "plain", fn, c.args, schema, (r) => `a[${index(r)}]`)})))`
        : `pulumi.export(${str(`fn_${fn}_plain`)}, ${reader}(${callExpression("python", "plain", fn, c.args, schema, () => "")}))`,
      `pulumi.export(${str(`fn_${fn}_output`)}, ${callExpression("python", "output", fn, c.args, schema, (r) => outputRef("python", r))}.apply(${reader}))`,
      ...callSnippet("python", fn, c.fn.listKey, c.args, schema, (r) => outputRef("python", r), `doc_${fn}`).lines,
    );
  }
  return lines.join("\n") + "\n";
}

// --- Go ----------------------------------------------------------------------------------------------------

/** The Go program: the matrix as a function of the context, run by the Automation API (scripts/generate/go-driver.ts). */
function goProgram(m: Matrix, schema: PackageSchema): string {
  const ind = (n: number) => "\t".repeat(n);
  const used = new Set<Res>([...referenced(m.program), ...m.resources.map((r) => r.res), ...m.calls.flatMap((c) => refsOf(c.args).map((r) => r.of))]);
  const body = goStatements(m.program, used, 1);
  const readers: string[] = [];
  for (const { key, res } of m.resources)
    body.push(
      `ctx.Export(${str(key)}, pulumi.Map{${outputsOf(res.type, schema)
        .map((p) => `${str(p)}: ${outputRef("go", ref(res, p))}`)
        .join(", ")}})`,
    );
  for (const c of m.calls) {
    const fn = c.fn.name;
    const names = functionNames(fn, schema);
    const reader = `read${upper(fn)}`;
    readers.push(
      "",
      `func ${reader}(r compute.${names.goResult}) map[string]interface{} {`,
      `${ind(1)}return map[string]interface{}{${resultOf(fn, schema)
        .map((p) => `${str(p)}: r.${goName(p)}`)
        .join(", ")}}`,
      "}",
    );
    const refs = refsOf(c.args);
    const index = (r: Ref) => refs.findIndex((x) => x.of === r.of && x.prop === r.prop);
    if (refs.length) {
      body.push(
        `ctx.Export(${str(`fn_${fn}_plain`)}, pulumi.All(${refs.map((r) => outputRef("go", r)).join(", ")}).ApplyT(func(a []interface{}) (map[string]interface{}, error) {`,
        `${ind(1)}r, err := ${callExpression("go", "plain", fn, c.args, schema, (r) => `a[${index(r)}]`)}`,
        `${ind(1)}if err != nil {`,
        `${ind(2)}return nil, err`,
        `${ind(1)}}`,
        `${ind(1)}return ${reader}(*r), nil`,
        "}))",
      );
    } else {
      const v = `plain${upper(fn)}`;
      body.push(
        `${v}, err := ${callExpression("go", "plain", fn, c.args, schema, () => "")}`,
        "if err != nil {",
        `${ind(1)}return err`,
        "}",
        `ctx.Export(${str(`fn_${fn}_plain`)}, pulumi.ToMap(${reader}(*${v})))`,
      );
    }
    body.push(
      `ctx.Export(${str(`fn_${fn}_output`)}, ${callExpression("go", "output", fn, c.args, schema, (r) => outputRef("go", r))}.ApplyT(func(r compute.${names.goResult}) map[string]interface{} {`,
      `${ind(1)}return ${reader}(r)`,
      "}))",
      ...callSnippet("go", fn, c.fn.listKey, c.args, schema, (r) => outputRef("go", r), `doc_${fn}`).lines,
    );
  }
  return goFile("sdk-matrix-go", body, readers, GO_SDK_IMPORT, "The SDK matrix in Go (scripts/generate/sdk-matrix.ts): generated, do not edit.");
}

// --- YAML --------------------------------------------------------------------------------------------------

/** The YAML program; `version` and `pluginDownloadURL` on the first resource and each call find the plugin. */
/** The plugin's version and server, which a YAML program names on a resource (or a call) for the engine to find the plugin. */
const yamlOptions = (version: string) => ({ version, pluginDownloadURL: PROJECT.pluginDownloadURL.replace("${VERSION}", version) });

/** The head of a YAML program and its resources, the first with the plugin's version and server. */
function yamlResources(project: string, description: string, resources: string, version: string): string[] {
  const [first, ...rest] = resources.split(/\n(?= {2}\S)/);
  return [
    `name: ${project}`,
    "runtime: yaml",
    `description: ${description}`,
    "resources:",
    first.trimEnd(),
    "    options:",
    ...Object.entries(yamlOptions(version)).map(([k, v]) => `      ${k}: ${v}`),
    ...rest.map((r) => r.trimEnd()),
  ];
}

function yamlProgram(m: Matrix, schema: PackageSchema, version: string): string {
  const { resources, outputs, mapping } = yamlSections(m.program);
  const options = yamlOptions(version);
  const lines = [...yamlResources("sdk-matrix-yaml", "The SDK matrix in YAML (scripts/generate/sdk-matrix.ts), generated.", resources, version), "variables:"];
  const docOutputs: string[] = [];
  for (const c of m.calls) {
    lines.push(`  fn_${c.fn.name}:`, ...yamlInvoke(c.fn.name, c.args, 2, (r) => outputRef("yaml", r), options));
    // The doc example, its variable renamed (the matrix's `disks` would be any other call's too).
    const doc = callSnippet("yaml", c.fn.name, c.fn.listKey, c.args, schema, (r) => outputRef("yaml", r), `doc_${c.fn.name}`, false, options).yaml!;
    const v = resultVariable(c.fn.name);
    const rename = (l: string) => l.replace(`  ${v}:`, `  doc_${v}:`).replace(`\${${v}.`, `\${doc_${v}.`);
    lines.push(...doc.variables.map(rename));
    docOutputs.push(...doc.outputs.map(rename));
  }
  const reads: Record<string, Value> = {};
  const variable = (name: string): Res => ({ name, type: "", props: {} });
  for (const { key, res } of m.resources)
    reads[key] = { kind: "object", type: "", fields: Object.fromEntries(outputsOf(res.type, schema).map((p) => [p, ref(res, p)])) };
  for (const c of m.calls)
    reads[`fn_${c.fn.name}_invoke`] = {
      kind: "object",
      type: "",
      fields: Object.fromEntries(resultOf(c.fn.name, schema).map((p) => [p, ref(variable(`fn_${c.fn.name}`), p)])),
    };
  lines.push("outputs:", outputs.trimEnd(), mapping(reads, 1).trimEnd(), ...docOutputs);
  return lines.join("\n") + "\n";
}

/**
 * An example program (its resources and outputs only) as the files of a program of `lang`, as the matrix
 * writes its own: for the programs of other suites (a refused input in every language, say). `project` names it.
 */
export function exampleProgram(lang: MatrixLanguage, ex: Example, project: string, version: string): Record<string, string> {
  switch (lang) {
    case "typescript":
    case "dynamic":
      return {
        "index.ts":
          [`import * as compute from "${lang === "dynamic" ? "pulumi-compute" : NODE_SDK_PACKAGE}";`, "", ...typescriptStatements(ex)].join("\n") + "\n",
      };
    case "python":
      return { "__main__.py": ["import pulumi", `import ${PYTHON_SDK_PACKAGE} as compute`, "", ...pythonStatements(ex)].join("\n") + "\n" };
    case "go":
      return {
        "main.go": goFile(project, goStatements(ex, referenced(ex), 1), [], GO_SDK_IMPORT, `${ex.title} (scripts/generate/sdk-matrix.ts' exampleProgram).`),
      };
    case "yaml": {
      const { resources, outputs } = yamlSections(ex);
      return { "Pulumi.yaml": [...yamlResources(project, `${ex.title}.`, resources, version), "outputs:", outputs.trimEnd()].join("\n") + "\n" };
    }
  }
}

/** The files of a language's matrix program, by name (beside them: the project's Pulumi.yaml, written by the runner). */
export function matrixFiles(lang: MatrixLanguage, m: Matrix, schema: PackageSchema, version: string): Record<string, string> {
  switch (lang) {
    case "typescript":
    case "dynamic":
      return { "index.ts": typescriptProgram(m, schema, lang === "dynamic") };
    case "python":
      return { "__main__.py": pythonProgram(m, schema) };
    case "go":
      return { "main.go": goProgram(m, schema) };
    case "yaml":
      return { "Pulumi.yaml": yamlProgram(m, schema, version) };
  }
}
