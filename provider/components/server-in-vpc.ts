import { z } from "zod";
import type { ExampleProps } from "../model/example";
import { DEVICE_SLOTS } from "../../api/interfaces";
import { DEFAULT_SWAP_SIZE } from "../../api/contract/instances";
import { vpcAddress } from "../../api/contract/interfaces";
import { containsUnknown, isObject, UNKNOWN, type Field, type Props } from "../model/table";
import { instanceSpec } from "../resources/instance/table";
import { interfaceInput } from "../resources/instance/interfaces";
import { diskSpec } from "../resources/disk";
import { IMAGE, obj, PUBLIC_KEY, ref, REGION, resource, TYPE } from "../resources/example-parents";
import {
  derive,
  input,
  inputFrom,
  Linked,
  plain,
  schemaOf,
  type Catalogue,
  type Child,
  type ComponentContext,
  type ComponentDefinition,
  type Refusal,
} from "./component";

/**
 * `ServerInVpc`: a server in a VPC subnet, made of its parts in the order they boot: an empty Instance, its
 * root Disk from an image (and a swap disk and extra disks), then a Config holding the disks and the interfaces
 * (a public one first unless `publicInterface: false`, then the vpc one) that boots it. Each part is a child
 * resource of its own, so a change of one input updates (or replaces) the one part that takes it.
 */

const I = instanceSpec.fields;
const D = diskSpec.fields;

const extraDisk = z.object({ label: schemaOf(D, "label"), size: schemaOf(D, "size") }).strict();

/**
 * The root disk's size when `rootDiskSize` is left out: fixed, whatever the type and the other disks, so that a
 * change of one disk never resizes the root beside it. The catalogue's smallest disk allowance is 20480 MB
 * (`g7-highmem-1`, as the real API's type list records it): two root disks of 8192 MB (a new one is made before
 * the old one is deleted when `image` or `authorizedKeys` change) and the default swap disk take 16896 MB of it.
 */
export const DEFAULT_ROOT_DISK_SIZE = 8192;

/** The labels the component gives its own disks (an extra disk may not take one). */
const OWN_LABELS = ["root", "swap"];

const inputs = [
  inputFrom(I, "region", {
    name: "region",
    required: true,
    description: "Region id (for example `us-east`): the instance's. Changing it replaces the server.",
  }),
  inputFrom(I, "type", { name: "type", required: true, description: "Instance type id: the instance's, resized in place when it changes." }),
  inputFrom(I, "image", {
    name: "image",
    required: true,
    description: "Image deployed on the root disk (`compute/...` or `private/...`). Changing it replaces the root disk.",
  }),
  inputFrom(D, "rootPass", {
    name: "rootPass",
    description:
      "Root password of the root disk's deploy (secret; generated and kept as the disk's secret output when left out). Changed in place by a password reset.",
  }),
  inputFrom(D, "authorizedKeys", { name: "authorizedKeys", description: "Public SSH keys for root on the root disk. Changing them replaces the root disk." }),
  input({
    name: "subnetId",
    required: true,
    schema: interfaceInput.shape.subnetId.unwrap(),
    description:
      "The VPC subnet the server's vpc interface is in (a Subnet's `id`). Changing it updates the boot profile's interfaces (a running server reboots into them, with a new vpc address).",
  }),
  inputFrom(I, "label", { name: "label", description: "The instance's label (auto-named `<name>-instance-<suffix>` when left out). Changed in place." }),
  inputFrom(I, "tags", { name: "tags", description: "The instance's tags. Changed in place." }),
  inputFrom(D, "size", {
    name: "rootDiskSize",
    description: `Root disk size in MB (default ${DEFAULT_ROOT_DISK_SIZE}, whatever the type: the smallest type's disk allowance, 20480 MB, holds two such root disks, the old and its replacement while \`image\` or \`authorizedKeys\` change, and the default swap disk; give more for a larger image or to use the type's disk). The root, swap and extra disks must fit the type's disk allowance (refused at preview). Changed in place by a disk resize.`,
  }),
  inputFrom(I, "swapSize", {
    name: "swapSize",
    description: `Swap disk size in MB (default ${DEFAULT_SWAP_SIZE}; 0 makes none; must be known at preview). Changed in place by a disk resize.`,
  }),
  input({
    name: "extraDisks",
    schema: z.array(extraDisk).max(DEVICE_SLOTS.length - 2),
    description:
      "More disks, each `{ label, size }` (MB; the label unique, neither `root` nor `swap`), in the next device slots after the root and swap disks. The list and the labels must be known at preview (a size may come from another resource). A disk's size changes in place; a disk added or removed changes the boot profile's devices (removing one moves the disks after it to the slots before).",
  }),
  input({
    name: "publicInterface",
    schema: z.boolean(),
    description:
      "A public interface first, then the vpc one (default true); false: the vpc interface only (primary). Changed in place (the boot profile's interfaces; a running server reboots into them).",
  }),
  input({
    name: "vpcIpv4",
    schema: vpcAddress,
    description:
      "A fixed address for the vpc interface, in the subnet's range; left out, the API assigns one. Given, `privateIpv4` is known at preview. Changed in place (the boot profile's interfaces; a running server reboots into them).",
  }),
  input({
    name: "nat11",
    schema: z.boolean(),
    description:
      "1:1 NAT of a public address to the vpc interface (`nat11: any`). Changed in place (the boot profile's interfaces; a running server reboots into them).",
  }),
  input({
    name: "booted",
    schema: z.boolean(),
    description: "Whether the server runs (default true): its boot profile's `booted`. Changed in place (a boot or a shutdown).",
  }),
];

