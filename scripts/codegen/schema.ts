import { z } from "zod";
import { functionSpecs, ITEM_TYPES, type FunctionSpec } from "../../provider/functions";
import { importExample } from "../../provider/imports";
import { apiName, type Field, type ResourceSpec } from "../../provider/table";

/** JSON Schema of a field (zod's), for the docs tables: what the provider accepts, with its bounds. */
function jsonSchemaOf(f: Field): Record<string, unknown> {
  if (!f.schema) return { type: f.outputType ?? "string" };
  const { $schema: _s, ...rest } = z.toJSONSchema(f.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** The Node.js package the generated SDK is published as (not `pulumi-compute`: that is the hand-written dynamic SDK). */
export const NODE_SDK_PACKAGE = "@pulumi-compute/plugin-sdk";
/** The Python package (distribution and import name) of the generated SDK. */
export const PYTHON_SDK_PACKAGE = "pulumi_compute";
/** The Go import path of the generated SDK (its module is the folder above: `github.com/pulumi-compute/sdk/go`). */
export const GO_SDK_IMPORT = "github.com/pulumi-compute/sdk/go/compute";

const PKG = "compute";
const ANY = { $ref: "pulumi.json#/Any" };
type Json = Record<string, unknown>;
/** A Pulumi type (TypeSpec), and the allowed values when the JSON Schema had an enum (said in the description). */
interface Mapped {
  type: Json;
  values?: unknown[];
}

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const singular = (s: string) => (s.endsWith("ies") ? s.slice(0, -3) + "y" : s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);
const PRIMITIVES = ["string", "integer", "number", "boolean"];
const isNull = (js: Json) => js.type === "null";
/** zod's "empty list" branch (`z.array(...).length(0)` and friends): `items: { not: {} }`. */
const isEmptyList = (js: Json) => js.type === "array" && js.maxItems === 0;
const primitiveOf = (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v === "boolean" ? "boolean" : "string");

/**
 * A field's JSON Schema (from zod) as a Pulumi type: primitives stay, arrays keep their item type, an object
 * with properties becomes a named object type under `types` (`compute:index:<name>`), a record becomes a map,
 * an enum or a union of constants becomes its primitive type (the values go in the description), a union of
 * primitives (an id given as a number or a string of digits) a `oneOf`, anything else `pulumi.json#/Any`.
 * Bounds and patterns are not said in a Pulumi schema: the provider checks them at preview.
 */
function toPulumi(js: Json, name: string, types: Record<string, Json>): Mapped {
  if (Array.isArray(js.anyOf)) {
    const members = (js.anyOf as Json[]).filter((m) => !isNull(m) && !isEmptyList(m));
    if (members.length === 1) return toPulumi(members[0], name, types);
    const mapped = members.map((m) => toPulumi(m, name, types));
    const kinds = [...new Set(mapped.map((m) => m.type.type))];
    if (mapped.every((m) => m.values) && kinds.length === 1) return { type: { type: kinds[0] }, values: mapped.flatMap((m) => m.values!) };
    if (mapped.every((m) => !m.values && PRIMITIVES.includes(String(m.type.type)) && Object.keys(m.type).length === 1))
      return kinds.length === 1 ? { type: { type: kinds[0] } } : { type: { oneOf: kinds.map((k) => ({ type: k })) } };
    return { type: ANY };
  }
  if ("const" in js) return { type: { type: primitiveOf(js.const) }, values: [js.const] };
  if (Array.isArray(js.enum)) return { type: { type: primitiveOf(js.enum[0]) }, values: js.enum };
  switch (js.type) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { type: { type: js.type } };
    case "array": {
      const items = js.items && typeof js.items === "object" && Object.keys(js.items).length ? toPulumi(js.items as Json, singular(name), types).type : ANY;
      return { type: { type: "array", items } };
    }
    case "object": {
      const props = (js.properties ?? {}) as Record<string, Json>;
      if (Object.keys(props).length) {
        const token = `${PKG}:index:${name}`;
        types[token] = {
          type: "object",
          properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, property(v, name + upper(k), types)])),
          ...(Array.isArray(js.required) && js.required.length ? { required: js.required } : {}),
        };
        return { type: { $ref: `#/types/${token}` } };
      }
      const ap = js.additionalProperties;
      const values = ap && typeof ap === "object" && Object.keys(ap).length ? toPulumi(ap as Json, singular(name), types).type : ANY;
      return { type: { type: "object", additionalProperties: values } };
    }
    default:
      return { type: ANY };
  }
}

