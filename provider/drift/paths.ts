/**
 * Property paths as the engine's detailed diff names them (`label`, `alerts.cpu`, `tags[1]`,
 * `interfaces[1].label`, `tags["a.b"]`), the value at one, and the paths where two values differ (for a
 * resource whose provider gives no detailed diff).
 */

export type Segment = string | number;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The segments of a property path; undefined for one that does not parse. */
export function parsePath(path: string): Segment[] | undefined {
  const out: Segment[] = [];
  let i = 0;
  while (i < path.length) {
    if (path.startsWith('["', i)) {
      // A quoted key, its text a JSON string.
      let j = i + 2;
      while (j < path.length && path[j] !== '"') j += path[j] === "\\" ? 2 : 1;
      if (path[j + 1] !== "]") return undefined;
      try {
        out.push(String(JSON.parse(path.slice(i + 1, j + 1))));
      } catch {
        return undefined;
      }
      i = j + 2;
    } else if (path[i] === "[") {
      const close = path.indexOf("]", i);
      const inner = close < 0 ? "" : path.slice(i + 1, close);
      if (!/^(\d+|\*)$/.test(inner)) return undefined;
      out.push(inner === "*" ? inner : Number(inner));
      i = close + 1;
    } else {
      let end = i;
      while (end < path.length && path[end] !== "." && path[end] !== "[") end++;
      if (end === i) return undefined;
      out.push(path.slice(i, end));
      i = end;
    }
    if (path[i] === "." && ++i === path.length) return undefined;
  }
  return out.length ? out : undefined;
}

/** The value at `segments` in `root`; `found` false where a step of the path is missing. */
export function valueAt(root: unknown, segments: readonly Segment[]): { found: boolean; value?: unknown } {
  let v: unknown = root;
  for (const s of segments) {
    if (typeof s === "number") {
      if (!Array.isArray(v) || s >= v.length) return { found: false };
      const items: unknown[] = v;
      v = items[s];
    } else {
      if (!isObject(v) || !(s in v)) return { found: false };
      v = v[s];
    }
  }
  return { found: true, value: v };
}

/** A key written in a path: plain where it can be, else quoted. */
const keyText = (k: string, first: boolean) => (/^[A-Za-z_$][\w$-]*$/.test(k) ? `${first ? "" : "."}${k}` : `[${JSON.stringify(k)}]`);

const absent = (v: unknown) => v === undefined || v === null;

/** The paths where `before` and `after` differ, each an addition, a removal or a change (in the order of the keys, then the indexes). */
export function changedPaths(path: string, before: unknown, after: unknown): Array<[string, "add" | "delete" | "update"]> {
  if (absent(before) && absent(after)) return [];
  if (absent(before)) return [[path, "add"]];
  if (absent(after)) return [[path, "delete"]];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => changedPaths(`${path}${keyText(k, path === "")}`, before[k], after[k]));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: Array<[string, "add" | "delete" | "update"]> = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= after.length) out.push([`${path}[${i}]`, "delete"]);
      else if (i >= before.length) out.push([`${path}[${i}]`, "add"]);
      else out.push(...changedPaths(`${path}[${i}]`, before[i], after[i]));
    }
    return out;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [[path, "update"]];
}
