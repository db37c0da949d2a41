import * as pulumi from "@pulumi/pulumi";

/**
 * Where to read from, as the resources do: the stack's `compute:apiUrl` and `compute:token`, then the
 * COMPUTE_API_URL and COMPUTE_TOKEN environment variables, unless given here.
 */
export interface ReadOptions {
  apiUrl?: string;
  /** Only needed to see private images. Regions, types and kernels need none. */
  token?: string;
}

export interface Region {
  id: string;
  label: string;
  country: string;
  capabilities: string[];
  status: "ok" | "outage";
  resolvers: { ipv4: string; ipv6: string };
}
export interface Price {
  hourly: number;
  monthly: number;
}
export interface InstanceType {
  id: string;
  label: string;
  class: "nanode" | "standard" | "dedicated" | "premium" | "gpu" | "highmem";
  disk: number;
  memory: number;
  vcpus: number;
  gpus: number;
  networkOut: number;
  transfer: number;
  price: Price;
  regionPrices: Array<Price & { id: string }>;
  addons: { backups: { price: Price; regionPrices: Array<Price & { id: string }> } };
  successor: string | null;
}
export interface Kernel {
  id: string;
  label: string;
  version: string;
  architecture: "x86_64" | "i386";
  built: string;
  deprecated: boolean;
  kvm: boolean;
  pvops: boolean;
}
export interface ImageInfo {
  id: string;
  label: string;
  description: string | null;
  capabilities: string[];
  created: string;
  updated: string;
  createdBy: string;
  deprecated: boolean;
  eol: string | null;
  expiry: string | null;
  isPublic: boolean;
  size: number;
  status: "creating" | "pending_upload" | "available";
  type: "manual" | "automatic";
  vendor: string | null;
}

function client(opts: ReadOptions = {}) {
  // Loaded when called, like the provider: the program process needs no client until it reads.
  const { ApiClient } = require("../provider/client") as typeof import("../provider/client");
  const config = new pulumi.Config("compute");
  const apiUrl = opts.apiUrl ?? config.get("apiUrl") ?? process.env.COMPUTE_API_URL;
  if (!apiUrl) throw new Error("No API URL is set: run `pulumi config set compute:apiUrl <url ending in /v4>` or set COMPUTE_API_URL");
  // The token is a secret in the stack's config: read here as a plain value, it is only ever sent to the API.
  return new ApiClient({ baseUrl: apiUrl, token: opts.token ?? config.get("token") ?? process.env.COMPUTE_TOKEN ?? "" });
}

/** Runs a read function of provider/functions.ts: the one implementation the plugin's Invoke runs too. */
export async function runFunction(name: string, args: Record<string, unknown>, opts?: ReadOptions): Promise<Record<string, unknown>> {
  const { invoke } = require("../provider/functions") as typeof import("../provider/functions");
  return invoke(client(opts), name, args);
}
/** Fails at once on a filter or order field that the function's items do not have (plain values only). */
export function checkFieldNames(name: string, args: Record<string, unknown>): void {
  const { checkFieldNames: check } = require("../provider/functions") as typeof import("../provider/functions");
  check(name, args);
}
const run = async <T>(name: string, args: Record<string, unknown>, opts?: ReadOptions): Promise<T> => (await runFunction(name, args, opts)) as T;
const all = async <T>(name: string, key: string, opts?: ReadOptions): Promise<T[]> => (await run<Record<string, T[]>>(name, {}, opts))[key];
const one = <T>(name: string, id: string, opts?: ReadOptions): Promise<T> => run<T>(name, { id }, opts);

/** Every region, with its capabilities (for example `Metadata`) and status. */
export const getRegions = (opts?: ReadOptions) => all<Region>("getRegions", "regions", opts);
export const getRegion = (id: string, opts?: ReadOptions) => one<Region>("getRegion", id, opts);
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). */
export const getTypes = (opts?: ReadOptions) => all<InstanceType>("getTypes", "types", opts);
export const getType = (id: string, opts?: ReadOptions) => one<InstanceType>("getType", id, opts);
export const getKernels = (opts?: ReadOptions) => all<Kernel>("getKernels", "kernels", opts);
export const getKernel = (id: string, opts?: ReadOptions) => one<Kernel>("getKernel", id, opts);
/** Public images, and private ones too when a token is available. */
export const getImages = (opts?: ReadOptions) => all<ImageInfo>("getImages", "images", opts);
export const getImage = (id: string, opts?: ReadOptions) => one<ImageInfo>("getImage", id, opts);

/** The Output forms of the reference functions (Pulumi's convention): an Output of the same result. */
export const getRegionsOutput = (opts?: ReadOptions) => pulumi.output(getRegions(opts));
export const getRegionOutput = (id: pulumi.Input<string>, opts?: ReadOptions) => pulumi.output(id).apply((i) => getRegion(i, opts));
export const getTypesOutput = (opts?: ReadOptions) => pulumi.output(getTypes(opts));
export const getTypeOutput = (id: pulumi.Input<string>, opts?: ReadOptions) => pulumi.output(id).apply((i) => getType(i, opts));
export const getKernelsOutput = (opts?: ReadOptions) => pulumi.output(getKernels(opts));
export const getKernelOutput = (id: pulumi.Input<string>, opts?: ReadOptions) => pulumi.output(id).apply((i) => getKernel(i, opts));
export const getImagesOutput = (opts?: ReadOptions) => pulumi.output(getImages(opts));
export const getImageOutput = (id: pulumi.Input<string>, opts?: ReadOptions) => pulumi.output(id).apply((i) => getImage(i, opts));
