import { z } from "zod";
import { changedPaths } from "./paths";
import { stackOfUrn } from "../cost/words";

/**
 * What the engine says of a refresh, read from the CLI's JSON (docs/drift.md records the shapes, as the
 * Pulumi CLI v3.274.1 writes them):
 *
 * - a digest, one JSON document: `pulumi refresh --preview-only --json` (each refreshed resource a step: `update`
 *   with its `detailedDiff` where it drifted, `delete` where it is gone, `refresh` where it did not change, or where
 *   its provider gives no detailed diff: Pulumi's dynamic providers), and `pulumi preview --refresh --json` (the
 *   refresh's steps all `refresh`, then the program's steps against what the refresh found);
 * - an event stream, a JSON document a line: `pulumi refresh --preview-only --json` with
 *   PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true, `pulumi preview --refresh --json` the same way, and what
 *   `pulumi refresh --yes --json` prints after its digest (the refresh it made). A refresh's `resOutputsEvent`
 *   holds the state found (`new`) beside the one recorded (`old`), and the engine's detailed diff.
 *
 * Anything else (a preview without --refresh, an export) is refused, saying what to run.
 */

const props = z.record(z.string(), z.unknown());
const state = z.object({
  urn: z.string().optional(),
  type: z.string().optional(),
  custom: z.boolean().optional(),
  /** A resource the program reads (`Instance.get`) and does not manage: the engine compares its outputs alone. */
  external: z.boolean().optional(),
  inputs: props.nullish(),
  outputs: props.nullish(),
});
export type State = z.output<typeof state>;
/** A field's change: `kind` in a digest, `diffKind` in an event (add, delete, update, and each `-replace`). */
const propertyDiff = z.object({ kind: z.string().optional(), diffKind: z.string().optional(), inputDiff: z.boolean().optional() });
const detailedDiff = z.record(z.string(), propertyDiff).nullish();
const step = z.object({ op: z.string(), urn: z.string(), oldState: state.nullish(), newState: state.nullish(), detailedDiff });
const diagnostic = z.object({ urn: z.string().optional(), prefix: z.string().optional(), message: z.string().optional(), severity: z.string().optional() });
const DIGEST_KEYS = ["config", "steps", "diagnostics", "duration", "changeSummary", "maybeCorrupt"];
const digest = z.object({
  steps: z.array(step).nullish(),
  diagnostics: z.array(diagnostic).nullish(),
  changeSummary: z.record(z.string(), z.number()).nullish(),
});
const metadata = z.object({ op: z.string(), urn: z.string(), type: z.string().optional(), old: state.nullish(), new: state.nullish(), detailedDiff });
const event = z.object({
  sequence: z.number(),
  resourcePreEvent: z.object({ metadata }).optional(),
  resOutputsEvent: z.object({ metadata }).optional(),
  resOpFailedEvent: z.object({ metadata }).optional(),
  diagnosticEvent: diagnostic.optional(),
  summaryEvent: z
    .object({ resourceChanges: z.record(z.string(), z.number()).nullish(), isPreview: z.boolean().optional(), result: z.string().optional() })
    .optional(),
});
type Digest = z.output<typeof digest>;
type Event = z.output<typeof event>;
type Step = z.output<typeof step>;

/** A field's change, oriented from what was recorded to what was found. */
export interface FieldChange {
  kind: string;
  inputDiff: boolean;
}

/** What the refresh found of one resource. */
export interface Observation {
  urn: string;
  type: string;
  outcome: "changed" | "deleted" | "same";
  /** What the baseline holds (the state; for a `preview --refresh` digest, what the program declares). */
  recorded?: State;
  /** What the cloud has now (none where it is gone). */
  found?: State;
  /** The fields that differ, path → change; `computed` where the engine gave none and they were compared here. */
  fields: Record<string, FieldChange>;
  computed: boolean;
}

export type Source = "refresh-preview" | "refresh-applied" | "preview-refresh";

/** The engine's account of a refresh, whatever form it came in. */
export interface EngineRun {
  source: Source;
  form: "digest" | "events";
  /** What `recorded` holds: the stack's state, or (a `preview --refresh` digest) the program's inputs. */
  baseline: "state" | "program";
  observations: Observation[];
  /** Resources the engine counts as changed (or deleted) that no step names: a digest's, for a provider without detailed diff. */
  unnamed: number;
  /** Resources a `preview --refresh` would create or delete because the program differs from the state: not drift. */
  programChanges: number;
  /** The engine's errors, each with the resource it names (none: the operation's own). */
  errors: EngineError[];
}

