// Generated from provider/functions/reference.ts by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { afterDependencies, checkFieldNames, runFunction, type ReadOptions, type ReadOutputOptions } from "./invoke";
import type { Filter, Inputs, ImageInfo, InstanceType, Kernel, Price, Profile, ProfileGrants, Region } from "./lookups";

export type { ReadOptions, ReadOutputOptions };

/** How a function with an array form was called: `()` or `(opts)` (a first argument that names none of its arguments) is the array form, `(args, opts)` the form of every lookup. */
function callForm<A, O>(names: string[], a: unknown[]): { args: A; opts: O | undefined; arrayForm: boolean } {
  const first = a[0] as Record<string, unknown> | undefined;
  const arrayForm = a.length < 2 && !names.some((n) => first?.[n] !== undefined);
  return arrayForm ? { args: {} as A, opts: first as O | undefined, arrayForm } : { args: (first ?? {}) as A, opts: a[1] as O | undefined, arrayForm };
}
/** Runs a list function: `{ <key>: [...] }`, or in the array form the list as an array that also holds `<key>` (not enumerable: the array's own keys stay its indexes). */
async function runList(name: string, key: string, args: Record<string, unknown>, opts: ReadOptions | undefined, arrayForm: boolean): Promise<unknown> {
  const r = await runFunction(name, args, opts);
  if (!arrayForm) return r;
  const list = r[key] as unknown[];
  return Object.defineProperty([...list], key, { value: list, enumerable: false });
}

export interface GetRegionsArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, country, capabilities, status, siteType. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetRegionsResult {
  regions: Region[];
}
/** What `getRegions()` and `getRegions(opts)` return: the array form of the release before filters (an array of the items), which also holds `regions`. */
export type GetRegionsArray = Region[] & GetRegionsResult;
/** Every region, with its capabilities (for example `Metadata`) and status. Every page is read. Without arguments, the result is an array that also holds `regions`: read `.regions` (reading it as an array is the deprecated form of the release before filters). */
export function getRegions(opts?: undefined): Promise<GetRegionsArray>;
/** @deprecated The array form of the release before filters: call `getRegions({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.regions`. The array still holds `regions` too. */
export function getRegions(opts: ReadOptions | undefined): Promise<GetRegionsArray>;
/** Every region, with its capabilities (for example `Metadata`) and status. Every page is read; filters and order apply on the client. Returns `{ regions }`. */
export function getRegions(args: GetRegionsArgs | undefined, opts?: ReadOptions): Promise<GetRegionsResult>;
export function getRegions(...a: unknown[]): Promise<GetRegionsResult | GetRegionsArray> {
  const c = callForm<GetRegionsArgs, ReadOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getRegions", { ...c.args });
  return runList("getRegions", "regions", { ...c.args }, c.opts, c.arrayForm) as Promise<GetRegionsResult | GetRegionsArray>;
}
/** Every region, with its capabilities (for example `Metadata`) and status. The Output form, without arguments: an array that also holds `regions` (read `.regions`). */
export function getRegionsOutput(opts?: undefined): pulumi.Output<GetRegionsArray>;
/** @deprecated The array form of the release before filters: call `getRegionsOutput({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.regions`. The array still holds `regions` too. */
export function getRegionsOutput(opts: ReadOutputOptions | undefined): pulumi.Output<GetRegionsArray>;
/** Every region, with its capabilities (for example `Metadata`) and status. The Output form: takes Outputs (of other resources) and returns an Output of `{ regions }`. */
export function getRegionsOutput(args: Inputs<GetRegionsArgs> | undefined, opts?: ReadOutputOptions): pulumi.Output<GetRegionsResult>;
export function getRegionsOutput(...a: unknown[]): pulumi.Output<GetRegionsResult | GetRegionsArray> {
  const c = callForm<Inputs<GetRegionsArgs>, ReadOutputOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getRegions", { ...c.args });
  return pulumi
    .all([pulumi.output(c.args), afterDependencies(c.opts)])
    .apply(([x]) => runList("getRegions", "regions", { ...x }, c.opts, c.arrayForm) as Promise<GetRegionsResult | GetRegionsArray>);
}

