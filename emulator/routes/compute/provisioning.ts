import { DEVICE_SLOTS } from "../../../api/interfaces";
import type { ComputeBase } from "./base";
import type { BackupRecord, ConfigRecord, DiskRecord, InstanceRecord, InterfaceRecord } from "./records";

/** A profile's helpers when a request gives none. */
export const helpersDefault = () => ({ updatedb_disabled: true, distro: true, modules_dep: true, network: true, devtmpfs_automount: true });

/** Making disks and profiles: one at a time, the two disks and the profile of an image deploy, or those of a backup. */
export function computeProvisioning({ store, d, now, stamp, typeOf }: ComputeBase) {
  const newDisk = (computeId: number, label: string, size: number, filesystem: DiskRecord["filesystem"], readyIn: number): DiskRecord => {
    const status = readyIn > 0 ? "not ready" : "ready";
    const disk: DiskRecord = {
      id: store.nextId("disk"),
      compute_id: computeId,
      label,
      size,
      filesystem,
      status,
      created: stamp(),
      updated: stamp(),
      _queue: [],
    };
    if (readyIn > 0) disk._queue.push({ status: "ready", at: now() + readyIn });
    d.disks.push(disk);
    return disk;
  };
  const newConfig = (computeId: number, fields: Partial<ConfigRecord> & { label: string }): ConfigRecord => {
    const inst = d.instances.find((i) => i.id === computeId)!;
    const cfg: ConfigRecord = {
      id: store.nextId("config"),
      compute_id: computeId,
      comments: null,
      devices: Object.fromEntries(DEVICE_SLOTS.map((s) => [s, null])),
      helpers: helpersDefault(),
      interfaces: [],
      kernel: "compute/latest-64bit",
      memory_limit: typeOf(inst.type)?.memory ?? 0,
      root_device: "/dev/sda",
      run_level: "default",
      virt_mode: "paravirt",
      created: stamp(),
      updated: stamp(),
      ...fields,
    };
    d.configs.push(cfg);
    return cfg;
  };
  /** The two disks and the profile of an image (or script) deploy. */
  const deployImage = (inst: InstanceRecord, img: { label: string }, swap: number, interfaces: InterfaceRecord[], readyIn: number) => {
    const type = typeOf(inst.type)!;
    const main = newDisk(inst.id, `${img.label} Disk`, type.disk - swap, "ext4", readyIn);
    const devices: ConfigRecord["devices"] = Object.fromEntries(DEVICE_SLOTS.map((s) => [s, null]));
    devices.sda = { disk_id: main.id, volume_id: null };
    if (swap > 0) devices.sdb = { disk_id: newDisk(inst.id, `${swap} MB Swap Image`, swap, "swap", readyIn).id, volume_id: null };
    return newConfig(inst.id, { label: `My ${img.label} Disk Profile`, devices, interfaces });
  };
  /** Recreates a backup's disks and configs on an instance (device slots follow the disks); returns the new configs. */
  const restoreInto = (inst: InstanceRecord, b: BackupRecord, readyIn: number): ConfigRecord[] => {
    const map = new Map<number, number>();
    for (const x of b._source.disks) map.set(x.srcId, newDisk(inst.id, x.label, x.size, x.filesystem, readyIn).id);
    return b._source.configs.map((c) => {
      const devices = Object.fromEntries(
        Object.entries(c.devices).map(([slot, v]) => [slot, v && v.disk_id !== null ? { disk_id: map.get(v.disk_id) ?? null, volume_id: null } : null]),
      );
      return newConfig(inst.id, { ...structuredClone(c), devices, interfaces: c.interfaces.map((i) => ({ ...i, id: store.nextId("interface") })) });
    });
  };
  return { helpersDefault, newDisk, newConfig, deployImage, restoreInto };
}
