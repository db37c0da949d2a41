import { collections } from "../../family";
import type { Step } from "../../state";

/** The compute family's records (instances with their profiles, disks and backups) and its collections in the state file. */

export interface InterfaceRecord {
  id: number;
  purpose: "public" | "vlan" | "vpc";
  label: string | null;
  ipam_address: string | null;
  primary: boolean;
  subnet_id: number | null;
  vpc_id: number | null;
  ipv4: { vpc: string | null; nat_1_1: string | null } | null;
  ip_ranges: string[] | null;
}

export interface ConfigRecord {
  id: number;
  compute_id: number;
  label: string;
  comments: string | null;
  devices: Record<string, { disk_id: number | null; volume_id: number | null } | null>;
  helpers: { updatedb_disabled: boolean; distro: boolean; modules_dep: boolean; network: boolean; devtmpfs_automount: boolean };
  interfaces: InterfaceRecord[];
  kernel: string;
  memory_limit: number;
  root_device: string;
  run_level: "default" | "single" | "binbash";
  virt_mode: "paravirt" | "fullvirt";
  created: string;
  updated: string;
}

export interface DiskRecord {
  id: number;
  compute_id: number;
  label: string;
  size: number;
  filesystem: "raw" | "swap" | "ext3" | "ext4" | "initrd";
  status: "ready" | "not ready" | "deleting";
  created: string;
  updated: string;
  _queue: Step[];
}

export interface InstanceRecord {
  id: number;
  label: string;
  group: string;
  status: string;
  region: string;
  type: string;
  image: string | null;
  created: string;
  updated: string;
  hypervisor: "kvm";
  host_uuid: string;
  has_user_data: boolean;
  ipv4: string[];
  ipv6: string | null;
  specs: { disk: number; gpus: number; memory: number; transfer: number; vcpus: number };
  alerts: { cpu: number; io: number; network_in: number; network_out: number; transfer_quota: number };
  backups: { available: boolean; enabled: boolean; last_successful: string | null; schedule: { day: string | null; window: string | null } };
  tags: string[];
  watchdog_enabled: boolean;
  /** Internal (never shown): owner, pending status changes, boot state, secrets as hashes. */
  _owner: string;
  _queue: Step[];
  _lastBootedConfig: number | null;
  _activeInterfaces: number[];
  _rootPassHash: string | null;
  _clones: number[];
  _userData: string | null;
}

export interface BackupRecord {
  id: number;
  compute_id: number;
  label: string | null;
  type: "auto" | "snapshot";
  status: "paused" | "pending" | "running" | "needsPostProcessing" | "successful" | "failed" | "userAborted";
  available: boolean;
  configs: string[];
  disks: { label: string; size: number; filesystem: string }[];
  created: string;
  finished: string | null;
  updated: string;
  region: string;
  _queue: Step[];
  _source: {
    disks: { srcId: number; label: string; size: number; filesystem: DiskRecord["filesystem"] }[];
    configs: Omit<ConfigRecord, "id" | "compute_id">[];
    type: string;
    rootPassHash: string | null;
  };
}

export interface ComputeState {
  instances: InstanceRecord[];
  configs: ConfigRecord[];
  disks: DiskRecord[];
  backups: BackupRecord[];
}

/** The compute collections of a store, typed (the image and VPC routes read them too). */
export const computeState = collections<ComputeState>({ instances: [], configs: [], disks: [], backups: [] });
