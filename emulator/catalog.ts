import catalogJson from "./data/catalog.json";

/** The reference data: one data file, `emulator/data/catalog.json`. */
export interface Catalog {
  regions: Array<{ id: string; label: string; country: string; capabilities: string[]; status: "ok" | "outage"; resolvers: { ipv4: string; ipv6: string } }>;
  types: Array<{
    id: string;
    label: string;
    class: string;
    disk: number;
    memory: number;
    vcpus: number;
    gpus: number;
    network_out: number;
    transfer: number;
    price: { hourly: number; monthly: number };
    region_prices: unknown[];
    addons: unknown;
    successor: string | null;
  }>;
  kernels: Array<{ id: string; label: string; version: string; architecture: string; built: string; deprecated: boolean; kvm: boolean; pvops: boolean }>;
  images: Array<Record<string, unknown> & { id: string; label: string; capabilities: string[]; size: number; status: string; vendor: string | null }>;
  scripts: Array<{ id: number; label: string; images: string[]; user_defined_fields: Array<{ name: string; label: string; default?: string }> }>;
  engines: Array<{ id: string; engine: "mysql" | "postgresql"; version: string; total_disk_size_gb: number; used_disk_size_gb: number }>;
}

export const catalog = catalogJson as Catalog;
