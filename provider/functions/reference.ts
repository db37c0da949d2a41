import { z } from "zod";
import { API } from "../../api/contract";
import { pathOf } from "../../api/contract/endpoint";
import { DATABASE_ENGINES, DEFAULT_KERNEL, instanceType, kernel, LIMITED_CLASSES, price, region, regionPrice } from "../../api/contract/reference";
import type { ApiClient } from "../transport/client";
import { FILTER_ARGS } from "./filters";
import { either, everyFieldShown, nullableString, out, parentArg, type FunctionSpec, type ItemType } from "./function-table";
import { PROFILE_ITEMS, profileFunctions } from "./profile";
import type { Field, Props } from "../model/table";
import { obj, ref, type FunctionExample, type Value } from "../model/example";

/**
 * The read functions that are not a resource's lookup: the reference data (regions and their plans'
 * availability, types, kernels, images), a VPC's addresses, the database engines and types, the profile and
 * its grants (provider/functions/profile.ts); and the item types they return.
 */
const regionPrices = z.array(regionPrice);
const Region: ItemType = {
  description: "A region where resources can be made.",
  fields: [
    out("id", "string", "The region's id, e.g. `us-east`."),
    out("label", "string", "Its display name."),
    out("country", "string", "Its country code."),
    { ...out("capabilities", "array", "What it offers, e.g. `Metadata`, `VPCs`."), itemType: "string" },
    out("status", "string", `${either(region.shape.status.options)}.`, region.shape.status),
    out("resolvers", "object", "Its DNS resolvers (`ipv4`, `ipv6`).", region.shape.resolvers),
    out("siteType", "string", "`core` or `distributed` (the real API's field; the spec's table does not list it)."),
  ],
};
const InstanceType: ItemType = {
  description: "An instance type, with its sizes and prices.",
  fields: [
    out("id", "string", "The type's id, e.g. `c1-standard-2`."),
    out("label", "string", "Its display name."),
    out("class", "string", `${either(instanceType.shape.class.options)}.`, instanceType.shape.class),
    out("disk", "integer", "Disk size in MB."),
    out("memory", "integer", "Memory in MB."),
    out("vcpus", "integer", "Virtual CPUs."),
    out("gpus", "integer", "GPUs."),
    out("networkOut", "integer", "Outbound bandwidth in Mbit/s."),
    out("transfer", "integer", "Monthly transfer in GB."),
    out("price", "object", "`hourly` and `monthly` prices.", price),
    { ...out("regionPrices", "array", "Prices that differ by region (`id`, `hourly`, `monthly`).", regionPrices), itemType: "object" },
    out("addons", "object", "Add-on prices (`backups`).", z.object({ backups: z.object({ price, regionPrices }) })),
    out("successor", "string", "The type a mutate upgrades to, or null.", nullableString),
  ],
};
const Kernel: ItemType = {
  description: "A kernel an instance config can boot.",
  fields: [
    out("id", "string", `The kernel's id, e.g. \`${DEFAULT_KERNEL}\`.`),
    out("label", "string", "Its display name."),
    out("version", "string", "Its version."),
    out("architecture", "string", `${either(kernel.shape.architecture.options)}.`, kernel.shape.architecture),
    out("built", "string", "When it was built."),
    out("deprecated", "boolean", "Whether it is deprecated."),
    out("kvm", "boolean", "Whether it supports KVM."),
    out("pvops", "boolean", "Whether it supports paravirtualization."),
  ],
};
const ImageInfo: ItemType = {
  description: "A public image, or a private one of the token's account.",
  fields: [
    out("id", "string", "The image's id, e.g. `compute/debian12` or `private/12`."),
    out("label", "string", "Its display name."),
    out("description", "string", "Its description, or null.", nullableString),
    { ...out("capabilities", "array", "What it supports, e.g. `cloud-init`."), itemType: "string" },
    out("created", "string", "When it was made."),
    out("updated", "string", "When it last changed."),
    out("createdBy", "string", "`compute` for public images, else the user."),
    out("deprecated", "boolean", "Whether it is deprecated."),
    out("eol", "string", "End of life, or null.", nullableString),
    out("expiry", "string", "When it expires, or null.", nullableString),
    out("isPublic", "boolean", "Whether it is public."),
    out("size", "integer", "Size in MB."),
    out("status", "string", "`creating`, `pending_upload` or `available`.", z.enum(["creating", "pending_upload", "available"])),
    out("type", "string", "`manual` or `automatic`.", z.enum(["manual", "automatic"])),
    out("vendor", "string", "The vendor, or null.", nullableString),
    { ...out("tags", "array", "Its tags (the real API's field; the spec's table does not list it)."), itemType: "string" },
  ],
};