export interface EngineError {
  urn?: string;
  message: string;
}

/** The JSON documents of a text: one (a digest), one a line (events), or a digest then events. */
export function splitDocuments(text: string): unknown[] {
  const docs: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if (c === "}" || c === "]") {
      if (--depth === 0) docs.push(JSON.parse(text.slice(start, i + 1)));
      if (depth < 0) throw new Error(`an unmatched "${c}" at line ${lineOf(text, i)}`);
    } else if (depth === 0 && !/\s/.test(c)) {
      const line = text.slice(text.lastIndexOf("\n", i) + 1).split("\n")[0];
      throw new Error(`not JSON at line ${lineOf(text, i)}: ${line.slice(0, 120)}`);
    }
  }
  if (depth > 0) throw new Error("it ends inside a JSON document (cut short?)");
  return docs;
}

const lineOf = (text: string, i: number) => text.slice(0, i).split("\n").length;

/** The errors of the engine's diagnostics, their `error: ` prefix left out. */
const errorsOf = (diags: ReadonlyArray<z.output<typeof diagnostic>>): EngineError[] =>
  diags.filter((d) => d.severity === "error").map((d) => ({ ...(d.urn ? { urn: d.urn } : {}), message: (d.message ?? "").trim().replace(/^error: /, "") }));

export const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
/** A URN's type: its last segment's last `$`-part (a child's type follows its parent's). */
const typeOfUrn = (urn: string) => (urn.split("::")[2] ?? "").split("$").pop() ?? "";
const isRoot = (type: string) => type === "pulumi:pulumi:Stack";

const invert = (kind: string) => kind.replace(/^(add|delete)/, (k) => (k === "add" ? "delete" : "add"));

/** The engine's detailed diff as field changes, inverted where it reads from what was found to the baseline. */
function fieldsOf(diff: Step["detailedDiff"], inverted: boolean): Record<string, FieldChange> | undefined {
  if (!diff) return undefined;
  return Object.fromEntries(
    Object.entries(diff).map(([path, d]) => {
      const kind = d.kind ?? d.diffKind ?? "update";
      return [path, { kind: inverted ? invert(kind) : kind, inputDiff: d.inputDiff ?? true }];
    }),
  );
}

/**
 * The fields that differ where the engine names none: the inputs, which the provider's diff compares (the marks a
 * provider keeps, `__...`, left out), else the outputs.
 */
function compared(recorded: State | undefined, found: State | undefined): Record<string, FieldChange> {
  const strip = (p: Record<string, unknown> | null | undefined) => Object.fromEntries(Object.entries(p ?? {}).filter(([k]) => !k.startsWith("__")));
  // An external resource: its outputs, as the engine compares them (it computes no diff for one).
  const inputs = !recorded?.external && (recorded?.inputs != null || found?.inputs != null);
  const before = strip(inputs ? recorded?.inputs : recorded?.outputs);
  const after = strip(inputs ? found?.inputs : found?.outputs);
  return Object.fromEntries(changedPaths("", before, after).map(([path, kind]) => [path, { kind, inputDiff: inputs }]));
}

/** An observation of a changed resource: the engine's fields, or (none given) the ones compared here. */
function changed(
  urn: string,
  type: string,
  recorded: State | undefined,
  found: State | undefined,
  given: Record<string, FieldChange> | undefined,
): Observation {
  const fields = given ?? compared(recorded, found);
  return { urn, type, outcome: "changed", recorded, found, fields, computed: given === undefined };
}

/**
 * Whether the engine refreshed the stack: it refreshes every resource of the state before the program (the stack's
 * own step is `refresh`), or, with --run-program, as the program registers each (the stack's `same` step first,
 * then the refreshes). A preview or an update refreshes the resources marked `refreshBeforeUpdate` only, before
 * the program starts: their `refresh` steps come before the stack's.
 */
function refreshed(ops: ReadonlyArray<{ op: string; root: boolean }>): boolean {
  const first = ops.findIndex((s) => s.root);
  return ops[first]?.op === "refresh" || (first === 0 && ops.some((s) => !s.root && s.op === "refresh"));
}

const PROGRAM_SAME = "same";