/** The allowed values, said in the description unless it names them all already. */
function describe(description: string | undefined, values?: unknown[]): string | undefined {
  if (!values?.length || values.every((v) => description?.includes(String(v)))) return description;
  const list = `One of ${values.map((v) => `\`${JSON.stringify(v).replace(/^"|"$/g, "")}\``).join(", ")}.`;
  return description ? `${description} ${list}` : list;
}

/** A PropertySpec from a JSON Schema node (a nested object's property). */
function property(js: Json, name: string, types: Record<string, Json>): Json {
  const m = toPulumi(js, name, types);
  const description = describe(typeof js.description === "string" ? js.description : undefined, m.values);
  return { ...m.type, ...(description ? { description } : {}) };
}

/** The JSON Schema of a field the table declares without zod (output-only fields, function results). */
function outputJson(f: Field): Json {
  const item: Json = f.itemType === "object" ? { type: "object" } : { type: f.itemType ?? "string" };
  return f.outputType === "array" ? { type: "array", items: item } : { type: f.outputType ?? "string" };
}

/** A resource's or function's PropertySpec for one field; nested object types are named `<owner><Field>`. */
function fieldProperty(f: Field, owner: string, types: Record<string, Json>): Json {
  const js = f.schema ? jsonSchemaOf(f) : outputJson(f);
  const m = toPulumi(js, owner + upper(f.name), types);
  return {
    ...m.type,
    description: describe(f.description, m.values),
    ...(f.secret ? { secret: true } : {}),
    ...(f.forceNew && f.kind === "input" ? { replaceOnChanges: true } : {}),
  };
}

/** Fields whose name starts with `__` are the provider's own bookkeeping: never in the schema. */
const visible = (fs: Field[]) => fs.filter((f) => !f.name.startsWith("__"));

/** The Pulumi version the generated Node.js SDK depends on: the one this package is built with. */
function pulumiSdkVersion(): string {
  return (require("@pulumi/pulumi/package.json") as { version: string }).version;
}

/**
 * The Pulumi package schema (schema.json): the provider's config, every resource from its field table,
 * the read functions and their item types from provider/functions.ts. `pulumi-resource-compute` serves
 * it (GetSchema), and the Node.js, Python and Go SDKs are generated from it by Pulumi's own code
 * generators (scripts/gen-sdks, docs/sdks.md). See https://www.pulumi.com/docs/iac/extending-pulumi/schema/.
 */
export function packageSchema(
  specs: ResourceSpec[],
  version: string,
  functions: FunctionSpec[] = functionSpecs,
  pulumiVersion: string = pulumiSdkVersion(),
): Record<string, unknown> {
  const types: Record<string, Json> = {};
  const resources: Record<string, unknown> = {};
  for (const spec of specs) {
    const fields = visible(spec.fields);
    const inputs = fields.filter((f) => f.kind === "input");
    const props = Object.fromEntries(fields.map((f) => [f.name, fieldProperty(f, spec.type, types)]));
    resources[`${PKG}:index:${spec.type}`] = {
      description:
        `${spec.description}\n\n` +
        `Two front doors, one implementation: the \`pulumi-compute\` npm package registers it as a dynamic resource ` +
        `(type token \`pulumi-nodejs:dynamic/compute:${spec.type}\` in the state), and the SDKs generated from this schema ` +
        `register \`${PKG}:index:${spec.type}\`, served by the \`pulumi-resource-compute\` plugin.\n\n` +
        `Id: ${spec.idFormat}`,
      properties: props,
      required: fields.filter((f) => f.kind === "output" || f.required || f.computed).map((f) => f.name),
      inputProperties: Object.fromEntries(inputs.map((f) => [f.name, props[f.name]])),
      requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
    };
  }
  for (const [name, item] of Object.entries(ITEM_TYPES)) {
    types[`${PKG}:index:${name}`] = {
      description: item.description,
      type: "object",
      properties: Object.fromEntries(visible(item.fields).map((f) => [f.name, fieldProperty(f, name, types)])),
      required: item.fields.some((f) => f.name === "id") ? ["id"] : [],
    };
  }
  const fns: Record<string, unknown> = {};
  for (const fn of functions) {
    const itemRef = `#/types/${PKG}:index:${fn.item}`;
    const args = visible(fn.inputs);
    const owner = upper(fn.name);
    fns[`${PKG}:index:${fn.name}`] = {
      description: fn.description,
      ...(args.length
        ? {
            inputs: {
              properties: Object.fromEntries(args.map((f) => [f.name, fieldProperty(f, owner, types)])),
              required: args.filter((f) => f.required).map((f) => f.name),
            },
          }
        : {}),
      outputs: fn.listKey
        ? {
            properties: { [fn.listKey]: { type: "array", items: { $ref: itemRef }, description: `Every ${singular(fn.listKey)}, from every page.` } },
            required: [fn.listKey],
          }
        : (() => {
            const item = types[`${PKG}:index:${fn.item}`];
            return { description: item.description, properties: item.properties, required: item.required };
          })(),
    };
  }
  const token = { type: "string", secret: true, description: "API token (or the COMPUTE_TOKEN environment variable)." };
  const apiUrl = { type: "string", description: "API base URL ending in /v4 (or the COMPUTE_API_URL environment variable)." };
  return {
    name: PKG,
    displayName: "pulumi-compute",
    version,
    description: "Pulumi provider for the compute API (instances, disks, configs, interfaces, images, VPCs, databases, SSH keys).",
    keywords: ["pulumi", "compute", "category/cloud"],
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: {
        packageName: NODE_SDK_PACKAGE,
        packageDescription: "Pulumi SDK for the compute API, generated from the schema of the pulumi-resource-compute plugin.",
        respectSchemaVersion: true,
        dependencies: { "@pulumi/pulumi": pulumiVersion },
      },
      python: { packageName: PYTHON_SDK_PACKAGE, respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: GO_SDK_IMPORT, respectSchemaVersion: true },
    },
    config: { variables: { token, apiUrl } },
    provider: {
      description: "The compute provider: where the API is and the token to call it with.",
      inputProperties: { token, apiUrl },
    },
    resources,
    functions: fns,
    types,
  };
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const typeOf = (f: Field): string => {
  const js = jsonSchemaOf(f);
  if (js.type === "array") return `${(js.items as { type?: string })?.type ?? "any"}[]`;
  if (Array.isArray(js.enum)) return js.enum.map((v) => `\`${v}\``).join(" \\| ");
  return String(js.type ?? "any");
};