const outputs: Field[] = [
  { name: "instanceId", kind: "output", required: true, description: "The Instance's id." },
  { name: "configId", kind: "output", required: true, description: "The boot profile's (Config's) id." },
  { name: "rootDiskId", kind: "output", required: true, description: "The root Disk's id." },
  { name: "diskIds", kind: "output", required: true, outputType: "array", description: "The ids of every disk, in device order (root, swap, extra disks)." },
  {
    name: "privateIpv4",
    kind: "output",
    required: true,
    description:
      "The vpc interface's address in the subnet (from the Config's `interfaceRecords`; `vpcIpv4` when given). At preview unknown while the boot profile's interfaces change and `vpcIpv4` is left out.",
  },
  { name: "publicIpv4", kind: "output", description: "The instance's public IPv4 address, when it has a public interface." },
  { name: "booted", kind: "output", outputType: "boolean", required: true, description: "Whether the instance runs, as its boot profile read it." },
];

/** The extra disks as given, each linked to the list (none when left out; at preview an unknown list registers none). */
function extraDisksOf(v: Linked | undefined): Array<{ label: Linked; size: Linked }> {
  if (!v || !Array.isArray(v.value)) return [];
  const at = (i: number, key: string) => derive([v], (all) => (Array.isArray(all) && isObject(all[i]) ? all[i][key] : undefined));
  return v.value.map((_d: unknown, i) => ({ label: at(i, "label"), size: at(i, "size") }));
}

/** The size of each disk of a list of extra disks (plain values). */
const sizes = (list: unknown): number => (Array.isArray(list) ? list.reduce((sum: number, d: unknown) => sum + (isObject(d) ? Number(d.size) : 0), 0) : 0);

/** The plain label of an extra disk (its child's name), else its place. */
const diskName = (d: { label: Linked }, i: number) => (typeof d.label.value === "string" && d.label.value !== UNKNOWN ? d.label.value : `disk${i}`);

