import { restProvider, type ResourceProvider, type ProviderHooks } from "./lifecycle/rest-provider";
import type { ApiClient } from "./transport/client";
import type { ApiRecord, Field, InputsOf, Props, ResourceSpec } from "./model/table";
import { timeoutsField } from "./model/timeouts";

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
}

/**
 * The lookup of what exists (`getInstances`...): a filterable list of the resource's collection, every page,
 * whose items are the resource's outputs with the id as a string. Its arguments are the parents' ids (the
 * `inPath` fields), then `filters`, `orderBy` and `order`.
 */
export interface LookupRow {
  /** Function name, e.g. `getInstances`. */
  name: string;
  /** The result property that holds the list. */
  listKey: string;
  description: string;
  /** The words for each parent id argument ("instance": "The instance's id."). */
  parents?: Record<string, string>;
  /** The list is a plain array, not a paged envelope (a profile's interfaces). */
  plainArray?: boolean;
  /** Item fields beyond the table's, from the API record (a database's `engine/version`). */
  extra?(api: Props): Props;
  /** Reads the list when it is neither a paged envelope nor a plain array (an instance's backups). */
  list?: (client: ApiClient, path: string) => Promise<Props[]>;
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
 * The definition of a resource: its spec, given the `timeouts` input made from `spec.timeouts` after its last
 * input (the spec object itself gets it, so that every hook holding it sees the whole table), and its
 * provider (restProvider with the hooks).
 */
export function defineResource<Api extends ApiRecord, const F extends readonly Field[]>(d: {
  spec: ResourceSpec<Api, F>;
  hooks?: ProviderHooks<Api, InputsOf<F>>;
  lookup?: LookupRow;
  sdk: SdkRow;
}): ResourceDefinition<Api> {
  // The `timeouts` row joins the table (a row of the core's, not typed in the resource's inputs).
  const spec: ResourceSpec<Api> = d.spec;
  spec.fields = withTimeouts(spec);
  return { spec, provider: restProvider(d.spec, d.hooks), lookup: d.lookup, sdk: d.sdk };
}

function withTimeouts(spec: ResourceSpec<ApiRecord>): readonly Field[] {
  if (!spec.timeouts || spec.fields.some((f) => f.name === "timeouts")) return spec.fields;
  const lastInput = spec.fields.map((f) => f.kind).lastIndexOf("input");
  return [...spec.fields.slice(0, lastInput + 1), timeoutsField(spec.timeouts), ...spec.fields.slice(lastInput + 1)];
}
