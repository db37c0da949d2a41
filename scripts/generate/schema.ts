import { functionSpecs, ITEM_TYPES, type FunctionSpec } from "../../provider/functions";
import type { Field, ResourceSpec } from "../../provider/model/table";
import { components as allComponents, type ComponentDefinition } from "../../provider/components";
import { exampleSection, examplesSection } from "./examples";
import { alwaysReported, visible } from "./field-schema";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, NODE_SDK_PULUMI_RANGE, PROJECT, PYTHON_SDK_PACKAGE, PYTHON_SDK_PULUMI_RANGE } from "./packages";
import { fieldProperty, PKG } from "./pulumi-types";
import { singular, upper, type Json } from "./schema-walk";

/**
 * The Pulumi package schema (schema.json): the provider's config, every resource from its field table,
 * the read functions and their item types from provider/functions/index.ts. `pulumi-resource-compute` serves
 * it (GetSchema), and the Node.js, Python and Go SDKs are generated from it by Pulumi's own code
 * generators (scripts/gen-sdks, docs/sdks.md). See https://www.pulumi.com/docs/iac/extending-pulumi/schema/.
 */
export function packageSchema(
  specs: ResourceSpec[],
  version: string,
  functions: FunctionSpec[] = functionSpecs,
  pulumiRange: string = NODE_SDK_PULUMI_RANGE,
  components: readonly ComponentDefinition[] = allComponents,
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
      required: fields.filter(alwaysReported).map((f) => f.name),
      inputProperties: Object.fromEntries(inputs.map((f) => [f.name, props[f.name]])),
      requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
      // A stack made with the dynamic classes moves to the generated SDKs without replacement: the engine
      // takes the dynamic form's entry for this resource (README.md: from the dynamic classes to the plugin SDK).
      aliases: [{ type: `pulumi-nodejs:dynamic/compute:${spec.type}` }],
    };
  }
  // The components (provider/components/): Pulumi's code generators make remote component classes of them.
  for (const c of components) {
    const props = (fields: readonly Field[]) => Object.fromEntries(fields.map((f) => [f.name, fieldProperty(f, c.type, types)]));
    resources[`${PKG}:index:${c.type}`] = {
      isComponent: true,
      description: `${c.description}\n\nServed by the \`pulumi-resource-compute\` plugin (its Construct): the SDKs generated from this schema and YAML; not the dynamic classes of \`pulumi-compute\`.${exampleSection(c.example())}`,
      properties: props(c.outputs),
      required: c.outputs.filter((f) => f.required).map((f) => f.name),
      inputProperties: props(c.inputs),
      requiredInputs: c.inputs.filter((f) => f.required).map((f) => f.name),
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
        requires: { pulumi: PYTHON_SDK_PULUMI_RANGE },
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
