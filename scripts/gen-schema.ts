#!/usr/bin/env node
/**
 * Writes schema.json, docs/resources/*.md, docs/functions.md, sdk/tables.ts and sdk/lookups.ts from the tables
 * (provider/resources, provider/functions.ts).
 *   node dist/scripts/gen-schema.js          write them
 *   node dist/scripts/gen-schema.js --check  exit 1 when a committed file is out of date
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { specs } from "../provider";
import { docFileName, functionsDoc, packageSchema, resourceDoc, sdkLookups, sdkTables } from "./codegen/schema";
import { repoRoot } from "./root";

const ROOT = repoRoot();

export function generatedFiles(): Record<string, string> {
  const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const files: Record<string, string> = { "schema.json": JSON.stringify(packageSchema(specs, version), null, 2) + "\n" };
  for (const spec of specs) files[path.join("docs", "resources", docFileName(spec))] = resourceDoc(spec);
  files[path.join("sdk", "tables.ts")] = sdkTables(specs);
  files[path.join("sdk", "lookups.ts")] = sdkLookups();
  files[path.join("docs", "functions.md")] = functionsDoc();
  return files;
}

if (require.main === module) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const [rel, content] of Object.entries(generatedFiles())) {
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
  process.exit(stale ? 1 : 0);
}
