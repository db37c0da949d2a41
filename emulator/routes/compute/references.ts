import { DEVICE_SLOTS } from "../../../api/interfaces";
import { catalog } from "../../catalog";
import { recordField, type Refusal, type StateHolder } from "../../family";
import { vpcState } from "../vpc";
import { privateIpNumber, publicIpNumber, vpcAddressRefusal } from "./network";
import { computeState, type ComputeState } from "./records";

/**
 * What the compute records must hold between them, with the catalogue and the VPC family's records (ApiFamily
 * `references`), beyond each record's schema (records.ts): what the API would have refused to make, or what would
 * make a later request fail. Each record that does not, refused with its place (`records.configs[2].compute_id`).
 */
export function computeReferences(state: StateHolder): Refusal[] {
  const d = computeState(state);
  const out: Refusal[] = [];
  const refuse = (collection: string, index: number, field: string, reason: string) => out.push({ field: recordField(collection, index, field), reason });
  instanceRefusals(state, d, refuse);
  for (const [name, records] of [
    ["configs", d.configs],
    ["disks", d.disks],
    ["backups", d.backups],
  ] as const) {
    const instances = new Set(d.instances.map((i) => i.id));
    records.forEach((x, i) => {
      if (!instances.has(x.compute_id)) refuse(name, i, "compute_id", `no instance ${x.compute_id}`);
    });
  }
  configRefusals(d, refuse);
  interfaceRefusals(state, d, refuse);
  backupRefusals(d, refuse);
  return out;
}

type Refuse = (collection: string, index: number, field: string, reason: string) => void;

const catalogRegions = new Set(catalog.regions.map((r) => r.id));
const catalogKernels = new Set(catalog.kernels.map((k) => k.id));
const typeDisk = (id: string) => catalog.types.find((t) => t.id === id)?.disk;

/**
 * An instance's type and region are the catalogue's; its maker a user of the account; its label none other's (an
 * update keeping it would be refused); its addresses no other's, at most one public and one private; its disks within
 * its type's (or, while a resize runs, within the larger of the two: a disk grows as the type changes).
 */
function instanceRefusals(state: StateHolder, d: ComputeState, refuse: Refuse): void {
  const users = new Set(state.data.users.map((u) => u.username));
  const labels = new Map<string, number>();
  const addresses = new Map<string, number>();
  d.instances.forEach((inst, i) => {
    if (typeDisk(inst.type) === undefined) refuse("instances", i, "type", `no type ${inst.type} in the catalogue`);
    if (!catalogRegions.has(inst.region)) refuse("instances", i, "region", `no region ${inst.region} in the catalogue`);
    if (!users.has(inst._owner)) refuse("instances", i, "_owner", `no user ${inst._owner} in the account`);
    const other = labels.get(inst.label);
    if (other !== undefined) refuse("instances", i, "label", `Label must be unique among your instances: ${recordField("instances", other)} has it`);
    else labels.set(inst.label, i);
    // The API gives an instance one public IPv4 address, and a private one when asked: each of the others would be
    // taken from the pool every account shares (130,042 in all: one import of an instance with 30,000 took as many).
    // Counted among the pools' addresses (an earlier release's malformed ones, 192.168.39498.21, are in neither).
    const publics = inst.ipv4.filter((a) => publicIpNumber(a) !== undefined).length;
    const privates = inst.ipv4.filter((a) => privateIpNumber(a) !== undefined).length;
    if (publics > 1 || privates > 1)
      refuse("instances", i, "ipv4", `an instance has at most one public IPv4 address and one private (the API gives no more), not ${publics} and ${privates}`);
    inst.ipv4.forEach((address, n) => {
      const holder = addresses.get(address);
      if (holder !== undefined) refuse("instances", i, `ipv4[${n}]`, `the address ${address} is also ${recordField("instances", holder)}'s`);
      else addresses.set(address, i);
    });
    const allowed = Math.max(...[inst.type, ...inst._queue.map((step) => step.patch?.type)].map((t) => (t === undefined ? 0 : (typeDisk(t) ?? 0))));
    // Each disk at the largest size it has or will have once its own pending changes are done.
    const used = d.disks.filter((x) => x.compute_id === inst.id).reduce((n, x) => n + Math.max(x.size, ...x._queue.map((step) => step.patch?.size ?? 0)), 0);
    if (allowed > 0 && used > allowed) refuse("instances", i, "type", `its disks take ${used} MB, more than the ${allowed} MB of type ${inst.type}`);
  });
}

