import { nameOf, readEngineRun, splitDocuments, stackOf, type EngineRun, type Observation, type State } from "./input";
import { parsePath, valueAt } from "./paths";
import { isSecretValue, redactValue, secretPath, SECRET_TEXT } from "./secrets";
import { plural } from "../cost/words";

/**
 * The drift report of a stack (`npx compute-drift`): what a refresh found changed or deleted out of band,
 * from the CLI's JSON (provider/drift/input.ts reads it), each drifted field before → after as the engine's
 * detailed diff names it, secrets redacted. Any language's program: it reads only what the engine writes.
 */

export interface DriftField {
  /** The property path, as the engine names it (`label`, `alerts.cpu`, `tags[1]`, `interfaces[1].label`). */
  path: string;
  change: "changed" | "added" | "removed";
  /** The values (absent: none); "[secret]" for a secret. */
  before?: unknown;
  after?: unknown;
  secret: boolean;
  /** Whether putting it back replaces the resource (the engine's `-replace` kinds). */
  replaces: boolean;
}

export interface DriftedResource {
  urn: string;
  name: string;
  type: string;
  happened: "changed" | "deleted";
  fields: DriftField[];
  /** `engine`: the engine's detailed diff; `compared`: the engine gives none, so compute-drift compared the inputs (an external resource's outputs). */
  fieldsFrom: "engine" | "compared";
}

export interface DriftReport {
  /** Whether the report could be made at all; `problem` says why not. */
  made: boolean;
  problem?: string;
  /** Whether the engine reported errors: the refresh did not finish, so the report is incomplete. */
  complete: boolean;
  drift: boolean;
  /** The first line, in words: "No drift in stack prod", "Drift in stack prod: 3 resources", ... */
  verdict: string;
  stack: string | null;
  project: string | null;
  /** The command whose JSON was read. */
  source: string;
  /** What `before` holds: the stack's state, or (`pulumi preview --refresh`'s digest) what the program declares. */
  baseline: "state" | "program";
  /** Resources the refresh read (the stack itself and its providers left out). */
  checked: number;
  /** Resources the engine could not read (each error names it). */
  unreadable: number;
  resources: DriftedResource[];
  /** Resources the engine counts as drifted without naming them (a provider with no detailed diff). */
  unnamed: number;
  programChanges: number;
  errors: string[];
}

const SOURCES = {
  "refresh-preview": "pulumi refresh --preview-only --json",
  "refresh-applied": "pulumi refresh --yes --json",
  "preview-refresh": "pulumi preview --refresh --json",
} as const;

const FRAMEWORK = /^pulumi:(pulumi:Stack|providers:)/;

/** A field's value on one side: inputs where the engine compared inputs, else outputs (then the other). */
function sideValue(state: State | undefined, segments: Array<string | number>, inputDiff: boolean): { found: boolean; value?: unknown } {
  const first = valueAt(inputDiff ? state?.inputs : state?.outputs, segments);
  return first.found ? first : valueAt(inputDiff ? state?.outputs : state?.inputs, segments);
}

function fieldsOf(o: Observation): DriftField[] {
  return Object.entries(o.fields)
    .map(([path, d]) => {
      const segments = parsePath(path) ?? [path];
      const secret = secretPath(o.type, segments);
      const before = sideValue(o.recorded, segments, d.inputDiff);
      const after = sideValue(o.found, segments, d.inputDiff);
      const shown = (v: { found: boolean; value?: unknown }) => (!v.found || v.value === undefined ? undefined : secret ? SECRET_TEXT : redactValue(v.value));
      const kind = d.kind.replace(/-replace$/, "");
      const change = kind === "add" ? "added" : kind === "delete" ? "removed" : "changed";
      const field: DriftField = {
        path,
        change,
        secret: secret || isSecretValue(before.value) || isSecretValue(after.value),
        replaces: d.kind.endsWith("-replace"),
      };
      const b = change === "added" ? undefined : shown(before);
      const a = change === "removed" ? undefined : shown(after);
      if (b !== undefined) field.before = b;
      if (a !== undefined) field.after = a;
      return field;
    })
    .sort((x, y) => x.path.localeCompare(y.path));
}

