import * as path from "node:path";
import * as ts from "typescript";
import { z } from "zod";
import { definitions } from "../../provider/registry";
import type { Field } from "../../provider/model/table";

/**
 * The generated sdk classes (sdk/<resource>.ts, `npm run gen:schema`) held to their tables with the TypeScript
 * compiler: each class's args are the table's inputs and its outputs every field, and each property's type
 * takes a value of the field's type and refuses a value of another (so no property is `any` or of the wrong
 * kind). The values are made here from the fields' JSON Schema, apart from the generator's own code.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const SDK = path.join(ROOT, "sdk");
type Json = Record<string, unknown>;

const visible = (fs: readonly Field[]) => fs.filter((f) => !f.name.startsWith("__"));
const isAny = (js: Json) => Object.keys(js).filter((k) => k !== "$schema" && k !== "description").length === 0;
const jsonOf = (f: Field, io: "input" | "output"): Json => {
  if (!f.schema) return f.outputType === "array" ? { type: "array", items: { type: f.itemType ?? "string" } } : { type: f.outputType ?? "string" };
  const js = z.toJSONSchema(f.schema, { io, unrepresentable: "any" }) as Json;
  return io === "output" && isAny(js) ? jsonOf(f, "input") : js;
};

/** The JSON kind of a schema node. */
function kinds(js: Json): string[] {
  const m = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (m) return [...new Set(m.flatMap(kinds))];
  if (Array.isArray(js.enum)) return [typeof js.enum[0] === "number" ? "number" : "string"];
  if (js.const !== undefined) return [typeof js.const === "number" ? "number" : "string"];
  if (Array.isArray(js.type)) return [...new Set((js.type as string[]).flatMap((type) => kinds({ ...js, type })))];
  if (js.type === "integer") return ["number"];
  return typeof js.type === "string" ? [js.type] : ["any"];
}
/** A value (TypeScript source) of a kind the node does not take, or undefined when it takes anything. */
function wrong(js: Json): string | undefined {
  const k = kinds(js);
  if (k.includes("any")) return undefined;
  return ["true", "12345", '"x"', "[1]", "{ zz: 1 }"].find(
    (v) => !k.includes(v === "true" ? "boolean" : v === "12345" ? "number" : v === '"x"' ? "string" : v === "[1]" ? "array" : "object"),
  );
}
/** A value (TypeScript source) the node takes: every property of an object, one item of a list. */
function good(js: Json): string {
  const m = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (m) return good(m.find((x) => x.type !== "null" && x.maxItems !== 0) ?? m[0]);
  if (Array.isArray(js.type)) return good({ ...js, type: (js.type as string[]).find((t) => t !== "null") });
  if (Array.isArray(js.enum)) return JSON.stringify(js.enum[0]);
  if (js.const !== undefined) return JSON.stringify(js.const);
  switch (js.type) {
    case "string":
      return '"x"';
    case "integer":
    case "number":
      return "1";
    case "boolean":
      return "true";
    case "null":
      return "null";
    case "array":
      return `[${js.items && !isAny(js.items as Json) ? good(js.items as Json) : "1"}]`;
    case "object": {
      const props = js.properties as Record<string, Json> | undefined;
      if (props)
        return `{ ${Object.entries(props)
          .map(([k, v]) => `${k}: ${good(v)}`)
          .join(", ")} }`;
      const add = js.additionalProperties as Json | undefined;
      return `{ k: ${add && !isAny(add) ? good(add) : "{}"} }`;
    }
    default:
      return "{}";
  }
}

/** The probe: one line per check, errors expected where a line says so. */
function probe(): string {
  const lines = ['import * as pulumi from "@pulumi/pulumi";', 'import * as sdk from "./index";', "type U<T> = T extends pulumi.Output<infer V> ? V : never;"];
  for (const d of definitions) {
    const type = d.spec.type;
    const args = d.sdk.argsName ?? `${type}Args`;
    const inputs = visible(d.spec.fields).filter((f) => f.kind === "input");
    const base = inputs.filter((f) => f.required).map((f) => `${f.name}: ${good(jsonOf(f, "input"))}`);
    lines.push(`declare const r${type}: sdk.${type};`);
    for (const f of inputs) {
      const js = jsonOf(f, "input");
      const others = base.filter((b) => !b.startsWith(`${f.name}:`));
      lines.push(`export const ok${type}_${f.name}: sdk.${args} = { ${[...others, `${f.name}: ${good(js)}`].join(", ")} };`);
      const bad = wrong(js);
      if (bad) lines.push("// @ts-expect-error", `export const bad${type}_${f.name}: sdk.${args} = { ${[...others, `${f.name}: ${bad}`].join(", ")} };`);
    }
    for (const f of visible(d.spec.fields)) {
      const js = jsonOf(f, "output");
      lines.push(`export const out${type}_${f.name}: U<typeof r${type}.${f.name}> = ${good(js)};`);
      const bad = wrong(js);
      if (bad) lines.push("// @ts-expect-error", `export const outBad${type}_${f.name}: U<typeof r${type}.${f.name}> = ${bad};`);
    }
  }
  return lines.join("\n") + "\n";
}

const PROBE = path.join(SDK, "__types_probe.ts");
const options: ts.CompilerOptions = {
  strict: true,
  skipLibCheck: true,
  types: [],
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
};
const host = ts.createCompilerHost(options);
const source = probe();
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (file, lang, ...rest) => (path.resolve(file) === PROBE ? ts.createSourceFile(file, source, lang) : getSourceFile(file, lang, ...rest));
const fileExists = host.fileExists.bind(host);
host.fileExists = (file) => path.resolve(file) === PROBE || fileExists(file);
const program = ts.createProgram([PROBE], options, host);
const checker = program.getTypeChecker();

test("every property's type takes a value of its field's type and refuses another (no any, no wrong kind)", () => {
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    const line = d.file && d.start !== undefined ? source.split("\n")[d.file.getLineAndCharacterOfPosition(d.start).line] : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")} ${line ?? ""}`;
  });
  expect(errors).toEqual([]);
  // Two checks per field at least: the probe is not empty.
  expect(source.split("\n").length).toBeGreaterThan(400);
});

test.each(definitions.map((d) => [d.spec.type, d] as const))("the %s class's args are its table's inputs and its outputs every field", (type, d) => {
  const index = checker.getSymbolAtLocation(program.getSourceFile(path.join(SDK, "index.ts"))!)!;
  const exported = new Map(checker.getExportsOfModule(index).map((s) => [s.getName(), s]));
  const resolve = (name: string) => {
    const s = exported.get(name)!;
    return s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  };
  const cls = resolve(type);
  const own = (p: ts.Symbol) => p.declarations?.some((x) => x.getSourceFile().fileName.startsWith(SDK));
  const outputs = checker
    .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(cls))
    .filter(own)
    .map((p) => p.getName());
  const args = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(resolve(d.sdk.argsName ?? `${type}Args`))).map((p) => p.getName());
  const fields = visible(d.spec.fields);
  expect(outputs.sort()).toEqual(fields.map((f) => f.name).sort());
  expect(args.sort()).toEqual(
    fields
      .filter((f) => f.kind === "input")
      .map((f) => f.name)
      .sort(),
  );
});