/** A profile's kernel is the catalogue's; its devices are disks of its instance. */
function configRefusals(d: ComputeState, refuse: Refuse): void {
  d.configs.forEach((cfg, i) => {
    if (!catalogKernels.has(cfg.kernel)) refuse("configs", i, "kernel", `no kernel ${cfg.kernel} in the catalogue`);
    const disks = new Set(d.disks.filter((x) => x.compute_id === cfg.compute_id).map((x) => x.id));
    for (const slot of DEVICE_SLOTS) {
      const id = cfg.devices[slot]?.disk_id;
      if (id != null && !disks.has(id)) refuse("configs", i, `devices.${slot}.disk_id`, `no disk ${id} of instance ${cfg.compute_id}`);
    }
  });
}

/**
 * Interfaces: no two of one id (in any profile: the API names an interface by its id alone); a vpc interface's
 * subnet is the VPC family's, in its instance's region, its `vpc_id` the subnet's VPC, its address one the subnet
 * hands out, held by no other interface of the subnet.
 */
function interfaceRefusals(state: StateHolder, d: ComputeState, refuse: Refuse): void {
  const { subnets, vpcs } = vpcState(state);
  const ids = new Map<number, string>();
  const held = new Map<string, string>();
  const regions = new Map(d.instances.map((inst) => [inst.id, inst.region]));
  d.configs.forEach((cfg, i) => {
    cfg.interfaces.forEach((f, n) => {
      const place = recordField("configs", i, `interfaces[${n}]`);
      const field = (name: string) => `interfaces[${n}].${name}`;
      const first = ids.get(f.id);
      if (first !== undefined) refuse("configs", i, field("id"), `the interface id ${f.id} is also ${first}'s`);
      else ids.set(f.id, place);
      if (f.subnet_id === null) return;
      const s = subnets.find((x) => x.id === f.subnet_id);
      if (!s) return refuse("configs", i, field("subnet_id"), `no subnet ${f.subnet_id}`);
      if (f.vpc_id !== s.vpc_id) refuse("configs", i, field("vpc_id"), `subnet ${s.id} is VPC ${s.vpc_id}'s, not ${String(f.vpc_id)}'s`);
      const region = vpcs.find((v) => v.id === s.vpc_id)?.region;
      const own = regions.get(cfg.compute_id);
      if (region !== undefined && own !== undefined && region !== own)
        refuse("configs", i, field("subnet_id"), `subnet ${s.id} is in region ${region}, not ${own}`);
      if (!f.ipv4) return;
      const refusal = vpcAddressRefusal(f.ipv4.vpc, s.ipv4);
      if (refusal) return refuse("configs", i, field("ipv4.vpc"), refusal);
      const key = `${s.id} ${f.ipv4.vpc}`;
      const holder = held.get(key);
      if (holder !== undefined) refuse("configs", i, field("ipv4.vpc"), `${f.ipv4.vpc} is also ${holder}'s, in subnet ${s.id}`);
      else held.set(key, place);
    });
  });
}

/** A backup's region and type are the catalogue's; its profiles' kernels too, and their devices disks it holds. */
function backupRefusals(d: ComputeState, refuse: Refuse): void {
  d.backups.forEach((b, i) => {
    if (!catalogRegions.has(b.region)) refuse("backups", i, "region", `no region ${b.region} in the catalogue`);
    if (typeDisk(b._source.type) === undefined) refuse("backups", i, "_source.type", `no type ${b._source.type} in the catalogue`);
    const disks = new Set(b._source.disks.map((x) => x.srcId));
    b._source.configs.forEach((cfg, n) => {
      if (!catalogKernels.has(cfg.kernel)) refuse("backups", i, `_source.configs[${n}].kernel`, `no kernel ${cfg.kernel} in the catalogue`);
      for (const slot of DEVICE_SLOTS) {
        const id = cfg.devices[slot]?.disk_id;
        if (id != null && !disks.has(id)) refuse("backups", i, `_source.configs[${n}].devices.${slot}.disk_id`, `no disk ${id} in the backup`);
      }
    });
  });
}
