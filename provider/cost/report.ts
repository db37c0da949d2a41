import { z } from "zod";
import { UNKNOWN } from "../model/unknown";
import { previewStack } from "./source";
import { computeKind } from "./words";
import { addPrices, subtractPrice, ZERO, type Price, type PriceCatalog } from "../resources/price-catalog";

/**
 * The cost report of a change (`compute-cost`): the stack's monthly cost before and after a `pulumi
 * preview`, from the CLI's JSON (`pulumi preview --json`: each step's old and new state) and the stack's state
 * (`pulumi stack export`: the resources the preview does not list, which it leaves as they are), each resource
 * priced by the API's catalogue as its `hourlyPrice`/`monthlyPrice` outputs are (provider/resources/prices.ts).
 * Any language's program: it reads only what the engine records.
 */

/** A resource as the CLI's JSON records it (its other fields left out). `external`: one the program reads (`Instance.get`) and does not manage, not the stack's to pay for. */
const recorded = z.object({
  urn: z.string(),
  type: z.string(),
  id: z.unknown().optional(),
  modified: z.unknown().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  delete: z.boolean().optional(),
  external: z.boolean().optional(),
});
type Recorded = z.output<typeof recorded>;

/** A step's states: a resource as recorded, its URN left out where the step's own says it. */
const stepState = recorded.extend({ urn: z.string().optional() });
type StepState = z.output<typeof stepState>;
const step = z.object({ op: z.string(), urn: z.string(), oldState: stepState.optional(), newState: stepState.optional() });
type Step = z.output<typeof step>;

/** `pulumi preview --json`, the parts the report reads: its steps, and the stack's config. */
export const previewJson = z.object({
  steps: z.array(step),
  config: z.record(z.string(), z.unknown()).optional(),
  changeSummary: z.record(z.string(), z.number()),
  diagnostics: z.array(z.object({ message: z.string().optional(), severity: z.string().optional(), urn: z.string().optional() })).optional(),
});

/** `pulumi stack export`, the parts the report reads: the deployment's resources. */
export const stateJson = z.object({ deployment: z.object({ resources: z.array(recorded).optional() }) });

/** What a resource costs before and after, `null` where the program does not know its type yet. */
export interface ResourceCost {
  urn: string;
  name: string;
  type: string;
  /** The preview's operation, or `same` for a resource of the state the preview leaves alone. */
  op: string;
  /** What it is, in words (`c1-standard-2 in us-east, with backups`). */
  what: string;
  before: Price | null;
  after: Price | null;
}

export interface CostReport {
  currency: "USD";
  before: Price;
  after: Price;
  delta: Price;
  resources: ResourceCost[];
  /**
   * Resources whose price after the change the preview does not know (an input that waits on another
   * resource): the totals count them at their price now (nothing, for a new one).
   */
  unknown: string[];
  /** Resources of a type (or size) the catalogue has no price for: counted as nothing. */
  unpriced: string[];
  /** Whether the totals are the whole stack's: the preview lists every resource, or the state it was made from gave the rest. */
  complete: boolean;
  /** The stack and its project, as the preview's URNs name them. */
  stack: string;
  project: string;
  /** How many priced resources the stack has before the change, and after it (whose price is known). */
  counts: { before: number; after: number };
}

const KINDS = ["Instance", "MysqlDatabase", "PostgresDatabase"] as const;
type Kind = (typeof KINDS)[number];

/** The priced kind of a resource type: the plugin's (`compute:index:Instance`) or the dynamic classes' (`pulumi-nodejs:dynamic/compute:Instance`). */
export function kindOf(type: string): Kind | undefined {
  const kind = computeKind(type);
  return KINDS.find((k) => k === kind);
}

const isUnknown = (v: unknown) => v === UNKNOWN;

/**
 * The values a price reads, layer over layer (the last wins): what the state recorded (its outputs, what the
 * resource is, over its inputs), then a step's planned outputs (a plugin's preview plans them; one not known
 * yet counts for nothing), then the step's inputs (unknown there means unknown).
 */
function valuesOf(old: StepState | undefined, next: StepState | undefined): Record<string, unknown> {
  const v: Record<string, unknown> = { ...old?.inputs, ...old?.outputs };
  for (const [k, x] of Object.entries(next?.outputs ?? {})) if (!isUnknown(x)) v[k] = x;
  return Object.assign(v, next?.inputs);
}

