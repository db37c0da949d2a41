#!/usr/bin/env node
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ApiClient } from "../transport/client";
import { readPriceCatalog } from "../resources/prices";
import { messageOf } from "../lifecycle/errors";
import { failedMarkdown, markdown, verdictLine, verdictOf, type Verdict } from "./markdown";
import { costReport, previewJson, stateJson, type CostReport } from "./report";
import { listsEverything, mismatch, previewErrors, previewStack, unlisted } from "./source";

const USAGE = `usage: compute-cost --preview FILE [--state FILE] [--api-url URL] [--format markdown|json] [--out FILE] [--fail-over AMOUNT]

The monthly cost of a stack before and after a change, and each resource that changes it, priced by the API's
catalogue (no token needed). Reads what the CLI writes, so it serves programs in every language.

  --preview FILE     the output of \`pulumi preview --json --show-sames\` (- for standard input): with
                     --show-sames it lists every resource of the stack, and is all the command needs
  --state FILE       optional: the output of \`pulumi stack export\` taken right after the preview, checked against
                     it (the same stack, every resource as the preview found it), or the command refuses it
  --api-url URL      the API to read prices from, ending in /v4 (default: COMPUTE_API_URL, else the stack's
                     compute:apiUrl as the preview's JSON shows it)
  --format F         markdown (default; for a pull request's comment) or json
  --out FILE         write the report there too (the report is printed either way)
  --fail-over AMOUNT the budget: the report states whether the cost after the change is over or within it, and the
                     command exits 1 when it is over, or cannot be known (a price that waits on a value the
                     preview does not know)
  -h, --help         this text

Exit status: 0; 1 over the budget of --fail-over; 2 a wrong argument, an unreadable input, a failed preview or a
state that does not match it. On every exit the report (or, on 2, why there is none) is printed and written to
--out, so a pull request's comment is never empty.`;

/** A report that cannot be made: why, and the stack when it is known. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly stackName?: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (e) {
    throw new Refusal(`${what} ${file}: ${messageOf(e)}`);
  }
}

type Args = Record<string, string | boolean | undefined>;

function parse(): Args {
  try {
    return parseArgs({
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
    }).values;
  } catch (e) {
    throw new Refusal(messageOf(e), undefined, true);
  }
}

/** The report, its text and the budget's verdict; a Refusal when it cannot be made. */
async function report(values: Args): Promise<{ text: string; verdict?: Verdict; report: CostReport }> {
  if (typeof values.preview !== "string") throw new Refusal("--preview is required (the output of `pulumi preview --json --show-sames`)");
  const given = values["fail-over"];
  const budget = given === undefined ? undefined : Number(given);
  if (budget !== undefined && (!/^\d+(\.\d+)?$/.test(String(given)) || !Number.isFinite(budget)))
    throw new Refusal(`--fail-over: an amount in US dollars, not "${String(given)}"`);
  const read = previewJson.safeParse(readJson(values.preview, "--preview"));
  if (!read.success) throw new Refusal(`--preview ${values.preview}: not the JSON of \`pulumi preview --json\` (no steps or no changeSummary)`);
  const preview = read.data;
  const stack = previewStack(preview)?.stack;
  const errors = previewErrors(preview);
  if (errors.length) throw new Refusal(`the preview failed, so it lists only some of the change: ${errors.join("; ")}`, stack);
  const stateFile = values.state;
  const exported = typeof stateFile === "string" ? stateJson.safeParse(readJson(stateFile, "--state")) : undefined;
  if (exported && !exported.success) throw new Refusal(`--state ${String(stateFile)}: not the JSON of \`pulumi stack export\` (no deployment)`, stack);
  const state = exported?.data;
  if (!listsEverything(preview))
    throw new Refusal(
      `the preview leaves ${unlisted(preview)} of the stack's resources alone without listing them, so their cost is not in it: run \`pulumi preview --json --show-sames\` (an export cannot stand in for them: nothing in the preview says what they were)`,
      stack,
    );
  if (state) {
    const wrong = mismatch(preview, state);
    if (wrong) throw new Refusal(`--state ${String(stateFile)} does not match the preview: ${wrong}`, stack);
  }
  const fromStack = preview.config?.["compute:apiUrl"];
  const url = values["api-url"];
  const apiUrl = (typeof url === "string" ? url : undefined) ?? process.env.COMPUTE_API_URL ?? (typeof fromStack === "string" ? fromStack : undefined);
  if (!apiUrl)
    throw new Refusal("no API URL: give --api-url, or set COMPUTE_API_URL (the stack's compute:apiUrl is read from the preview when it is set)", stack);
  let catalog;
  try {
    catalog = await readPriceCatalog(new ApiClient({ baseUrl: apiUrl, token: "", retry: { retries: 2 } }));
  } catch (e) {
    throw new Refusal(`cannot read the price catalogue from ${shownUrl(apiUrl)}: ${messageOf(e).split(apiUrl).join(shownUrl(apiUrl))}`, stack);
  }
  const r = costReport(catalog, preview, state, true);
  const verdict = budget === undefined ? undefined : verdictOf(r, budget);
  const text = values.format === "json" ? JSON.stringify({ ...r, ...(verdict ? { verdict } : {}) }, null, 2) + "\n" : markdown(r, verdict);
  return { text, verdict, report: r };
}

/** A URL as a report may show it: no credentials, no query (a token in either stays out of a pull request's comment). */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(an API URL that is not a URL)";
  }
}

/** Prints the text and writes it to --out: on every exit, so that what a pipeline posts is never empty. */
function emit(text: string, out: unknown): void {
  process.stdout.write(text);
  if (typeof out !== "string") return;
  try {
    writeFileSync(out, text);
  } catch (e) {
    process.stderr.write(`compute-cost: --out ${out}: ${messageOf(e)}\n`);
    process.exitCode = 2;
  }
}

async function main(): Promise<void> {
  // Standard output that cannot be written (a closed pipe, a full disk): exit 2, never a crash that reads as a verdict.
  process.stdout.on("error", () => {
    process.exitCode = 2;
  });
  let values: Args = {};
  try {
    values = parse();
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    if (values.format !== "markdown" && values.format !== "json") {
      const format = values.format;
      values.format = "markdown";
      throw new Refusal(`--format: markdown or json, not ${String(format)}`);
    }
    const made = await report(values);
    emit(made.text, values.out);
    // Exit codes set, not exits: what was written to a pipe is written whole first.
    const v = made.verdict;
    if (v && v.result !== "within") {
      process.stderr.write(`compute-cost: ${verdictLine(v, made.report.after.monthly).replace(/\*\*/g, "")}\n`);
      process.exitCode ||= 1;
    }
  } catch (e) {
    const stack = e instanceof Refusal ? e.stackName : undefined;
    const reason = messageOf(e);
    process.stderr.write(`compute-cost: ${reason}\n${e instanceof Refusal && e.usage ? `\n${USAGE}\n` : ""}`);
    emit(values.format === "json" ? JSON.stringify({ error: reason, ...(stack ? { stack } : {}) }, null, 2) + "\n" : failedMarkdown(reason, stack), values.out);
    process.exitCode = 2;
  }
}

void main();
