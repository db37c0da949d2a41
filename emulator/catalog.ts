import catalogJson from "./data/catalog.json";

/**
 * The reference data: one data file, `emulator/data/catalog.json`. It holds the real API's lists as recorded
 * in linode/linodego's cassettes (renamed: `compute/...` ids, `Computes` capabilities, `Compute 2GB` labels)
 * beside the emulator's own entries (`c1-*` types and the kernels and engines the tests use); an id both
 * have is one entry (docs/spec-gaps.md, "The catalogue").
 */
/** A price, as the API gives it. */
export interface Price {
  hourly: number;
  monthly: number;
}

/** An instance type (a plan), as `GET /compute/types` lists it. */
export interface CatalogType {
  id: string;
  label: string;
  class: string;
  disk: number;
  memory: number;
  vcpus: number;
  gpus: number;
  network_out: number;
  transfer: number;
  price: Price;
  region_prices: unknown[];
  addons: unknown;
  successor: string | null;
}

export interface Catalog {
  regions: Array<{
    id: string;
    label: string;
    country: string;
    site_type: string;
    capabilities: string[];
    status: "ok" | "outage";
    resolvers: { ipv4: string; ipv6: string };
  }>;
  types: CatalogType[];
  kernels: Array<{ id: string; label: string; version: string; architecture: string; built: string; deprecated: boolean; kvm: boolean; pvops: boolean }>;
  images: Array<Record<string, unknown> & { id: string; label: string; capabilities: string[]; size: number; status: string; vendor: string | null }>;
  scripts: Array<{ id: number; label: string; images: string[]; user_defined_fields: Array<{ name: string; label: string; default?: string }> }>;
  engines: Array<{ id: string; engine: "mysql" | "postgresql"; version: string; total_disk_size_gb: number; used_disk_size_gb: number }>;
  /**
   * The types a database cluster's nodes can be, with the price of a cluster of each size per engine: the real
   * API's `GET /databases/types`, as recorded (TestDatabase_Type; not in databases-api.md: docs/spec-gaps.md).
   */
  database_types: Array<
    Pick<CatalogType, "id" | "label" | "class" | "disk" | "memory" | "vcpus"> & {
      engines: Record<"mysql" | "postgresql", Array<{ quantity: number; price: Price }>>;
    }
  >;
}

export const catalog = catalogJson as Catalog;
