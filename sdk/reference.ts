// Generated from provider/reference.ts by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { afterDependencies, runFunction, type ReadOptions, type ReadOutputOptions } from "./invoke";
import type { ImageInfo, InstanceType, Kernel, Profile, Region } from "./lookups";

export type { ReadOptions, ReadOutputOptions };

/** Every region, with its capabilities (for example `Metadata`) and status. */
export async function getRegions(opts?: ReadOptions): Promise<Region[]> {
  return ((await runFunction("getRegions", {}, opts)) as Record<string, Region[]>).regions;
}
/** Every region, with its capabilities (for example `Metadata`) and status. The Output form. */
export function getRegionsOutput(opts?: ReadOutputOptions): pulumi.Output<Region[]> {
  return afterDependencies(opts).apply(() => getRegions(opts));
}

/** One region, by id. */
export async function getRegion(id: string, opts?: ReadOptions): Promise<Region> {
  return (await runFunction("getRegion", { id }, opts)) as unknown as Region;
}
/** One region, by id. The Output form: takes the id as an Output. */
export function getRegionOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<Region> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getRegion(i, opts));
}

/** Every instance type, with prices and the type a mutate upgrades to (`successor`). */
export async function getTypes(opts?: ReadOptions): Promise<InstanceType[]> {
  return ((await runFunction("getTypes", {}, opts)) as Record<string, InstanceType[]>).types;
}
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). The Output form. */
export function getTypesOutput(opts?: ReadOutputOptions): pulumi.Output<InstanceType[]> {
  return afterDependencies(opts).apply(() => getTypes(opts));
}

/** One instance type, by id. */
export async function getType(id: string, opts?: ReadOptions): Promise<InstanceType> {
  return (await runFunction("getType", { id }, opts)) as unknown as InstanceType;
}
/** One instance type, by id. The Output form: takes the id as an Output. */
export function getTypeOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<InstanceType> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getType(i, opts));
}

/** Every kernel. */
export async function getKernels(opts?: ReadOptions): Promise<Kernel[]> {
  return ((await runFunction("getKernels", {}, opts)) as Record<string, Kernel[]>).kernels;
}
/** Every kernel. The Output form. */
export function getKernelsOutput(opts?: ReadOutputOptions): pulumi.Output<Kernel[]> {
  return afterDependencies(opts).apply(() => getKernels(opts));
}

/** One kernel, by id (ids hold a slash). */
export async function getKernel(id: string, opts?: ReadOptions): Promise<Kernel> {
  return (await runFunction("getKernel", { id }, opts)) as unknown as Kernel;
}
/** One kernel, by id (ids hold a slash). The Output form: takes the id as an Output. */
export function getKernelOutput(id: pulumi.Input<string>, opts?: ReadOutputOptions): pulumi.Output<Kernel> {
  return pulumi.all([pulumi.output(id), afterDependencies(opts)]).apply(([i]) => getKernel(i, opts));
}

/** Public images, and private ones too when a token is set. */
export async function getImages(opts?: ReadOptions): Promise<ImageInfo[]> {
  return ((await runFunction("getImages", {}, opts)) as Record<string, ImageInfo[]>).images;
}
/** Public images, and private ones too when a token is set. The Output form. */
export function getImagesOutput(opts?: ReadOutputOptions): pulumi.Output<ImageInfo[]> {
  return afterDependencies(opts).apply(() => getImages(opts));
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
