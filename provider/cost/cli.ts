#!/usr/bin/env node
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ApiClient } from "../transport/client";
import { readPriceCatalog } from "../resources/prices";
import { messageOf } from "../lifecycle/errors";
import { costReport, markdown, previewJson, stateJson } from "./report";

const USAGE = `usage: compute-cost --preview FILE [--state FILE] [--api-url URL] [--format markdown|json] [--out FILE] [--fail-over AMOUNT]

The monthly cost of a stack before and after a change, and each resource that changes it, priced by the API's
catalogue (no token needed). Reads what the CLI writes, so it serves programs in every language.

  --preview FILE     the output of \`pulumi preview --json\` (- for standard input)
  --state FILE       the output of \`pulumi stack export\`: the resources the preview leaves alone (without it,
                     the totals hold only the resources the preview lists)
  --api-url URL      the API to read prices from, ending in /v4 (default: COMPUTE_API_URL, else the stack's
                     compute:apiUrl as the preview's JSON shows it)
  --format F         markdown (default; for a pull request's comment) or json
  --out FILE         write the report there too (the report is printed either way)
  --fail-over AMOUNT exit 1, saying so, when the stack's monthly cost after the change is over AMOUNT (US dollars),
                     or cannot be known (a price that waits on a value the preview does not know)
  -h, --help         this text

Exit status: 0; 1 over the budget of --fail-over; 2 a wrong argument or an unreadable input.`;

function fail(message: string): never {
  process.stderr.write(`compute-cost: ${message}\n`);
  process.exit(2);
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (e) {
    fail(`${what} ${file}: ${messageOf(e)}`);
  }
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        preview: { type: "string" },
        state: { type: "string" },
        "api-url": { type: "string" },
        format: { type: "string", default: "markdown" },
        out: { type: "string" },
        "fail-over": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`compute-cost: ${messageOf(e)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (typeof values.preview !== "string") {
    process.stderr.write(`compute-cost: --preview is required\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.format !== "markdown" && values.format !== "json") fail(`--format: markdown or json, not ${String(values.format)}`);
  const given = values["fail-over"];
  const budget = given === undefined ? undefined : Number(given);
  if (budget !== undefined && (String(given).trim() === "" || !(Number.isFinite(budget) && budget >= 0)))
    fail(`--fail-over: an amount in US dollars, not "${String(given)}"`);
  const read = previewJson.safeParse(readJson(values.preview, "--preview"));
  if (!read.success) fail(`--preview ${values.preview}: not the JSON of \`pulumi preview --json\` (no steps)`);
  const preview = read.data;
  const stateFile = values.state;
  const exported = typeof stateFile === "string" ? stateJson.safeParse(readJson(stateFile, "--state")) : undefined;
  if (exported && !exported.success) fail(`--state ${String(stateFile)}: not the JSON of \`pulumi stack export\` (no deployment)`);
  const state = exported?.data;
  const fromStack = preview.config?.["compute:apiUrl"];
  const url = values["api-url"];
  const apiUrl = (typeof url === "string" ? url : undefined) ?? process.env.COMPUTE_API_URL ?? (typeof fromStack === "string" ? fromStack : undefined);
  if (!apiUrl) fail("no API URL: give --api-url, or set COMPUTE_API_URL (the stack's compute:apiUrl is read from the preview when it is set)");
  let catalog;
  try {
    catalog = await readPriceCatalog(new ApiClient({ baseUrl: apiUrl, token: "", retry: { retries: 2 } }));
  } catch (e) {
    fail(`cannot read the price catalogue from ${apiUrl}: ${messageOf(e)}`);
  }
  const report = costReport(catalog, preview, state);
  const text = values.format === "json" ? JSON.stringify(report, null, 2) + "\n" : markdown(report);
  process.stdout.write(text);
  if (typeof values.out === "string") writeFileSync(values.out, text);
  // Exit codes set, not exits: what was written to a pipe is written whole first.
  if (budget !== undefined && report.after.monthly > budget) {
    process.stderr.write(
      `compute-cost: the stack's monthly cost after the change, $${report.after.monthly.toFixed(2)}, is over the budget of $${budget.toFixed(2)}\n`,
    );
    process.exitCode = 1;
  } else if (budget !== undefined && report.unknown.length) {
    process.stderr.write(
      `compute-cost: the stack's monthly cost after the change is not known, so the budget of $${budget.toFixed(2)} cannot be checked: the price of ${report.unknown.join(", ")} waits on a value the preview does not know\n`,
    );
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`compute-cost: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
