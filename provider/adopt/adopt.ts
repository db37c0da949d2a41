/**
 * `compute-adopt`'s work: find what an account holds (discover.ts), keep what the filters select (a child with its
 * parent), read each record as `pulumi import` reads it (the resource's own read and the import's inputs, the
 * same code the plugin runs), and write the file `pulumi import --file` takes and the program that declares the
 * same resources with the same inputs, so that the preview after the import shows no change.
 */
import { definitionOf, specs } from "../registry";
import { importId } from "../model/imports";
import { importedInputs } from "../plugin/wire";
import { packageSchema } from "../../scripts/generate/schema";
import { exampleCode, type ExampleLanguage } from "../../scripts/generate/example-code";
import { PROJECT } from "../../scripts/generate/packages";
import type { ApiClient } from "../transport/client";
import { discover, isTopLevel, type Found, type Unlisted } from "./discover";
import { z } from "zod";
import { adoptionProgram, nameAll, type Adopted, type ProgramSchema, type SchemaProp } from "./program";

/** What the program reads of the package schema (scripts/generate/schema.ts makes it): its resources' inputs and its types. */
const props = z.record(
  z.string(),
  z.custom<SchemaProp>((v) => typeof v === "object" && v !== null),
);
const programSchema: z.ZodType<ProgramSchema> = z.object({
  resources: z.record(z.string(), z.object({ inputProperties: props.optional() })),
  types: z.record(z.string(), z.object({ properties: props.optional() })),
});

/** What selects the records to adopt: each given list is one condition (any of its values), all conditions hold. */
export interface Filters {
  regions?: string[];
  tags?: string[];
  /** Label patterns: `*` any characters, `?` one. */
  labels?: string[];
  /** Resource types (`Instance`, `Vpc`...): a child is adopted with its parent, so a type names top-level records. */
  types?: string[];
}

export interface Adoption {
  adopted: Adopted[];
  /** The records selected that are not adopted, each with why. */
  notAdopted: Array<Found & { name: string }>;
  /** How many records the filters left out. */
  leftOut: number;
  /** The types whose records the token may not list. */
  unlisted: Unlisted[];
  /** The file `pulumi import --file` takes. */
  importFile: { resources: Array<Record<string, string>> };
}

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
    "i",
  );

/** Whether the filters select a top-level record. */
export function selects(f: Found, filters: Filters): boolean {
  if (filters.types?.length && !filters.types.includes(f.type)) return false;
  if (filters.regions?.length && !(f.region && filters.regions.includes(f.region))) return false;
  if (filters.tags?.length && !filters.tags.some((t) => f.tags?.includes(t))) return false;
  if (filters.labels?.length && !filters.labels.some((p) => glob(p).test(f.label))) return false;
  return true;
}

const topOf = (f: Found): Found => (f.parent ? topOf(f.parent) : f);

/** Reads the account and makes the adoption: what to import, what is not adopted and why. */
export async function adoptAccount(client: ApiClient, filters: Filters, version: string): Promise<Adoption> {
  const { found, unlisted } = await discover(client, filters.types);
  // Named over the whole account, so that a record has the same name whatever the filters (adopting by parts).
  const names = nameAll(found);
  const chosen = found.filter((f) => isTopLevel(topOf(f)) && selects(topOf(f), filters));
  const adopted: Adopted[] = [];
  const notAdopted: Adoption["notAdopted"] = [];
  const skipped = new Set<Found>();
  for (const f of chosen) {
    const name = names.get(f) ?? f.label;
    const skippedParent = f.parent && skipped.has(f.parent) ? f.parent : undefined;
    if (f.reason || skippedParent) {
      skipped.add(f);
      notAdopted.push({ ...f, name, reason: f.reason ?? `its parent ${skippedParent ? names.get(skippedParent) : ""} is not adopted` });
      continue;
    }
    try {
      const { spec, provider } = definitionOf(f.type);
      const { id, parents } = importId(spec, f.importId, {});
      const got = await provider.read(id, parents);
      if (!got.id) throw new Error("it was deleted while the account was read");
      adopted.push({ ...f, name, inputs: importedInputs(spec, got.inputs ?? {}) });
    } catch (e) {
      skipped.add(f);
      notAdopted.push({ ...f, name, reason: `it could not be read: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  const pluginDownloadUrl = PROJECT.pluginDownloadURL.replace("${VERSION}", version);
  return {
    adopted,
    notAdopted,
    leftOut: found.length - chosen.length,
    unlisted,
    importFile: {
      resources: adopted.map((a) => ({ type: `compute:index:${a.type}`, name: a.name, id: a.importId, version, pluginDownloadUrl })),
    },
  };
}

/** The file a program of each language is written to. */
export const PROGRAM_FILES: Record<ExampleLanguage, string> = { typescript: "index.ts", python: "__main__.py", go: "main.go", yaml: "Main.yaml" };

/** The program of an adoption in a language. */
export function programText(adoption: Adoption, language: ExampleLanguage, version: string, opts: { protect: boolean }): string {
  const schema = programSchema.parse(packageSchema(specs, version));
  const program = adoptionProgram(adoption.adopted, schema, opts);
  // A YAML program names the plugin's version and release once (docs/installation-configuration.md), as the import
  // file does: one default provider for both. The SDKs of the other languages name them themselves.
  const first = program.resources[0];
  if (language === "yaml" && first) first.options = { ...first.options, version, pluginDownloadURL: PROJECT.pluginDownloadURL.replace("${VERSION}", version) };
  const code = exampleCode(program)[language];
  return `${language === "yaml" ? code.replace(/\noutputs:\s*$/, "") : code}\n`;
}
