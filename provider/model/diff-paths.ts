import { sameJson } from "./equality";
import { isObject, UNKNOWN, type Field, type Props, type ResourceSpec } from "./table";

/**
 * Where inside a changed input the change is: the property paths of a detailed diff (`alerts.cpu`,
 * `tags[1]`, `interfaces[0].ipv4.vpc`, `devices.sda.diskId`), each an addition, a deletion or an update.
 * The plugin's Diff answers with them, so a preview names the nested field that changes (or forces a
 * replacement), not only the top-level input.
 */
export type PathChange = "add" | "delete" | "update";

const absent = (v: unknown) => v === undefined || v === null;

/**
 * The paths that differ between an old and a new value under `path`. `partial`: only the keys the new
 * object gives are compared (the service keeps the others).
 */
export function changedPaths(path: string, old: unknown, next: unknown, partial = false): Array<[string, PathChange]> {
  if (next === UNKNOWN) return [[path, "update"]];
  if (absent(old) && absent(next)) return [];
  if (absent(old)) return [[path, "add"]];
  if (absent(next)) return [[path, "delete"]];
  if (isObject(old) && isObject(next)) {
    const keys = partial ? Object.keys(next) : [...new Set([...Object.keys(old), ...Object.keys(next)])];
    const out = keys.flatMap((k) => changedPaths(`${path}.${k}`, old[k], next[k]));
    return out.length || sameJson(old, next) ? out : [[path, "update"]];
  }
  if (Array.isArray(old) && Array.isArray(next)) {
    const out: Array<[string, PathChange]> = [];
    for (let i = 0; i < Math.max(old.length, next.length); i++) {
      if (i >= next.length) out.push([`${path}[${i}]`, "delete"]);
      else if (i >= old.length) out.push([`${path}[${i}]`, "add"]);
      else out.push(...changedPaths(`${path}[${i}]`, old[i], next[i]));
    }
    return out;
  }
  // As the API compares them: a device's `diskId: 4` and `diskId: "4"` name one disk (not a change to show).
  return sameJson(old, next) ? [] : [[path, "update"]];
}

/**
 * The detailed diff of the changed inputs: for each, the nested paths that differ (the input itself when
 * nothing finer can be told), with whether the change replaces the resource.
 */
export function detailedDiff(
  spec: ResourceSpec,
  olds: Props,
  news: Props,
  changed: readonly string[],
  replaces: readonly string[],
): Array<{ path: string; change: PathChange; replace: boolean }> {
  const out: Array<{ path: string; change: PathChange; replace: boolean }> = [];
  for (const name of changed) {
    const f: Field | undefined = spec.fields.find((x) => x.name === name);
    let paths = changedPaths(name, olds[name], news[name], f?.partial);
    // A change the values do not show (a rename due, an unordered list in another order): the input itself.
    if (!paths.length) paths = [[name, "update"]];
    for (const [path, change] of paths) out.push({ path, change, replace: replaces.includes(name) });
  }
  return out;
}
