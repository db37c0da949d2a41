/**
 * The parts of the docs pages that speak each language (docs/resources/*.md, docs/functions.md): a resource's
 * example in TypeScript, Python, Go and YAML (the same program as schema.json's, which the SDK matrix runs in
 * each), the names each SDK gives its properties' types, and a read function's example and names. The type
 * names follow Pulumi's code generators as the generated SDKs have them (tests/integration/examples.test.ts
 * finds each name printed here declared in the SDK of its language).
 */
import type { Field, ResourceSpec } from "../../provider/model/table";
import { definitionOf } from "../../provider/registry";
import { exampleCode } from "./example-code";
import type { Res } from "./example-program";
import type { CallExample } from "./function-examples";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, PYTHON_SDK_PACKAGE } from "./packages";
import { singular } from "./schema-walk";
import {
  callSnippet,
  docRead,
  functionNames,
  outputRef,
  pyName,
  refName,
  refsOf,
  resultVariable,
  type Language,
  type PackageSchema,
  type TypeSpec,
} from "./sdk-code";

const TOKEN = "compute:index:";
const ANY = "pulumi.json#/Any";
const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const block = (lang: string, text: string) => ["```" + lang, text, "```", ""];

/** Which side of the SDK a type is named for: what a program gives (the args), or what it reads (the outputs). */
type Side = "input" | "output";
const PRIMITIVE: Record<string, { ts: string; py: string; go: string }> = {
  string: { ts: "string", py: "str", go: "String" },
  integer: { ts: "number", py: "int", go: "Int" },
  number: { ts: "number", py: "float", go: "Float64" },
  boolean: { ts: "boolean", py: "bool", go: "Bool" },
};

/** A type as the docs say it in no language: `string`, `list of ConfigInterface`, `map of ConfigDevice`, `integer or string`. */
export function neutralType(t: TypeSpec): string {
  if (t.$ref === ANY) return "any JSON";
  if (t.$ref) return refName(t);
  if (t.oneOf) return t.oneOf.map(neutralType).join(" or ");
  if (t.type === "array") return `list of ${neutralType(t.items ?? { $ref: ANY })}`;
  if (t.type === "object") return `map of ${neutralType(t.additionalProperties ?? { $ref: ANY })}`;
  return t.type ?? "any JSON";
}

/** The TypeScript type of the plugin SDK (`inputs.ConfigDevice`, `{[key: string]: inputs.ConfigDevice}`), without its `pulumi.Input<>`. */
export function tsType(t: TypeSpec, side: Side): string {
  if (t.$ref === ANY) return "any";
  if (t.$ref) return `${side === "input" ? "inputs" : "outputs"}.${refName(t)}`;
  if (t.oneOf) return t.oneOf.map((m) => tsType(m, side)).join(" | ");
  if (t.type === "array") {
    const item = tsType(t.items ?? { $ref: ANY }, side);
    return item.includes(" | ") ? `(${item})[]` : `${item}[]`;
  }
  if (t.type === "object") return `{[key: string]: ${tsType(t.additionalProperties ?? { $ref: ANY }, side)}}`;
  return PRIMITIVE[t.type ?? ""]?.ts ?? "any";
}

/** The Python type (`Mapping[str, ConfigDeviceArgs]`, `outputs.ConfigDevice`), without its `pulumi.Input[]`. */
export function pyType(t: TypeSpec, side: Side): string {
  if (t.$ref === ANY) return "Any";
  if (t.$ref) return side === "input" ? `${refName(t)}Args` : `outputs.${refName(t)}`;
  if (t.oneOf) return `Union[${t.oneOf.map((m) => pyType(m, side)).join(", ")}]`;
  if (t.type === "array") return `Sequence[${pyType(t.items ?? { $ref: ANY }, side)}]`;
  if (t.type === "object") return `Mapping[str, ${pyType(t.additionalProperties ?? { $ref: ANY }, side)}]`;
  return PRIMITIVE[t.type ?? ""]?.py ?? "Any";
}

/** The Go type of a resource's args field or output (`ConfigDeviceMapInput`, `pulumi.StringPtrOutput`). */
export function goType(t: TypeSpec, side: Side, required: boolean): string {
  const suffix = side === "input" ? "Input" : "Output";
  const named = (base: string, container: "" | "Array" | "Map") => {
    const ptr = container === "" && !required && !base.startsWith("pulumi.Any") ? "Ptr" : "";
    return `${base}${container}${ptr}${suffix}`;
  };
  const base = (x: TypeSpec | undefined): string | undefined => {
    if (!x || x.$ref === ANY || x.oneOf) return undefined;
    if (x.$ref) return refName(x);
    const p = PRIMITIVE[x.type ?? ""];
    return p ? `pulumi.${p.go}` : undefined;
  };
  if (t.type === "array" || (t.type === "object" && !t.$ref)) {
    const inner = t.type === "array" ? t.items : t.additionalProperties;
    const b = base(inner);
    const container = t.type === "array" ? "Array" : "Map";
    return b ? `${b}${container}${suffix}` : `pulumi.${container}${suffix}`;
  }
  const b = base(t);
  if (!b) return side === "input" ? "pulumi.Input" : "pulumi.AnyOutput";
  return named(b, "");
}

