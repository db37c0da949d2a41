import { z } from "zod";
import type { ApiClient } from "./client";
import { camel, convertKeys, fromApi, type Field, type ResourceSpec } from "./resource";
import { configSpec } from "./resources/config";
import { mysqlSpec, postgresSpec } from "./resources/database";
import { diskSpec } from "./resources/disk";
import { instanceSpec } from "./resources/instance";
import { interfaceSpec } from "./resources/interface";
import { sshKeySpec } from "./resources/sshKey";
import { subnetSpec, vpcSpec } from "./resources/vpc";

/**
 * The read functions, as one table: the sdk's `getX()` functions and the plugin's Invoke both call
 * `invoke()`, and schema.json and the docs are generated from these rows. A function reads a list (every
 * page) or one item; its result is an object (Pulumi's convention for functions), e.g. `{ regions: [...] }`.
 */
export interface FunctionSpec {
  /** Function name, e.g. `getRegions`; its Pulumi token is `compute:index:getRegions`. */
  name: string;
  description: string;
  /** Arguments (inputs), validated like resource inputs. */
  inputs: Field[];
  /** The object type of the items (schema type token `compute:index:<item>`). */
  item: string;
  /** For a list function: the result property that holds the list (`regions`); a single read returns the item's fields. */
  listKey?: string;
  /** The API path, from the checked arguments. */
  path(args: Record<string, unknown>): string;
  /** For a single read: the words for a missing item ("region eu-west"). */
  what?(args: Record<string, unknown>): string;
  /** A list that takes `filters`, `orderBy` and `order` (applied here: the API documents no filter). */
  filterable?: boolean;
  /** An API record as an item (default: the API's fields in camelCase). */
  toItem?(api: Record<string, unknown>): Record<string, unknown>;
  /** The list is a plain array, not a paged envelope (a profile's interfaces). */
  plainArray?: boolean;
}

/** The fields of the item types the functions return (for schema.json; results are the API's, in camelCase). */
export const ITEM_TYPES: Record<string, { description: string; fields: Field[] }> = {};
const out = (name: string, outputType: Field["outputType"], description: string): Field => ({ name, kind: "output", outputType, description });
ITEM_TYPES.Region = {
  description: "A region where resources can be made.",
  fields: [
    out("id", "string", "The region's id, e.g. `us-east`."),
    out("label", "string", "Its display name."),
    out("country", "string", "Its country code."),
    { ...out("capabilities", "array", "What it offers, e.g. `Metadata`, `VPCs`."), itemType: "string" },
    out("status", "string", "`ok` or `outage`."),
    out("resolvers", "object", "Its DNS resolvers (`ipv4`, `ipv6`)."),
  ],
};
ITEM_TYPES.InstanceType = {
  description: "An instance type, with its sizes and prices.",
  fields: [
    out("id", "string", "The type's id, e.g. `c1-standard-2`."),
    out("label", "string", "Its display name."),
    out("class", "string", "`nanode`, `standard`, `dedicated`, `premium`, `gpu` or `highmem`."),
    out("disk", "integer", "Disk size in MB."),
    out("memory", "integer", "Memory in MB."),
    out("vcpus", "integer", "Virtual CPUs."),
    out("gpus", "integer", "GPUs."),
    out("networkOut", "integer", "Outbound bandwidth in Mbit/s."),
    out("transfer", "integer", "Monthly transfer in GB."),
    out("price", "object", "`hourly` and `monthly` prices."),
    { ...out("regionPrices", "array", "Prices that differ by region (`id`, `hourly`, `monthly`)."), itemType: "object" },
    out("addons", "object", "Add-on prices (`backups`)."),
    out("successor", "string", "The type a mutate upgrades to, or null."),
  ],
};
ITEM_TYPES.Kernel = {
  description: "A kernel an instance config can boot.",
  fields: [
    out("id", "string", "The kernel's id, e.g. `compute/latest-64bit`."),
    out("label", "string", "Its display name."),
    out("version", "string", "Its version."),
    out("architecture", "string", "`x86_64` or `i386`."),
    out("built", "string", "When it was built."),
    out("deprecated", "boolean", "Whether it is deprecated."),
    out("kvm", "boolean", "Whether it supports KVM."),
    out("pvops", "boolean", "Whether it supports paravirtualization."),
  ],
};
ITEM_TYPES.ImageInfo = {
  description: "A public image, or a private one of the token's account.",
  fields: [
    out("id", "string", "The image's id, e.g. `compute/debian12` or `private/12`."),
    out("label", "string", "Its display name."),
    out("description", "string", "Its description, or null."),
    { ...out("capabilities", "array", "What it supports, e.g. `cloud-init`."), itemType: "string" },
    out("created", "string", "When it was made."),
    out("updated", "string", "When it last changed."),
    out("createdBy", "string", "`compute` for public images, else the user."),
    out("deprecated", "boolean", "Whether it is deprecated."),
    out("eol", "string", "End of life, or null."),
    out("expiry", "string", "When it expires, or null."),
    out("isPublic", "boolean", "Whether it is public."),
    out("size", "integer", "Size in MB."),
    out("status", "string", "`creating`, `pending_upload` or `available`."),
    out("type", "string", "`manual` or `automatic`."),
    out("vendor", "string", "The vendor, or null."),
  ],
};

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
      "Keep the items whose field `name` equals one of `values` (a list field: holds one of them); several filters must all match. `name` is any field of the items.",
  },
  { name: "orderBy", kind: "input", schema: z.string().min(1), description: "Sort the items by this field." },
  { name: "order", kind: "input", schema: z.enum(["asc", "desc"]), description: "`asc` (the default) or `desc`." },
];

