import { restProvider } from "./lifecycle/rest-provider";
import type { ResourceProvider, ProviderHooks } from "./lifecycle/hooks";
import type { ApiClient } from "./transport/client";
import type { Example } from "./model/example";
import type { ApiRecord, Field, InputName, Props, ResourceSpec } from "./model/table";

/**
 * A resource is one definition: its table and facts (ResourceSpec: fields, paths, label rule, timeouts,
 * import id shape from its `inPath` fields), the hooks its provider adds, its lookup if it has one, and what
 * its generated sdk class is called. provider/registry.ts lists the definitions; the dynamic providers, the
 * plugin, the read functions, schema.json, the docs and the sdk classes all derive from that list.
 */
export interface ResourceDefinition<Api extends ApiRecord = ApiRecord> {
  spec: ResourceSpec<Api>;
  provider: ResourceProvider;
  lookup?: LookupRow;
  sdk: SdkRow;
  /**
   * Its one example, a small program using it (provider/model/example.ts): schema.json's description (the
   * Registry page) and the SDKs' docs in four languages, its docs page, and tests/integration/examples.test.ts,
   * which compiles and runs each.
   */
  example: () => Example;
}

/**
 * The lookup of what exists (`getInstances`...): a filterable list of the resource's collection, every page,
 * whose items are the resource's outputs with the id as a string. Its arguments are the parents' ids (the
 * `inPath` fields), then `filters`, `orderBy` and `order`.
 */
export interface LookupRow<F extends readonly Field[] = readonly Field[]> {
  /** Function name, e.g. `getInstances`. */
  name: string;
  /** The result property that holds the list. */
  listKey: string;
  /** The token scope the list needs, as the spec's endpoint tables say (docs/functions.md shows it). */
  scope: string;
  description: string;
  /** The words for each parent id argument, by its input (`computeId`: "The instance's id."). */
  parents?: { [K in InputName<F>]?: string };
  /** The list is a plain array, not a paged envelope (a profile's interfaces). */
  plainArray?: boolean;
  /** Item fields beyond the table's, from the API record (a database's `engine/version`). */
  extra?(api: Props): Props;
  /**
   * Reads the list when it is neither a paged envelope nor a plain array (an instance's backups): from its path,
   * or from the lookup's arguments (the parents' ids), for a typed call of the contract's row.
   */
  list?: (client: ApiClient, path: string, args: Props) => Promise<Props[]>;
}

/** What the generated sdk class (sdk/<file>.ts) is called, beyond the type's name. */
export interface SdkRow {
  /** The file under sdk/ (without `.ts`), e.g. `sshKey`. */
  file: string;
  /** The name of the args interface (default `<Type>Args`). */
  argsName?: string;
  /** Other names the args interface is exported under (names of earlier releases). */
  argsAliases?: string[];
}

/**
 * The definition of a resource: its spec as `tableFor()` made it (the `timeouts` input from `spec.timeouts`
 * already in its fields, so that every hook holding it sees the whole table), and its provider (restProvider
 * with the hooks). The spec given is not changed.
 */
export function defineResource<Api extends ApiRecord, const F extends readonly Field[]>(d: {
  spec: ResourceSpec<Api, F>;
  hooks?: ProviderHooks<Api, F>;
  lookup?: LookupRow<F>;
  sdk: SdkRow;
  example: () => Example;
}): ResourceDefinition<Api> {
  // The spec is taken as it is (its `timeouts` row came with `tableFor()`), never changed. The hooks, typed here by
  // this table, are the core's hooks of any table (props as `Props`): the one place the table's types meet the
  // engine's untyped props, which this table's check produced (restProvider says how).
  const hooks = d.hooks as ProviderHooks<Api> | undefined;
  return { spec: d.spec, provider: restProvider(d.spec, hooks), lookup: d.lookup, sdk: d.sdk, example: d.example };
}
