#!/usr/bin/env node
/**
 * Writes schema.json, docs/resources/*.md, docs/functions.md and the generated part of the sdk (the classes
 * sdk/<resource>.ts, sdk/types.ts, sdk/index.ts, sdk/tables.ts, sdk/lookups.ts, sdk/reference.ts) from the
 * resource definitions (provider/registry.ts) and the function rows (provider/functions.ts).
 *   node dist/scripts/gen-schema.js          write them
 *   node dist/scripts/gen-schema.js --check  exit 1 when a committed file is out of date
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { definitions, specs } from "../provider/registry";
import { docFileName, functionsDoc, resourceDoc } from "./codegen/docs";
import { packageSchema } from "./codegen/schema";
import { sdkLookups, sdkReference, sdkTables } from "./codegen/sdk";
import { sdkClasses } from "./codegen/sdk-classes";
import { repoRoot } from "./root";

const ROOT = repoRoot();

/** The generated files, by path from the repository's root: TypeScript formatted as Prettier would (npm run lint checks it). */
export async function generatedFiles(): Promise<Record<string, string>> {
  const files = rawFiles();
  const prettier = await import("prettier");
  const options = { ...(await prettier.resolveConfig(path.join(ROOT, "sdk", "index.ts"))), parser: "typescript" };
  for (const [rel, content] of Object.entries(files)) if (rel.endsWith(".ts")) files[rel] = await prettier.format(content, options);
  return files;
}

/** The generated files before formatting (schema.json and the docs are as they are written). */
export function rawFiles(): Record<string, string> {
  const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const files: Record<string, string> = { "schema.json": JSON.stringify(packageSchema(specs, version), null, 2) + "\n" };
  for (const spec of specs) files[path.join("docs", "resources", docFileName(spec))] = resourceDoc(spec);
  files[path.join("sdk", "tables.ts")] = sdkTables(specs);
  files[path.join("sdk", "lookups.ts")] = sdkLookups();
  files[path.join("sdk", "reference.ts")] = sdkReference();
  for (const [name, content] of Object.entries(sdkClasses(definitions))) files[path.join("sdk", name)] = content;
  files[path.join("docs", "functions.md")] = functionsDoc();
  return files;
}

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const [rel, content] of Object.entries(await generatedFiles())) {
    const file = path.join(ROOT, rel);
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {
      current = "";
    }
    if (current === content) continue;
    if (check) {
      console.error(`${rel} is out of date: run npm run gen:schema`);
      stale++;
    } else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      console.log(`wrote ${rel}`);
    }
  }
  return stale ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
