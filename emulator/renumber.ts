import type { ApiFamily, Renumber, StateHolder } from "./family";
import type { CoreState, EventEntity } from "./state";
import { ACCOUNT_COUNTERS, copyOf, type Store } from "./store";

/**
 * A fixture's records made to hold ids no other account holds (issue 53: ids unique across accounts and imports).
 * A loaded record keeps its id where that is free:
 *
 * - the account holds it now in a collection the fixture replaces (its own export loaded back: a restore), or
 * - its kind's sequence has not reached it, and it is at most the account's records quota past where the sequence
 *   is (so that a fixture moves the sequences that every account shares no further than as many new records would:
 *   a tenant cannot use them up with an id near 2^31); for a pool every account draws from (`POOLS`: the public
 *   addresses, 130,042 in all), at most as many past it as the fixture holds of them (a window of 20,000 let seven
 *   imports of a one-instance fixture hand out the whole pool).
 *
 * Any other gets the next id of its kind, and everything that points to it follows (each family's `renumber`, the
 * core's events here). An account's own counters (its private addresses) are its own: kept, and its counter moved
 * past them. (Users are merged by name, and take their ids there: emulator/fixtures.ts.)
 */
export async function renumberFixture(
  store: Store,
  families: readonly ApiFamily[],
  loaded: StateHolder,
  replaced: ReadonlySet<string>,
): Promise<Map<string, Map<number, number>>> {
  const visit = (state: StateHolder, to: Renumber) => {
    renumberCore(state, to);
    for (const family of families) family.renumber?.(state, to);
  };
  // What the account holds now in the collections the fixture replaces.
  const mine: CoreState = copyOf(store.data);
  for (const [name, value] of Object.entries(mine)) if (Array.isArray(value) && !replaced.has(name)) Object.assign(mine, { [name]: [] });
  const held = new Set<string>();
  visit({ data: mine }, (kind, id) => {
    held.add(`${kind}:${id}`);
    return id;
  });
  const heads = await store.idHeads();
  // A pool's window is as many of its numbers as the fixture holds (what renumbering them all would take); an id's,
  // the records quota.
  const counts = new Map<string, Set<number>>();
  visit(loaded, (kind, id) => {
    if (POOLS.has(kind) && !held.has(`${kind}:${id}`)) counts.set(kind, (counts.get(kind) ?? new Set<number>()).add(id));
    return id;
  });
  const windowOf = (kind: string) => (POOLS.has(kind) ? (counts.get(kind)?.size ?? 0) : store.limits.records);
  const kept = new Map<string, { least: number; most: number }>();
  const fresh = new Map<string, Set<number>>();
  visit(loaded, (kind, id) => {
    const head = heads.get(kind) ?? 0;
    const free = id > head && id <= head + windowOf(kind);
    if (ACCOUNT_COUNTERS.has(kind) || free || held.has(`${kind}:${id}`)) {
      // Only an id the sequence has not reached moves it (and, in a shared database, is checked at the commit): one
      // the account holds was given to it already (checking it would find it taken, and the write run again forever).
      if (!ACCOUNT_COUNTERS.has(kind) && id <= head) return id;
      const k = kept.get(kind);
      kept.set(kind, { least: Math.min(k?.least ?? id, id), most: Math.max(k?.most ?? id, id) });
    } else fresh.set(kind, (fresh.get(kind) ?? new Set<number>()).add(id));
    return id;
  });
  // The sequences past the ids kept first, so that no new id is one of them.
  for (const [kind, { least, most }] of kept) store.keepIds(kind, least, most);
  const renumbered = new Map<string, Map<number, number>>();
  for (const [kind, ids] of fresh) {
    const map = renumbered.get(kind) ?? new Map<number, number>();
    renumbered.set(kind, map);
    for (const id of [...ids].sort((a, b) => a - b)) map.set(id, store.nextId(kind));
  }
  visit(loaded, (kind, id) => renumbered.get(kind)?.get(id) ?? id);
  for (const [kind, map] of renumbered) {
    for (const [from, to] of map) if (from === to) map.delete(from);
    if (!map.size) renumbered.delete(kind);
  }
  return renumbered;
}

/** The kinds numbering a pool every account shares, small enough to use up (emulator/routes/compute/network.ts `PUBLIC_POOL`). */
const POOLS: ReadonlySet<string> = new Set(["ipv4"]);

/** The kind of id of each type of event entity (the routes' `eventEntity`), and of each path segment an id follows in its url. */
const ENTITY_KINDS = new Map([
  ["compute", "instance"],
  ["compute_config", "config"],
  ["disk", "disk"],
  ["database", "database"],
  ["image", "image"],
  ["vpc", "vpc"],
  ["subnet", "subnet"],
]);
const PATH_KINDS = new Map([
  ["instances", "instance"],
  ["configs", "config"],
  ["disks", "disk"],
  ["vpcs", "vpc"],
  ["subnets", "subnet"],
  ["private", "image"],
]);

/** The core's ids: its events' (`event`) and the ids and urls of what they are about. */
export function renumberCore(state: StateHolder, to: Renumber): void {
  for (const e of state.data.events) {
    e.id = to("event", e.id);
    e.entity = e.entity && entityRenumbered(e.entity, to);
    e.secondary_entity = e.secondary_entity && entityRenumbered(e.secondary_entity, to);
  }
}

function entityRenumbered(entity: EventEntity, to: Renumber): EventEntity {
  const kind = ENTITY_KINDS.get(entity.type);
  if (!kind) return entity;
  const image = (text: string) => text.replace(/^private\/(\d+)$/, (_, n: string) => `private/${to("image", Number(n))}`);
  const parts = entity.url.split("/");
  const url = parts.map((segment, i) => {
    // A database's path is /databases/{engine}/instances/{id}: its "instances" are clusters.
    const of = parts[i - 1] === "instances" && parts.includes("databases") ? "database" : PATH_KINDS.get(parts[i - 1]);
    return of && /^\d+$/.test(segment) ? String(to(of, Number(segment))) : segment;
  });
  return { ...entity, id: typeof entity.id === "number" ? to(kind, entity.id) : image(entity.id), url: url.join("/") };
}