/** The report of a refresh the engine reported (`run`); `stack` names the stack where the JSON cannot. */
export function driftReport(run: EngineRun, stack?: string): DriftReport {
  const named = stackOf(run);
  const name = stack ?? named.stack ?? null;
  // A resource whose read failed shows as not changed: it was not read.
  const failed = new Set(run.errors.flatMap((e) => (e.urn ? [e.urn] : [])));
  const read = run.observations.filter((o) => !(o.outcome === "same" && failed.has(o.urn)));
  const resources: DriftedResource[] = read
    .filter((o) => o.outcome !== "same")
    .map((o): DriftedResource => ({
      urn: o.urn,
      name: nameOf(o.urn),
      type: o.type,
      happened: o.outcome === "deleted" ? "deleted" : "changed",
      fields: o.outcome === "deleted" ? [] : fieldsOf(o),
      fieldsFrom: o.computed ? "compared" : "engine",
    }))
    // By name (the engine refreshes in parallel: its order changes from run to run).
    .sort((a, b) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type));
  const drifted = resources.length + run.unnamed;
  const complete = run.errors.length === 0;
  const who = name === null ? "the stack" : `stack ${name}`;
  let verdict: string;
  if (!complete) verdict = `Drift check incomplete for ${who}: the refresh failed (${plural(run.errors.length, "error")})`;
  else if (drifted) verdict = `Drift in ${who}: ${plural(drifted, "resource")}`;
  else verdict = `No drift in ${who}`;
  return {
    made: true,
    complete,
    drift: drifted > 0,
    verdict,
    stack: name,
    project: named.project ?? null,
    source: SOURCES[run.source],
    baseline: run.baseline,
    checked: read.filter((o) => !FRAMEWORK.test(o.type)).length,
    unreadable: failed.size,
    resources,
    unnamed: run.unnamed,
    programChanges: run.programChanges,
    // The resources' errors by name, then the operation's own.
    errors: [...run.errors]
      .sort((a, b) => Number(!a.urn) - Number(!b.urn) || nameOf(a.urn ?? "").localeCompare(nameOf(b.urn ?? "")))
      .map((e) => (e.urn ? `${nameOf(e.urn)}: ${e.message}` : e.message)),
  };
}

/** The report of an input that could not be read: it says so, and why. */
export function failedReport(problem: string, stack?: string): DriftReport {
  const verdict = `Drift report ${stack ? `for stack ${stack} ` : ""}could not be made`;
  return {
    made: false,
    problem,
    complete: false,
    drift: false,
    verdict,
    stack: stack ?? null,
    project: null,
    source: "",
    baseline: "state",
    checked: 0,
    unreadable: 0,
    resources: [],
    unnamed: 0,
    programChanges: 0,
    errors: [],
  };
}

/** The report of the CLI's output `text` (what `file` holds): the drift it tells, or why it cannot be read. */
export function reportOf(text: string, file: string, stack?: string): DriftReport {
  try {
    return driftReport(readEngineRun(splitDocuments(text)), stack);
  } catch (e) {
    return failedReport(`${file}: ${e instanceof Error ? e.message : String(e)}`, stack);
  }
}

/** A value in Markdown: JSON in code (secrets as [secret]), cut at 200 characters; `(none)` where there is none. */
function shown(v: unknown): string {
  if (v === undefined) return "(none)";
  if (v === SECRET_TEXT) return "`[secret]`";
  let text = JSON.stringify(v);
  if (text.length > 200) text = `${text.slice(0, 199)}…`;
  return code(text);
}

