import type { IncomingMessage } from "node:http";
import { jsonDepth, MAX_JSON_DEPTH } from "./json";

/**
 * The `X-Filter` request header of the real API, which filters and orders any list: a JSON object whose keys
 * are the records' fields (equality; on a list field, the list holds the value), `+and` and `+or` (lists of
 * such objects), and `+order_by` with `+order`. A field's value may be an object of operators: `+gt`, `+gte`,
 * `+lt`, `+lte`, `+neq`, `+contains`. A field may be filtered when the listed records hold plain values there
 * (text, numbers, booleans, null, or lists of those), or a list of labelled objects, which a value matches by
 * an item's label (a profile's `interfaces`: the real API answered a configs list filtered by
 * `{"interfaces": "<vlan label>"}`, recorded); a plain field of an object field by its dotted name (the events'
 * `entity.id`, `entity.type`, which the real API's clients filter on, recorded); anything else is a 400 on
 * `X-Filter`, as the real API answers (`Cannot filter on foo`).
 */

/**
 * What one header may cost, each refused as a 400 on `X-Filter` naming the bound (docs/spec-gaps.md): its size in
 * bytes; the filter objects of one `+and` or `+or`; its conditions (each field's test or operator, each `+and` and
 * `+or`); how deep `+and` and `+or` nest (the header's own object is level 1); and its work, the conditions times
 * the records of the list (each record may be tested against each condition).
 */
export const FILTER_BOUNDS = { bytes: 8192, width: 500, conditions: 800, depth: 8, work: 4_000_000 } as const;

/** A header the records do not allow: its reason is the 400's, on the field `X-Filter` (emulator/http.ts). */
export class FilterError extends Error {}

type Plain = string | number | boolean | null;
type Test = (record: Record<string, unknown>) => boolean;

/** What a header asks for: which records to keep, and the order. */
export interface ListFilter {
  keep: Test;
  orderBy?: string;
  desc: boolean;
}

const OPERATORS = ["+gt", "+gte", "+lt", "+lte", "+neq", "+contains"] as const;

