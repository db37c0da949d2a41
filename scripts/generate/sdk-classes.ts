import type { ResourceDefinition } from "../../provider/definition";
import type { Field } from "../../provider/model/table";
import { alwaysReported, describedField, fieldJson, mayBeNullJson, outputJsonOf, visible } from "./field-schema";
import { propertyName, type Json } from "./schema-walk";
import { doc } from "./ts";
import { enumDeclaration, inputType, outputType, TypeRegistry } from "./ts-types";

/**
 * The sdk classes of pulumi-compute (sdk/<file>.ts), generated from the definitions like sdk/lookups.ts:
 * typed args and outputs with the table's descriptions as doc comments, the enums of their fields, and the
 * named object types they share (sdk/types.ts). Each class is a dynamic resource registered through the
 * serialized shim (sdk/shim.ts) with the props and secrets of sdk/tables.ts.
 */

const HEADER = "// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.";
/** Said in a file that declares enums. */
const ENUM_NOTE = [
  "// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.",
  "/* eslint-disable @typescript-eslint/no-redundant-type-constituents */",
];

/** A field's doc comment: its description, saying it is a secret if the description does not. */
const described = (f: Field) => (f.secret && !/secret/i.test(f.description) ? `${describedField(f)} Secret.` : describedField(f));

function argsOf(d: ResourceDefinition, reg: TypeRegistry): string[] {
  const name = d.sdk.argsName ?? `${d.spec.type}Args`;
  const out = [doc(`The arguments of ${d.spec.type}: its inputs.`), `export interface ${name} {`];
  for (const f of visible(d.spec.fields).filter((x) => x.kind === "input")) {
    const t = inputType(fieldJson(f), propertyName(d.spec.type, f.name), reg, f.description);
    out.push(doc(described(f), "  "), `  ${f.name}${f.required ? "" : "?"}: pulumi.Input<${t}>;`);
  }
  out.push("}");
  for (const alias of d.sdk.argsAliases ?? []) out.push(doc(`The name of \`${name}\` in earlier releases.`), `export type ${alias} = ${name};`);
  return out;
}

function classOf(d: ResourceDefinition, reg: TypeRegistry): string[] {
  const { spec } = d;
  const args = d.sdk.argsName ?? `${spec.type}Args`;
  const children = spec.fields.filter((f) => f.inPath).map((f) => `\`${f.name}\``);
  const out = [
    doc(`${spec.description} See docs/resources/${spec.type.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())}.md.`),
    `export class ${spec.type} extends pulumi.dynamic.Resource {`,
  ];
  for (const f of visible(spec.fields)) {
    const t = outputType(outputJsonOf(f), propertyName(spec.type, f.name), reg, Boolean(f.partial));
    out.push(
      doc(described(f), "  "),
      `  declare readonly ${f.name}: pulumi.Output<${t}${alwaysReported(f) || mayBeNullJson(fieldJson(f)) ? "" : " | undefined"}>;`,
    );
  }
  out.push(
    "",
    doc(
      `Reads an existing ${spec.type} by its id, without managing it (Pulumi's \`get\`): its outputs are what the API shows.${children.length ? ` A child resource: give its parent's id in \`state\` (${children.join(", ")}).` : ""}`,
      "  ",
    ),
    `  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<${args}>, opts?: pulumi.CustomResourceOptions): ${spec.type} {`,
    `    return new ${spec.type}(name, ${spec.fields.some((f) => f.kind === "input" && f.required) ? `(state ?? {}) as ${args}` : "state ?? {}"}, { ...opts, id });`,
    "  }",
    "",
    `  constructor(name: string, args: ${args}, opts?: pulumi.CustomResourceOptions) {`,
    `    super(provider, name, ...registration("${spec.type}", name, args, opts), "compute", "${spec.type}");`,
    "  }",
    "}",
  );
  return out;
}

