import { view } from "../../state";
import { running } from "./access";
import type { ConfigRecord, DiskRecord, InstanceRecord, InterfaceRecord } from "./records";

// The compute records as the API shows them. What the real API answers beyond the spec's tables, where the
// spec is silent (the recorded answers in tests/fixtures/real-answers;
// tests/integration/real-answers-emulator.test.ts holds the emulator to them): the catalogue's regions are
// all core sites without disk encryption; the emulator has no placement groups, Kubernetes clusters or GPUs;
// its profiles carry their interfaces (the legacy generation of interfaces); `compute/power_off_on` is the
// API's default maintenance policy.

/** An instance as the API shows it. */
export const instanceView = (inst: InstanceRecord) => ({
  ...view(inst),
  specs: { ...inst.specs, accelerated_devices: 0 },
  site_type: "core",
  placement_group: null,
  lke_cluster_id: null,
  disk_encryption: "disabled",
  capabilities: [] as string[],
  interface_generation: "legacy_config",
  maintenance_policy: "compute/power_off_on",
});

export const ifaceActive = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) =>
  running(inst) && inst._lastBootedConfig === cfg.id && inst._activeInterfaces.includes(i.id);

/** An interface: its record, `active`, and no IPv6 (`ipv6` null: the emulator has no IPv6 in VPCs). */
export const ifaceView = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) => ({ ...i, active: ifaceActive(inst, cfg, i), ipv6: null });

/**
 * A profile: the record without `compute_id` (the instance is in the path; the real API never answers
 * it), `initrd` null (no initrd disk is ever set), its interfaces as shown.
 */
export const configView = (inst: InstanceRecord, cfg: ConfigRecord) => {
  const { compute_id: _instance, ...rest } = view(cfg);
  return { ...rest, initrd: null, interfaces: cfg.interfaces.map((i) => ifaceView(inst, cfg, i)) };
};

/** A disk: the record without `compute_id` (as the real API), and the instance's `disk_encryption`. */
export const diskView = (x: DiskRecord) => {
  const { compute_id: _instance, ...rest } = view(x);
  return { ...rest, disk_encryption: "disabled" };
};

/** The views, for the compute context. */
export const computeViews = { instanceView, ifaceActive, ifaceView, configView, diskView };