async function construct(ctx: ComponentContext): Promise<Record<string, Linked>> {
  const { name, inputs: v } = ctx;
  const swap = v.swapSize ?? new Linked(DEFAULT_SWAP_SIZE);
  const instance = await ctx.child("Instance", `${name}-instance`, { region: v.region, type: v.type, label: v.label, tags: v.tags });
  const computeId = instance.id;
  const size = v.rootDiskSize ?? new Linked(DEFAULT_ROOT_DISK_SIZE);
  // One disk at a time (the API refuses two resizes of one instance at once): each after the one before it,
  // registered once that one is made and depending on it, so that the engine also deletes them in turn.
  const made: Child[] = [];
  const disk = async (part: string, props: Record<string, unknown>) => made.push(await ctx.child("Disk", `${name}-${part}`, props, made.slice(-1)));
  await disk("root", { computeId, label: "root", size, image: v.image, rootPass: v.rootPass, authorizedKeys: v.authorizedKeys });
  if (plain(swap.value) !== 0) await disk("swap", { computeId, label: "swap", size: swap, filesystem: "swap" });
  for (const [i, d] of extraDisksOf(v.extraDisks).entries()) await disk(diskName(d, i), { computeId, label: d.label, size: d.size });
  const devices = Object.fromEntries(made.map((d, i) => [DEVICE_SLOTS[i], { diskId: d.id }]));
  const publicFirst = v.publicInterface ?? new Linked(true);
  const vpc = derive([v.subnetId, ...(v.vpcIpv4 ? [v.vpcIpv4] : []), ...(v.nat11 ? [v.nat11] : [])], (subnetId, ...rest) => {
    const address = v.vpcIpv4 ? rest.shift() : undefined;
    const nat = v.nat11 ? rest.shift() : undefined;
    const ipv4 = { ...(address !== undefined ? { vpc: address } : {}), ...(nat === true ? { nat11: "any" } : {}) };
    return { purpose: "vpc", subnetId, ...(Object.keys(ipv4).length ? { ipv4 } : {}) };
  });
  const interfaces = derive([publicFirst, vpc], (pub, iface) =>
    pub === false ? [{ ...(isObject(iface) ? iface : {}), primary: true }] : [{ purpose: "public", primary: true }, iface],
  );
  const config = await ctx.child("Config", `${name}-config`, {
    computeId,
    label: "boot",
    devices,
    interfaces,
    booted: v.booted ?? new Linked(true),
    // A change of the profile (its disks, its interfaces) takes effect now: the running server reboots into it, so
    // that its new vpc address is the one the database's allow list follows, and a replaced root disk is left before
    // it is deleted.
    rebootOnChange: new Linked(true),
  });
  return {
    instanceId: instance.id,
    configId: config.id,
    rootDiskId: made[0].id,
    diskIds: derive(
      made.map((d) => d.id),
      (...ids) => ids,
    ),
    privateIpv4: privateAddress(config.out("interfaceRecords"), v.vpcIpv4),
    // No public interface, no public address (known at preview too).
    publicIpv4:
      publicFirst.value === false
        ? new Linked(undefined)
        : derive([publicFirst, instance.out("ipv4")], (pub, ipv4) => (pub === false || !Array.isArray(ipv4) ? undefined : ipv4[0])),
    booted: config.out("booted"),
  };
}

/**
 * The vpc interface's address: the profile's record of it; where a preview does not know it (the interfaces
 * change), the fixed address when one is given, which the API assigns as given.
 */
function privateAddress(records: Linked, fixed: Linked | undefined): Linked {
  const found = vpcAddressOf(plain(records.value));
  if (found !== UNKNOWN || !fixed) return new Linked(found, records.deps);
  const given = derive([fixed], (address) => address);
  return new Linked(given.value, [...records.deps, ...given.deps]);
}

/** The vpc interface's address among a profile's interface records: unknown only if it, or the records before it, are. */
function vpcAddressOf(records: unknown): unknown {
  if (!Array.isArray(records)) return containsUnknown(records) ? UNKNOWN : undefined;
  for (const r of records) {
    if (!isObject(r)) {
      if (containsUnknown(r)) return UNKNOWN;
      continue;
    }
    if (r.purpose === UNKNOWN) return UNKNOWN;
    if (r.purpose !== "vpc") continue;
    const address = isObject(r.ipv4) ? r.ipv4.vpc : containsUnknown(r.ipv4) ? UNKNOWN : undefined;
    return containsUnknown(address) ? UNKNOWN : address;
  }
  return undefined;
}