/** A type is worth a row of its own per language when it is not a plain string, number or boolean. */
const isPlain = (t: TypeSpec) => !!t.type && t.type !== "array" && t.type !== "object" && !t.oneOf && !t.$ref;

/** Every named object type a type refers to, and those they refer to, each with the sides it is used on. */
function namedTypes(t: TypeSpec, side: Side, schema: PackageSchema, seen: Map<string, Set<Side>>): void {
  const visit = (x: TypeSpec | undefined): void => {
    if (!x) return;
    if (x.$ref && x.$ref !== ANY) {
      const sides = seen.get(refName(x)) ?? new Set<Side>();
      const known = sides.has(side);
      seen.set(refName(x), sides.add(side));
      if (!known) for (const p of Object.values(schema.types[`${TOKEN}${refName(x)}`].properties)) visit(p);
    }
    visit(x.items);
    visit(x.additionalProperties);
    x.oneOf?.forEach(visit);
  };
  visit(t);
}

/** How each SDK names a named type on the sides it is used on (an argument's `...Args`, an output's own name). */
function typeNames(name: string, sides: Set<Side>): string {
  const per = (input: string, output: string) => [sides.has("input") ? input : "", sides.has("output") ? output : ""].filter(Boolean).join(" / ");
  return `TypeScript ${per(`\`inputs.${name}\``, `\`outputs.${name}\``)}, Python ${per(`\`${name}Args\``, `\`outputs.${name}\``)}, Go ${per(`\`${name}Args\``, `\`${name}\``)}`;
}

/** A resource's example in every language, for its page: the same program as schema.json's description, which the SDK matrix runs. */
export function resourceExampleSection(type: string): string[] {
  const ex = definitionOf(type).example();
  const dynamic = exampleCode(ex, { nodePackage: "pulumi-compute" });
  const plugin = exampleCode(ex);
  return [
    "## Example",
    "",
    `${ex.title}.`,
    "",
    `TypeScript, with the dynamic classes (\`pulumi-compute\`); with the plugin SDK the program is the same but for its import, \`import * as compute from "${NODE_SDK_PACKAGE}";\`:`,
    "",
    ...block("ts", dynamic.typescript),
    `Python (\`${PYTHON_SDK_PACKAGE}\`):`,
    "",
    ...block("python", plugin.python),
    `Go (\`${GO_SDK_IMPORT}\`):`,
    "",
    ...block("go", plugin.go),
    "YAML (a program names the plugin's version once, on one resource: the README's Install section):",
    "",
    ...block("yaml", plugin.yaml),
  ];
}