const RegionAvailability: ItemType = {
  description: `Whether a plan (an instance type of the ${LIMITED_CLASSES.join(" or ")} class) can be bought in a region now.`,
  fields: [
    out("region", "string", "The region's id."),
    out("plan", "string", "The instance type's id, e.g. `c1-premium-4`."),
    out("available", "boolean", "Whether the plan can be bought in the region now."),
  ],
};

const VpcIp: ItemType = {
  description: "An address of a VPC: an interface's address (or range) in a subnet.",
  fields: [
    out("address", "string", "The IPv4 address, or null for a range.", nullableString),
    out("addressRange", "string", "The range (for an interface's `ipRanges`), or null.", nullableString),
    out("vpcId", "integer", "The VPC."),
    out("subnetId", "integer", "The subnet."),
    out("region", "string", "The VPC's region."),
    out("computeId", "integer", "The instance."),
    out("configId", "integer", "The instance's profile."),
    out("interfaceId", "integer", "The interface."),
    out("active", "boolean", "Whether the profile is the one booted."),
    out("nat11", "string", "The public 1:1 NAT address, or null.", nullableString),
    out("gateway", "string", "The subnet's gateway."),
    out("prefix", "integer", "The subnet's prefix length."),
    out("subnetMask", "string", "The subnet mask."),
  ],
};
const DatabaseEngine: ItemType = {
  description: "A database engine version a cluster can run.",
  fields: [
    out("id", "string", "`engine/version`, e.g. `mysql/8.0.35`: a database's `engine`."),
    out("engine", "string", `${either(DATABASE_ENGINES)}.`),
    out("version", "string", "The version."),
    out("totalDiskSizeGb", "integer", "Total disk size (GB)."),
    out("usedDiskSizeGb", "integer", "Used disk size (GB)."),
  ],
};

/**
 * The object types the reference functions return, by name. The API shows every field of the reference data's
 * items and of the profile (required in the types); of the grants, every one but `firewall`.
 */
export const REFERENCE_ITEMS: Record<string, ItemType> = {
  Region: everyFieldShown(Region),
  InstanceType: everyFieldShown(InstanceType),
  Kernel: everyFieldShown(Kernel),
  ImageInfo: everyFieldShown(ImageInfo),
  RegionAvailability: everyFieldShown(RegionAvailability),
  VpcIp,
  DatabaseEngine,
  ...PROFILE_ITEMS,
};

const idArg = (what: string): Field => ({ name: "id", kind: "input", required: true, schema: z.string().min(1), description: `The ${what}'s id.` });
/**
 * A list of reference data: filterable as every lookup, and in the TypeScript sdk also in the array form of
 * the release before (`getRegions(opts)`, deprecated).
 */
const list = (name: string, item: string, listKey: string, path: string, description: string, scope: string, example: FunctionExample): FunctionSpec => ({
  name,
  description,
  inputs: [...FILTER_ARGS],
  item,
  listKey,
  path: () => path,
  filterable: true,
  arrayForm: true,
  scope,
  example,
});
const NO_TOKEN = "none (no token needed)";
const single = (name: string, item: string, what: string, path: (id: string) => string, description: string, id: string, scope = NO_TOKEN): FunctionSpec => ({
  name,
  description,
  inputs: [idArg(what)],
  item,
  path: (a) => path(String(a.id)),
  what: (a) => `${what} ${String(a.id)}`,
  scope,
  example: { title: `The ${what} \`${id}\``, args: () => ({ id }) },
});
/** A filter of an example's call. */
const filter = (name: string, ...values: Value[]) => obj("filter", { name, values });

/** One region's availability is a plain array in the API (every region's, a paged envelope); an unknown region is said by name. */
async function availabilityList(c: ApiClient, _path: string, args: Props): Promise<Props[]> {
  if (args.regionId === undefined || args.regionId === null) return c.all(API.regions.availability, {});
  const regionId = String(args.regionId);
  const r = await c.find(API.regions.availabilityOf, { params: { regionId } });
  if (r === undefined) throw new Error(`region ${regionId} not found`);
  return r;
}

