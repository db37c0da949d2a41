import { z } from "zod";
import type { Field, Props } from "../model/table";
import { jsonSchemaOf, type SchemaNode } from "../model/shape";

/**
 * `filters`, `orderBy` and `order` of the lookups: which fields they may name, the part of them the API's
 * `X-Filter` header can say (sent with the list's requests, so that a filtered lookup of a large account reads
 * few pages), and the filtering and sorting of the items on the client, which always runs.
 */

/** Thrown for arguments that break a rule: names the argument. */
export class FunctionArgsError extends Error {}

/** `filters`, `orderBy` and `order`: the arguments of every filterable list. */
export const FILTER_ARGS: Field[] = [
  {
    name: "filters",
    kind: "input",
    schema: z
      .array(
        z
          .object({
            name: z.string().min(1),
            values: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1, "must hold at least one value"),
          })
          .strict(),
      )
      .max(50),
    description:
      "Keep the items whose field `name` equals one of `values` (a list field: holds one of them); several filters must all match. `name` is any field of the items. Values compare as text, and numbers as numbers: the text `4` or `4.0` (as YAML and config give values) matches the number 4, `true` matches true.",
  },
  { name: "orderBy", kind: "input", schema: z.string().min(1), description: "Sort the items by this field." },
  { name: "order", kind: "input", schema: z.enum(["asc", "desc"]), description: "`asc` (the default) or `desc`." },
];

const filtersArg = z.array(z.object({ name: z.string(), values: z.array(z.unknown()) }));

/** The `filters` of a function's arguments (checked by FILTER_ARGS' schema before any list is read): none when left out. */
const filtersOf = (args: Props): z.output<typeof filtersArg> => (args.filters === undefined || args.filters === null ? [] : filtersArg.parse(args.filters));

/** Whether a field holds objects (an object, or a list of them): compared by value, a filter on it means nothing. */
function holdsObjects(f: Field): boolean {
  if (f.outputType === "object" || f.itemType === "object") return true;
  if (!f.schema) return false;
  const js = jsonSchemaOf(f.schema, "input");
  return js.type === "object" || (js.type === "array" && js.items?.type === "object");
}

/** The fields `filters` and `orderBy` may name: the items' plain fields and lists of plain values. */
export function filterFields(items: Field[]): string[] {
  return items.filter((f) => !holdsObjects(f)).map((f) => f.name);
}

/**
 * Whether an item's value equals a filter's value. Values are compared as text (`"true"` matches true), and a
 * number as a number: the text a YAML program or a config value gives (`"4"`, `"4.0"`) matches 4.
 */
export const same = (a: unknown, b: unknown): boolean => {
  if (a === null || a === undefined) return false;
  if (typeof a === "number" && typeof b === "string" && b.trim() !== "" && Number.isFinite(Number(b))) return a === Number(b);
  return String(a) === String(b);
};

/** The error for a field `filters` or `orderBy` may not name (unknown, or holding objects), or undefined. */
function fieldError(fn: string, items: Field[]): (what: string, field: string) => FunctionArgsError | undefined {
  const known = items.map((f) => f.name);
  const plain = filterFields(items);
  return (what, field) => {
    if (!known.includes(field)) return new FunctionArgsError(`${fn}: ${what}: unknown field "${field}"; the fields of its items are ${known.join(", ")}`);
    if (!plain.includes(field))
      return new FunctionArgsError(`${fn}: ${what}: "${field}" holds objects, which a filter or order cannot compare; use one of ${plain.join(", ")}`);
    return undefined;
  };
}

/** The field names of `filters` and `orderBy` when they are plain values (not Outputs): fails naming the first unknown. */
export function checkFilterNames(fn: string, items: Field[], args: Props): void {
  const fail = fieldError(fn, items);
  if (Array.isArray(args.filters)) {
    args.filters.forEach((f: unknown, i) => {
      const named = z.object({ name: z.string() }).safeParse(f);
      const n = named.success ? named.data.name : undefined;
      if (n !== undefined) {
        const e = fail(`filters[${i}].name`, n);
        if (e) throw e;
      }
    });
  }
  const e = typeof args.orderBy === "string" ? fail("orderBy", args.orderBy) : undefined;
  if (e) throw e;
}

