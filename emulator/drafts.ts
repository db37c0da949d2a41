import { current, isDraft } from "immer";

/** Values out of the drafts of a write (emulator/store.ts: a write runs on a draft of the state, immer's). */

/**
 * A deep copy of a record (or part of one) that may be a draft of a write, or hold drafts: `structuredClone` for the
 * state's records (a draft is a proxy, which structuredClone cannot copy).
 */
export const copyOf = <T>(value: T): T => structuredClone(detach(value));

/** A write's answer out of its draft: a draft (or one held in the answer) copied as it is now, of the same type. */
// A value without drafts in it is itself; one with them, a copy with each draft's current value: of the same type.
export const detach = <T>(value: T): T => plain(value) as T;

function plain(value: unknown): unknown {
  if (isDraft(value)) return current(value);
  if (Array.isArray(value)) {
    const out = value.map(plain);
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    const out = entries.map(([k, v]): [string, unknown] => [k, plain(v)]);
    return out.some(([, v], i) => v !== entries[i][1]) ? Object.fromEntries(out) : value;
  }
  return value;
}
