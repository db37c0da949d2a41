import type { Change, RemoteChange } from "./backend";

/** A record's key in its collection: its id, or (a user, a user's settings) its user's name. */
export function recordKey(collection: string, record: unknown): string {
  const key = typeof record !== "object" || record === null ? undefined : "id" in record ? record.id : "username" in record ? record.username : undefined;
  if (typeof key !== "number" && typeof key !== "string") throw new Error(`A record of ${collection} has no id or username to keep it by`);
  return String(key);
}

/** What a commit changed in a collection: a record before (none when made) and after (none when deleted). */
export interface Applied {
  coll: string;
  before: unknown;
  after: unknown;
}

/** The state's fields that are not collections, kept as rows of this collection (each by its name). */
export const SCALARS = "$";

/**
 * What changed from `base` to `next`: rows to write and delete, each record before and after, the records' new
 * places. A collection is walked from both ends while its records are the very same objects (immer keeps what a
 * write did not touch): what lies between is what changed, so the cost is the change's, not the collection's.
 */
export function changesOf(base: object, next: object, had0: ReadonlyMap<string, ReadonlyMap<string, number>>, lastOrd0: number) {
  const changes: Change[] = [];
  const applied: Applied[] = [];
  /** Places to set once committed (undefined: the record is gone); a renumbered collection's are all in `renumbered`. */
  const places: Array<{ coll: string; key: string; ord: number | undefined }> = [];
  const renumbered = new Map<string, Map<string, number>>();
  let lastOrd = lastOrd0;
  const was = new Map<string, unknown>(Object.entries(base));
  for (const [name, value] of Object.entries(next)) {
    const old = was.get(name);
    if (value === old || name === "account" || name === "version") continue;
    if (!Array.isArray(value)) {
      changes.push({ coll: SCALARS, key: name, ord: 0, body: JSON.stringify(value) });
      continue;
    }
    const prior: readonly unknown[] = Array.isArray(old) ? old : [];
    const had = had0.get(name) ?? new Map<string, number>();
    let start = 0;
    while (start < prior.length && start < value.length && prior[start] === value[start]) start++;
    let end = 0;
    while (end < prior.length - start && end < value.length - start && prior[prior.length - 1 - end] === value[value.length - 1 - end]) end++;
    const before = new Map<string, unknown>();
    for (let i = start; i < prior.length - end; i++) before.set(recordKey(name, prior[i]), prior[i]);
    const middle = value.slice(start, value.length - end);
    // The changed records keep their places, or (made) take the next: while that keeps the collection's order.
    const floor = start > 0 ? (had.get(recordKey(name, value[start - 1])) ?? Infinity) : -Infinity;
    const ceiling = end > 0 ? (had.get(recordKey(name, value[value.length - end])) ?? -Infinity) : Infinity;
    let last = floor;
    let moved = false;
    const keys: string[] = [];
    const ords: number[] = [];
    for (const rec of middle) {
      const key = recordKey(name, rec);
      const ord = had.get(key) ?? ++lastOrd;
      if (ord <= last || ord >= ceiling) moved = true;
      keys.push(key);
      ords.push(ord);
      last = ord;
    }
    if (moved) {
      // Out of order (a record put before others): the collection is renumbered, every record rewritten.
      const all = new Map<string, number>();
      for (const rec of value) {
        const key = recordKey(name, rec);
        if (all.has(key)) throw new Error(`Two records of ${name} have the key ${key}`);
        all.set(key, ++lastOrd);
      }
      const gone = new Map<string, unknown>();
      for (const rec of prior) gone.set(recordKey(name, rec), rec);
      for (const rec of value) {
        const key = recordKey(name, rec);
        changes.push({ coll: name, key, ord: all.get(key) ?? 0, body: JSON.stringify(rec) });
        if (gone.get(key) !== rec) applied.push({ coll: name, before: gone.get(key), after: rec });
        gone.delete(key);
      }
      for (const [key, rec] of gone) {
        changes.push({ coll: name, key, ord: 0, body: null });
        applied.push({ coll: name, before: rec, after: undefined });
      }
      renumbered.set(name, all);
      continue;
    }
    middle.forEach((rec, i) => {
      const key = keys[i];
      const was = before.get(key);
      if (was !== rec || had.get(key) !== ords[i]) {
        changes.push({ coll: name, key, ord: ords[i], body: JSON.stringify(rec) });
        places.push({ coll: name, key, ord: ords[i] });
        if (was !== rec) applied.push({ coll: name, before: was, after: rec });
      }
      before.delete(key);
    });
    for (const [key, rec] of before) {
      changes.push({ coll: name, key, ord: 0, body: null });
      places.push({ coll: name, key, ord: undefined });
      applied.push({ coll: name, before: rec, after: undefined });
    }
  }
  return { changes, applied, places, renumbered, lastOrd };
}

/**
 * Other processes' changes (in the order they were committed) applied to a state: the state they make (a new object;
 * the collections they touch, new arrays in their places' order), each record before and after, the places kept.
 */
export function withRemote(committed: object, changes: readonly RemoteChange[], ords: Map<string, Map<string, number>>, lastOrd0: number) {
  const next = new Map<string, unknown>(Object.entries(committed));
  const applied: Applied[] = [];
  const lists = new Map<string, Map<string, unknown>>();
  let lastOrd = lastOrd0;
  for (const c of changes) {
    if (c.coll === SCALARS) {
      if (c.body !== null) next.set(c.key, JSON.parse(c.body));
      continue;
    }
    let list = lists.get(c.coll);
    if (!list) {
      const held = next.get(c.coll);
      list = new Map((Array.isArray(held) ? held : []).map((r: unknown) => [recordKey(c.coll, r), r]));
      lists.set(c.coll, list);
    }
    const places = ords.get(c.coll) ?? new Map<string, number>();
    ords.set(c.coll, places);
    const before = list.get(c.key);
    if (c.body === null) {
      list.delete(c.key);
      places.delete(c.key);
      applied.push({ coll: c.coll, before, after: undefined });
    } else {
      const after: unknown = JSON.parse(c.body);
      list.set(c.key, after);
      places.set(c.key, c.ord);
      lastOrd = Math.max(lastOrd, c.ord);
      applied.push({ coll: c.coll, before, after });
    }
  }
  for (const [coll, list] of lists) {
    const places = ords.get(coll);
    next.set(
      coll,
      [...list.entries()].sort(([a], [b]) => (places?.get(a) ?? 0) - (places?.get(b) ?? 0)).map(([, r]) => r),
    );
  }
  return { next: Object.fromEntries(next), applied, lastOrd };
}