/** Applies `filters` (all must match; a value matches one of `values`; a list matches when it holds one) and the order. */
export function filterAndOrder(fn: string, fields: Field[], items: Props[], args: Props): Props[] {
  const fail = fieldError(fn, fields);
  const filters = filtersOf(args);
  filters.forEach((f, i) => {
    const e = fail(`filters[${i}].name`, f.name);
    if (e) throw e;
  });
  let out = items.filter((item) =>
    filters.every((f) => {
      const v = item[f.name];
      return f.values.some((want) => (Array.isArray(v) ? v.some((x) => same(x, want)) : same(v, want)));
    }),
  );
  const by = typeof args.orderBy === "string" ? args.orderBy : undefined;
  if (by !== undefined) {
    const e = fail("orderBy", by);
    if (e) throw e;
    const dir = args.order === "desc" ? -1 : 1;
    const key = (v: unknown) => (v === null || v === undefined ? undefined : v);
    out = [...out].sort((a, b) => {
      const x = key(a[by]);
      const y = key(b[by]);
      if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1; // missing last
      if (typeof x === "number" && typeof y === "number") return (x - y) * dir;
      return String(x).localeCompare(String(y), "en", { numeric: true }) * dir;
    });
  } else if (args.order !== undefined) {
    throw new FunctionArgsError(`${fn}: order needs orderBy`);
  }
  return out;
}

/**
 * How the API holds an item's field: its name there, and the JSON type of its values (or of a list's items);
 * `id` is the integer an item's id string shows in decimal.
 */
export interface ApiField {
  api: string;
  type: "string" | "number" | "boolean" | "id";
}

/** The JSON type of a field's plain values (of its items, for a list) from its schema or output type; undefined for anything else. */
export function plainType(f: Field): "string" | "number" | "boolean" | undefined {
  const of = (t: unknown) => (t === "string" ? "string" : t === "integer" || t === "number" ? "number" : t === "boolean" ? "boolean" : undefined);
  if (f.raw) return undefined;
  if (!f.schema) return f.outputType === "array" ? of(f.itemType) : of(f.outputType);
  type Node = SchemaNode;
  let js: Node;
  try {
    js = jsonSchemaOf(f.schema, "input");
  } catch {
    return undefined;
  }
  // One JSON type besides null (a nullable field), or a list of such.
  const single = (n: Node | undefined): Node | undefined => {
    if (!n) return undefined;
    if (Array.isArray(n.anyOf)) {
      const rest = n.anyOf.filter((x) => x.type !== "null");
      return rest.length === 1 ? single(rest[0]) : undefined;
    }
    if (Array.isArray(n.type)) {
      const rest = n.type.filter((t) => t !== "null");
      return rest.length === 1 ? { ...n, type: rest[0] } : undefined;
    }
    return n;
  };
  const node = single(js);
  return node?.type === "array" ? of(single(node.items)?.type) : of(node?.type);
}

/**
 * A filter value as the API holds it, when the client's comparison (`same`) can match it, else undefined: the
 * text of a value for a text field, a number for a number (`"4.0"` is 4), `true`/`false` for a boolean.
 */
function apiValue(type: ApiField["type"], v: unknown): string | number | boolean | undefined {
  const text = String(v);
  if (type === "string") return text;
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : undefined;
  if (type === "id") return /^(0|[1-9]\d{0,15})$/.test(text) ? Number(text) : undefined;
  if (typeof v === "number") return v;
  return typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : undefined;
}

/** A header longer than this is not sent: the filters apply on the client only. */
const MAX_HEADER = 4096;

/**
 * The API's `X-Filter` header for the part of `filters` and `orderBy`/`order` it can say, or undefined: a filter
 * on a field the API holds as the item shows it (`apiField`), whose every value the API can hold (several
 * values: `+or`; several filters: `+and`), and the order when `orderBy` is such a field. Every item the
 * client's filters keep is in the API's answer, so that the client's pass gives what it gives on the whole list.
 */
export function apiFilter(args: Props, apiField: (name: string) => ApiField | undefined): Record<string, unknown> | undefined {
  const parts: Record<string, unknown>[] = [];
  for (const f of filtersOf(args)) {
    const field = apiField(f.name);
    if (!field) continue;
    const values = f.values.map((v) => apiValue(field.type, v));
    if (values.some((v) => v === undefined)) continue;
    const distinct = [...new Set(values)];
    parts.push(distinct.length === 1 ? { [field.api]: distinct[0] } : { "+or": distinct.map((v) => ({ [field.api]: v })) });
  }
  const header: Record<string, unknown> = parts.length === 1 ? { ...parts[0] } : parts.length > 1 ? { "+and": parts } : {};
  const by = typeof args.orderBy === "string" ? apiField(args.orderBy) : undefined;
  if (by) Object.assign(header, { "+order_by": by.api, "+order": args.order === "desc" ? "desc" : "asc" });
  if (Object.keys(header).length === 0 || JSON.stringify(header).length > MAX_HEADER) return undefined;
  return header;
}
