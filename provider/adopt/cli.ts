#!/usr/bin/env node
import { lstatSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { EXAMPLE_LANGUAGES, type ExampleLanguage } from "../../scripts/generate/example-code";
import { version } from "../plugin/engine";
import { client, configure } from "../transport/settings";
import { TOP_LEVEL } from "./discover";
import { plural } from "../cost/words";
import { API } from "../../api/contract";
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
  --type TYPE      only these resource types (Instance, Vpc, Image, MysqlDatabase, PostgresDatabase, SshKey, Token)
  --api-url URL    the API (instead of COMPUTE_API_URL)
  --force          overwrite import.json, the program file and adoption.md
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
  const counts = [
    `${plural(a.adopted.length, "resource")} to import`,
    `${a.notAdopted.length} not adopted`,
    ...(a.leftOut ? [`${a.leftOut} left out by the filters`] : []),
    ...(a.unlisted.length ? [`${plural(a.unlisted.length, "type")} the token may not list`] : []),
  ];
  const lines = [
    `# Adoption`,
    "",
    `${counts.join(", ")}.`,
    "",
    a.adopted.length
      ? `Written: ${files.map((f) => `\`${f}\``).join(", ")}. Next: \`pulumi import --file import.json --generate-code=false${protect ? "" : " --protect=false"}\`, then \`pulumi preview --expect-no-changes\`.`
      : "Nothing to adopt: only `adoption.md` is written.",
    "",
  ];
  if (a.adopted.length) lines.push("## Adopted", "", ...a.adopted.map((x) => `- ${x.name} (${x.type} ${x.importId})`), "");
  if (a.notAdopted.length) lines.push("## Not adopted", "", ...a.notAdopted.map((x) => `- ${x.name} (${x.type} ${x.importId}): ${x.reason}`), "");
  if (a.unlisted.length) lines.push("## Not listed", "", ...a.unlisted.map((u) => `- every ${u.type}: ${u.reason}`), "");
  return lines.join("\n");
}

/** What is wrong with the filters: an empty value, a type that is not a top-level one. */
function filterProblem(f: Filters): string | undefined {
  for (const [flag, list] of [
    ["--region", f.regions],
    ["--tag", f.tags],
    ["--label", f.labels],
    ["--type", f.types],
  ] as const)
    if (list?.some((v) => v.trim() === "")) return `${flag}: a value, not an empty one`;
  const wrong = f.types?.find((t) => !(TOP_LEVEL as readonly string[]).includes(t));
  if (wrong !== undefined)
    return `--type: one of ${TOP_LEVEL.join(", ")} (a record's disks, profiles, interfaces, subnets and snapshots come with it), not "${wrong}"`;
  return undefined;
}

/**
 * Writes the files, each to a new file beside it then renamed over the name: a file already there (or a link) is
 * replaced, never written through, and a write that fails leaves none of the new files.
 */
function writeAll(out: string, files: Record<string, string>): void {
  const temps: string[] = [];
  try {
    for (const [name, text] of Object.entries(files)) {
      const temp = path.join(out, `.${name}.${process.pid}.tmp`);
      temps.push(temp);
      writeFileSync(temp, text, { flag: "wx" });
    }
    Object.keys(files).forEach((name, i) => renameSync(temps[i], path.join(out, name)));
  } finally {
    for (const t of temps) rmSync(t, { force: true });
  }
}

async function main(): Promise<number> {
  // An output that cannot be written (a closed pipe, a full disk) is not a crash: the files say what was done.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
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
  const problem = filterProblem(filters);
  if (problem) return refuse(problem);
  const out = typeof values.out === "string" ? values.out : ".";
  const names = ["import.json", PROGRAM_FILES[language], "adoption.md"];
  const there = (p: string) => {
    try {
      return lstatSync(p);
    } catch {
      return undefined;
    }
  };
  const folder = there(out) && statSync(out, { throwIfNoEntry: false });
  if (there(out) && !folder?.isDirectory()) return refuse(`--out ${out}: not a folder`);
  const taken = names.filter((f) => there(path.join(out, f)));
  if (taken.length && !values.force) return refuse(`${taken.map((f) => path.join(out, f)).join(", ")} already there: --force to overwrite`);
  let adoption: Adoption;
  try {
    // The API of every call, the records' reads too: --api-url, else COMPUTE_API_URL.
    const apiUrl = typeof values["api-url"] === "string" ? values["api-url"] : undefined;
    configure({ get: (k) => (k === "compute:apiUrl" ? apiUrl : undefined) });
    // A region the API does not have is a typo, not a part of the account with nothing in it.
    const regions = (await client().all(API.regions.list, {})).map((r) => r.id);
    const unknownRegion = filters.regions?.find((r) => !regions.includes(r));
    if (unknownRegion !== undefined) return refuse(`--region: "${unknownRegion}" is no region of the API (${regions.join(", ")})`);
    adoption = await adoptAccount(client(), filters, version());
  } catch (e) {
    return refuse(`the account could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const protect = !values["no-protect"];
  const text = report(adoption, adoption.adopted.length ? names : ["adoption.md"], protect);
  try {
    mkdirSync(out, { recursive: true });
    // Nothing to adopt: the report alone (a program declaring nothing would not be one to import into).
    writeAll(out, {
      ...(adoption.adopted.length
        ? {
            "import.json": `${JSON.stringify(adoption.importFile, null, 2)}\n`,
            [PROGRAM_FILES[language]]: programText(adoption, language satisfies ExampleLanguage, version(), { protect }),
          }
        : {}),
      "adoption.md": text,
    });
  } catch (e) {
    return refuse(`--out ${out}: ${e instanceof Error ? e.message : String(e)}`);
  }
  process.stderr.write(text);
  return 0;
}

void main().then((code) => {
  process.exitCode = code;
});