/** What happens when the program leaves an input out (or removes it), for the docs. */
function leftOut(spec: ResourceSpec, f: Field): string {
  if (f.required) return "-";
  if (spec.autoName?.field === f.name) return "auto-named";
  if (f.clearTo !== undefined) return `cleared: \`${JSON.stringify(f.clearTo)}\``;
  if (f.control) return "provider default";
  if (f.computed) return "not managed: the service's value stays";
  return f.forceNew ? "not set (removing it replaces)" : "not set";
}

/** The replacement rules of a resource: which fields force it, in which order old and new exist, and its naming. */
function replacementDoc(spec: ResourceSpec): string[] {
  const inputs = spec.fields.filter((f) => f.kind === "input");
  const forceNew = inputs.filter((f) => f.forceNew).map((f) => `\`${f.name}\``);
  const out = [
    forceNew.length
      ? `A change to ${forceNew.join(", ")} replaces the resource (\`pulumi preview --diff\` names the field); every other input changes in place.`
      : "Every input changes in place.",
  ];
  if (spec.holdsData)
    out.push(
      "**The resource holds data: a replacement loses it** (the new one starts anew). The new one is always made before the old one is deleted, so a failed create leaves the old one as it was.",
    );
  const rule = spec.autoName;
  if (rule) {
    out.push(
      `**Auto-naming**: when \`${rule.field}\` is left out, the provider names the resource \`<resource name>-<7 hex characters>\` (the name part cleaned and cut to fit ${rule.min}..${rule.max} characters), keeps that name on every update, and gives a replacement a fresh one, so the new resource is made before the old one is deleted with no clash. A resource made before auto-naming keeps the label the service gave it.`,
    );
  }
  if (spec.uniqueLabel && spec.holdsData) {
    out.push(
      `A \`${rule?.field ?? "label"}\` the program pins is unique in the API: the replacement is made under a temporary label (\`<label>-<suffix>\`) and takes the pinned label as soon as the old one is deleted.`,
    );
  } else if (spec.uniqueLabel) {
    out.push(
      `A \`${rule?.field ?? "label"}\` the program pins is unique in the API: a replacement that keeps it deletes the old resource first (it holds no data).`,
    );
  } else {
    out.push("Labels need not be unique: a replacement is made before the old resource is deleted.");
  }
  if (spec.replacementNote) out.push(spec.replacementNote);
  return out;
}

