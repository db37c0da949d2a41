import { z } from "zod";
import { apiTime, int, page, pageQuery } from "./common";
import { endpoint } from "./endpoint";

/**
 * The reference data, open to all: compute-api.md "Kernels, types, regions" (kernels, instance types, regions and
 * their plans' availability), databases-api.md's engines, and the real API's database types (`GET
 * /databases/types`: not in databases-api.md, served as recorded: docs/spec-gaps.md "Managed databases").
 * "Kernels, types and regions operations are callable without any authorization header"; "Engines operations
 * list no authorization".
 */

/** compute-api.md "Instance type": "price | object | `hourly`, `monthly` (numbers, US dollars)". */
export const price = z.strictObject({ hourly: z.number(), monthly: z.number() });

/** An item of `region_prices` ("not shown"): the real API's, a region's id and its own price. */
export const regionPrice = z.strictObject({ id: z.string(), hourly: z.number(), monthly: z.number() });

/** compute-api.md "Instance type": "class | enum | `nanode`, `standard`, `dedicated`, `premium`, `gpu`, `highmem`". */
export const INSTANCE_CLASSES = ["nanode", "standard", "dedicated", "premium", "gpu", "highmem"] as const;

/** The classes whose plans are sold in some regions only: "premium and GPU plans in select regions" (`GET /regions/availability`). */
export const LIMITED_CLASSES = ["premium", "gpu"] as const satisfies readonly (typeof INSTANCE_CLASSES)[number][];

/** compute-api.md "Instance type". */
export const instanceType = z.strictObject({
  id: z.string(),
  label: z.string(),
  class: z.enum(INSTANCE_CLASSES),
  /** Megabytes. */
  disk: int,
  memory: int,
  vcpus: int,
  gpus: int,
  /** Outbound bandwidth in Mbits. */
  network_out: int,
  /** Monthly outbound transfer. */
  transfer: int,
  price,
  region_prices: z.array(regionPrice),
  /** "`backups` with `price` (`hourly`, `monthly`) and `region_prices`". */
  addons: z.strictObject({ backups: z.strictObject({ price, region_prices: z.array(regionPrice) }) }),
  /** "Type a mutate upgrades to; null means the instance cannot mutate." */
  successor: z.string().nullable(),
});

/** compute-api.md "Kernel": "architecture | enum `x86_64`, `i386`". */
export const KERNEL_ARCHITECTURES = ["x86_64", "i386"] as const;

/** compute-api.md "Configuration profile": "kernel | string | Kernel id; default `compute/latest-64bit`". */
export const DEFAULT_KERNEL = "compute/latest-64bit";

/** compute-api.md "Kernel" (`built` is null on one kernel of the real list, `compute/2.6.18.8-domU-compute7`). */
export const kernel = z.strictObject({
  id: z.string(),
  label: z.string(),
  version: z.string(),
  architecture: z.enum(KERNEL_ARCHITECTURES),
  built: apiTime.nullable(),
  deprecated: z.boolean(),
  kvm: z.boolean(),
  pvops: z.boolean(),
});

/** compute-api.md "Region": "status | enum | `ok`, `outage`". */
export const REGION_STATUSES = ["ok", "outage"] as const;

/**
 * The capabilities the API's rules read (compute-api.md "Region": "a region with the `Metadata` capability can host
 * instances using cloud-init user data"; the others are the real API's names, renamed: docs/spec-gaps.md).
 */
export const REGION_CAPABILITY = {
  /** User data (`metadata.user_data`) can be given to an instance there. */
  metadata: "Metadata",
  /** VPCs can be made there. */
  vpcs: "VPCs",
  /** VLAN interfaces can be used there (a clone with one needs it: compute-api.md "Rules" 4). */
  vlans: "Vlans",
  /** Database clusters can be made there. */
  databases: "Managed Databases",
  /** GPU plans are sold there. */
  gpus: "GPU Computes",
} as const;

/** compute-api.md "Region", with `site_type`, the real API's (`core` on every recorded region). */
export const region = z.strictObject({
  id: z.string(),
  label: z.string(),
  country: z.string(),
  site_type: z.string(),
  capabilities: z.array(z.string()),
  status: z.enum(REGION_STATUSES),
  /** "strings with comma-separated resolver addresses". */
  resolvers: z.strictObject({ ipv4: z.string(), ipv6: z.string() }),
});

/** A region availability record ("not shown"): the real API's, whether a plan of a limited class is sold there now. */
export const regionAvailability = z.strictObject({ region: z.string(), plan: z.string(), available: z.boolean() });

