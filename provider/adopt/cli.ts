#!/usr/bin/env node
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { EXAMPLE_LANGUAGES, type ExampleLanguage } from "../../scripts/generate/example-code";
import { version } from "../plugin/engine";
import { clientFor } from "../transport/settings";
import { adoptAccount, PROGRAM_FILES, programText, type Adoption, type Filters } from "./adopt";

const USAGE = `usage: compute-adopt --language typescript|python|go|yaml [--out DIR] [filters] [--force]

Adopts what an account already holds: reads it (only reads) and writes the file \`pulumi import --file\` takes
(DIR/import.json) and a program declaring the same resources with the same inputs (DIR/index.ts, __main__.py,
main.go or Main.yaml), so that after the import the next \`pulumi preview\` shows no change (docs/adoption.md).

  --language L     the program's language: typescript, python, go or yaml
  --out DIR        where to write (default: the current folder); an existing file is kept unless --force
  --region R       only what is in region R (repeatable: any of them)
  --tag T          only what carries tag T (repeatable: any of them)
  --label GLOB     only what is labelled so (* any characters, ? one; repeatable: any of them)
  --type TYPE      only these resource types (Instance, Vpc, Image, MysqlDatabase, PostgresDatabase, SshKey)
  --force          overwrite import.json and the program file
  --no-protect     declare the resources without \`protect\` (import them with --protect=false); by default they
                   are protected, as \`pulumi import\` protects them, so that no up or destroy deletes one by mistake
  -h, --help       this text

A record's disks, profiles, interfaces and snapshots are adopted with it (the filters select the record).
What cannot be adopted is named with the reason, on standard error and in DIR/adoption.md.

The API: COMPUTE_API_URL (or --api-url URL) and COMPUTE_TOKEN (a token that can read what is to be adopted).

Exit status: 0 done (what could not be adopted is listed); 2 a wrong argument, or the account could not be read.`;

const many = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The adoption's report: what is adopted, and what is not with why. */
export function report(a: Adoption, files: string[], protect: boolean): string {
  const lines = [
    `# Adoption`,
    "",
    `${a.adopted.length} resources to import, ${a.notAdopted.length} not adopted${a.leftOut ? `, ${a.leftOut} left out by the filters` : ""}.`,
    "",
    `Written: ${files.map((f) => `\`${f}\``).join(", ")}. Next: \`pulumi import --file import.json${protect ? "" : " --protect=false"}\`, then \`pulumi preview\` (no change).`,
    "",
  ];
  if (a.adopted.length) lines.push("## Adopted", "", ...a.adopted.map((x) => `- ${x.name} (${x.type} ${x.importId})`), "");
  if (a.notAdopted.length) lines.push("## Not adopted", "", ...a.notAdopted.map((x) => `- ${x.name} (${x.type} ${x.importId}): ${x.reason}`), "");
  return lines.join("\n");
}

async function main(): Promise<number> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      options: {
        language: { type: "string" },
        out: { type: "string", default: "." },
        region: { type: "string", multiple: true },
        tag: { type: "string", multiple: true },
        label: { type: "string", multiple: true },
        type: { type: "string", multiple: true },
        "api-url": { type: "string" },
        force: { type: "boolean" },
        "no-protect": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`compute-adopt: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const refuse = (problem: string) => {
    process.stderr.write(`compute-adopt: ${problem}\n`);
    return 2;
  };
  const language = EXAMPLE_LANGUAGES.find((l) => l === values.language);
  if (!language)
    return refuse(`--language: one of ${EXAMPLE_LANGUAGES.join(", ")}${values.language === undefined ? " is required" : `, not "${String(values.language)}"`}`);
  const filters: Filters = { regions: many(values.region), tags: many(values.tag), labels: many(values.label), types: many(values.type) };
  const out = typeof values.out === "string" ? values.out : ".";
  const files = ["import.json", PROGRAM_FILES[language], "adoption.md"];
  const taken = files.slice(0, 2).filter((f) => existsSync(path.join(out, f)));
  if (taken.length && !values.force) return refuse(`${taken.map((f) => path.join(out, f)).join(" and ")} already there: --force to overwrite`);
  let adoption: Adoption;
  try {
    const apiUrl = typeof values["api-url"] === "string" ? values["api-url"] : undefined;
    adoption = await adoptAccount(clientFor({ apiUrl }, { tokenRequired: true }), filters, version());
  } catch (e) {
    return refuse(`the account could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const protect = !values["no-protect"];
  const text = report(adoption, files, protect);
  try {
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, "import.json"), `${JSON.stringify(adoption.importFile, null, 2)}\n`);
    writeFileSync(path.join(out, PROGRAM_FILES[language]), programText(adoption, language satisfies ExampleLanguage, version(), { protect }));
    writeFileSync(path.join(out, "adoption.md"), text);
  } catch (e) {
    return refuse(`--out ${out}: ${e instanceof Error ? e.message : String(e)}`);
  }
  process.stderr.write(text);
  return 0;
}

void main().then((code) => {
  process.exitCode = code;
});