/** The docs page of one resource (docs/resources/<name>.md), from its field table. */
export function resourceDoc(spec: ResourceSpec): string {
  const inputs = spec.fields.filter((f) => f.kind === "input");
  const outputs = spec.fields.filter((f) => f.kind === "output");
  const cleared = inputs.filter((f) => f.clearTo !== undefined).map((f) => `\`${f.name}\``);
  const kept = inputs.filter((f) => f.computed && f.clearTo === undefined && f.name !== spec.autoName?.field && !f.control).map((f) => `\`${f.name}\``);
  const lines = [
    `# ${spec.type}`,
    "",
    "<!-- Generated by `npm run gen:schema` from provider/resources: do not edit by hand. -->",
    "",
    spec.description,
    "",
    "## Example",
    "",
    "```ts",
    spec.example,
    "```",
    "",
    "## Inputs",
    "",
    "| Property | API field | Type | Required | Changing it | Left out | Description |",
    "|---|---|---|---|---|---|---|",
    ...inputs.map(
      (f) =>
        `| \`${f.name}\`${f.secret ? " (secret)" : ""} | ${f.control ? "-" : `\`${apiName(f)}\``} | ${cell(typeOf(f))} | ${f.required ? "yes" : "no"} | ${f.forceNew ? "replaces" : "in place"} | ${cell(leftOut(spec, f))} | ${cell(f.description)} |`,
    ),
    "",
    "## Removing an input",
    "",
    [
      cleared.length ? `Removing ${cleared.join(", ")} from the program clears it in the API (to the value in the table).` : "",
      kept.length
        ? `The API cannot clear ${kept.join(", ")}: removed from the program, it keeps its current value and is no longer compared (no change is planned).`
        : "",
    ]
      .filter(Boolean)
      .join(" ") || "No optional input is filled in by the service.",
    "",
    "## Outputs",
    "",
    "Every input is also an output (as the service reports it), and:",
    "",
    "| Property | API field | Type | Description |",
    "|---|---|---|---|",
    ...outputs.map((f) => `| \`${f.name}\` | \`${apiName(f)}\` | ${cell(typeOf(f))} | ${cell(f.description)} |`),
    "",
    "## Replacement",
    "",
    ...replacementDoc(spec).flatMap((p) => [p, ""]),
    "## Id",
    "",
    spec.idFormat,
    "",
    ...importDoc(spec),
  ];
  return lines.join("\n");
}

