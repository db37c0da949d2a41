import { z } from "zod";
import { apiName, type Field, type ResourceSpec } from "./resource";

/** JSON Schema of a field, as the Pulumi package schema wants it (type, items, enum, description). */
function propertySchema(f: Field): Record<string, unknown> {
  let js: Record<string, unknown> = { type: f.outputType ?? "string" };
  if (f.schema) {
    const full = z.toJSONSchema(f.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    const { $schema: _s, ...rest } = full;
    js = rest;
  }
  return { ...js, description: f.description, ...(f.secret ? { secret: true } : {}), ...(f.forceNew ? { replaceOnChanges: true } : {}) };
}

/** The Pulumi package schema (schema.json) of every resource, from the field tables. */
export function packageSchema(specs: ResourceSpec<any>[], version: string): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (const spec of specs) {
    const inputs = spec.fields.filter((f) => f.kind === "input");
    resources[`compute:index:${spec.type}`] = {
      description: `${spec.description}\n\nType token in state: \`pulumi-nodejs:dynamic/compute:${spec.type}\` (a dynamic resource). ${spec.idFormat}`,
      properties: Object.fromEntries(spec.fields.map((f) => [f.name, propertySchema(f)])),
      required: spec.fields.filter((f) => f.kind === "output" || f.required || f.computed).map((f) => f.name),
      inputProperties: Object.fromEntries(inputs.map((f) => [f.name, propertySchema(f)])),
      requiredInputs: inputs.filter((f) => f.required).map((f) => f.name),
    };
  }
  return {
    name: "compute",
    displayName: "pulumi-compute",
    version,
    description: "Pulumi provider for the compute API (instances, disks, configs, interfaces, images, VPCs, databases, SSH keys).",
    license: "Apache-2.0",
    language: { nodejs: { packageName: "pulumi-compute" } },
    config: {
      variables: {
        token: { type: "string", secret: true, description: "API token (or the COMPUTE_TOKEN environment variable)." },
        apiUrl: { type: "string", description: "API base URL ending in /v4 (or the COMPUTE_API_URL environment variable)." },
      },
    },
    resources,
  };
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const typeOf = (f: Field): string => {
  const js = propertySchema(f);
  if (js.type === "array") return `${(js.items as { type?: string })?.type ?? "any"}[]`;
  if (Array.isArray(js.enum)) return js.enum.map((v) => `\`${v}\``).join(" \\| ");
  return String(js.type ?? "any");
};

/** What happens when the program leaves an input out (or removes it), for the docs. */
function leftOut(spec: ResourceSpec<any>, f: Field): string {
  if (f.required) return "-";
  if (spec.autoName?.field === f.name) return "auto-named";
  if (f.clearTo !== undefined) return `cleared: \`${JSON.stringify(f.clearTo)}\``;
  if (f.control) return "provider default";
  if (f.computed) return "not managed: the service's value stays";
  return f.forceNew ? "not set (removing it replaces)" : "not set";
}

/** The replacement rules of a resource: which fields force it, in which order old and new exist, and its naming. */
function replacementDoc(spec: ResourceSpec<any>): string[] {
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
export function resourceDoc(spec: ResourceSpec<any>): string {
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
  ];
  return lines.join("\n");
}

export const docFileName = (spec: ResourceSpec<any>): string => `${spec.type.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())}.md`;

/**
 * sdk/tables.ts: what the sdk classes take from the field tables (every property name, so that each gets
 * an output property; the secret inputs to wrap; the secret outputs to mark), so that no class keeps a copy.
 */
export function sdkTables(specs: ResourceSpec<any>[]): string {
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
