import { DEVICE_SLOTS } from "../../../api/interfaces";
import type { Renumber, StateHolder } from "../../family";
import { privateIp, privateIpNumber, publicIp, publicIpNumber } from "./network";
import { computeState, type ConfigRecord, type InterfaceRecord } from "./records";

/** A profile's slots of devices (sda to sdh). */
type Devices = ConfigRecord["devices"];

/**
 * Every id the compute family's records hold or point to, set to what `to` gives (ApiFamily `renumber`): its
 * instances' (their public and private addresses by their numbers, an IPv6 address made of the id, the profile last
 * booted, the active interfaces, a private image, the restricted users' grants), its profiles' (their instance, the
 * disks of their devices, their interfaces with their subnets, VPCs and 1:1 NAT address), its disks' and its
 * backups' (their instance, and the disks and profiles they keep).
 */
export function renumberCompute(state: StateHolder, to: Renumber): void {
  const d = computeState(state);
  const address = (a: string): string => {
    const pub = publicIpNumber(a);
    if (pub !== undefined) return publicIp(to("ipv4", pub));
    const priv = privateIpNumber(a);
    return priv === undefined ? a : privateIp(to("private_ip", priv));
  };
  const devices = (devs: Devices): Devices => {
    const out = { ...devs };
    for (const slot of DEVICE_SLOTS) {
      const dev = out[slot];
      if (dev?.disk_id != null) out[slot] = { ...dev, disk_id: to("disk", dev.disk_id) };
    }
    return out;
  };
  const iface = (i: InterfaceRecord): InterfaceRecord => ({
    ...i,
    id: to("interface", i.id),
    subnet_id: i.subnet_id === null ? null : to("subnet", i.subnet_id),
    vpc_id: i.vpc_id === null ? null : to("vpc", i.vpc_id),
    ipv4: i.ipv4 && { ...i.ipv4, nat_1_1: i.ipv4.nat_1_1 === null ? null : address(i.ipv4.nat_1_1) },
  });
  for (const inst of d.instances) {
    const old = inst.id;
    inst.id = to("instance", old);
    inst.ipv4 = inst.ipv4.map(address);
    // The emulator makes an instance's IPv6 address of its id (instances.ts): a renumbered one's follows it.
    if (inst.ipv6 === `2001:db8::${old.toString(16)}/128`) inst.ipv6 = `2001:db8::${inst.id.toString(16)}/128`;
    if (inst._lastBootedConfig !== null) inst._lastBootedConfig = to("config", inst._lastBootedConfig);
    inst._activeInterfaces = inst._activeInterfaces.map((n) => to("interface", n));
    const image = /^private\/(\d+)$/.exec(inst.image ?? "");
    if (image) inst.image = `private/${to("image", Number(image[1]))}`;
  }
  for (const cfg of d.configs) {
    cfg.id = to("config", cfg.id);
    cfg.compute_id = to("instance", cfg.compute_id);
    cfg.devices = devices(cfg.devices);
    cfg.interfaces = cfg.interfaces.map(iface);
  }
  for (const disk of d.disks) {
    disk.id = to("disk", disk.id);
    disk.compute_id = to("instance", disk.compute_id);
  }
  for (const b of d.backups) {
    b.id = to("backup", b.id);
    b.compute_id = to("instance", b.compute_id);
    b._source.disks = b._source.disks.map((x) => ({ ...x, srcId: to("disk", x.srcId) }));
    b._source.configs = b._source.configs.map((cfg) => ({ ...cfg, devices: devices(cfg.devices), interfaces: cfg.interfaces.map(iface) }));
  }
  for (const user of state.data.users) if (user.grants) user.grants.compute = user.grants.compute.map((g) => ({ ...g, id: to("instance", g.id) }));
}