/** The names each SDK gives a resource's properties of other than plain types, and the fields of the named types they use. */
export function resourceTypesSection(spec: ResourceSpec, schema: PackageSchema): string[] {
  const r = schema.resources[`${TOKEN}${spec.type}`];
  const rows: string[] = [];
  const named = new Map<string, Set<Side>>();
  for (const f of spec.fields.filter((x: Field) => !x.name.startsWith("__"))) {
    const side: Side = f.kind === "input" ? "input" : "output";
    const t = side === "input" ? r.inputProperties[f.name] : r.properties[f.name];
    if (!t || isPlain(t)) continue;
    // An input is an output too: its types are named on both sides.
    namedTypes(t, side, schema, named);
    if (side === "input" && r.properties[f.name]) namedTypes(r.properties[f.name], "output", schema, named);
    const required = side === "input" ? (r.requiredInputs ?? []).includes(f.name) : (r.required ?? []).includes(f.name);
    rows.push(
      `| ${code(f.name)} | ${side === "input" ? "argument" : "output"} | ${cell(code(tsType(t, side)))} | ${cell(code(pyType(t, side)))} | ${code(goType(t, side, required))} |`,
    );
  }
  if (!rows.length) return [];
  const out = [
    "## Types in each language",
    "",
    `The properties whose type is not a plain string, number or boolean, as each SDK names it: an argument's type (what a program gives; TypeScript and Python also take an Output of it) and an output's (what a program reads). TypeScript's are the plugin SDK's (\`compute.types.input\` and \`compute.types.output\`; the dynamic classes take the same shapes as plain objects); Python also takes a dict for an \`...Args\` class (its \`...ArgsDict\`). YAML writes them as mappings and lists.`,
    "",
    "| Property | As | TypeScript | Python | Go |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ];
  for (const [name, sides] of [...named].sort(([x], [y]) => x.localeCompare(y))) {
    const t = schema.types[`${TOKEN}${name}`];
    const fields = Object.entries(t.properties);
    const said = fields.some(([, p]) => (p as { description?: string }).description);
    out.push(
      `**${name}** (${typeNames(name, sides)}):`,
      "",
      `| Field | Type | Required |${said ? " Description |" : ""}`,
      `|---|---|---|${said ? "---|" : ""}`,
      ...fields.map(([k, p]) => {
        const py = pyName(k) === k ? "" : ` (Python \`${pyName(k)}\`)`;
        const description = said ? ` ${cell((p as { description?: string }).description ?? "")} |` : "";
        return `| ${code(k)}${py} | ${cell(neutralType(p))} | ${t.required?.includes(k) ? "yes" : "no"} |${description}`;
      }),
      "",
    );
  }
  return out;
}

const LANGUAGES: Array<[Language, string, string]> = [
  ["typescript", "ts", "TypeScript"],
  ["python", "python", "Python"],
  ["go", "go", "Go"],
  ["yaml", "yaml", "YAML"],
];

/** The names the example's resources go by in a language (the example program's own variables). */
const refCodeOf = (lang: Language) => (r: { of: Res; prop: string }) => outputRef(lang, { kind: "ref", ...r });

/** A read function's example in every language, and its names in each SDK, for docs/functions.md. */
export function functionExampleSection(c: CallExample, schema: PackageSchema): string[] {
  const fn = c.fn.name;
  const names = functionNames(fn, schema);
  const refs = refsOf(c.args);
  const field = docRead(fn, c.fn.listKey, schema).path.at(-1)!;
  const exportKey = c.fn.listKey ? `first${upperFirst(singular(c.fn.listKey))}${upperFirst(field)}` : `${resultVariable(fn)}${upperFirst(field)}`;
  let head = `**Example: ${c.title}.**`;
  if (refs.length) {
    const used = [...new Set(refs.map((r) => r.of))];
    const page = c.uses ? `resources/${c.uses.replace(/[A-Z]/g, (ch, i: number) => (i ? "-" : "") + ch.toLowerCase())}.md#example` : undefined;
    head += ` It reads what ${page ? `[the ${c.uses} example](${page})` : "a program"} makes (${used.map((r) => `\`${r.name}\`, ${a(r.type)} ${r.type}`).join("; ")}), so it takes the Output form, which waits for them.`;
  }
  const out = [head, ""];
  const single = Object.keys(c.args).length === 1 && "id" in c.args;
  for (const [lang, fence, title] of LANGUAGES) {
    const snippet = callSnippet(lang, fn, c.fn.listKey, c.args, schema, refCodeOf(lang), exportKey);
    const text = snippet.yaml ? ["variables:", ...snippet.yaml.variables, "outputs:", ...snippet.yaml.outputs].join("\n") : snippet.lines.join("\n");
    const note =
      lang === "typescript"
        ? ` (the plugin SDK; the dynamic classes take the same call${single ? `, but the id itself: \`compute.${fn}(${JSON.stringify(c.args.id)})\`` : ""})`
        : "";
    out.push(`${title}${note}:`, "", ...block(fence, text));
  }
  const filter = schema.functions[`${TOKEN}${fn}`].inputs?.properties.filters;
  const filterType = filter?.items?.$ref ? refName(filter.items) : undefined;
  const pyFn = pyName(fn);
  const goBase = names.goArgs.replace(/Args$/, "");
  const item = c.fn.listKey ? c.fn.item : undefined;
  const takesArgs = !!schema.functions[`${TOKEN}${fn}`].inputs;
  out.push(
    "| | The call (plain form; Output form) | A filter | The result |",
    "|---|---|---|---|",
    `| TypeScript | \`compute.${fn}\`; \`compute.${names.output}\` | ${filterType ? `\`inputs.${filterType}\`; \`inputs.${filterType}Args\`` : "-"} | \`compute.${upperFirst(fn)}Result\`${item ? `, items \`outputs.${item}\`` : ""} |`,
    `| Python | \`compute.${pyFn}\`; \`compute.${pyFn}_output\` | ${filterType ? `\`compute.${filterType}\`` : "-"} | \`compute.${upperFirst(fn)}Result\`${item ? `, items \`outputs.${item}\`` : ""} |`,
    `| Go | ${takesArgs ? `\`compute.${goBase}\` (\`*compute.${names.goArgs}\`); \`compute.${goBase}Output\` (\`compute.${names.goOutputArgs}\`)` : `\`compute.${goBase}(ctx)\`; \`compute.${goBase}Output(ctx)\``} | ${filterType ? `\`compute.${filterType}\`; \`compute.${filterType}Args\`` : "-"} | \`compute.${names.goResult}\`${item ? `, items \`compute.${item}\`` : ""} |`,
    `| YAML | \`fn::invoke\` of \`compute:index:${fn}\` | ${filterType ? "a mapping `{ name, values }`" : "-"} | its properties: \`\${<variable>.<property>}\` |`,
    "",
  );
  return out;
}

const a = (type: string) => (/^[AEIOU]/.test(type) ? "an" : "a");
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