/** databases-api.md "Engine": "engine | string, engine type" (the engine types of databases-api.md's two kinds of cluster). */
export const DATABASE_ENGINES = ["mysql", "postgresql"] as const;

/** databases-api.md "Engine" (`total_disk_size_gb`, `used_disk_size_gb`: the spec's; the real API answers neither: docs/spec-gaps.md). */
export const databaseEngine = z.strictObject({
  id: z.string(),
  engine: z.enum(DATABASE_ENGINES),
  version: z.string(),
  total_disk_size_gb: int,
  used_disk_size_gb: int,
});

/** The price of a cluster of `quantity` nodes. */
export const clusterPrice = z.strictObject({ quantity: int, price });

/**
 * A type a database cluster's nodes can be, as the real API answers `GET /databases/types` (recorded:
 * TestDatabase_Type): the instance type's sizes and the price of a cluster of each size per engine.
 */
export const databaseType = instanceType
  .pick({ id: true, label: true, class: true, disk: true, memory: true, vcpus: true })
  .extend({ engines: z.strictObject({ mysql: z.array(clusterPrice), postgresql: z.array(clusterPrice) }) })
  .strict();

const open = { scope: null, auth: "none" } as const;
const compute = { source: "compute-api.md", ...open } as const;

/** compute-api.md: regions and the availability of their plans. */
export const regionsApi = {
  list: endpoint({ method: "GET", path: "/regions", ...compute, summary: "List regions", query: pageQuery, answer: page(region) }),
  /** Before `get`: `availability` is not a region's id. */
  availability: endpoint({
    method: "GET",
    path: "/regions/availability",
    ...compute,
    summary: "List the availability of the premium and GPU plans in every region",
    query: pageQuery,
    answer: page(regionAvailability),
  }),
  get: endpoint({ method: "GET", path: "/regions/{regionId}", ...compute, summary: "View a region", answer: region }),
  /** A plain array, as the real API answers it (docs/spec-gaps.md "Region availability records"). */
  availabilityOf: endpoint({
    method: "GET",
    path: "/regions/{regionId}/availability",
    ...compute,
    summary: "View the availability of the premium and GPU plans in a region",
    answer: z.array(regionAvailability),
  }),
};

/** compute-api.md: instance types. */
export const typesApi = {
  list: endpoint({ method: "GET", path: "/compute/types", ...compute, summary: "List instance types", query: pageQuery, answer: page(instanceType) }),
  get: endpoint({ method: "GET", path: "/compute/types/{typeId}", ...compute, summary: "View an instance type", answer: instanceType }),
};

/** compute-api.md: kernels (their ids hold a slash, "placed in the path as given"). */
export const kernelsApi = {
  list: endpoint({ method: "GET", path: "/compute/kernels", ...compute, summary: "List kernels", query: pageQuery, answer: page(kernel) }),
  get: endpoint({ method: "GET", path: "/compute/kernels/{kernelId*}", ...compute, summary: "View a kernel", answer: kernel }),
};

/** databases-api.md: engines (`engine/version` ids, in the path as given). */
export const databaseEnginesApi = {
  list: endpoint({
    method: "GET",
    path: "/databases/engines",
    source: "databases-api.md",
    ...open,
    summary: "List database engines",
    query: pageQuery,
    answer: page(databaseEngine),
  }),
  get: endpoint({
    method: "GET",
    path: "/databases/engines/{engineId*}",
    source: "databases-api.md",
    ...open,
    summary: "View a database engine",
    answer: databaseEngine,
  }),
};

/** The real API's database types, beyond databases-api.md (recorded: TestDatabase_Type), open as the engines are. */
export const databaseTypesApi = {
  list: endpoint({
    method: "GET",
    path: "/databases/types",
    source: "recorded",
    ...open,
    summary: "List the types a database cluster's nodes can be, with the price of a cluster of each size",
    query: pageQuery,
    answer: page(databaseType),
  }),
  get: endpoint({
    method: "GET",
    path: "/databases/types/{typeId}",
    source: "recorded",
    ...open,
    summary: "View a database type",
    answer: databaseType,
  }),
};

export type Price = z.output<typeof price>;
export type InstanceType = z.output<typeof instanceType>;
export type Kernel = z.output<typeof kernel>;
export type Region = z.output<typeof region>;
export type RegionAvailability = z.output<typeof regionAvailability>;
export type DatabaseEngine = z.output<typeof databaseEngine>;
export type DatabaseType = z.output<typeof databaseType>;
