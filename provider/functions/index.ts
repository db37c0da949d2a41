import { ApiError, type ApiClient } from "../transport/client";
import type { LookupRow, ResourceDefinition } from "../definition";
import { apiFilter, checkFilterNames, FILTER_ARGS, filterAndOrder, FunctionArgsError, plainType, type ApiField } from "./filters";
import { parentArg, type FunctionSpec, type ItemType } from "./function-table";
import { fromApi } from "../model/mapping";
import { itemAsDeclared } from "../model/shape";
import { refusals } from "../model/issue-text";
import { REFERENCE_ITEMS, referenceFunctions } from "./reference";
import { getPrice, PriceItem } from "./prices";
import { definitions } from "../registry";
import { apiName, camel, convertKeys, type Props, type ResourceSpec } from "../model/table";

export { FILTER_ARGS, FunctionArgsError, type FunctionSpec, type ItemType };

/**
 * The read functions: the lookup of each resource that has one (its definition's `lookup` row), then the
 * reference functions (provider/functions/reference.ts). The sdk's `getX()` functions and the plugin's Invoke both
 * call `invoke()`; schema.json and the docs are generated from these rows.
 */

/** The item type of a resource's lookup: the resource's outputs as the API shows them (never write-only or provider-only fields). */
export function resourceItem(spec: ResourceSpec, description: string): ItemType {
  // Never write-only or provider-only fields, nor secrets (the lists do not show credentials).
  const shown = spec.fields.filter((f) => !f.writeOnly && !f.control && !f.inPath && !f.secret && !f.name.startsWith("__"));
  return {
    description,
    fields: [
      {
        name: "id",
        kind: "output",
        outputType: "string",
        description: `The ${spec.noun}'s id, as a string (the Pulumi id of the resource: \`${spec.type}.get(name, id)\`).`,
      },
      // An item is read when the lookup runs: what changes a resource's output after the resource is read does not apply.
      ...shown.map((f) => ({ ...f, kind: "output" as const, required: false, forceNew: false, computed: false, changedBy: undefined })),
    ],
  };
}

/** A resource's lookup, from its definition: its parents' ids, the filters, and its outputs as items. */
function lookupOf(d: ResourceDefinition): FunctionSpec | undefined {
  const row = d.lookup;
  if (!row) return undefined;
  const { spec } = d;
  const parents = spec.fields.filter((f) => f.inPath).map((f) => parentArg(f.name, row.parents?.[f.name] ?? f.name));
  return {
    name: row.name,
    description: row.description,
    inputs: [...parents, ...FILTER_ARGS],
    item: `${spec.type}Info`,
    listKey: row.listKey,
    path: (args) => spec.collectionPath(args),
    filterable: true,
    scope: row.scope,
    plainArray: row.plainArray,
    list: row.list,
    // An API record as the resource's outputs show it: the table's fields, the id as a string.
    toItem: (api) => ({ ...fromApi(spec, api, {}), ...(row.extra ? row.extra(api) : {}), id: String(api.id) }),
    apiField: resourceApiField(spec, row),
  };
}

/**
 * The fields of a resource's items the API holds as the item shows them: the id (an integer there), and the
 * table's plain fields the item takes as they are (not those `extra` rebuilds, such as a database's engine).
 */
function resourceApiField(spec: ResourceSpec, row: LookupRow): (name: string) => ApiField | undefined {
  const rebuilt = row.extra ? Object.keys(row.extra({})) : [];
  return (name) => {
    if (name === "id") return { api: "id", type: "id" };
    const f = spec.fields.find((x) => x.name === name);
    if (!f || rebuilt.includes(name) || f.writeOnly || f.control || f.inPath || f.secret) return undefined;
    const type = plainType(f);
    return type ? { api: apiName(f), type } : undefined;
  };
}

/** The API's field of an item made of the API's record in camelCase (the reference data's). */
const recordApiField =
  (spec: FunctionSpec) =>
  (name: string): ApiField | undefined => {
    const f = itemFieldsOf(spec).find((x) => x.name === name);
    const type = f ? plainType(f) : undefined;
    return f && type ? { api: apiName(f), type } : undefined;
  };