const fail = (reason: string) => new FilterError(reason);
const isPlain = (v: unknown): v is Plain => v === null || ["string", "number", "boolean"].includes(typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The fields of `records` a filter may name: those whose every value is plain or a list of plain values. With
 * no records there is nothing to check a name against, and every name is taken (the answer is empty anyway).
 */
function filterable(records: unknown[]): (field: string) => boolean {
  if (records.length === 0) return () => true;
  const seen = new Map<string, boolean>();
  const note = (k: string, v: unknown) => {
    const plain = isPlain(v) || (Array.isArray(v) && v.every((x) => isPlain(x) || (isObject(x) && "label" in x)));
    seen.set(k, (seen.get(k) ?? true) && plain);
  };
  for (const r of records) {
    if (!isObject(r)) continue;
    for (const [k, v] of Object.entries(r)) {
      note(k, v);
      if (isObject(v)) for (const [sub, w] of Object.entries(v)) note(`${k}.${sub}`, w);
    }
  }
  return (field) => seen.get(field) === true;
}

/** Reads the header (absent: undefined); a header that is not a filter the records allow is a 400 on `X-Filter`. */
export function parseFilter(headers: IncomingMessage["headers"], records: unknown[]): ListFilter | undefined {
  const raw = headers["x-filter"];
  if (raw === undefined) return undefined;
  // Node reads a header's bytes one character each (latin1): the header as sent is UTF-8 (Go's json.Marshal writes
  // `café` as its bytes), read here as UTF-8; its bytes are the latin1 text's length.
  const bytes = Array.isArray(raw) ? raw.join(",") : raw;
  const text = Buffer.from(bytes, "latin1").toString("utf8");
  if (bytes.length > FILTER_BOUNDS.bytes) throw fail(`X-Filter is longer than ${FILTER_BOUNDS.bytes} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail("X-Filter is not valid JSON");
  }
  if (!isObject(json)) throw fail("X-Filter must be a JSON object");
  if (jsonDepth(json) > MAX_JSON_DEPTH) throw fail(`X-Filter is nested deeper than ${MAX_JSON_DEPTH} levels`);
  const allowed = filterable(records);
  const { "+order_by": orderBy, "+order": order, ...rest } = json;
  if (orderBy !== undefined && (typeof orderBy !== "string" || !allowed(orderBy))) throw fail(`Cannot order by ${String(orderBy)}`);
  if (order !== undefined && order !== "asc" && order !== "desc") throw fail("+order must be asc or desc");
  const walk = { allowed, conditions: 0 };
  const keep = test(rest, walk, 1);
  const work = walk.conditions * records.length;
  if (work > FILTER_BOUNDS.work) {
    throw fail(`X-Filter would make ${work} tests (${walk.conditions} conditions on ${records.length} records): at most ${FILTER_BOUNDS.work} a request`);
  }
  return { keep, orderBy, desc: order === "desc" };
}

/** What reading a header keeps count of: which fields may be filtered, the conditions so far. */
interface Walk {
  allowed: (field: string) => boolean;
  conditions: number;
}

/** Counts `n` more conditions, refusing a header that holds more than the bound. */
function count(walk: Walk, n: number): void {
  walk.conditions += n;
  if (walk.conditions > FILTER_BOUNDS.conditions) throw fail(`X-Filter holds more than ${FILTER_BOUNDS.conditions} conditions`);
}

/** The test of one filter object, `depth` levels of `+and` and `+or` down (the header's own object is 1): every key must hold. */
function test(filter: Record<string, unknown>, walk: Walk, depth: number): Test {
  const parts: Test[] = Object.entries(filter).map(([key, value]) => {
    if (key === "+and" || key === "+or") {
      if (!Array.isArray(value) || !value.every(isObject)) throw fail(`${key} must be a list of filter objects`);
      if (value.length > FILTER_BOUNDS.width) throw fail(`${key} holds more than ${FILTER_BOUNDS.width} filter objects`);
      if (depth >= FILTER_BOUNDS.depth) throw fail(`X-Filter nests +and and +or deeper than ${FILTER_BOUNDS.depth} levels`);
      count(walk, 1);
      const tests = value.map((v) => test(v, walk, depth + 1));
      return key === "+and" ? (r) => tests.every((t) => t(r)) : (r) => tests.some((t) => t(r));
    }
    if (key.startsWith("+") || !walk.allowed(key)) throw fail(`Cannot filter on ${key}`);
    if (isPlain(value)) {
      count(walk, 1);
      return (r) => equals(valueAt(r, key), value);
    }
    if (!isObject(value)) throw fail(`Invalid filter value for ${key}`);
    const ops = Object.entries(value).map(([op, operand]) => operator(key, op, operand));
    if (ops.length === 0) throw fail(`Invalid filter value for ${key}`);
    count(walk, ops.length);
    return (r) => ops.every((t) => t(valueAt(r, key)));
  });
  return (r) => parts.every((t) => t(r));
}

/** A record's field by its name, or a field of an object field by its dotted name (`entity.id`). */
function valueAt(r: Record<string, unknown>, key: string): unknown {
  if (key in r) return r[key];
  const dot = key.indexOf(".");
  if (dot < 0) return undefined;
  const outer = r[key.slice(0, dot)];
  return isObject(outer) ? outer[key.slice(dot + 1)] : undefined;
}

/** Equality: the same plain value, or a list that holds it (or holds an object of that label). */
function equals(have: unknown, want: Plain): boolean {
  return Array.isArray(have) ? have.some((x) => x === want || (isObject(x) && x.label === want)) : have === want;
}

/** One operator on one field's value. */
function operator(field: string, op: string, operand: unknown): (have: unknown) => boolean {
  const o = OPERATORS.find((known) => known === op);
  if (o === undefined) throw fail(`Unknown filter operator ${op} on ${field}`);
  if (o === "+neq") {
    if (!isPlain(operand)) throw fail(`${o} on ${field} needs a plain value`);
    return (have) => !equals(have, operand);
  }
  if (o === "+contains") {
    if (typeof operand !== "string") throw fail(`${o} on ${field} needs a string`);
    return (have) => (Array.isArray(have) ? have : [have]).some((x) => typeof x === "string" && x.includes(operand));
  }
  if (typeof operand !== "number" && typeof operand !== "string") throw fail(`${o} on ${field} needs a number or a string`);
  return (have) => {
    // Numbers compare with numbers, text with text (timestamps in ISO form compare as times); anything else never matches.
    if (!isPlain(have) || typeof have !== typeof operand) return false;
    const c = compare(have, operand);
    return o === "+gt" ? c > 0 : o === "+gte" ? c >= 0 : o === "+lt" ? c < 0 : c <= 0;
  };
}

/** Numbers by value, booleans false before true, text by code points. */
function compare(a: Plain, b: Plain): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Keeps the records the filter asks for, in its order (stable; null or missing last ascending, first descending). */
export function applyFilter<T>(items: T[], filter: ListFilter): T[] {
  const rec = (x: T): Record<string, unknown> => (isObject(x) ? x : {});
  const kept = items.filter((x) => filter.keep(rec(x)));
  const by = filter.orderBy;
  if (by === undefined) return kept;
  const dir = filter.desc ? -1 : 1;
  const key = (x: T): Plain | undefined => {
    const v = valueAt(rec(x), by);
    // A list orders by its first item; what is no plain value (null, missing, an object) orders last.
    const first: unknown = Array.isArray(v) ? v[0] : v;
    return isPlain(first) && first !== null ? first : undefined;
  };
  return [...kept].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === undefined || y === undefined) return (x === y ? 0 : x === undefined ? 1 : -1) * dir;
    return compare(x, y) * dir;
  });
}
