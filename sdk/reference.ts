// Generated from provider/reference.ts by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { runFunction, type ReadOptions } from "./invoke";
import type { ImageInfo, InstanceType, Kernel, Profile, Region } from "./lookups";

export type { ReadOptions };

/** Every region, with its capabilities (for example `Metadata`) and status. */
export async function getRegions(opts?: ReadOptions): Promise<Region[]> {
  return ((await runFunction("getRegions", {}, opts)) as Record<string, Region[]>).regions;
}
/** Every region, with its capabilities (for example `Metadata`) and status. The Output form. */
export function getRegionsOutput(opts?: ReadOptions): pulumi.Output<Region[]> {
  return pulumi.output(getRegions(opts));
}

/** One region, by id. */
export async function getRegion(id: string, opts?: ReadOptions): Promise<Region> {
  return (await runFunction("getRegion", { id }, opts)) as unknown as Region;
}
/** One region, by id. The Output form: takes the id as an Output. */
export function getRegionOutput(id: pulumi.Input<string>, opts?: ReadOptions): pulumi.Output<Region> {
  return pulumi.output(id).apply((i) => getRegion(i, opts));
}

/** Every instance type, with prices and the type a mutate upgrades to (`successor`). */
export async function getTypes(opts?: ReadOptions): Promise<InstanceType[]> {
  return ((await runFunction("getTypes", {}, opts)) as Record<string, InstanceType[]>).types;
}
/** Every instance type, with prices and the type a mutate upgrades to (`successor`). The Output form. */
export function getTypesOutput(opts?: ReadOptions): pulumi.Output<InstanceType[]> {
  return pulumi.output(getTypes(opts));
}

/** One instance type, by id. */
export async function getType(id: string, opts?: ReadOptions): Promise<InstanceType> {
  return (await runFunction("getType", { id }, opts)) as unknown as InstanceType;
}
/** One instance type, by id. The Output form: takes the id as an Output. */
export function getTypeOutput(id: pulumi.Input<string>, opts?: ReadOptions): pulumi.Output<InstanceType> {
  return pulumi.output(id).apply((i) => getType(i, opts));
}

/** Every kernel. */
export async function getKernels(opts?: ReadOptions): Promise<Kernel[]> {
  return ((await runFunction("getKernels", {}, opts)) as Record<string, Kernel[]>).kernels;
}
/** Every kernel. The Output form. */
export function getKernelsOutput(opts?: ReadOptions): pulumi.Output<Kernel[]> {
  return pulumi.output(getKernels(opts));
}

/** One kernel, by id (ids hold a slash). */
export async function getKernel(id: string, opts?: ReadOptions): Promise<Kernel> {
  return (await runFunction("getKernel", { id }, opts)) as unknown as Kernel;
}
/** One kernel, by id (ids hold a slash). The Output form: takes the id as an Output. */
export function getKernelOutput(id: pulumi.Input<string>, opts?: ReadOptions): pulumi.Output<Kernel> {
  return pulumi.output(id).apply((i) => getKernel(i, opts));
}

/** Public images, and private ones too when a token is set. */
export async function getImages(opts?: ReadOptions): Promise<ImageInfo[]> {
  return ((await runFunction("getImages", {}, opts)) as Record<string, ImageInfo[]>).images;
}
/** Public images, and private ones too when a token is set. The Output form. */
export function getImagesOutput(opts?: ReadOptions): pulumi.Output<ImageInfo[]> {
  return pulumi.output(getImages(opts));
}

/** One image, by id (ids hold a slash). */
export async function getImage(id: string, opts?: ReadOptions): Promise<ImageInfo> {
  return (await runFunction("getImage", { id }, opts)) as unknown as ImageInfo;
}
/** One image, by id (ids hold a slash). The Output form: takes the id as an Output. */
export function getImageOutput(id: pulumi.Input<string>, opts?: ReadOptions): pulumi.Output<ImageInfo> {
  return pulumi.output(id).apply((i) => getImage(i, opts));
}

/** The profile of the user the provider's token acts for (`/profile`). */
export async function getProfile(opts?: ReadOptions): Promise<Profile> {
  return (await runFunction("getProfile", {}, opts)) as unknown as Profile;
}
/** The profile of the user the provider's token acts for (`/profile`). The Output form. */
export function getProfileOutput(opts?: ReadOptions): pulumi.Output<Profile> {
  return pulumi.output(getProfile(opts));
}