/** The Import section of a resource page: the import id, the command, the import option (the plugin's). */
function importDoc(spec: ResourceSpec): string[] {
  const parents = spec.fields.filter((f) => f.inPath).map((f) => f.name);
  const example = spec.type === "Image" ? "private/12" : importExample(spec);
  const form = parents.length ? [...parents, "id"].map((n) => `<${n}>`).join("/") : "the resource's id";
  const writeOnly = spec.fields.filter((f) => f.kind === "input" && f.writeOnly).map((f) => `\`${f.name}\``);
  const name = spec.type.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase());
  return [
    "## Import",
    "",
    `With the provider plugin (\`pulumi-resource-compute\`, see the README), an existing ${spec.noun} joins a stack by its import id, ${parents.length ? `\`${form}\`` : form} (for example \`${example}\`):`,
    "",
    "```sh",
    `pulumi import compute:index:${spec.type} ${name} ${example} --generate-code=false --protect=false`,
    "```",
    "",
    `or with the \`import\` resource option: \`new compute.${spec.type}("${name}", { ... }, { import: "${example}" })\` on the generated SDK. Declared as it is, the next preview plans no change.` +
      (writeOnly.length ? ` The API never shows ${writeOnly.join(", ")}: after an import, the program's value is taken as it is.` : ""),
    "",
  ];
}

export const docFileName = (spec: ResourceSpec): string => `${spec.type.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())}.md`;

/**
 * sdk/tables.ts: what the sdk classes take from the field tables (every property name, so that each gets
 * an output property; the secret inputs to wrap; the secret outputs to mark), so that no class keeps a copy.
 */
export function sdkTables(specs: ResourceSpec[]): string {
  const rows = specs.map((s) => {
    const names = (fs: Field[]) => JSON.stringify(fs.map((f) => f.name));
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

/** A TypeScript type from a field's JSON Schema, for the generated sdk lookups. */
function tsOf(js: Json): string {
  if (Array.isArray(js.enum)) return js.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (js.const !== undefined) return JSON.stringify(js.const);
  if (Array.isArray(js.type)) return js.type.map((t) => tsOf({ ...js, type: t })).join(" | ");
  const union = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map(tsOf))].join(" | ");
  switch (js.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = js.items ? tsOf(js.items as Json) : "unknown";
      return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object": {
      const props = js.properties as Record<string, Json> | undefined;
      if (props) {
        const req = (js.required as string[] | undefined) ?? [];
        return `{ ${Object.entries(props)
          .map(([k, v]) => `${k}${req.includes(k) ? "" : "?"}: ${tsOf(v)}`)
          .join("; ")} }`;
      }
      const add = js.additionalProperties;
      return `Record<string, ${add && typeof add === "object" ? tsOf(add as Json) : "unknown"}>`;
    }
    default:
      return "unknown";
  }
}
const tsField = (f: Field): string => (f.schema ? tsOf(jsonSchemaOf(f)) : tsOf(outputJson(f)));
const doc = (s: string, indent = "") => `${indent}/** ${s.replace(/\*\//g, "*\\/").replace(/\n/g, " ")} */`;

/**
 * sdk/lookups.ts: the filtered read functions, typed from the tables (their arguments and item types), each
 * in a Promise form `getX(args, opts)` and an Output form `getXOutput(args, opts)`; both run the function of
 * provider/functions.ts that the plugin's Invoke runs too.
 */
export function sdkLookups(functions: FunctionSpec[] = functionSpecs): string {
  const fns = functions.filter((f) => f.filterable && f.listKey);
  const items = [...new Set(fns.map((f) => f.item))];
  const out = [
    "// Generated from provider/functions.ts by `npm run gen:schema`: do not edit.",
    'import * as pulumi from "@pulumi/pulumi";',
    'import { checkFieldNames, runFunction, type ReadOptions } from "./reference";',
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
    for (const f of t.fields) out.push(doc(f.description, "  "), `  ${f.name}${f.name === "id" ? "" : "?"}: ${tsField(f)};`);
    out.push("}", "");
  }
  for (const fn of fns) {
    const U = upper(fn.name);
    const args = fn.inputs.filter((f) => !["filters", "orderBy", "order"].includes(f.name));
    const optional = args.every((f) => !f.required);
    out.push(`export interface ${U}Args {`);
    for (const f of args) out.push(doc(f.description, "  "), `  ${f.name}${f.required ? "" : "?"}: ${tsField(f)};`);
    out.push(
      doc("Keep the items that match every filter.", "  "),
      "  filters?: Filter[];",
      doc(`Sort by this field of the items: ${itemFieldNames(fn).join(", ")}.`, "  "),
      "  orderBy?: string;",
      '  order?: "asc" | "desc";',
      "}",
      `export interface ${U}Result {`,
      `  ${fn.listKey}: ${fn.item}[];`,
      "}",
      doc(`${fn.description} Every page is read; filters and order apply on the client.`),
      `export function ${fn.name}(args${optional ? "?" : ""}: ${U}Args, opts?: ReadOptions): Promise<${U}Result> {`,
      `  checkFieldNames("${fn.name}", { ...args });`,
      `  return runFunction("${fn.name}", { ...args }, opts) as Promise<unknown> as Promise<${U}Result>;`,
      "}",
      doc(`${fn.description} The Output form: takes Outputs (of other resources) and returns an Output.`),
      `export function ${fn.name}Output(args${optional ? "?" : ""}: Inputs<${U}Args>, opts?: ReadOptions): pulumi.Output<${U}Result> {`,
      `  checkFieldNames("${fn.name}", { ...args });`,
      `  return pulumi.output(args ?? {}).apply((a) => ${fn.name}(a as ${U}Args, opts));`,
      "}",
      "",
    );
  }
  return out.join("\n");
}