/** A resource's price from its values: `null` when a value it depends on is not known yet; ZERO with `unpriced` when the catalogue has none. */
function priceOf(catalog: PriceCatalog, kind: Kind, v: Record<string, unknown>): { price: Price | null; what: string; unpriced?: boolean } {
  const type = v.type;
  if (typeof type !== "string" || isUnknown(type) || isUnknown(v.region)) return { price: null, what: "its type is not known yet" };
  const priced = (price: Price | undefined, what: string) =>
    price ? { price, what } : { price: ZERO, what: `${what} (no price in the catalogue)`, unpriced: true };
  if (kind === "Instance") {
    const region = String(v.region);
    const backups = v.backupsEnabled ?? false;
    if (isUnknown(backups)) return { price: null, what: `${type} in ${region}, backups not known yet` };
    return priced(catalog.instance(type, region, backups === true), `${type} in ${region}${backups === true ? ", with backups" : ""}`);
  }
  const size = v.clusterSize ?? 1;
  const engine = kind === "MysqlDatabase" ? "mysql" : "postgresql";
  if (typeof size !== "number") return { price: null, what: `${type}, cluster size not known yet` };
  return priced(catalog.database(type, engine, size), `${type}, ${size} node${size === 1 ? "" : "s"} of ${engine}`);
}

const NEW_OPS = new Set(["create", "update", "replace", "create-replacement", "same", "import", "import-replacement"]);
/** What a step's operation does to the stack's cost: nothing for these (a read of an external resource, a refresh). */
const NO_CHANGE = new Set(["same", "read", "refresh", "read-replacement"]);
const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The report: every priced resource of the state and of the preview, before and after. `preview` is the
 * parsed `pulumi preview --json`; `state` the parsed `pulumi stack export` (optional).
 */
export function costReport(
  catalog: PriceCatalog,
  preview: { steps?: Step[] },
  state?: { deployment?: { resources?: Recorded[] } },
  complete = state !== undefined,
): CostReport {
  const stepsByUrn = new Map<string, Step[]>();
  for (const s of preview.steps ?? []) stepsByUrn.set(s.urn, [...(stepsByUrn.get(s.urn) ?? []), s]);
  const existing = new Map<string, Recorded>();
  for (const r of state?.deployment?.resources ?? []) if (!r.delete && !r.external && kindOf(r.type)) existing.set(r.urn, r);
  // A resource renamed through an alias: its step has the new URN, the state the old one.
  const renamed = new Map<string, string>();
  for (const s of preview.steps ?? []) if (s.oldState?.urn && s.oldState.urn !== s.urn) renamed.set(s.oldState.urn, s.urn);
  const urns = [...new Set([...[...existing.keys()].map((u) => renamed.get(u) ?? u), ...stepsByUrn.keys()])];
  const resources: ResourceCost[] = [];
  const counts = { before: 0, after: 0 };
  const unknown: string[] = [];
  const unpriced: string[] = [];
  for (const urn of urns) {
    const steps = stepsByUrn.get(urn) ?? [];
    const first = steps.find((s) => s.oldState)?.oldState;
    const old = existing.get(first?.urn ?? urn) ?? existing.get(urn) ?? first;
    const next = steps.find((s) => NEW_OPS.has(s.op) && s.newState)?.newState;
    if (old?.external || next?.external) continue;
    const type = next?.type ?? old?.type ?? "";
    const kind = kindOf(type);
    if (!kind) continue;
    const before = old ? priceOf(catalog, kind, valuesOf(old, undefined)) : undefined;
    const op = steps.find((s) => !NO_CHANGE.has(s.op))?.op ?? "same";
    // An update keeps what its inputs leave out; a replacement is made anew from its inputs alone.
    const after = op === "same" ? before : next ? priceOf(catalog, kind, valuesOf(op === "update" ? old : undefined, next)) : undefined;
    if (after?.price === null) unknown.push(nameOf(urn));
    if (old && !before?.unpriced) counts.before++;
    if (after && after.price !== null && !after.unpriced) counts.after++;
    if (after?.unpriced || (op === "same" && before?.unpriced)) unpriced.push(nameOf(urn));
    resources.push({
      urn,
      name: nameOf(urn),
      type,
      op,
      what: after?.what ?? before?.what ?? "",
      before: before ? before.price : ZERO,
      after: after ? after.price : ZERO,
    });
  }
  const total = (pick: (r: ResourceCost) => Price | null) => addPrices(...resources.map(pick).filter((p): p is Price => p !== null));
  const before = total((r) => r.before);
  // A price not known after the change counts at its price now.
  const after = total((r) => r.after ?? r.before);
  const named = previewStack({ steps: preview.steps ?? [] }) ?? { stack: "", project: "" };
  return { currency: "USD", ...named, before, after, delta: subtractPrice(after, before), resources, unknown, unpriced, complete, counts };
}
