#!/usr/bin/env node
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { failedReport, markdown, reportOf, type DriftReport } from "./report";

const USAGE = `usage: compute-drift --refresh FILE [--stack NAME] [--format markdown|json] [--out FILE] [--report-only]

What changed out of band in a stack: each resource a refresh finds changed or deleted, and each field that
drifted, before → after (secrets redacted). Reads what the CLI writes, so it serves programs in every language.

  --refresh FILE   the output of \`pulumi refresh --preview-only --json\` (- for standard input); also read:
                   \`pulumi preview --refresh --json\`, \`pulumi refresh --yes --json\`, and either streamed
                   (PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true)
  --stack NAME     the stack's name in the report (default: the one the JSON's URNs name)
  --format F       markdown (default; for an issue or a job's summary) or json
  --out FILE       write the report there too (the report is printed either way)
  --report-only    exit 0 on drift too (the report still says so)
  -h, --help       this text

The report is written whatever happens: when the input cannot be read, it says the report could not be made,
and why.

Exit status: 0 no drift; 1 drift (0 with --report-only); 2 a wrong argument, an input that is not a refresh's
JSON, or a refresh that failed (its errors in the report).`;

/** Prints the report, and writes it to `out`: false when that cannot be written. */
function emit(report: DriftReport, format: string, out: string | undefined): boolean {
  const text = format === "json" ? JSON.stringify(report, null, 2) + "\n" : markdown(report);
  process.stdout.write(text);
  if (out === undefined) return true;
  try {
    writeFileSync(out, text);
    return true;
  } catch (e) {
    process.stderr.write(`compute-drift: --out ${out}: ${e instanceof Error ? e.message : String(e)}\n`);
    return false;
  }
}

function main(): void {
  // Standard output that cannot be written (a closed pipe, a full disk): exit 2, never a crash whose 1 reads as drift.
  process.stdout.on("error", () => {
    process.exitCode = 2;
  });
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        refresh: { type: "string" },
        stack: { type: "string" },
        format: { type: "string", default: "markdown" },
        out: { type: "string" },
        "report-only": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`compute-drift: ${message}\n\n${USAGE}\n`);
    // Still a report, so that a comment posted from it is never empty.
    emit(failedReport(`a wrong argument: ${message}`), "markdown", undefined);
    process.exitCode = 2;
    return;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const stack = typeof values.stack === "string" ? values.stack : undefined;
  const out = typeof values.out === "string" ? values.out : undefined;
  const format = values.format === "json" ? "json" : "markdown";
  const refuse = (problem: string) => {
    process.stderr.write(`compute-drift: ${problem}\n`);
    emit(failedReport(problem, stack), format, out);
    process.exitCode = 2;
  };
  if (values.format !== "markdown" && values.format !== "json") return refuse(`--format: markdown or json, not ${String(values.format)}`);
  const file = values.refresh;
  if (typeof file !== "string") return refuse("--refresh is required: the output of `pulumi refresh --preview-only --json`");
  let text: string;
  try {
    text = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    return refuse(`--refresh ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const report = reportOf(text, file === "-" ? "standard input" : file, stack);
  const written = emit(report, format, out);
  // Exit codes set, not exits: what was written to a pipe is written whole first.
  if (!written) process.exitCode = 2;
  else if (!report.made || !report.complete) {
    process.stderr.write(`compute-drift: ${report.problem ?? report.verdict}\n`);
    process.exitCode = 2;
  } else if (report.drift && !values["report-only"]) {
    process.stderr.write(`compute-drift: ${report.verdict}\n`);
    process.exitCode = 1;
  }
}

main();