/** Rules between the inputs: the extra disks' labels. */
function validate(values: Props): Refusal[] {
  const list = values.extraDisks;
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const failures: Refusal[] = [];
  list.forEach((d: unknown, i) => {
    const label = isObject(d) ? d.label : undefined;
    if (typeof label !== "string" || label === UNKNOWN) return;
    if (OWN_LABELS.includes(label))
      failures.push({ property: "extraDisks", reason: `extraDisks[${i}].label: must not be ${label}: the component's own disk has it` });
    else if (seen.has(label)) failures.push({ property: "extraDisks", reason: `extraDisks[${i}].label: must be unique: ${label} is given twice` });
    seen.add(label);
  });
  return failures;
}

/** The inputs that decide which disks the component makes (and their names) while not known yet. */
function undecided(values: Props): string[] {
  const extras = values.extraDisks;
  const labelUnknown = (d: unknown) => (isObject(d) ? containsUnknown(d.label) : containsUnknown(d));
  return [
    ...(containsUnknown(values.swapSize) ? ["swapSize"] : []),
    ...(containsUnknown(extras) && (!Array.isArray(extras) || extras.some(labelUnknown)) ? ["extraDisks"] : []),
  ];
}

/** The disks (root, swap, extra disks) within the type's disk allowance, when all are known and the catalogue has the type. */
async function check(values: Props, catalogue: Catalogue): Promise<Refusal[]> {
  const { type, rootDiskSize = DEFAULT_ROOT_DISK_SIZE, swapSize = DEFAULT_SWAP_SIZE, extraDisks = [] } = values;
  if (typeof type !== "string" || [type, rootDiskSize, swapSize, extraDisks].some(containsUnknown)) return [];
  // A type the catalogue does not have: the Instance's own check and create name it.
  const allowance = await catalogue.typeDisk(type);
  const total = Number(rootDiskSize) + Number(swapSize) + sizes(extraDisks);
  if (allowance === undefined || total <= allowance) return [];
  const root = values.rootDiskSize === undefined ? `the default ${DEFAULT_ROOT_DISK_SIZE}` : String(rootDiskSize);
  return [
    {
      property: "type",
      reason: `type: must allow the disks: ${type} allows ${allowance} MB, the disks take ${total} MB (rootDiskSize ${root}, swapSize ${String(swapSize)}, extraDisks ${sizes(extraDisks)}); choose a type with more disk or smaller disks`,
    },
  ];
}

export const serverInVpc: ComponentDefinition = {
  type: "ServerInVpc",
  description:
    "A server in a VPC subnet (a component): an empty Instance, its root Disk from an image (a swap disk and extra disks beside it), and a Config with the disks and the interfaces (a public one first, then the vpc one) that boots it last. The children appear in the stack under the component; a change of one input updates or replaces only the part that takes it.",
  inputs,
  outputs,
  validate,
  undecided,
  check,
  construct,
  example: () => {
    const net = resource("Vpc", "net", { region: REGION, label: "app-net" });
    const subnet = resource("Subnet", "app", { vpcId: ref(net), label: "app", ipv4: "10.0.1.0/24" });
    const server = resource("ServerInVpc", "web", {
      region: REGION,
      type: TYPE,
      image: IMAGE,
      authorizedKeys: [PUBLIC_KEY],
      subnetId: ref(subnet),
      tags: ["web"],
      extraDisks: [obj("ServerInVpcExtraDisk", { label: "data", size: 2048 })],
    });
    return {
      title: "A server in a VPC subnet, with a public interface and a data disk",
      resources: [net, subnet, server],
      outputs: { privateIp: ref(server, "privateIpv4"), publicIp: ref(server, "publicIpv4") },
    };
  },
};

// The inputs an example may give it (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    ServerInVpc: ExampleProps<typeof inputs>;
  }
}