const itemFieldNames = (fn: FunctionSpec): string[] => (ITEM_TYPES[fn.item]?.fields ?? []).map((f) => f.name);

/** docs/functions.md: every read function, its arguments and the fields of what it returns. */
export function functionsDoc(functions: FunctionSpec[] = functionSpecs): string {
  const lines = [
    "# Read functions",
    "",
    "<!-- Generated by `npm run gen:schema` from provider/functions.ts: do not edit by hand. -->",
    "",
    "Each function reads every page of its list. The lookups take `filters` (each `{ name, values }`: the items whose",
    "field `name` equals one of `values`, or for a list field holds one of them; several filters must all match), and",
    "`orderBy` (a field of the items) with `order` (`asc`, the default, or `desc`). Filtering happens on the client: the",
    "API documents no filter. A filter or order on a field the items do not have fails, naming it.",
    "",
    "- TypeScript, `pulumi-compute`: `compute.getInstances(args, opts)` returns a Promise, and",
    "  `compute.getInstancesOutput(args, opts)` takes Outputs and returns an Output (opts: `{ apiUrl, token }`, else the",
    "  stack's `compute:apiUrl` / `compute:token`, else `COMPUTE_API_URL` / `COMPUTE_TOKEN`).",
    "- The plugin (every language): `compute:index:getInstances`, through the generated SDKs (`compute.getInstances` in",
    "  `@pulumi-compute/plugin-sdk`, `compute.get_instances` in Python, `compute.GetInstances` in Go) or `fn::invoke` in YAML.",
    "- A resource that exists is read without being managed by the static `get` of its class:",
    '  `compute.Instance.get("web", "123")`; a child takes its parent\'s id in the state:',
    '  `compute.Disk.get("data", "456", { computeId: "123" })`.',
    "",
    "```ts",
    'const vpc = (await compute.getVpcs({ filters: [{ name: "label", values: ["prod"] }] })).vpcs[0];',
    'const subnets = compute.getSubnetsOutput({ vpcId: vpc.id, filters: [{ name: "label", values: ["web"] }] });',
    "```",
    "",
  ];
  for (const fn of functions) {
    lines.push(`## ${fn.name}`, "", fn.description, "", `Token: \`compute:index:${fn.name}\`.`, "");
    if (fn.inputs.length) {
      lines.push("| Argument | Type | Required | Description |", "|---|---|---|---|");
      for (const f of fn.inputs) lines.push(`| \`${f.name}\` | ${cell(tsField(f))} | ${f.required ? "yes" : "no"} | ${cell(f.description)} |`);
      lines.push("");
    }
    lines.push(fn.listKey ? `Returns \`{ ${fn.listKey}: ${fn.item}[] }\`; the fields of a \`${fn.item}\`:` : `Returns a \`${fn.item}\`:`, "");
    lines.push("| Field | Type | Description |", "|---|---|---|");
    for (const f of ITEM_TYPES[fn.item]?.fields ?? []) lines.push(`| \`${f.name}\` | ${cell(tsField(f))} | ${cell(f.description)} |`);
    lines.push("");
  }
  return lines.join("\n");
}
