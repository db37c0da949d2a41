import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../root";
import { functionSpecs, ITEM_TYPES, type FunctionSpec } from "../../provider/functions";
import type { Field, ResourceSpec } from "../../provider/table";
import { examplesSection } from "./examples";
import { fieldJson, singular, upper, visible, type Json } from "./json";

/** The Node.js package the generated SDK is published as (not `pulumi-compute`: that is the hand-written dynamic SDK). */
export const NODE_SDK_PACKAGE = "@pulumi-compute/plugin-sdk";
/** The Python package (distribution and import name) of the generated SDK. */
export const PYTHON_SDK_PACKAGE = "pulumi_compute";
/**
 * Where the project lives and its releases are downloaded from: package.json's `repository` (one setting;
 * a fork changes it there) and `pulumiCompute.pluginDownloadURL` (`${VERSION}` is the CLI's placeholder).
 */
export const PROJECT = projectSettings();
/**
 * The Go import path of the generated SDK, committed under sdk/go/compute (its module is the folder above,
 * sdk/go: `go get github.com/<owner>/<repo>/sdk/go/compute`).
 */
export const GO_SDK_IMPORT = `${PROJECT.goRepository}/sdk/go/compute`;
/**
 * The lowest @pulumi/pulumi the generated Node.js SDK works with (tests/e2e/sdk-range.e2e.test.ts): 3.141.0
 * compiles it (older ones lack InvokeOutputOptions), but before 3.145.0 the `dependsOn` of a read
 * function's Output form does not wait for the resources it names, which docs/functions.md promises.
 */
export const NODE_SDK_PULUMI_RANGE = "^3.145.0";

function projectSettings(): { repository: string; goRepository: string; pluginDownloadURL: string; homepage: string } {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as {
    repository?: { url?: string };
    homepage?: string;
    pulumiCompute?: { pluginDownloadURL?: string };
  };
  const m = /github\.com\/([^/]+)\/([^/.]+)/.exec(pkg.repository?.url ?? "");
  if (!m) throw new Error("package.json: repository.url must name a GitHub repository (https://github.com/<owner>/<repo>)");
  const url = pkg.pulumiCompute?.pluginDownloadURL;
  if (!url || !url.includes("${VERSION}")) throw new Error("package.json: pulumiCompute.pluginDownloadURL must be set and hold ${VERSION}");
  return {
    repository: `https://github.com/${m[1]}/${m[2]}`,
    goRepository: `github.com/${m[1]}/${m[2]}`,
    pluginDownloadURL: url,
    homepage: pkg.homepage ?? `https://github.com/${m[1]}/${m[2]}`,
  };
}

const PKG = "compute";
const ANY = { $ref: "pulumi.json#/Any" };
/** A Pulumi type (TypeSpec), and the allowed values when the JSON Schema had an enum (said in the description). */
interface Mapped {
  type: Json;
  values?: unknown[];
}

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

/** A resource's or function's PropertySpec for one field; nested object types are named `<owner><Field>`. */
function fieldProperty(f: Field, owner: string, types: Record<string, Json>): Json {
  const js = fieldJson(f);
  const m = toPulumi(js, owner + upper(f.name), types);
  return {
    ...m.type,
    description: describe(f.description, m.values),
    ...(f.secret ? { secret: true } : {}),
    // No `replaceOnChanges`: the plugin's Diff says which changes replace (the table's forceNew, and the
    // rules of each resource), and the SDKs would write the option into every resource's state entry.
  };
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
  pulumiRange: string = NODE_SDK_PULUMI_RANGE,
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
        `Id: ${spec.idFormat}` +
        examplesSection(spec.type),
      properties: props,
      required: fields.filter((f) => f.kind === "output" || f.required || f.computed).map((f) => f.name),
      inputProperties: Object.fromEntries(inputs.map((f) => [f.name, props[f.name]])),
      requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
      // A stack made with the dynamic classes moves to the generated SDKs without replacement: the engine
      // takes the dynamic form's entry for this resource (docs/migrate.md).
      aliases: [{ type: `pulumi-nodejs:dynamic/compute:${spec.type}` }],
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
    keywords: ["pulumi", "compute", "category/cloud", "kind/native"],
    homepage: PROJECT.homepage,
    repository: PROJECT.repository,
    publisher: "pulumi-compute",
    logoUrl: `${PROJECT.repository.replace("https://github.com/", "https://raw.githubusercontent.com/")}/main/docs/logo.svg`,
    pluginDownloadURL: PROJECT.pluginDownloadURL,
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: {
        packageName: NODE_SDK_PACKAGE,
        packageDescription: "Pulumi SDK for the compute API, generated from the schema of the pulumi-resource-compute plugin.",
        respectSchemaVersion: true,
        dependencies: { "@pulumi/pulumi": pulumiRange },
      },
      python: {
        packageName: PYTHON_SDK_PACKAGE,
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
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