/** A refresh that did not get to the stack: not "no drift", which it cannot know. */
const DID_NOT_RUN =
  "the JSON lists no resource, not even the stack: the refresh did not run (a plugin it could not install, a backend it could not reach: its error is in the job's log), or the stack was never deployed";

function fromDigest(d: Digest): EngineRun {
  const all = d.steps ?? [];
  if (!all.length) throw new Error(DID_NOT_RUN);
  const root = (s: Step) => isRoot(s.oldState?.type ?? s.newState?.type ?? typeOfUrn(s.urn));
  if (all.length && !refreshed(all.map((s) => ({ op: s.op, root: root(s) })))) throw new NotARefresh();
  const errors = errorsOf(d.diagnostics ?? []);
  const byUrn = new Map<string, Step[]>();
  for (const s of all) if (!root(s)) byUrn.set(s.urn, [...(byUrn.get(s.urn) ?? []), s]);
  const groups = [...byUrn.values()];
  // A refresh's digest has one step a resource (`refresh`; `update` or `delete` where it drifted), with --run-program
  // and --show-sames the program's `same` beside it. `preview --refresh` adds the program's steps against what was found.
  const previewing = groups.some(
    (g) =>
      g.some((s) => !["refresh", "update", "delete", PROGRAM_SAME].includes(s.op)) || (g.some((s) => s.op === "refresh") && g.some((s) => s.op === "update")),
  );
  const observations: Observation[] = [];
  if (!previewing) {
    for (const g of groups) {
      const s = g.find((x) => x.op === "update" || x.op === "delete") ?? g.find((x) => x.op === "refresh") ?? g[0];
      const type = s.oldState?.type ?? typeOfUrn(s.urn);
      const recorded = s.oldState ?? undefined;
      if (s.op === "update") observations.push(changed(s.urn, type, recorded, s.newState ?? undefined, fieldsOf(s.detailedDiff, false)));
      else if (s.op === "delete") observations.push({ urn: s.urn, type, outcome: "deleted", recorded, fields: {}, computed: false });
      else observations.push({ urn: s.urn, type, outcome: "same", recorded, found: s.newState ?? undefined, fields: {}, computed: false });
    }
    // A provider without detailed diff (a dynamic provider): the engine counts the change, its step stays `refresh`.
    const named = (op: string) => observations.filter((o) => o.outcome === op).length;
    const unnamed = Math.max(0, (d.changeSummary?.update ?? 0) - named("changed")) + Math.max(0, (d.changeSummary?.delete ?? 0) - named("deleted"));
    return { source: "refresh-preview", form: "digest", baseline: "state", observations, unnamed, programChanges: 0, errors };
  }
  let programChanges = 0;
  for (const g of groups) {
    const before = g.find((s) => s.op === "refresh");
    const s = g.find((x) => x.op !== "refresh" && x.op !== PROGRAM_SAME);
    const urn = g[0].urn;
    const type = s?.newState?.type ?? s?.oldState?.type ?? before?.oldState?.type ?? typeOfUrn(urn);
    if (!s) observations.push({ urn, type, outcome: "same", recorded: before?.oldState ?? undefined, fields: {}, computed: false });
    else if (!before || s.op === "delete" || s.op === "delete-replaced")
      programChanges++; // a resource the program adds, or no longer declares
    else if (s.op === "create" || s.op === "create-replacement") {
      observations.push({ urn, type, outcome: "deleted", recorded: before.oldState ?? undefined, fields: {}, computed: false });
    } else {
      // The program's step reads from what was found (oldState) to the program (newState): turned around.
      observations.push(changed(urn, type, s.newState ?? undefined, s.oldState ?? undefined, fieldsOf(s.detailedDiff, true)));
    }
  }
  return { source: "preview-refresh", form: "digest", baseline: "program", observations, unnamed: 0, programChanges, errors };
}

