import { DEVICE_SLOTS } from "../../../api/interfaces";
import { catalog } from "../../catalog";
import { recordField, type Refusal, type StateHolder } from "../../family";
import { vpcState } from "../vpc";
import { computeState } from "./records";

/**
 * What the compute records must hold between them (ApiFamily `references`): each profile, disk and backup is of an
 * instance there; each instance of a type the catalogue has; a profile's devices name disks of its instance; a
 * vpc interface's subnet is one of the VPC family's; a backup's profiles name disks the backup holds. So that no
 * record loaded can make a later request fail.
 */
export function computeReferences(state: StateHolder): Refusal[] {
  const d = computeState(state);
  const instances = new Set(d.instances.map((i) => i.id));
  const subnets = new Set(vpcState(state).subnets.map((s) => s.id));
  const out: Refusal[] = [];
  const refuse = (collection: string, index: number, field: string, reason: string) => out.push({ field: recordField(collection, index, field), reason });
  d.instances.forEach((inst, i) => {
    if (!catalog.types.some((t) => t.id === inst.type)) refuse("instances", i, "type", `no type ${inst.type} in the catalogue`);
  });
  for (const [name, records] of [
    ["configs", d.configs],
    ["disks", d.disks],
    ["backups", d.backups],
  ] as const) {
    records.forEach((x, i) => {
      if (!instances.has(x.compute_id)) refuse(name, i, "compute_id", `no instance ${x.compute_id}`);
    });
  }
  d.configs.forEach((cfg, i) => {
    const disks = new Set(d.disks.filter((x) => x.compute_id === cfg.compute_id).map((x) => x.id));
    for (const slot of DEVICE_SLOTS) {
      const id = cfg.devices[slot]?.disk_id;
      if (id != null && !disks.has(id)) refuse("configs", i, `devices.${slot}.disk_id`, `no disk ${id} of instance ${cfg.compute_id}`);
    }
    cfg.interfaces.forEach((f, n) => {
      if (f.subnet_id !== null && !subnets.has(f.subnet_id)) refuse("configs", i, `interfaces[${n}].subnet_id`, `no subnet ${f.subnet_id}`);
    });
  });
  d.backups.forEach((b, i) => {
    const disks = new Set(b._source.disks.map((x) => x.srcId));
    b._source.configs.forEach((cfg, n) => {
      for (const slot of DEVICE_SLOTS) {
        const id = cfg.devices[slot]?.disk_id;
        if (id != null && !disks.has(id)) refuse("backups", i, `_source.configs[${n}].devices.${slot}.disk_id`, `no disk ${id} in the backup`);
      }
    });
  });
  return out;
}
