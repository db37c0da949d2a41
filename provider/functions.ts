import { z } from "zod";
import type { ApiClient } from "./client";
import { camel, convertKeys, type Field } from "./resource";

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

export const functionSpecs: FunctionSpec[] = [
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
  if (spec.listKey) return { [spec.listKey]: convertKeys(await c.list(spec.path(args)), camel) };
  const r = await c.get(spec.path(args), true);
  if (r === undefined) throw new Error(`${spec.what!(args)} not found`);
  return convertKeys(r, camel) as Record<string, unknown>;
}