/** The named object types the classes share (`InterfaceArgs`...), each an interface of inputs. */
function namedTypes(reg: TypeRegistry): string[] {
  const out: string[] = [];
  for (const [name, js] of [...reg.named].sort(([a], [b]) => a.localeCompare(b))) {
    const props = (js.properties ?? {}) as Record<string, Json>;
    const req = (js.required as string[] | undefined) ?? [];
    out.push(doc(typeof js.description === "string" ? js.description : `The ${name} object type.`), `export interface ${name} {`);
    for (const [k, v] of Object.entries(props)) out.push(`  ${k}${req.includes(k) ? "" : "?"}: pulumi.Input<${inputType(v, propertyName(name, k), reg)}>;`);
    out.push("}", "");
  }
  return out;
}

/** Every generated file of the classes: one per resource, sdk/types.ts and sdk/index.ts. */
export function sdkClasses(definitions: ResourceDefinition[]): Record<string, string> {
  const reg = new TypeRegistry();
  // A first pass finds the named types and the enums, so that each is declared once, where it belongs.
  for (const d of definitions) {
    argsOf(d, reg);
    classOf(d, reg);
  }
  const sharedEnums = new Set(reg.enums.keys());
  const types = namedTypes(reg);
  const typeEnums = [...reg.enums.keys()].filter((e) => !sharedEnums.has(e));
  const files: Record<string, string> = {};
  for (const d of definitions) {
    const own = new TypeRegistry();
    for (const [k, v] of reg.named) own.named.set(k, v);
    for (const e of typeEnums) own.enums.set(e, reg.enums.get(e)!);
    const args = argsOf(d, own);
    const body = classOf(d, own);
    const enums = [...own.enums.values()].filter((e) => !typeEnums.includes(e.name));
    const usedTypes = [...reg.named.keys(), ...typeEnums].filter((n) => [...args, ...body].some((l) => new RegExp(`\\b${n}\\b`).test(l)));
    files[`${d.sdk.file}.ts`] = [
      HEADER,
      ...([...args, ...body].some((l) => / \| [A-Z]\w+>/.test(l)) ? ENUM_NOTE : []),
      'import * as pulumi from "@pulumi/pulumi";',
      'import { registration } from "./registration";',
      ...(usedTypes.length ? [`import type { ${usedTypes.join(", ")} } from "./types";`] : []),
      // The exports of sdk/providers/<file> themselves (not a copy): see that file.
      `import provider = require("./providers/${d.sdk.file}");`,
      "",
      ...enums.flatMap((e) => [...enumDeclaration(e), ""]),
      ...args,
      "",
      ...body,
      "",
    ].join("\n");
  }
  for (const d of definitions) {
    files[`providers/${d.sdk.file}.ts`] = [
      HEADER,
      `// The dynamic provider of ${d.spec.type}: the shim (sdk/shim.ts) as this module's exports. Pulumi writes a`,
      "// dynamic provider into every resource's state (`__provider`); a module of an installed package it writes",
      `// as \`require("pulumi-compute/dist/sdk/providers/${d.sdk.file}.js")\`, a line instead of the shim's code. So`,
      "// this file's path is part of every state made with it: never move or rename it.",
      'import { shim } from "../shim";',
      "",
      `export = shim("${d.spec.type}");`,
      "",
    ].join("\n");
  }
  files["types.ts"] = [
    HEADER,
    ...(typeEnums.length ? ENUM_NOTE : []),
    'import type * as pulumi from "@pulumi/pulumi";',
    "",
    ...typeEnums.flatMap((e) => [...enumDeclaration(reg.enums.get(e)!), ""]),
    ...types,
  ].join("\n");
  files["index.ts"] = [
    HEADER,
    "// First: a failing program prints its error at once (sdk/stack-traces.ts).",
    'import "./stack-traces";',
    "// And no secret output in the engine's debug events (sdk/debug-redaction.ts).",
    'import "./debug-redaction";',
    "// And no error of the engine's own end after a failed run's (sdk/engine-shutdown.ts).",
    'import "./engine-shutdown";',
    ...definitions.map((d) => `export * from "./${d.sdk.file}";`),
    'export * from "./types";',
    'export * from "./compat";',
    'export * from "./lookups";',
    'export * from "./reference";',
    "",
  ].join("\n");
  return files;
}