/** One region, by id. */
export async function getRegion(id: string, opts?: ReadOptions): Promise<Region> {
  return (await runFunction("getRegion", { id }, opts)) as unknown as Region;
}
/** One region, by id. The Output form: takes the id as an Output. */
export function getRegionOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<Region> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getRegion(i, opts));
}

export interface GetTypesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, class, disk, memory, vcpus, gpus, networkOut, transfer, successor. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetTypesResult {
  types: InstanceType[];
}
/** What `getTypes()` and `getTypes(opts)` return: the array form of the release before filters (an array of the items), which also holds `types`. */
export type GetTypesArray = InstanceType[] & GetTypesResult;
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). Every page is read. Without arguments, the result is an array that also holds `types`: read `.types` (reading it as an array is the deprecated form of the release before filters). */
export function getTypes(opts?: undefined): Promise<GetTypesArray>;
/** @deprecated The array form of the release before filters: call `getTypes({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.types`. The array still holds `types` too. */
export function getTypes(opts: ReadOptions | undefined): Promise<GetTypesArray>;
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). Every page is read; filters and order apply on the client. Returns `{ types }`. */
export function getTypes(args: GetTypesArgs | undefined, opts?: ReadOptions): Promise<GetTypesResult>;
export function getTypes(...a: unknown[]): Promise<GetTypesResult | GetTypesArray> {
  const c = callForm<GetTypesArgs, ReadOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getTypes", { ...c.args });
  return runList("getTypes", "types", { ...c.args }, c.opts, c.arrayForm) as Promise<GetTypesResult | GetTypesArray>;
}
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). The Output form, without arguments: an array that also holds `types` (read `.types`). */
export function getTypesOutput(opts?: undefined): pulumi.Output<GetTypesArray>;
/** @deprecated The array form of the release before filters: call `getTypesOutput({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.types`. The array still holds `types` too. */
export function getTypesOutput(opts: ReadOutputOptions | undefined): pulumi.Output<GetTypesArray>;
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). The Output form: takes Outputs (of other resources) and returns an Output of `{ types }`. */
export function getTypesOutput(args: Inputs<GetTypesArgs> | undefined, opts?: ReadOutputOptions): pulumi.Output<GetTypesResult>;
export function getTypesOutput(...a: unknown[]): pulumi.Output<GetTypesResult | GetTypesArray> {
  const c = callForm<Inputs<GetTypesArgs>, ReadOutputOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getTypes", { ...c.args });
  return pulumi
    .all([pulumi.output(c.args), afterDependencies(c.opts)])
    .apply(([x]) => runList("getTypes", "types", { ...x }, c.opts, c.arrayForm) as Promise<GetTypesResult | GetTypesArray>);
}

/** One instance type, by id. */
export async function getType(id: string, opts?: ReadOptions): Promise<InstanceType> {
  return (await runFunction("getType", { id }, opts)) as unknown as InstanceType;
}
/** One instance type, by id. The Output form: takes the id as an Output. */
export function getTypeOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<InstanceType> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getType(i, opts));
}