function fromEvents(events: Event[]): EngineRun {
  const pre = new Map<string, string>();
  const outcomes = new Map<string, z.output<typeof metadata>>();
  const errors: EngineError[] = [];
  const ops: Array<{ op: string; root: boolean }> = [];
  let applied = false;
  let failed = false;
  for (const e of events) {
    const p = e.resourcePreEvent?.metadata;
    if (p) {
      const root = isRoot(p.type ?? typeOfUrn(p.urn));
      ops.push({ op: p.op, root });
      if (!root && !pre.has(p.urn)) pre.set(p.urn, p.op);
    }
    const o = e.resOutputsEvent?.metadata;
    // The refresh's outcome comes first (a program's registration waits for the refresh of its resource).
    if (o && pre.get(o.urn) === "refresh" && !outcomes.has(o.urn)) outcomes.set(o.urn, o);
    if (e.resOpFailedEvent) failed = true;
    if (e.diagnosticEvent) errors.push(...errorsOf([e.diagnosticEvent]));
    if (e.summaryEvent) {
      applied = e.summaryEvent.isPreview === false;
      if (e.summaryEvent.result === "failed") failed = true;
    }
  }
  // `preview --refresh` plans the program's steps after the refresh (a refresh with --run-program: `same` only).
  const previewing = ops.some((s) => !s.root && s.op !== "refresh" && s.op !== PROGRAM_SAME);
  if (!refreshed(ops)) throw new NotARefresh();
  if (failed && !errors.length) errors.push({ message: "the engine reports the operation failed" });
  const observations: Observation[] = [];
  for (const [urn, op] of pre) {
    if (op !== "refresh") continue;
    const m = outcomes.get(urn);
    const type = m?.type ?? typeOfUrn(urn);
    const recorded = m?.old ?? undefined;
    // Not refreshed (the operation stopped first): left out; its error is among the errors.
    if (!m) continue;
    if (m.op === "delete" || !m.new) observations.push({ urn, type, outcome: "deleted", recorded, fields: {}, computed: false });
    else if (m.op === "same") observations.push({ urn, type, outcome: "same", recorded, found: m.new, fields: {}, computed: false });
    else {
      // `update` (a refresh), or `refresh` (the refresh of a `preview --refresh`, which the engine does not turn into update).
      const o = changed(urn, type, recorded, m.new, fieldsOf(m.detailedDiff, false));
      const drifted = m.op === "update" || Object.keys(o.fields).length > 0;
      observations.push(drifted ? o : { ...o, outcome: "same", fields: {}, computed: false });
    }
  }
  const source: Source = previewing ? "preview-refresh" : applied ? "refresh-applied" : "refresh-preview";
  return { source, form: "events", baseline: "state", observations, unnamed: 0, programChanges: 0, errors };
}

/** The input is JSON of the CLI, but not of a refresh. */
export class NotARefresh extends Error {
  constructor() {
    super("not the JSON of a refresh: the engine did not refresh the stack (`pulumi preview --json` without --refresh? `pulumi up --json`?)");
  }
}

/**
 * The engine's account of a refresh from the CLI's JSON output (the documents of `splitDocuments`). Throws,
 * saying why, on anything else.
 */
export function readEngineRun(docs: unknown[]): EngineRun {
  if (!docs.length) throw new Error("it holds no JSON (empty: did the command fail before it ran? its error is in the job's log)");
  const events: Event[] = [];
  const digests: Digest[] = [];
  for (const [i, doc] of docs.entries()) {
    const e = event.safeParse(doc);
    if (e.success) {
      events.push(e.data);
      continue;
    }
    const isObject = typeof doc === "object" && doc !== null && !Array.isArray(doc);
    if (isObject && "deployment" in doc) throw new Error("this is a stack's export (`pulumi stack export`), not a refresh");
    const keys = isObject ? Object.keys(doc) : [];
    const d = digest.safeParse(doc);
    if (!isObject || !keys.every((k) => DIGEST_KEYS.includes(k)) || !d.success) {
      throw new Error(`document ${i + 1} is not the engine's JSON (a digest has ${DIGEST_KEYS.slice(0, 5).join(", ")}; an event a sequence number)`);
    }
    digests.push(d.data);
  }
  if (digests.length > 1) throw new Error(`it holds ${digests.length} digests: give the output of one run`);
  // `pulumi refresh --yes --json`: the refresh's digest, then the events of the refresh it made (which say what was found).
  if (events.some((e) => e.resourcePreEvent)) return fromEvents(events);
  if (digests.length) return fromDigest(digests[0]);
  // Events without a resource: a run that failed first, or a stack never deployed.
  const errors = errorsOf(events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : [])));
  throw new Error(errors.length ? `${DID_NOT_RUN}: ${errors.map((e) => e.message).join("; ")}` : DID_NOT_RUN);
}

/** The stack and project the URNs name (`urn:pulumi:<stack>::<project>::...`). */
export function stackOf(run: EngineRun): { stack?: string; project?: string } {
  const urn = run.observations[0]?.urn;
  return (urn && stackOfUrn(urn)) || {};
}