const parentArg = (name: string, what: string): Field => ({
  name,
  kind: "input",
  required: true,
  schema: z.union([z.number().int().positive(), z.string().regex(/^\d+$/, "must be an id (digits)")]),
  description: `The ${what}'s id.`,
});

/** The item type of a resource's lookup: the resource's outputs as the API shows them (never write-only or provider-only fields). */
export function resourceItem(spec: ResourceSpec<any>, description: string): { description: string; fields: Field[] } {
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
      ...shown.map((f) => ({ ...f, kind: "output" as const, required: false, forceNew: false, computed: false })),
    ],
  };
}

/** An API record as the resource's outputs show it: the table's fields, the id as a string. */
const asResource =
  (spec: ResourceSpec<any>, extra: (api: Record<string, unknown>) => Record<string, unknown> = () => ({})) =>
  (api: Record<string, unknown>): Record<string, unknown> => ({ ...fromApi(spec, api, {}), ...extra(api), id: String(api.id) });

const lookup = (
  name: string,
  spec: ResourceSpec<any>,
  listKey: string,
  path: (a: Record<string, unknown>) => string,
  description: string,
  parents: Field[] = [],
  extra?: (api: Record<string, unknown>) => Record<string, unknown>,
): FunctionSpec => ({
  name,
  description,
  inputs: [...parents, ...FILTER_ARGS],
  item: `${spec.type}Info`,
  listKey,
  path,
  filterable: true,
  toItem: asResource(spec, extra),
});

const engineVersion = (api: Record<string, unknown>) => ({ engine: `${String(api.engine)}/${String(api.version)}` });

ITEM_TYPES.VpcIp = {
  description: "An address of a VPC: an interface's address (or range) in a subnet.",
  fields: [
    out("address", "string", "The IPv4 address, or null for a range."),
    out("addressRange", "string", "The range (for an interface's `ipRanges`), or null."),
    out("vpcId", "integer", "The VPC."),
    out("subnetId", "integer", "The subnet."),
    out("region", "string", "The VPC's region."),
    out("computeId", "integer", "The instance."),
    out("configId", "integer", "The instance's profile."),
    out("interfaceId", "integer", "The interface."),
    out("active", "boolean", "Whether the profile is the one booted."),
    out("nat11", "string", "The public 1:1 NAT address, or null."),
    out("gateway", "string", "The subnet's gateway."),
    out("prefix", "integer", "The subnet's prefix length."),
    out("subnetMask", "string", "The subnet mask."),
  ],
};
ITEM_TYPES.DatabaseEngine = {
  description: "A database engine version a cluster can run.",
  fields: [
    out("id", "string", "`engine/version`, e.g. `mysql/8.0.35`: a database's `engine`."),
    out("engine", "string", "`mysql` or `postgresql`."),
    out("version", "string", "The version."),
    out("totalDiskSizeGb", "integer", "Total disk size (GB)."),
    out("usedDiskSizeGb", "integer", "Used disk size (GB)."),
  ],
};

const idArg = (what: string): Field => ({ name: "id", kind: "input", required: true, schema: z.string().min(1), description: `The ${what}'s id.` });
const list = (name: string, item: string, listKey: string, path: string, description: string): FunctionSpec => ({
  name,
  description,
  inputs: [],
  item,
  listKey,
  path: () => path,
});
const single = (name: string, item: string, what: string, path: (id: string) => string, description: string): FunctionSpec => ({
  name,
  description,
  inputs: [idArg(what)],
  item,
  path: (a) => path(String(a.id)),
  what: (a) => `${what} ${String(a.id)}`,
});

