import { copyOf } from "../../store";
import { DEVICE_SLOTS } from "../../../api/interfaces";
import { LENGTH_LIMITS } from "../../../api/text";
import { DEFAULT_HELPERS, DEFAULT_KERNEL, PROFILE_DEFAULTS, type Devices } from "../../../api/contract/configs";
import type { Filesystem } from "../../../api/contract/disks";
import type { ComputeBase, TakenAddresses } from "./base";
import type { ComputeNetwork } from "./network";
import type { BackupRecord, ConfigRecord, DiskRecord, InstanceRecord, InterfaceRecord } from "./records";

/** A device map with every slot empty. */
export const noDevices = (): Devices => ({ sda: null, sdb: null, sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null });

/**
 * A label made from an image's (`My <image> Disk Profile`, `<image> Disk`): the image's label cut (by characters,
 * never half of one) so that the label fits its limit, an image's label being longer than a profile's or a disk's
 * may be (docs/spec-gaps.md).
 */
export function labelFrom(imageLabel: string, make: (label: string) => string, limit: "configLabel" | "diskLabel"): string {
  const max = LENGTH_LIMITS[limit][1];
  const chars = Array.from(imageLabel);
  while (chars.length && make(chars.join("")).length > max) chars.pop();
  return make(chars.join("").trimEnd());
}

/** The label of an image's disk: `<image label> Disk`. */
export const diskLabelFrom = (imageLabel: string) => labelFrom(imageLabel, (l) => `${l} Disk`, "diskLabel");

/** What a new profile is made of: its label, and any field given (the others take their defaults; a copy keeps its times). */
export type ConfigFields = Partial<Omit<ConfigRecord, "id" | "compute_id">> & { label: string };

/** Making disks and profiles: one at a time, the two disks and the profile of an image deploy, or those of a backup. */
export function computeProvisioning({ store, d, now, stamp, typeOfInstance }: ComputeBase, { copyInterfaces }: Pick<ComputeNetwork, "copyInterfaces">) {
  const newDisk = (computeId: number, label: string, size: number, filesystem: Filesystem, readyIn: number): DiskRecord => {
    const disk: DiskRecord = {
      id: store.nextId("disk"),
      compute_id: computeId,
      label,
      size,
      filesystem,
      // `not ready` at first, as the real API answers a disk's create, also when it takes no time (speed 0).
      status: "not ready",
      created: stamp(),
      updated: stamp(),
      _queue: [{ status: "ready", at: now() + readyIn }],
    };
    d.disks.push(disk);
    return disk;
  };
  /** A profile of the instance: the defaults of docs/spec-gaps.md (its memory the instance type's) with `fields` over them. */
  const newConfig = (inst: InstanceRecord, fields: ConfigFields): ConfigRecord => {
    const cfg: ConfigRecord = {
      id: store.nextId("config"),
      compute_id: inst.id,
      comments: null,
      devices: noDevices(),
      helpers: { ...DEFAULT_HELPERS },
      interfaces: [],
      kernel: DEFAULT_KERNEL,
      memory_limit: typeOfInstance(inst).memory,
      ...PROFILE_DEFAULTS,
      created: stamp(),
      updated: stamp(),
      ...fields,
    };
    d.configs.push(cfg);
    return cfg;
  };
  /** The two disks and the profile of an image (or script) deploy. */
  const deployImage = (inst: InstanceRecord, img: { label: string }, swap: number, interfaces: InterfaceRecord[], readyIn: number) => {
    const main = newDisk(inst.id, diskLabelFrom(img.label), typeOfInstance(inst).disk - swap, "ext4", readyIn);
    const devices = noDevices();
    devices.sda = { disk_id: main.id, volume_id: null };
    if (swap > 0) devices.sdb = { disk_id: newDisk(inst.id, `${swap} MB Swap Image`, swap, "swap", readyIn).id, volume_id: null };
    return newConfig(inst, { label: labelFrom(img.label, (l) => `My ${l} Disk Profile`, "configLabel"), devices, interfaces });
  };
  /** A device map whose disks are their copies `copies` names (a disk it does not name: none). */
  const copiedDevices = (devices: Devices, copies: ReadonlyMap<number, number>): Devices => {
    const out = noDevices();
    for (const slot of DEVICE_SLOTS) {
      const v = devices[slot];
      out[slot] = v === null || v.disk_id === null ? v : { disk_id: copies.get(v.disk_id) ?? null, volume_id: v.volume_id };
    }
    return out;
  };
  /** Recreates a backup's disks and configs on an instance (device slots follow the disks, interfaces as network.ts copies them); returns the new configs. */
  const restoreInto = (inst: InstanceRecord, b: BackupRecord, readyIn: number): ConfigRecord[] => {
    const copies = new Map<number, number>();
    for (const x of b._source.disks) copies.set(x.srcId, newDisk(inst.id, x.label, x.size, x.filesystem, readyIn).id);
    const taken: TakenAddresses = [];
    return b._source.configs.map((c) =>
      newConfig(inst, { ...copyOf(c), devices: copiedDevices(c.devices, copies), interfaces: copyInterfaces(c.interfaces, inst.region, taken) }),
    );
  };
  return { newDisk, newConfig, deployImage, copiedDevices, restoreInto };
}