export interface GetKernelsArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, version, architecture, built, deprecated, kvm, pvops. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetKernelsResult {
  kernels: Kernel[];
}
/** What `getKernels()` and `getKernels(opts)` return: the array form of the release before filters (an array of the items), which also holds `kernels`. */
export type GetKernelsArray = Kernel[] & GetKernelsResult;
/** Every kernel. Every page is read. Without arguments, the result is an array that also holds `kernels`: read `.kernels` (reading it as an array is the deprecated form of the release before filters). */
export function getKernels(opts?: undefined): Promise<GetKernelsArray>;
/** @deprecated The array form of the release before filters: call `getKernels({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.kernels`. The array still holds `kernels` too. */
export function getKernels(opts: ReadOptions | undefined): Promise<GetKernelsArray>;
/** Every kernel. Every page is read; filters and order apply on the client. Returns `{ kernels }`. */
export function getKernels(args: GetKernelsArgs | undefined, opts?: ReadOptions): Promise<GetKernelsResult>;
export function getKernels(...a: unknown[]): Promise<GetKernelsResult | GetKernelsArray> {
  const c = callForm<GetKernelsArgs, ReadOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getKernels", { ...c.args });
  return runList("getKernels", "kernels", { ...c.args }, c.opts, c.arrayForm) as Promise<GetKernelsResult | GetKernelsArray>;
}
/** Every kernel. The Output form, without arguments: an array that also holds `kernels` (read `.kernels`). */
export function getKernelsOutput(opts?: undefined): pulumi.Output<GetKernelsArray>;
/** @deprecated The array form of the release before filters: call `getKernelsOutput({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.kernels`. The array still holds `kernels` too. */
export function getKernelsOutput(opts: ReadOutputOptions | undefined): pulumi.Output<GetKernelsArray>;
/** Every kernel. The Output form: takes Outputs (of other resources) and returns an Output of `{ kernels }`. */
export function getKernelsOutput(args: Inputs<GetKernelsArgs> | undefined, opts?: ReadOutputOptions): pulumi.Output<GetKernelsResult>;
export function getKernelsOutput(...a: unknown[]): pulumi.Output<GetKernelsResult | GetKernelsArray> {
  const c = callForm<Inputs<GetKernelsArgs>, ReadOutputOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getKernels", { ...c.args });
  return pulumi
    .all([pulumi.output(c.args), afterDependencies(c.opts)])
    .apply(([x]) => runList("getKernels", "kernels", { ...x }, c.opts, c.arrayForm) as Promise<GetKernelsResult | GetKernelsArray>);
}

/** One kernel, by id (ids hold a slash). */
export async function getKernel(id: string, opts?: ReadOptions): Promise<Kernel> {
  return (await runFunction("getKernel", { id }, opts)) as unknown as Kernel;
}
/** One kernel, by id (ids hold a slash). The Output form: takes the id as an Output. */
export function getKernelOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<Kernel> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getKernel(i, opts));
}

export interface GetImagesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, description, capabilities, created, updated, createdBy, deprecated, eol, expiry, isPublic, size, status, type, vendor, tags. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetImagesResult {
  images: ImageInfo[];
}
/** What `getImages()` and `getImages(opts)` return: the array form of the release before filters (an array of the items), which also holds `images`. */
export type GetImagesArray = ImageInfo[] & GetImagesResult;
/** Public images, and private ones too when a token is set. The newest public image of a vendor: filters on `vendor` and `isPublic`, `orderBy: created`, `order: desc`, the first item. Every page is read. Without arguments, the result is an array that also holds `images`: read `.images` (reading it as an array is the deprecated form of the release before filters). */
export function getImages(opts?: undefined): Promise<GetImagesArray>;
/** @deprecated The array form of the release before filters: call `getImages({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.images`. The array still holds `images` too. */
export function getImages(opts: ReadOptions | undefined): Promise<GetImagesArray>;
/** Public images, and private ones too when a token is set. The newest public image of a vendor: filters on `vendor` and `isPublic`, `orderBy: created`, `order: desc`, the first item. Every page is read; filters and order apply on the client. Returns `{ images }`. */
export function getImages(args: GetImagesArgs | undefined, opts?: ReadOptions): Promise<GetImagesResult>;
export function getImages(...a: unknown[]): Promise<GetImagesResult | GetImagesArray> {
  const c = callForm<GetImagesArgs, ReadOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getImages", { ...c.args });
  return runList("getImages", "images", { ...c.args }, c.opts, c.arrayForm) as Promise<GetImagesResult | GetImagesArray>;
}
/** Public images, and private ones too when a token is set. The newest public image of a vendor: filters on `vendor` and `isPublic`, `orderBy: created`, `order: desc`, the first item. The Output form, without arguments: an array that also holds `images` (read `.images`). */
export function getImagesOutput(opts?: undefined): pulumi.Output<GetImagesArray>;
/** @deprecated The array form of the release before filters: call `getImagesOutput({}, opts)` (or with `filters`, `orderBy`, `order`) and read `.images`. The array still holds `images` too. */
export function getImagesOutput(opts: ReadOutputOptions | undefined): pulumi.Output<GetImagesArray>;
/** Public images, and private ones too when a token is set. The newest public image of a vendor: filters on `vendor` and `isPublic`, `orderBy: created`, `order: desc`, the first item. The Output form: takes Outputs (of other resources) and returns an Output of `{ images }`. */
export function getImagesOutput(args: Inputs<GetImagesArgs> | undefined, opts?: ReadOutputOptions): pulumi.Output<GetImagesResult>;
export function getImagesOutput(...a: unknown[]): pulumi.Output<GetImagesResult | GetImagesArray> {
  const c = callForm<Inputs<GetImagesArgs>, ReadOutputOptions>(["filters", "orderBy", "order"], a);
  checkFieldNames("getImages", { ...c.args });
  return pulumi
    .all([pulumi.output(c.args), afterDependencies(c.opts)])
    .apply(([x]) => runList("getImages", "images", { ...x }, c.opts, c.arrayForm) as Promise<GetImagesResult | GetImagesArray>);
}