/** The lookups of what exists, each with its item type: the resource's outputs. */
const lookups: FunctionSpec[] = [
  lookup("getInstances", instanceSpec, "instances", () => "/compute/instances", "The instances of the account, filtered and ordered."),
  lookup("getDisks", diskSpec, "disks", (a) => `/compute/instances/${String(a.computeId)}/disks`, "The disks of an instance.", [
    parentArg("computeId", "instance"),
  ]),
  lookup("getConfigs", configSpec, "configs", (a) => `/compute/instances/${String(a.computeId)}/configs`, "The configuration profiles of an instance.", [
    parentArg("computeId", "instance"),
  ]),
  {
    ...lookup(
      "getInterfaces",
      interfaceSpec,
      "interfaces",
      (a) => `/compute/instances/${String(a.computeId)}/configs/${String(a.configId)}/interfaces`,
      "The interfaces of an instance's profile, in order.",
      [parentArg("computeId", "instance"), parentArg("configId", "profile")],
    ),
    plainArray: true,
  },
  lookup("getVpcs", vpcSpec, "vpcs", () => "/vpcs", "The VPCs of the account."),
  lookup("getSubnets", subnetSpec, "subnets", (a) => `/vpcs/${String(a.vpcId)}/subnets`, "The subnets of a VPC.", [parentArg("vpcId", "VPC")]),
  {
    name: "getVpcIps",
    description: "The addresses of a VPC (`vpcId`), or of every VPC of the account when it is left out.",
    inputs: [{ ...parentArg("vpcId", "VPC"), required: false }, ...FILTER_ARGS],
    item: "VpcIp",
    listKey: "ips",
    path: (a) => (a.vpcId === undefined || a.vpcId === null ? "/vpcs/ips" : `/vpcs/${String(a.vpcId)}/ips`),
    filterable: true,
  },
  lookup("getSshKeys", sshKeySpec, "sshKeys", () => "/profile/sshkeys", "The SSH keys of the profile."),
  lookup("getMysqlDatabases", mysqlSpec, "databases", () => "/databases/mysql/instances", "The MySQL clusters of the account.", [], engineVersion),
  lookup(
    "getPostgresDatabases",
    postgresSpec,
    "databases",
    () => "/databases/postgresql/instances",
    "The PostgreSQL clusters of the account.",
    [],
    engineVersion,
  ),
  {
    name: "getDatabaseEngines",
    description: "The engine versions a database cluster can run (its `engine`).",
    inputs: [...FILTER_ARGS],
    item: "DatabaseEngine",
    listKey: "engines",
    path: () => "/databases/engines",
    filterable: true,
  },
  {
    name: "getDatabaseTypes",
    description: "The instance types a database cluster's nodes can be (its `type`): the compute types, which the API also uses for clusters.",
    inputs: [...FILTER_ARGS],
    item: "InstanceType",
    listKey: "types",
    path: () => "/compute/types",
    filterable: true,
  },
];
for (const f of lookups) {
  const spec = [instanceSpec, diskSpec, configSpec, interfaceSpec, vpcSpec, subnetSpec, sshKeySpec, mysqlSpec, postgresSpec].find(
    (x) => f.item === `${x.type}Info`,
  );
  if (spec && !ITEM_TYPES[f.item])
    ITEM_TYPES[f.item] = resourceItem(
      spec,
      `${spec.noun[0].toUpperCase()}${spec.noun.slice(1)} as the API shows it: the resource's outputs (\`${spec.type}\`).`,
    );
}

export const functionSpecs: FunctionSpec[] = [
  ...lookups,
  list("getRegions", "Region", "regions", "/regions", "Every region, with its capabilities (for example `Metadata`) and status."),
  single("getRegion", "Region", "region", (id) => `/regions/${encodeURIComponent(id)}`, "One region, by id."),
  list("getTypes", "InstanceType", "types", "/compute/types", "Every instance type, with prices and the type a mutate upgrades to (`successor`)."),
  single("getType", "InstanceType", "type", (id) => `/compute/types/${encodeURIComponent(id)}`, "One instance type, by id."),
  list("getKernels", "Kernel", "kernels", "/compute/kernels", "Every kernel."),
  single("getKernel", "Kernel", "kernel", (id) => `/compute/kernels/${id}`, "One kernel, by id (ids hold a slash)."),
  list("getImages", "ImageInfo", "images", "/images", "Public images, and private ones too when a token is set."),
  single("getImage", "ImageInfo", "image", (id) => `/images/${id}`, "One image, by id (ids hold a slash)."),
];