/** Text as a code span that nothing in it can close: fenced by one backtick more than its longest run of them. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** Text outside code: Markdown's marks escaped, and an `@` that would mention someone on GitHub kept from doing so. */
const escape = (s: string) => s.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`).replace(/@(?=\w)/g, "@\u200b");

/** The report's most characters before its list of resources is cut (GitHub's issue and comment bodies hold 65,536). */
export const MARKDOWN_LIMIT = 60_000;

/** A drifted resource's lines: what happened, then each field before → after. */
function resourceLines(x: DriftReport["resources"][number]): string[] {
  const lines: string[] = [];
  const head = `- **${escape(x.name)}** (\`${x.type}\`)`;
  if (x.happened === "deleted") return [`${head}: deleted out of band (\`pulumi up\` creates it again)`];
  const replaces = x.fields.some((f) => f.replaces) ? " (`pulumi up` replaces it to put it back)" : "";
  const compared =
    x.fieldsFrom === "compared"
      ? " (fields compared by compute-drift: the engine gives no detailed diff for it, a resource of a dynamic provider or one the program only reads)"
      : "";
  lines.push(`${head}: changed out of band${replaces}${compared}`);
  if (!x.fields.length) lines.push("  - the engine names no field");
  for (const f of x.fields) {
    const what = f.change === "added" ? "added" : f.change === "removed" ? "removed" : "";
    const note = [what, f.secret ? "secret: value not shown" : ""].filter(Boolean).join("; ");
    lines.push(`  - \`${f.path}\`: ${shown(f.before)} → ${shown(f.after)}${note ? ` (${note})` : ""}`);
  }
  return lines;
}

/** The report as Markdown, for an issue or a job's summary: the verdict first, then each drifted resource and field. */
export function markdown(r: DriftReport): string {
  const lines = [`### ${r.verdict}`, ""];
  if (!r.made) {
    lines.push(`The report could not be made: ${r.problem ?? "no reason given"}.`, "");
    lines.push("Give it the output of `pulumi refresh --preview-only --json` (see docs/drift.md).");
    return lines.join("\n") + "\n";
  }
  const where = r.stack === null ? "The stack" : `Stack **${escape(r.stack)}**${r.project ? ` of project ${escape(r.project)}` : ""}`;
  const unread = r.unreadable ? `, ${r.unreadable} could not be read` : "";
  lines.push(`${where}, from \`${r.source}\`: ${plural(r.checked, "resource")} checked, ${r.resources.length + r.unnamed} drifted${unread}.`, "");
  if (r.baseline === "program") {
    lines.push(
      "Each field reads what the program declares → what the cloud has now: a change to the program that is not deployed yet shows here as well (`pulumi refresh --preview-only --json` shows drift alone).",
      "",
    );
  }
  // Cut to what an issue, a comment or a job's summary holds (GitHub: 65,536 characters): the JSON form lists all.
  let size = lines.join("\n").length;
  let left = r.resources.length;
  for (const x of r.resources) {
    const own = resourceLines(x);
    const length = own.join("\n").length + 1;
    if (size + length > MARKDOWN_LIMIT) {
      lines.push(
        `- ${plural(left, "more drifted resource")} not listed here, to keep the report within what an issue or a comment holds: \`--format json\` lists every one.`,
      );
      break;
    }
    lines.push(...own);
    size += length;
    left--;
  }
  if (r.unnamed) {
    lines.push(
      `- ${plural(r.unnamed, "more resource")} drifted that the engine's JSON does not name: the engine gives no detailed diff for a resource of a dynamic provider (such as the \`pulumi-compute\` TypeScript classes) or one the program only reads (\`get\`). Run the refresh with \`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true\` to name ${r.unnamed === 1 ? "it" : "them"}.`,
    );
  }
  if (r.resources.length || r.unnamed) lines.push("");
  if (r.errors.length) {
    lines.push("The refresh failed, so this report is incomplete. The engine's errors:", "");
    for (const e of r.errors) lines.push(`- ${escape(e.split("\n").join(" "))}`);
    lines.push("");
  }
  if (r.programChanges) lines.push(`Not drift: ${plural(r.programChanges, "resource")} the program adds or no longer declares.`, "");
  if (r.drift) {
    lines.push(
      r.source === SOURCES["refresh-applied"]
        ? "The refresh was applied: the state now records what was found. `pulumi up` puts the program's values back."
        : "`pulumi refresh` records what was found in the state; `pulumi up` puts the program's values back.",
    );
  }
  return lines.join("\n").trimEnd() + "\n";
}
