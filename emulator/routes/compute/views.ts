import type { Backup } from "../../../api/contract/backups";
import type { Profile } from "../../../api/contract/configs";
import type { Disk } from "../../../api/contract/disks";
import type { Instance } from "../../../api/contract/instances";
import type { Interface } from "../../../api/contract/interfaces";
import { running } from "./access";
import { GONE } from "./base";
import type { BackupRecord, ConfigRecord, DiskRecord, InstanceRecord, InterfaceRecord } from "./records";

// The compute records as the API shows them (api/contract): the stored records without the emulator's own
// fields. What the real API answers beyond the spec's tables, where the spec is silent (the recorded answers in
// tests/fixtures/real-answers; tests/integration/real-answers-emulator.test.ts holds the emulator to them): the
// catalogue's regions are all core sites without disk encryption; the emulator has no placement groups,
// Kubernetes clusters or GPUs; its profiles carry their interfaces (the legacy generation of interfaces);
// `compute/power_off_on` is the API's default maintenance policy.

/** An instance as the API shows it (one whose delete has just ended shows as `deleting` until it is removed). */
export function instanceView(inst: InstanceRecord): Instance {
  const { _owner, _queue, _lastBootedConfig, _activeInterfaces, _rootPassHash, _clones, _userData, status, specs, ...shown } = inst;
  return {
    ...shown,
    status: status === GONE ? "deleting" : status,
    specs: { ...specs, accelerated_devices: 0 },
    site_type: "core",
    placement_group: null,
    lke_cluster_id: null,
    disk_encryption: "disabled",
    capabilities: [],
    interface_generation: "legacy_config",
    maintenance_policy: "compute/power_off_on",
  };
}

/** Whether an interface is in use: its instance runs, booted with its profile, and the interface was there then. */
export const ifaceActive = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) =>
  running(inst) && inst._lastBootedConfig === cfg.id && inst._activeInterfaces.includes(i.id);

/** An interface: its record, `active`, and no IPv6 (`ipv6` null: the emulator has no IPv6 in VPCs). */
export const ifaceView = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord): Interface => ({ ...i, active: ifaceActive(inst, cfg, i), ipv6: null });

/** A profile: the record without `compute_id` (the instance is in the path; the real API never answers it), `initrd` null (no initrd disk is ever set). */
export function configView(inst: InstanceRecord, cfg: ConfigRecord): Profile {
  const { compute_id: _instance, interfaces, ...shown } = cfg;
  return { ...shown, initrd: null, interfaces: interfaces.map((i) => ifaceView(inst, cfg, i)) };
}

/** A disk: the record without `compute_id` (as the real API), and the instance's `disk_encryption`. */
export function diskView(x: DiskRecord): Disk {
  const { compute_id: _instance, _queue, ...shown } = x;
  return { ...shown, disk_encryption: "disabled" };
}

/** A backup: the record without `compute_id` (the instance is in the path, and the real API never answers it) and what it holds. */
export function backupView(b: BackupRecord): Backup {
  const { compute_id: _instance, _queue, _source, ...shown } = b;
  return shown;
}

/** The views, for the compute context. */
export const computeViews = { instanceView, ifaceActive, ifaceView, configView, diskView, backupView };
