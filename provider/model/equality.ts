import { isDeepStrictEqual } from "node:util";
import { isObject, type Field } from "./table";

/** Equality of inputs as the diff and its detailed paths see it (provider/model/check.ts, diff-paths.ts). */

/**
 * Deep equality of two values as the API compares them: an id given as a number is the same as the string of
 * its digits (`idInput` takes both, and a resource's id is a string: a profile's device `{ diskId: disk.id }`
 * and the state's `{ diskId: 4 }` name one disk); in an object, a key holding null or undefined is a key left out
 * (a device slot's `volumeId: null` as the API reports it, and a program's device without one).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "string") return Number.isInteger(a) && b === String(a);
  if (typeof a === "string" && typeof b === "number") return sameJson(b, a);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const absent = (v: unknown) => v === undefined || v === null;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !absent(a[k]) || !absent(b[k])));
    return [...keys].every((k) => sameJson(a[k], b[k]));
  }
  return isDeepStrictEqual(a, b);
}

/** Equality as the diff sees it for a field: sets for unordered lists, the user's keys for partial objects. */
export function sameValue(f: Field, old: unknown, next: unknown): boolean {
  if (f.unordered && Array.isArray(old) && Array.isArray(next)) {
    const a = old.map((x) => JSON.stringify(x)).sort();
    const b = next.map((x) => JSON.stringify(x)).sort();
    return isDeepStrictEqual(a, b);
  }
  if (f.partial && isObject(old) && isObject(next)) {
    return Object.entries(next).every(([k, v]) => v === undefined || sameJson(old[k], v));
  }
  return sameJson(old, next);
}