/**
 * Every page of a list, with the `X-Filter` header when there is one; a header the API refuses (a 400 on
 * `X-Filter`: a field it does not filter on) is dropped, and the whole list read, for the client to filter.
 */
async function readList(c: ApiClient, path: string, filter: object | undefined): Promise<Props[]> {
  if (!filter) return c.list<Props>(path);
  try {
    return await c.list<Props>(path, Infinity, filter);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400 && e.errors.some((x) => x.field === "X-Filter")) return c.list<Props>(path);
    throw e;
  }
}

/** Every object type the functions return, by name. */
export const ITEM_TYPES: Record<string, ItemType> = {
  ...REFERENCE_ITEMS,
  Price: PriceItem,
  ...Object.fromEntries(
    definitions
      .filter((d) => d.lookup)
      .map(({ spec }) => {
        const words = `${spec.noun[0].toUpperCase()}${spec.noun.slice(1)} as the API shows it: the resource's outputs (\`${spec.type}\`).`;
        return [`${spec.type}Info`, resourceItem(spec, words)];
      }),
  ),
};

export const functionSpecs: FunctionSpec[] = [...definitions.flatMap((d) => lookupOf(d) ?? []), ...referenceFunctions, getPrice];

export function functionSpec(name: string): FunctionSpec {
  const f = functionSpecs.find((s) => s.name === name);
  if (!f) throw new Error(`pulumi-compute: unknown function "${name}" (this build knows ${functionSpecs.map((s) => s.name).join(", ")})`);
  return f;
}

/** Runs a read function: checks its arguments, reads every page (or the one item), returns the result object. */
export async function invoke(c: ApiClient, name: string, args: Props = {}): Promise<Props> {
  const spec = functionSpec(name);
  const known = new Set(spec.inputs.map((f) => f.name));
  for (const k of Object.keys(args)) if (!known.has(k) && args[k] !== undefined) throw new FunctionArgsError(`${name}: unknown argument "${k}"`);
  for (const f of spec.inputs) {
    const v = args[f.name];
    if (v === undefined || v === null) {
      if (f.required) throw new FunctionArgsError(`${name}: ${f.name} is required`);
      continue;
    }
    const r = f.schema?.safeParse(v);
    if (r && !r.success) throw new FunctionArgsError(`${name}: ${refusals(f.name, r.error.issues).join("; ")}`);
  }
  if (spec.listKey) {
    const path = spec.path(args);
    // The API filters a paged list itself (X-Filter) as far as it can; the client's pass below makes the result.
    const filter = spec.filterable ? apiFilter(args, spec.apiField ?? (spec.toItem ? () => undefined : recordApiField(spec))) : undefined;
    const raw = spec.list ? await spec.list(c, path, args) : spec.plainArray ? ((await c.get<Props[]>(path)) ?? []) : await readList(c, path, filter);
    // Each item as its type declares it (provider/model/shape.ts).
    let items = raw.map((r) => itemAsDeclared(spec.toItem ? spec.toItem(r) : convertKeys(r, camel), itemFieldsOf(spec)));
    if (spec.filterable) items = filterAndOrder(spec.name, itemFieldsOf(spec), items, args);
    return { [spec.listKey]: items };
  }
  if (spec.read) return spec.read(c, spec.path(args), args);
  const r = await c.get<Props>(spec.path(args), true);
  if (r === undefined) throw new Error(`${spec.what?.(args) ?? name} not found`);
  return itemAsDeclared(convertKeys(r, camel), itemFieldsOf(spec));
}

const itemFieldsOf = (spec: FunctionSpec) => ITEM_TYPES[spec.item]?.fields ?? [];

/**
 * The field names of `filters` and `orderBy` when they are plain values (not Outputs): checked when the
 * function is called, so that a program with an unknown field fails at once, naming it.
 */
export function checkFieldNames(name: string, args: Props = {}): void {
  const spec = functionSpec(name);
  if (spec.filterable) checkFilterNames(name, itemFieldsOf(spec), args);
}
