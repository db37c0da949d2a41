/**
 * What the API holds of each resource type of provider/registry.ts, read through the API from the
 * definitions (`spec.type`, `spec.collectionPath`, the `inPath` parent ids): no list of resources of its own,
 * so that a new definition is counted as soon as it is in the registry. The chaos run counts with it (one of
 * each after up, nothing after destroy).
 */
import type { Emulator } from "../../emulator/server";
import { definitions } from "../../provider/registry";
import { call } from "./emulator";

/** An entry of a stack's state (TestStack.resources(), or `pulumi stack export`'s `deployment.resources`). */
export interface StateEntry {
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The resource type of the registry a state entry is of: `Disk` for `pulumi-nodejs:dynamic/compute:Disk` or `compute:index:Disk`. */
export function resourceType(entryType: string): string | undefined {
  return /^(?:pulumi-nodejs:dynamic\/compute|compute:index):(\w+)$/.exec(entryType)?.[1];
}

const isTopLevel = (d: (typeof definitions)[number]) => !d.spec.fields.some((f) => f.inPath);

/** How many resources of each type of the registry a stack holds (every type, 0 for those it has none of). */
export function stackCounts(entries: StateEntry[]): Record<string, number> {
  const types = entries.map((e) => resourceType(e.type));
  return Object.fromEntries(definitions.map((d) => [d.spec.type, types.filter((t) => t === d.spec.type).length]));
}

/**
 * Where the API keeps each type's records, for a stack: its collection when the type has no parent, else
 * the collections (of the parents) the stack's resources of that type are in.
 */
export function collectionsOf(entries: StateEntry[]): Record<string, string[]> {
  return Object.fromEntries(
    definitions.map((d) => {
      if (isTopLevel(d)) return [d.spec.type, [d.spec.collectionPath({})]];
      const mine = entries.filter((e) => resourceType(e.type) === d.spec.type);
      return [d.spec.type, [...new Set(mine.map((e) => d.spec.collectionPath({ ...e.inputs, ...e.outputs })))]];
    }),
  );
}

/** Every record (an object with an `id`) in an answer: a page's `data`, a plain array, an object of lists and slots (an instance's backups). */
function recordsIn(x: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(x)) return x.flatMap(recordsIn);
  if (x === null || typeof x !== "object") return [];
  if ("id" in x) return [x];
  return Object.values(x).flatMap(recordsIn);
}

/** The records the API lists at a collection, every page; none when the collection went with its parent (404). */
async function recordsAt(emu: Emulator, path: string): Promise<Array<Record<string, unknown>>> {
  const records: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const r = await call(emu, "GET", page === 1 ? path : `${path}${path.includes("?") ? "&" : "?"}page=${page}`);
    if (r.status === 404) return [];
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    records.push(...recordsIn(r.body));
    if (typeof r.body?.pages !== "number" || page >= r.body.pages) return records;
  }
}

/** What the account holds before a program runs (the emulator's own token, the public images): `<collection> <id>` of every top-level collection. */
export async function accountBefore(emu: Emulator): Promise<Set<string>> {
  const held = new Set<string>();
  for (const d of definitions.filter(isTopLevel)) {
    const path = d.spec.collectionPath({});
    for (const r of await recordsAt(emu, path)) held.add(`${path} ${String(r.id)}`);
  }
  return held;
}

/**
 * The records of each type in its collections (read with the faults paused), but those the account held
 * before (`before`) and those the API makes by itself (automatic backups, `type: "auto"`).
 */
export async function apiRecords(emu: Emulator, collections: Record<string, string[]>, before = new Set<string>()): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [type, paths] of Object.entries(collections)) {
    out[type] = [];
    for (const path of paths) out[type].push(...(await recordsAt(emu, path)).filter((r) => !before.has(`${path} ${String(r.id)}`) && r.type !== "auto"));
  }
  return out;
}

/** How many records of each type apiRecords finds. */
export async function apiCounts(emu: Emulator, collections: Record<string, string[]>, before?: Set<string>): Promise<Record<string, number>> {
  const records = await apiRecords(emu, collections, before);
  return Object.fromEntries(Object.entries(records).map(([type, r]) => [type, r.length]));
}
