/**
 * Where the cost report's "before" comes from, and the checks that keep it from misleading. A preview lists every
 * resource of the stack only with `--show-sames`; without it the report would miss the resources it leaves alone,
 * and an export (`--state`) cannot stand in for them, since nothing in the preview says what they were: such a
 * preview is refused. An export given beside a whole preview must be the state it was made from (the same stack,
 * every resource as the preview found it): a stale one (taken before the last `up`), another stack's, or an
 * empty one is refused, saying which check failed.
 */

import { plural, stackOfUrn, type StackName } from "./words";

/** The parts of a resource the checks read (the CLI's JSON has more). */
export interface Listed {
  urn: string;
  type: string;
  id?: unknown;
  modified?: unknown;
  delete?: boolean;
  external?: boolean;
}
export interface PreviewSteps {
  steps: Array<{ op: string; urn: string; oldState?: Partial<Listed> }>;
  changeSummary?: Record<string, number>;
  diagnostics?: Array<{ message?: string; severity?: string; urn?: string }>;
}
export interface Exported {
  deployment: { resources?: Listed[] };
}

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
/** The engine's own providers (`default_...`): it neither shows nor counts their steps. */
const isDefaultProvider = (r: Listed) => r.type.startsWith("pulumi:providers:") && nameOf(r.urn).startsWith("default");

/** The stack a preview is of: its steps' URNs (the root stack's step is always listed). */
export function previewStack(preview: PreviewSteps): StackName | undefined {
  for (const s of preview.steps) {
    const n = stackOfUrn(s.urn);
    if (n) return n;
  }
  return undefined;
}

/**
 * A preview that failed: its error diagnostics (a preview that stops half-way lists only some of its steps). A
 * language host may print its errors as the program's output (the YAML host: severity `info#err`).
 */
export function previewErrors(preview: PreviewSteps): string[] {
  return (preview.diagnostics ?? [])
    .filter((d) => d.severity === "error" || d.severity?.endsWith("#err"))
    .map((d) => (d.message ?? "").trim().split("\n").slice(0, 3).join(" ").slice(0, 500))
    .filter((m, i, all) => m && all.indexOf(m) === i);
}

/**
 * How many resources the stack has that the preview leaves alone without listing them: its count of `same`
 * steps less those it shows (a `read` that changes nothing is not counted; the engine's own providers neither).
 */
export function unlisted(preview: PreviewSteps): number {
  return Math.max(0, (preview.changeSummary?.same ?? 0) - preview.steps.filter((s) => s.op === "same").length);
}

/**
 * Why the export does not match the preview, or nothing when it does. The preview lists every resource (the CLI
 * refuses one that does not: an export cannot be checked for resources a preview leaves out), so each resource of
 * the export must be one the preview found, as it found it (its `modified` time, or its id), and each the preview
 * found must be in the export: a stale export, another stack's or an empty one is refused, naming the check.
 */
export function mismatch(preview: PreviewSteps, exported: Exported): string | undefined {
  const fix = "export the state of the stack the preview is of, right after the preview";
  const want = previewStack(preview);
  const resources = (exported.deployment.resources ?? []).filter((r) => !r.delete && !isDefaultProvider(r));
  const found = preview.steps.filter((s) => s.oldState && s.op !== "create");
  if (!resources.length) {
    if (!found.length) return undefined; // a new stack's first preview
    return `the state has no resources, and the preview finds ${plural(found.length, "resource")} in the stack: ${fix}`;
  }
  const got = stackOfUrn(resources[0].urn);
  if (want && got && (got.stack !== want.stack || got.project !== want.project))
    return `the state is of stack ${got.stack} (project ${got.project}), the preview of stack ${want.stack} (project ${want.project}): ${fix}`;
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  for (const s of found) {
    const old = s.oldState ?? {};
    const held = byUrn.get(old.urn ?? s.urn);
    if (!held) return `the state has no ${nameOf(s.urn)}, which the preview finds in the stack (${s.op}): ${fix}`;
    const differs =
      (old.modified !== undefined && held.modified !== undefined && old.modified !== held.modified) ||
      (old.id !== undefined && held.id !== undefined && old.id !== held.id);
    if (differs)
      return `${nameOf(s.urn)} in the state is not as the preview found it (${held.modified !== undefined ? `modified ${String(held.modified)}, the preview's ${String(old.modified)}` : `id ${String(held.id)}, the preview's ${String(old.id)}`}): the stack changed between the export and the preview: ${fix}`;
  }
  const listed = new Set(found.map((s) => s.oldState?.urn ?? s.urn));
  const extra = resources.find((r) => !listed.has(r.urn));
  if (extra)
    return `the state has ${nameOf(extra.urn)}, which the preview does not find in the stack: the stack changed between the export and the preview: ${fix}`;
  return undefined;
}

/** Whether the preview lists every resource of the stack (it was run with `--show-sames`, or the stack has none it leaves alone). */
export const listsEverything = (preview: PreviewSteps) => unlisted(preview) === 0;
