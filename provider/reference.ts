import { z } from "zod";
import { FILTER_ARGS } from "./filters";
import { out, parentArg, type FunctionSpec, type ItemType } from "./function-table";
import type { Field } from "./table";

/**
 * The read functions that are not a resource's lookup: the reference data (regions, types, kernels,
 * images), a VPC's addresses, the database engines and types; and the item types they return.
 */
export const REFERENCE_ITEMS: Record<string, ItemType> = {};
const nullableString = z.string().nullable();
const price = z.object({ hourly: z.number(), monthly: z.number() });
const regionPrices = z.array(z.object({ id: z.string(), hourly: z.number(), monthly: z.number() }));
const ITEM_TYPES = REFERENCE_ITEMS;
ITEM_TYPES.Region = {
  description: "A region where resources can be made.",
  fields: [
    out("id", "string", "The region's id, e.g. `us-east`."),
    out("label", "string", "Its display name."),
    out("country", "string", "Its country code."),
    { ...out("capabilities", "array", "What it offers, e.g. `Metadata`, `VPCs`."), itemType: "string" },
    out("status", "string", "`ok` or `outage`.", z.enum(["ok", "outage"])),
    out("resolvers", "object", "Its DNS resolvers (`ipv4`, `ipv6`).", z.object({ ipv4: z.string(), ipv6: z.string() })),
  ],
};
ITEM_TYPES.InstanceType = {
  description: "An instance type, with its sizes and prices.",
  fields: [
    out("id", "string", "The type's id, e.g. `c1-standard-2`."),
    out("label", "string", "Its display name."),
    out(
      "class",
      "string",
      "`nanode`, `standard`, `dedicated`, `premium`, `gpu` or `highmem`.",
      z.enum(["nanode", "standard", "dedicated", "premium", "gpu", "highmem"]),
    ),
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
ITEM_TYPES.Kernel = {
  description: "A kernel an instance config can boot.",
  fields: [
    out("id", "string", "The kernel's id, e.g. `compute/latest-64bit`."),
    out("label", "string", "Its display name."),
    out("version", "string", "Its version."),
    out("architecture", "string", "`x86_64` or `i386`.", z.enum(["x86_64", "i386"])),
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
  ],
};

ITEM_TYPES.VpcIp = {
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

ITEM_TYPES.Profile = {
  description: "The profile of the user the token acts for.",
  fields: [
    out("username", "string", "The login name."),
    out("uid", "integer", "The user's id; it never changes."),
    out("email", "string", "The email address."),
    out("emailNotifications", "boolean", "Whether notices are sent by email."),
    out("timezone", "string", "The preferred time zone (the API writes times in UTC)."),
    out("restricted", "boolean", "Whether the user acts within grants (`getProfile` tells; the grants are read elsewhere)."),
    out("twoFactorAuth", "boolean", "Whether logins from untrusted computers need a second factor."),
    out("ipWhitelistEnabled", "boolean", "Deprecated."),
    out("consoleAuthMethod", "string", "`password_keys`, `keys_only` or `disabled`.", z.enum(["password_keys", "keys_only", "disabled"])),
    { ...out("authorizedKeys", "array", "SSH keys authorized for the console shell, or null.", z.array(z.string()).nullable()), itemType: "string" },
    out("authenticationType", "string", "`password`, or the name of an external identity provider."),
    out("verifiedPhoneNumber", "string", "The verified phone number, or null.", nullableString),
    out(
      "referrals",
      "object",
      "`code`, `url`, `completed`, `pending`, `total`, `credit`.",
      z.object({ code: z.string(), url: z.string(), completed: z.number(), pending: z.number(), total: z.number(), credit: z.number() }),
    ),
  ],
};

// Reference data and the profile: the API shows every field of every item.
for (const name of ["Region", "InstanceType", "Kernel", "ImageInfo", "Profile"]) for (const f of ITEM_TYPES[name].fields) f.required = true;

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
  },
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
  list("getRegions", "Region", "regions", "/regions", "Every region, with its capabilities (for example `Metadata`) and status."),
  single("getRegion", "Region", "region", (id) => `/regions/${encodeURIComponent(id)}`, "One region, by id."),
  list("getTypes", "InstanceType", "types", "/compute/types", "Every instance type, with prices and the type a mutate upgrades to (`successor`)."),
  single("getType", "InstanceType", "type", (id) => `/compute/types/${encodeURIComponent(id)}`, "One instance type, by id."),
  list("getKernels", "Kernel", "kernels", "/compute/kernels", "Every kernel."),
  single("getKernel", "Kernel", "kernel", (id) => `/compute/kernels/${id}`, "One kernel, by id (ids hold a slash)."),
  list("getImages", "ImageInfo", "images", "/images", "Public images, and private ones too when a token is set."),
  single("getImage", "ImageInfo", "image", (id) => `/images/${id}`, "One image, by id (ids hold a slash)."),
  {
    name: "getProfile",
    description: "The profile of the user the provider's token acts for (`/profile`).",
    inputs: [],
    item: "Profile",
    path: () => "/profile",
    what: () => "the profile",
  },
];