/** The functions, in the order of the docs (after the lookups of the resources). */
export const referenceFunctions: FunctionSpec[] = [
  {
    name: "getVpcIps",
    description: "The addresses of a VPC (`vpcId`), or of every VPC of the account when it is left out.",
    inputs: [{ ...parentArg("vpcId", "VPC"), required: false }, ...FILTER_ARGS],
    item: "VpcIp",
    listKey: "ips",
    path: (a) => (a.vpcId === undefined || a.vpcId === null ? "/vpcs/ips" : `/vpcs/${String(a.vpcId)}/ips`),
    filterable: true,
    scope: "`ips:read_only`",
    example: {
      title: "The instance's addresses in its VPC",
      uses: "Instance",
      args: (of) => ({ vpcId: ref(of("Vpc")), filters: [filter("computeId", ref(of("Instance")))] }),
    },
  },
  {
    name: "getDatabaseEngines",
    description: "The engine versions a database cluster can run (its `engine`).",
    inputs: [...FILTER_ARGS],
    item: "DatabaseEngine",
    listKey: "engines",
    path: () => pathOf(API.databaseEngines.list, {}),
    filterable: true,
    scope: NO_TOKEN,
    example: {
      title: "The PostgreSQL versions a cluster can run, newest first",
      args: () => ({ filters: [filter("engine", "postgresql")], orderBy: "version", order: "desc" }),
    },
  },
  {
    name: "getDatabaseTypes",
    description: "The instance types a database cluster's nodes can be (its `type`): the compute types, which the API also uses for clusters.",
    inputs: [...FILTER_ARGS],
    item: "InstanceType",
    listKey: "types",
    path: () => pathOf(API.types.list, {}),
    filterable: true,
    scope: NO_TOKEN,
    example: { title: "The dedicated types with 4 vCPUs", args: () => ({ filters: [filter("class", "dedicated"), filter("vcpus", 4)] }) },
  },
  list("getRegions", "Region", "regions", pathOf(API.regions.list, {}), "Every region, with its capabilities (for example `Metadata`) and status.", NO_TOKEN, {
    title: "The regions in the US that offer VPCs",
    args: () => ({ filters: [filter("country", "us"), filter("capabilities", "VPCs")], orderBy: "id" }),
  }),
  single("getRegion", "Region", "region", (regionId) => pathOf(API.regions.get, { regionId }), "One region, by id.", "us-east"),
  {
    name: "getRegionAvailability",
    description: `Where the plans sold only in some regions (the ${LIMITED_CLASSES.join(" and ")} instance types) can be bought now: an item per region and plan (\`${API.regions.availability.path}\`), or those of the region \`regionId\` only (\`${API.regions.availabilityOf.path}\`, which the API answers with a plain list).`,
    inputs: [
      { name: "regionId", kind: "input", schema: z.string().min(1), description: "Only this region's plans (an unknown region fails, naming it)." },
      ...FILTER_ARGS,
    ],
    item: "RegionAvailability",
    listKey: "availability",
    path: (a) =>
      a.regionId === undefined || a.regionId === null
        ? pathOf(API.regions.availability, {})
        : pathOf(API.regions.availabilityOf, { regionId: String(a.regionId) }),
    filterable: true,
    list: availabilityList,
    scope: NO_TOKEN,
    example: {
      title: "The plans sold only in some regions that `us-east` has now",
      args: () => ({ regionId: "us-east", filters: [filter("available", true)] }),
    },
  },
  list(
    "getTypes",
    "InstanceType",
    "types",
    pathOf(API.types.list, {}),
    "Every instance type, with prices and the type a mutate upgrades to (`successor`).",
    NO_TOKEN,
    {
      title: "The types with 2 vCPUs and 4096 MB of memory, by label",
      args: () => ({ filters: [filter("vcpus", 2), filter("memory", 4096)], orderBy: "label" }),
    },
  ),
  single("getType", "InstanceType", "type", (typeId) => pathOf(API.types.get, { typeId }), "One instance type, by id.", "c1-standard-2"),
  list("getKernels", "Kernel", "kernels", pathOf(API.kernels.list, {}), "Every kernel.", NO_TOKEN, {
    title: "The kernels that follow the newest release or boot with GRUB 2",
    args: () => ({ filters: [filter("id", DEFAULT_KERNEL, "compute/grub2")] }),
  }),
  single("getKernel", "Kernel", "kernel", (kernelId) => pathOf(API.kernels.get, { kernelId }), "One kernel, by id (ids hold a slash).", DEFAULT_KERNEL),
  list(
    "getImages",
    "ImageInfo",
    "images",
    "/images",
    "Public images, and private ones too when a token is set. The newest public image of a vendor: filters on `vendor` and `isPublic`, `orderBy: created`, `order: desc`, the first item.",
    "none for public images; with `images:read_only` (and a token) the account's private images are listed too",
    {
      title: "The public Debian images, newest first",
      args: () => ({ filters: [filter("vendor", "Debian"), filter("isPublic", true)], orderBy: "created", order: "desc" }),
    },
  ),
  single(
    "getImage",
    "ImageInfo",
    "image",
    (id) => `/images/${id}`,
    "One image, by id (ids hold a slash).",
    "compute/debian12",
    "none for a public image; `images:read_only` for a private one",
  ),
  ...profileFunctions,
];