/** One image, by id (ids hold a slash). */
export async function getImage(id: string, opts?: ReadOptions): Promise<ImageInfo> {
  return (await runFunction("getImage", { id }, opts)) as unknown as ImageInfo;
}
/** One image, by id (ids hold a slash). The Output form: takes the id as an Output. */
export function getImageOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<ImageInfo> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getImage(i, opts));
}

/** The profile of the user the provider's token acts for (`/profile`). */
export async function getProfile(opts?: ReadOptions): Promise<Profile> {
  return (await runFunction("getProfile", {}, opts)) as unknown as Profile;
}
/** The profile of the user the provider's token acts for (`/profile`). The Output form. */
export function getProfileOutput(opts?: ReadOutputOptions): pulumi.Output<Profile> {
  return afterDependencies(opts).apply(() => getProfile(opts));
}

/** What the user the provider's token acts for may do (`/profile/grants`): whether it is restricted, its account-wide grants (`global`: may it add instances, VPCs, databases...) and its grants on each entity. */
export async function getProfileGrants(opts?: ReadOptions): Promise<ProfileGrants> {
  return (await runFunction("getProfileGrants", {}, opts)) as unknown as ProfileGrants;
}
/** What the user the provider's token acts for may do (`/profile/grants`): whether it is restricted, its account-wide grants (`global`: may it add instances, VPCs, databases...) and its grants on each entity. The Output form. */
export function getProfileGrantsOutput(opts?: ReadOutputOptions): pulumi.Output<ProfileGrants> {
  return afterDependencies(opts).apply(() => getProfileGrants(opts));
}

export interface GetPriceArgs {
  /** The type's id, e.g. `c1-standard-2`. */
  type: string;
  /** The region's id, e.g. `us-east`. */
  region: string;
  /** An instance with the backup service (its add-on's price added). */
  backupsEnabled?: boolean;
  /** A database cluster of this engine (`mysql` or `postgresql`), priced by `/databases/types`, not an instance. */
  engine?: "mysql" | "postgresql";
  /** The cluster's nodes (with `engine`); 1 unless given. */
  clusterSize?: number;
}
/** What a resource of a type costs, from the API's catalogue, as the resources' `hourlyPrice` and `monthlyPrice` outputs give it: an instance of `type` in `region` (the region's own price where the catalogue gives one), with the backups add-on when `backupsEnabled`; with `engine`, a database cluster of `clusterSize` nodes of `type`. */
export async function getPrice(args: GetPriceArgs, opts?: ReadOptions): Promise<Price> {
  return (await runFunction("getPrice", { ...args }, opts)) as unknown as Price;
}
/** What a resource of a type costs, from the API's catalogue, as the resources' `hourlyPrice` and `monthlyPrice` outputs give it: an instance of `type` in `region` (the region's own price where the catalogue gives one), with the backups add-on when `backupsEnabled`; with `engine`, a database cluster of `clusterSize` nodes of `type`. The Output form. */
export function getPriceOutput(args: Inputs<GetPriceArgs>, opts?: ReadOutputOptions): pulumi.Output<Price> {
  return pulumi.all([pulumi.output(args), afterDependencies(opts)]).apply(([a]) => getPrice(a as GetPriceArgs, opts));
}