export function functionSpec(name: string): FunctionSpec {
  const f = functionSpecs.find((s) => s.name === name);
  if (!f) throw new Error(`pulumi-compute: unknown function "${name}" (this build knows ${functionSpecs.map((s) => s.name).join(", ")})`);
  return f;
}

/** Thrown for arguments that break a rule: names the argument. */
export class FunctionArgsError extends Error {}

/** Runs a read function: checks its arguments, reads every page (or the one item), returns the result object. */
export async function invoke(c: ApiClient, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
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
    if (r && !r.success) throw new FunctionArgsError(`${name}: ${f.name}: ${r.error.issues.map((i) => i.message).join("; ")}`);
  }
  if (spec.listKey) {
    const raw = spec.plainArray ? ((await c.get<unknown[]>(spec.path(args))) ?? []) : await c.list(spec.path(args));
    let items = raw.map((r) => (spec.toItem ? spec.toItem(r as Record<string, unknown>) : (convertKeys(r, camel) as Record<string, unknown>)));
    if (spec.filterable) items = filterAndOrder(spec, items, args);
    return { [spec.listKey]: items };
  }
  const r = await c.get(spec.path(args), true);
  if (r === undefined) throw new Error(`${spec.what!(args)} not found`);
  return convertKeys(r, camel) as Record<string, unknown>;
}

/** The field names an item of a function has (its item type's): what `filters` and `orderBy` may name. */
export function itemFields(spec: FunctionSpec): string[] {
  return (ITEM_TYPES[spec.item]?.fields ?? []).map((f) => f.name);
}

/** Whether a field holds objects (an object, or a list of them): compared by value, a filter on it means nothing. */
function holdsObjects(f: Field): boolean {
  if (f.outputType === "object" || f.itemType === "object") return true;
  if (!f.schema) return false;
  const js = z.toJSONSchema(f.schema, { io: "input", unrepresentable: "any" }) as { type?: unknown; items?: { type?: unknown } };
  return js.type === "object" || (js.type === "array" && js.items?.type === "object");
}

/** The fields `filters` and `orderBy` may name: the items' plain fields and lists of plain values. */
export function filterFields(spec: FunctionSpec): string[] {
  return (ITEM_TYPES[spec.item]?.fields ?? []).filter((f) => !holdsObjects(f)).map((f) => f.name);
}

const same = (a: unknown, b: unknown): boolean => a !== null && a !== undefined && String(a) === String(b);

/** The error for a field `filters` or `orderBy` may not name (unknown, or holding objects), or undefined. */
function fieldError(spec: FunctionSpec): (what: string, field: string) => FunctionArgsError | undefined {
  const known = itemFields(spec);
  const plain = filterFields(spec);
  return (what, field) => {
    if (!known.includes(field))
      return new FunctionArgsError(`${spec.name}: ${what}: unknown field "${field}"; the fields of its items are ${known.join(", ")}`);
    if (!plain.includes(field))
      return new FunctionArgsError(`${spec.name}: ${what}: "${field}" holds objects, which a filter or order cannot compare; use one of ${plain.join(", ")}`);
    return undefined;
  };
}

/**
 * The field names of `filters` and `orderBy` when they are plain values (not Outputs): checked when the
 * function is called, so that a program with an unknown field fails at once, naming it.
 */
export function checkFieldNames(name: string, args: Record<string, unknown> = {}): void {
  const spec = functionSpec(name);
  if (!spec.filterable) return;
  const fail = fieldError(spec);
  if (Array.isArray(args.filters)) {
    args.filters.forEach((f: unknown, i) => {
      const n = f && typeof f === "object" ? (f as { name?: unknown }).name : undefined;
      if (typeof n === "string") {
        const e = fail(`filters[${i}].name`, n);
        if (e) throw e;
      }
    });
  }
  const e = typeof args.orderBy === "string" ? fail("orderBy", args.orderBy) : undefined;
  if (e) throw e;
}

/** Applies `filters` (all must match; a value matches one of `values`; a list matches when it holds one) and the order. */
export function filterAndOrder(spec: FunctionSpec, items: Record<string, unknown>[], args: Record<string, unknown>): Record<string, unknown>[] {
  const fail = fieldError(spec);
  const filters = (args.filters as { name: string; values: unknown[] }[] | undefined) ?? [];
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
  const by = args.orderBy as string | undefined;
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
    throw new FunctionArgsError(`${spec.name}: order needs orderBy`);
  }
  return out;
}
