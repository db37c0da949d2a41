// Generated from provider/functions/index.ts by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { afterDependencies, checkFieldNames, runFunction, type ReadOptions, type ReadOutputOptions } from "./invoke";

/** Each argument as a plain value or an Output (the Output form of a function takes these), filters too. */
export type Inputs<T> = { [K in keyof T]: K extends "filters" ? pulumi.Input<pulumi.Input<FilterInput>[]> : pulumi.Input<T[K]> };

/** A filter of an Output form: its name and values may be Outputs. */
export interface FilterInput {
  name: pulumi.Input<string>;
  values: pulumi.Input<pulumi.Input<string | number | boolean>[]>;
}

/** One filter: the items whose field `name` equals one of `values` (a list field: holds one of them). */
export interface Filter {
  name: string;
  values: Array<string | number | boolean>;
}

/** Instance as the API shows it: the resource's outputs (`Instance`). */
export interface InstanceInfo {
  /** The instance's id, as a string (the Pulumi id of the resource: `Instance.get(name, id)`). */
  id: string;
  /** Region id (for example `us-east`). Changing it replaces the instance. */
  region?: string;
  /** Instance type id. Changed in place by a resize (see `migrationType`, `allowAutoDiskResize`); the provider waits for the resize to finish. */
  type?: string;
  /** 3..64 characters: letters, digits, `-`, `_`, `.`; unique among your instances. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** Deprecated group label. Changed in place. */
  group?: string;
  /** Tags (3..50 characters each; unrestricted users only). Order does not matter. Changed in place. */
  tags?: string[];
  /** Alert thresholds (`cpu`, `io`, `networkIn`, `networkOut`, `transferQuota`); the ones left out keep the service's defaults. Changed in place. */
  alerts?: { cpu?: number; io?: number; networkIn?: number; networkOut?: number; transferQuota?: number };
  /** Reboot the instance when it powers off unexpectedly. Changed in place. */
  watchdogEnabled?: boolean;
  /** Whether the instance runs. When set, the provider keeps it so: changed in place by a boot or a shutdown, and `pulumi refresh` sees an instance shut down by hand. Left out, the power state is not managed (an image deploy boots). */
  booted?: boolean;
  /** Image to deploy (`compute/...` or `private/...`). Changing it replaces the instance, or rebuilds it in place with `rebuildOnImageChange` (the disks are erased either way). */
  image?: string;
  /** Swap disk size in MB for an image deploy (default 512): the size asked for at create, kept by refresh (a state that lacks it reads the swap disk once; a resize made outside Pulumi is not seen). Changed in place by resizing the swap disk (the instance is shut down and booted again), within the type's disk allowance; adding or removing the swap disk (0) is refused. */
  swapSize?: number;
  /** `running`, `offline`, `provisioning`, `booting`, `migrating`, ... */
  status?: string;
  /** IPv4 addresses: the public one first, then the private one if any. */
  ipv4?: string[];
  /** SLAAC IPv6 address (/128), or null. */
  ipv6?: string | null;
  /** `disk`, `memory` (MB), `vcpus`, `gpus`, `transfer`, and `acceleratedDevices` where the API reports it (the real API does; the spec's table does not list it). */
  specs?: { disk: number; memory: number; vcpus: number; gpus: number; transfer: number; acceleratedDevices?: number };
  /** `kvm`. */
  hypervisor?: string;
  /** The host machine (a resize migrates the instance to another). */
  hostUuid?: string;
  /** Whether the instance was provisioned with user data. */
  hasUserData?: boolean;
  /** Backup service state: `enabled`, `available`, `lastSuccessful`, `schedule`. */
  backups?: { enabled: boolean; available: boolean; lastSuccessful: string | null; schedule: { day: string | null; window: string | null } };
  /** The address of the instance's first vpc interface in its subnet (set when `interfaces` has one). */
  vpcIpv4?: string;
  /** The configuration profile whose interfaces `interfaces` manages (set when `interfaces` is). */
  bootConfigId?: number;
  /** When the instance was created. */
  created?: string;
  /** When it last changed. */
  updated?: string;
  /** What it costs an hour: its type's price in its region (the region's own where the catalogue gives one), with the backups add-on's when `backupsEnabled`, from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  hourlyPrice?: number;
  /** What it costs a month: its type's price in its region (the region's own where the catalogue gives one), with the backups add-on's when `backupsEnabled`, from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  monthlyPrice?: number;
}

/** Disk as the API shows it: the resource's outputs (`Disk`). */
export interface DiskInfo {
  /** The disk's id, as a string (the Pulumi id of the resource: `Disk.get(name, id)`). */
  id: string;
  /** Size in MB, within the instance type's disk allowance. Changed in place by a disk resize: a running instance is shut down, the disk resized, and the instance booted again. */
  size?: number;
  /** 1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** `raw`, `swap`, `ext3`, `ext4` (default) or `initrd`. Changing it replaces the disk. */
  filesystem?: "raw" | "swap" | "ext3" | "ext4" | "initrd";
  /** Image to deploy on the disk. Changing it replaces the disk. */
  image?: string;
  /** `ready`, `not ready` or `deleting`. */
  status?: string;
  /** When the disk was created. */
  created?: string;
  /** When it last changed. */
  updated?: string;
}

/** Configuration profile as the API shows it: the resource's outputs (`Config`). */
export interface ConfigInfo {
  /** The configuration profile's id, as a string (the Pulumi id of the resource: `Config.get(name, id)`). */
  id: string;
  /** 1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** Device map: keys `sda`..`sdh`, each `{ diskId }` (a disk's id, string or number) or `{ volumeId }`. Changed in place. */
  devices?: Record<string, { diskId?: number | string | null; volumeId?: number | string | null } | null>;
  /** Boot helpers; the ones left out keep the service's defaults. Changed in place. */
  helpers?: { updatedbDisabled?: boolean; distro?: boolean; modulesDep?: boolean; network?: boolean; devtmpfsAutomount?: boolean };
  /** Kernel id (default `compute/latest-64bit`). Changed in place. */
  kernel?: string;
  /** RAM limit in MB (default, or 0: all of the instance's). Changed in place. */
  memoryLimit?: number;
  /** Root device (default `/dev/sda`). Changed in place. */
  rootDevice?: string;
  /** `default`, `single` or `binbash`. Changed in place. */
  runLevel?: "default" | "single" | "binbash";
  /** `paravirt` or `fullvirt`. Changed in place. */
  virtMode?: "paravirt" | "fullvirt";
  /** Free text. Changed in place. */
  comments?: string;
  /** The profile's interfaces as a list (0..3; an empty list means the default public interface only). When set, this profile's interfaces are managed here and Interface resources on it are refused; left out, they are not managed here. Changed in place. */
  interfaces?:
    | Array<{
        purpose: "public" | "vlan" | "vpc";
        label?: string;
        ipamAddress?: string;
        primary?: boolean;
        subnetId?: number | string;
        ipv4?: { vpc?: string; nat11?: string };
        ipRanges?: string[];
      }>
    | unknown[];
  /** The profile's interfaces as the API records them, in order, whether `interfaces` manages them or Interface resources do: `[{ id, purpose, label, ipamAddress, primary, active, vpcId, subnetId, ipv4: { vpc, nat11 }, ipRanges }]` (`id` is the interface's id; `active` says whether it is in use now; `vpcId`, `subnetId`, `ipv4` and `ipRanges` are set for `vpc`, where `ipv4.vpc` is the address assigned in the subnet; what the API reports as null is left out). A change of `interfaces` makes new records (new ids): a preview plans them unknown then, and plans each one's `active` unknown when the change boots, reboots or shuts the instance down. */
  interfaceRecords?: Array<{
    id: number;
    purpose: "public" | "vlan" | "vpc";
    label?: string;
    ipamAddress?: string;
    primary: boolean;
    active: boolean;
    vpcId?: number;
    subnetId?: number;
    ipv4?: { vpc?: string; nat11?: string };
    ipRanges?: string[];
  }>;
}

/** Interface as the API shows it: the resource's outputs (`Interface`). */
export interface InterfaceInfo {
  /** The interface's id, as a string (the Pulumi id of the resource: `Interface.get(name, id)`). */
  id: string;
  /** `public`, `vlan` or `vpc`. Cannot change: a change replaces the interface. */
  purpose?: "public" | "vlan" | "vpc";
  /** VLAN name (1..64), for `vlan`. A change replaces the interface. */
  label?: string;
  /** The address on the VLAN, as `ip/netmask`, for `vlan`. A change replaces the interface. */
  ipamAddress?: string;
  /** The default route (at most one per profile; setting it clears the others). Changed in place for `public` and `vpc`; replaces a `vlan` interface. */
  primary?: boolean;
  /** The VPC subnet (`subnet.id`), for `vpc`. A change replaces the interface (the API cannot move it). */
  subnetId?: number | string;
  /** For `vpc`: `vpc` (the address in the subnet; assigned when left out) and `nat11` (a public address mapped 1:1, or `any`). Changed in place. */
  ipv4?: { vpc?: string; nat11?: string };
  /** For `vpc`: IPv4 ranges of the subnet routed to this interface. Changed in place. */
  ipRanges?: string[];
  /** The VPC of the subnet, for `vpc`. */
  vpcId?: number;
  /** Whether the interface is in use now (the instance runs with this profile and booted after it was added). */
  active?: boolean;
}

/** Instance snapshot as the API shows it: the resource's outputs (`InstanceSnapshot`). */
export interface InstanceSnapshotInfo {
  /** The instance snapshot's id, as a string (the Pulumi id of the resource: `InstanceSnapshot.get(name, id)`). */
  id: string;
  /** 1..255 characters; auto-named `<resource name>-<suffix>` when left out. Changing it takes a new snapshot (which replaces the old one). */
  label?: string;
  /** `successful` once taken (`pending`, `running`, `needsPostProcessing` before; `failed`, `userAborted`). */
  status?: "paused" | "pending" | "running" | "needsPostProcessing" | "successful" | "failed" | "userAborted";
  /** `snapshot`. */
  type?: string;
  /** False while the backup is under maintenance (it cannot be restored then). */
  available?: boolean;
  /** The labels of the configuration profiles in the snapshot. */
  configs?: string[];
  /** The disks in the snapshot: `label`, `size` (MB), `filesystem`. */
  disks?: { label: string; size: number; filesystem: string }[];
  /** When the snapshot was started. */
  created?: string;
  /** When it finished, or null. */
  finished?: string | null;
  /** When it last changed. */
  updated?: string;
}

/** VPC as the API shows it: the resource's outputs (`Vpc`). */
export interface VpcInfo {
  /** The VPC's id, as a string (the Pulumi id of the resource: `Vpc.get(name, id)`). */
  id: string;
  /** 1..64 ASCII letters, digits and hyphens (no `--`); unique among your VPCs. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** At most 255 characters. Changed in place. */
  description?: string;
  /** Region id (one with VPC support). Changing it replaces the VPC. */
  region?: string;
  /** When the VPC was created. */
  created?: string;
  /** When it last changed. */
  updated?: string;
}

/** Subnet as the API shows it: the resource's outputs (`Subnet`). */
export interface SubnetInfo {
  /** The subnet's id, as a string (the Pulumi id of the resource: `Subnet.get(name, id)`). */
  id: string;
  /** 1..64 ASCII letters, digits and hyphens (no `--`); unique in the VPC. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** IPv4 range in canonical CIDR form inside RFC 1918, prefix /1../29, not overlapping 192.168.128.0/17 nor another subnet of the VPC (checked at preview against the program's other subnets where known). Changing it replaces the subnet. */
  ipv4?: string;
  /** The instances in the subnet: `[{ id, interfaces: [{ id, active, configId }] }]`. */
  computes?: { id: number; interfaces: { id: number; active: boolean; configId: number }[] }[];
  /** When the subnet was created. */
  created?: string;
  /** When it last changed. */
  updated?: string;
}

/** MySQL database as the API shows it: the resource's outputs (`MysqlDatabase`). */
export interface MysqlDatabaseInfo {
  /** The MySQL database's id, as a string (the Pulumi id of the resource: `MysqlDatabase.get(name, id)`). */
  id: string;
  /** 3..32 characters, unique among your databases; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** Region id (one offering managed databases). Changing it replaces the cluster (a new, empty one). */
  region?: string;
  /** Instance type of the nodes. Changed in place, to a type with more disk only: a smaller one is refused at preview. */
  type?: string;
  /** `engine/version`. Versions are never upgraded in place: changing it replaces the cluster. */
  engine?: string;
  /** 1 node, or 3 (a primary and two replicas). Changing it replaces the cluster. */
  clusterSize?: 1 | 3;
  /** Encryption at rest (default false). Changing it replaces the cluster. */
  encrypted?: boolean;
  /** Require SSL to connect (default true). Changing it replaces the cluster. */
  sslConnection?: boolean;
  /** `none`, `asynch`, `semi_synch`: `none` for one node, another for three. Changing it replaces the cluster. */
  replicationType?: "none" | "asynch" | "semi_synch";
  /** IP addresses and CIDR ranges that may connect; empty blocks everything, `0.0.0.0/0` admits all. Changed in place (the provider waits until it is applied). */
  allowList?: string[];
  /** Maintenance window: `frequency` (`weekly`, `monthly`), `duration` (1..3 h), `hourOfDay` (0..23), `dayOfWeek` (1..7), `weekOfMonth` (1..4, monthly). Changed in place. */
  updates?: { frequency?: "weekly" | "monthly"; duration?: number; hourOfDay?: number; dayOfWeek?: number; weekOfMonth?: number | null };
  /** `provisioning`, `active`, `updating`, `backing_up`, `restoring`, `failed`, ... */
  status?: string;
  /** `primary` and `secondary` host names (set when provisioning completes); `standby` where the API names the replicas' host so (its current platform). */
  hosts?: { primary: string | null; secondary: string | null; standby?: string | null };
  /** The port to connect to. */
  port?: number;
  /** The engine version. */
  version?: string;
  /** Disk size in GB. */
  totalDiskSizeGb?: number;
  /** Disk used in GB. */
  usedDiskSizeGb?: number;
  /** When the cluster was created. */
  created?: string;
  /** When it last changed. */
  updated?: string;
  /** What it costs an hour: the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`), from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  hourlyPrice?: number;
  /** What it costs a month: the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`), from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  monthlyPrice?: number;
}

/** PostgreSQL database as the API shows it: the resource's outputs (`PostgresDatabase`). */
export interface PostgresDatabaseInfo {
  /** The PostgreSQL database's id, as a string (the Pulumi id of the resource: `PostgresDatabase.get(name, id)`). */
  id: string;
  /** 3..32 characters, unique among your databases; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** Region id (one offering managed databases). Changing it replaces the cluster (a new, empty one). */
  region?: string;
  /** Instance type of the nodes. Changed in place, to a type with more disk only: a smaller one is refused at preview. */
  type?: string;
  /** `engine/version`. Versions are never upgraded in place: changing it replaces the cluster. */
  engine?: string;
  /** 1 node, or 3 (a primary and two replicas). Changing it replaces the cluster. */
  clusterSize?: 1 | 3;
  /** Encryption at rest (default false). Changing it replaces the cluster. */
  encrypted?: boolean;
  /** Require SSL to connect (default true). Changing it replaces the cluster. */
  sslConnection?: boolean;
  /** `none`, `asynch`: `none` for one node, another for three. Changing it replaces the cluster. */
  replicationType?: "none" | "asynch";
  /** Synchronization level of the replicas (default `local`). Changing it replaces the cluster. */
  replicationCommitType?: "on" | "local" | "remote_write" | "remote_apply" | "off";
  /** IP addresses and CIDR ranges that may connect; empty blocks everything, `0.0.0.0/0` admits all. Changed in place (the provider waits until it is applied). */
  allowList?: string[];
  /** Maintenance window: `frequency` (`weekly`, `monthly`), `duration` (1..3 h), `hourOfDay` (0..23), `dayOfWeek` (1..7), `weekOfMonth` (1..4, monthly). Changed in place. */
  updates?: { frequency?: "weekly" | "monthly"; duration?: number; hourOfDay?: number; dayOfWeek?: number; weekOfMonth?: number | null };
  /** `provisioning`, `active`, `updating`, `backing_up`, `restoring`, `failed`, ... */
  status?: string;
  /** `primary` and `secondary` host names (set when provisioning completes); `standby` where the API names the replicas' host so (its current platform). */
  hosts?: { primary: string | null; secondary: string | null; standby?: string | null };
  /** The port to connect to. */
  port?: number;
  /** The engine version. */
  version?: string;
  /** Disk size in GB. */
  totalDiskSizeGb?: number;
  /** Disk used in GB. */
  usedDiskSizeGb?: number;
  /** When the cluster was created. */
  created?: string;
  /** When it last changed. */
  updated?: string;
  /** What it costs an hour: the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`), from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  hourlyPrice?: number;
  /** What it costs a month: the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`), from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  monthlyPrice?: number;
}

/** MySQL snapshot as the API shows it: the resource's outputs (`MysqlDatabaseSnapshot`). */
export interface MysqlDatabaseSnapshotInfo {
  /** The MySQL snapshot's id, as a string (the Pulumi id of the resource: `MysqlDatabaseSnapshot.get(name, id)`). */
  id: string;
  /** 1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot. */
  label?: string;
  /** `snapshot`. */
  type?: string;
  /** When the snapshot was started. */
  created?: string;
}

/** PostgreSQL snapshot as the API shows it: the resource's outputs (`PostgresDatabaseSnapshot`). */
export interface PostgresDatabaseSnapshotInfo {
  /** The PostgreSQL snapshot's id, as a string (the Pulumi id of the resource: `PostgresDatabaseSnapshot.get(name, id)`). */
  id: string;
  /** 1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot. */
  label?: string;
  /** `snapshot`. */
  type?: string;
  /** When the snapshot was started. */
  created?: string;
}

/** SSH key as the API shows it: the resource's outputs (`SshKey`). */
export interface SshKeyInfo {
  /** The SSH key's id, as a string (the Pulumi id of the resource: `SshKey.get(name, id)`). */
  id: string;
  /** A label for the key, at most 64 characters (auto-named `<resource name>-<suffix>` when left out). Changed in place. */
  label?: string;
  /** The public key, in OpenSSH format (`ssh-ed25519 AAAA... comment`). Changing it replaces the key. */
  sshKey?: string;
  /** When the key was added (ISO 8601, UTC). */
  created?: string;
}

/** Token as the API shows it: the resource's outputs (`Token`). */
export interface TokenInfo {
  /** The token's id, as a string (the Pulumi id of the resource: `Token.get(name, id)`). */
  id: string;
  /** 1..100 characters, display only; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: string;
  /** The OAuth scopes, separated by spaces (`computes:read_only databases:read_write`), or `*` for all: at most those of the token the provider acts with (the API refuses more, naming `scopes`). The API fixes them at creation: changing them replaces the token. */
  scopes?: string;
  /** When the token stops working, an ISO 8601 date-time in the future (kept as the API writes it: UTC, to the second, no zone); left out, it works until revoked. Tokens cannot be renewed: changing it replaces the token. */
  expiry?: string;
  /** When the token was created. */
  created?: string;
}

/** An address of a VPC: an interface's address (or range) in a subnet. */
export interface VpcIp {
  /** The IPv4 address, or null for a range. */
  address?: string | null;
  /** The range (for an interface's `ipRanges`), or null. */
  addressRange?: string | null;
  /** The VPC. */
  vpcId?: number;
  /** The subnet. */
  subnetId?: number;
  /** The VPC's region. */
  region?: string;
  /** The instance. */
  computeId?: number;
  /** The instance's profile. */
  configId?: number;
  /** The interface. */
  interfaceId?: number;
  /** Whether the profile is the one booted. */
  active?: boolean;
  /** The public 1:1 NAT address, or null. */
  nat11?: string | null;
  /** The subnet's gateway. */
  gateway?: string;
  /** The subnet's prefix length. */
  prefix?: number;
  /** The subnet mask. */
  subnetMask?: string;
}

/** A database engine version a cluster can run. */
export interface DatabaseEngine {
  /** `engine/version`, e.g. `mysql/8.0.35`: a database's `engine`. */
  id: string;
  /** `mysql` or `postgresql`. */
  engine?: string;
  /** The version. */
  version?: string;
  /** Total disk size (GB). */
  totalDiskSizeGb?: number;
  /** Used disk size (GB). */
  usedDiskSizeGb?: number;
}

/** An instance type, with its sizes and prices. */
export interface InstanceType {
  /** The type's id, e.g. `c1-standard-2`. */
  id: string;
  /** Its display name. */
  label: string;
  /** `nanode`, `standard`, `dedicated`, `premium`, `gpu` or `highmem`. */
  class: "nanode" | "standard" | "dedicated" | "premium" | "gpu" | "highmem";
  /** Disk size in MB. */
  disk: number;
  /** Memory in MB. */
  memory: number;
  /** Virtual CPUs. */
  vcpus: number;
  /** GPUs. */
  gpus: number;
  /** Outbound bandwidth in Mbit/s. */
  networkOut: number;
  /** Monthly transfer in GB. */
  transfer: number;
  /** `hourly` and `monthly` prices. */
  price: { hourly: number; monthly: number };
  /** Prices that differ by region (`id`, `hourly`, `monthly`). */
  regionPrices: { id: string; hourly: number; monthly: number }[];
  /** Add-on prices (`backups`). */
  addons: { backups: { price: { hourly: number; monthly: number }; regionPrices: { id: string; hourly: number; monthly: number }[] } };
  /** The type a mutate upgrades to, or null. */
  successor: string | null;
}

/** A region where resources can be made. */
export interface Region {
  /** The region's id, e.g. `us-east`. */
  id: string;
  /** Its display name. */
  label: string;
  /** Its country code. */
  country: string;
  /** What it offers, e.g. `Metadata`, `VPCs`. */
  capabilities: string[];
  /** `ok` or `outage`. */
  status: "ok" | "outage";
  /** Its DNS resolvers (`ipv4`, `ipv6`). */
  resolvers: { ipv4: string; ipv6: string };
  /** `core` or `distributed` (the real API's field; the spec's table does not list it). */
  siteType: string;
}

/** Whether a plan (an instance type of the premium or gpu class) can be bought in a region now. */
export interface RegionAvailability {
  /** The region's id. */
  region: string;
  /** The instance type's id, e.g. `c1-premium-4`. */
  plan: string;
  /** Whether the plan can be bought in the region now. */
  available: boolean;
}

/** A kernel an instance config can boot. */
export interface Kernel {
  /** The kernel's id, e.g. `compute/latest-64bit`. */
  id: string;
  /** Its display name. */
  label: string;
  /** Its version. */
  version: string;
  /** `x86_64` or `i386`. */
  architecture: "x86_64" | "i386";
  /** When it was built. */
  built: string;
  /** Whether it is deprecated. */
  deprecated: boolean;
  /** Whether it supports KVM. */
  kvm: boolean;
  /** Whether it supports paravirtualization. */
  pvops: boolean;
}

/** A public image, or a private one of the token's account. */
export interface ImageInfo {
  /** The image's id, e.g. `compute/debian12` or `private/12`. */
  id: string;
  /** Its display name. */
  label: string;
  /** Its description, or null. */
  description: string | null;
  /** What it supports, e.g. `cloud-init`. */
  capabilities: string[];
  /** When it was made. */
  created: string;
  /** When it last changed. */
  updated: string;
  /** `compute` for public images, else the user. */
  createdBy: string;
  /** Whether it is deprecated. */
  deprecated: boolean;
  /** End of life, or null. */
  eol: string | null;
  /** When it expires, or null. */
  expiry: string | null;
  /** Whether it is public. */
  isPublic: boolean;
  /** Size in MB. */
  size: number;
  /** `creating`, `pending_upload` or `available`. */
  status: "creating" | "pending_upload" | "available";
  /** `manual` or `automatic`. */
  type: "manual" | "automatic";
  /** The vendor, or null. */
  vendor: string | null;
  /** Its tags (the real API's field; the spec's table does not list it). */
  tags: string[];
}

/** The profile of the user the token acts for. */
export interface Profile {
  /** The login name. */
  username: string;
  /** The user's id; it never changes. */
  uid: number;
  /** The email address. */
  email: string;
  /** Whether notices are sent by email. */
  emailNotifications: boolean;
  /** The preferred time zone (the API writes times in UTC). */
  timezone: string;
  /** Whether the user acts within grants (`getProfile` tells; the grants are read elsewhere). */
  restricted: boolean;
  /** Whether logins from untrusted computers need a second factor. */
  twoFactorAuth: boolean;
  /** Deprecated. */
  ipWhitelistEnabled: boolean;
  /** `password_keys`, `keys_only` or `disabled`. */
  consoleAuthMethod: "password_keys" | "keys_only" | "disabled";
  /** SSH keys authorized for the console shell, or null. */
  authorizedKeys: string[] | null;
  /** `password`, or the name of an external identity provider. */
  authenticationType: string;
  /** The verified phone number, or null. */
  verifiedPhoneNumber: string | null;
  /** `code`, `url`, `completed`, `pending`, `total`, `credit`. */
  referrals: { code: string; url: string; completed: number; pending: number; total: number; credit: number };
}

/** What the user the token acts for may do: the account-wide grants and the grants on each entity. An unrestricted user (the API answers `204 No Content`) may do everything: `restricted` false, every global grant, empty entity lists. */
export interface ProfileGrants {
  /** Whether the user acts within these grants (false: an unrestricted user, who may do everything). */
  restricted: boolean;
  /** The account-wide grants: `accountAccess` and the `add...` grants (what the user may create). */
  global: {
    accountAccess: string | null;
    addDatabases: boolean;
    addDomains: boolean;
    addFirewalls: boolean;
    addImages: boolean;
    addComputes: boolean;
    addMonitoring: boolean;
    addNodebalancers: boolean;
    addScripts: boolean;
    addVolumes: boolean;
    addVpcs: boolean;
    cancelAccount: boolean;
    childAccountAccess: boolean;
    monitoringSubscription: boolean;
  };
  /** The user's grants on instances: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  compute: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on database clusters: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  database: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on domains: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  domain: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on images: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  image: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on monitors: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  monitoring: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on NodeBalancers: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  nodebalancer: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on deployment scripts: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  script: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on volumes: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  volume: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on VPCs: `id`, `label`, `permissions` (`read_only`, `read_write` or null). Empty for an unrestricted user. */
  vpc: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
  /** The user's grants on firewalls (the real API's record has them; the spec does not list them): `id`, `label`, `permissions`. */
  firewall?: Array<{ id: number; label: string; permissions: "read_only" | "read_write" | null }>;
}

/** What a resource costs, in US dollars. */
export interface Price {
  /** An hour. */
  hourly: number;
  /** A month. */
  monthly: number;
}

export interface GetInstancesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, region, type, label, group, tags, watchdogEnabled, booted, image, swapSize, status, ipv4, ipv6, hypervisor, hostUuid, hasUserData, vpcIpv4, bootConfigId, created, updated, hourlyPrice, monthlyPrice. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetInstancesResult {
  instances: InstanceInfo[];
}
/** The instances of the account, filtered and ordered. Every page is read; filters and order apply on the client. */
export function getInstances(args?: GetInstancesArgs, opts?: ReadOptions): Promise<GetInstancesResult> {
  checkFieldNames("getInstances", { ...args });
  return runFunction("getInstances", { ...args }, opts) as Promise<unknown> as Promise<GetInstancesResult>;
}
/** The instances of the account, filtered and ordered. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getInstancesOutput(args?: Inputs<GetInstancesArgs>, opts?: ReadOutputOptions): pulumi.Output<GetInstancesResult> {
  checkFieldNames("getInstances", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getInstances(a as GetInstancesArgs, opts));
}

export interface GetDisksArgs {
  /** The instance's id. */
  computeId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, size, label, filesystem, image, status, created, updated. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetDisksResult {
  disks: DiskInfo[];
}
/** The disks of an instance. Every page is read; filters and order apply on the client. */
export function getDisks(args: GetDisksArgs, opts?: ReadOptions): Promise<GetDisksResult> {
  checkFieldNames("getDisks", { ...args });
  return runFunction("getDisks", { ...args }, opts) as Promise<unknown> as Promise<GetDisksResult>;
}
/** The disks of an instance. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getDisksOutput(args: Inputs<GetDisksArgs>, opts?: ReadOutputOptions): pulumi.Output<GetDisksResult> {
  checkFieldNames("getDisks", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getDisks(a as GetDisksArgs, opts));
}

export interface GetConfigsArgs {
  /** The instance's id. */
  computeId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, kernel, memoryLimit, rootDevice, runLevel, virtMode, comments, interfaces. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetConfigsResult {
  configs: ConfigInfo[];
}
/** The configuration profiles of an instance. Every page is read; filters and order apply on the client. */
export function getConfigs(args: GetConfigsArgs, opts?: ReadOptions): Promise<GetConfigsResult> {
  checkFieldNames("getConfigs", { ...args });
  return runFunction("getConfigs", { ...args }, opts) as Promise<unknown> as Promise<GetConfigsResult>;
}
/** The configuration profiles of an instance. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getConfigsOutput(args: Inputs<GetConfigsArgs>, opts?: ReadOutputOptions): pulumi.Output<GetConfigsResult> {
  checkFieldNames("getConfigs", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getConfigs(a as GetConfigsArgs, opts));
}

export interface GetInterfacesArgs {
  /** The instance's id. */
  computeId: number | string;
  /** The profile's id. */
  configId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, purpose, label, ipamAddress, primary, subnetId, ipRanges, vpcId, active. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetInterfacesResult {
  interfaces: InterfaceInfo[];
}
/** The interfaces of an instance's profile, in order. Every page is read; filters and order apply on the client. */
export function getInterfaces(args: GetInterfacesArgs, opts?: ReadOptions): Promise<GetInterfacesResult> {
  checkFieldNames("getInterfaces", { ...args });
  return runFunction("getInterfaces", { ...args }, opts) as Promise<unknown> as Promise<GetInterfacesResult>;
}
/** The interfaces of an instance's profile, in order. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getInterfacesOutput(args: Inputs<GetInterfacesArgs>, opts?: ReadOutputOptions): pulumi.Output<GetInterfacesResult> {
  checkFieldNames("getInterfaces", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getInterfaces(a as GetInterfacesArgs, opts));
}

export interface GetInstanceBackupsArgs {
  /** The instance's id. */
  computeId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, status, type, available, configs, created, finished, updated. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetInstanceBackupsResult {
  backups: InstanceSnapshotInfo[];
}
/** The backups of an instance: the automatic ones, and the snapshot under way and the current one. Every page is read; filters and order apply on the client. */
export function getInstanceBackups(args: GetInstanceBackupsArgs, opts?: ReadOptions): Promise<GetInstanceBackupsResult> {
  checkFieldNames("getInstanceBackups", { ...args });
  return runFunction("getInstanceBackups", { ...args }, opts) as Promise<unknown> as Promise<GetInstanceBackupsResult>;
}
/** The backups of an instance: the automatic ones, and the snapshot under way and the current one. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getInstanceBackupsOutput(args: Inputs<GetInstanceBackupsArgs>, opts?: ReadOutputOptions): pulumi.Output<GetInstanceBackupsResult> {
  checkFieldNames("getInstanceBackups", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getInstanceBackups(a as GetInstanceBackupsArgs, opts));
}

export interface GetVpcsArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, description, region, created, updated. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetVpcsResult {
  vpcs: VpcInfo[];
}
/** The VPCs of the account. Every page is read; filters and order apply on the client. */
export function getVpcs(args?: GetVpcsArgs, opts?: ReadOptions): Promise<GetVpcsResult> {
  checkFieldNames("getVpcs", { ...args });
  return runFunction("getVpcs", { ...args }, opts) as Promise<unknown> as Promise<GetVpcsResult>;
}
/** The VPCs of the account. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getVpcsOutput(args?: Inputs<GetVpcsArgs>, opts?: ReadOutputOptions): pulumi.Output<GetVpcsResult> {
  checkFieldNames("getVpcs", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getVpcs(a as GetVpcsArgs, opts));
}

export interface GetSubnetsArgs {
  /** The VPC's id. */
  vpcId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, ipv4, created, updated. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetSubnetsResult {
  subnets: SubnetInfo[];
}
/** The subnets of a VPC. Every page is read; filters and order apply on the client. */
export function getSubnets(args: GetSubnetsArgs, opts?: ReadOptions): Promise<GetSubnetsResult> {
  checkFieldNames("getSubnets", { ...args });
  return runFunction("getSubnets", { ...args }, opts) as Promise<unknown> as Promise<GetSubnetsResult>;
}
/** The subnets of a VPC. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getSubnetsOutput(args: Inputs<GetSubnetsArgs>, opts?: ReadOutputOptions): pulumi.Output<GetSubnetsResult> {
  checkFieldNames("getSubnets", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getSubnets(a as GetSubnetsArgs, opts));
}

export interface GetMysqlDatabasesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, region, type, engine, clusterSize, encrypted, sslConnection, replicationType, allowList, status, port, version, totalDiskSizeGb, usedDiskSizeGb, created, updated, hourlyPrice, monthlyPrice. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetMysqlDatabasesResult {
  databases: MysqlDatabaseInfo[];
}
/** The MySQL clusters of the account. Every page is read; filters and order apply on the client. */
export function getMysqlDatabases(args?: GetMysqlDatabasesArgs, opts?: ReadOptions): Promise<GetMysqlDatabasesResult> {
  checkFieldNames("getMysqlDatabases", { ...args });
  return runFunction("getMysqlDatabases", { ...args }, opts) as Promise<unknown> as Promise<GetMysqlDatabasesResult>;
}
/** The MySQL clusters of the account. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getMysqlDatabasesOutput(args?: Inputs<GetMysqlDatabasesArgs>, opts?: ReadOutputOptions): pulumi.Output<GetMysqlDatabasesResult> {
  checkFieldNames("getMysqlDatabases", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getMysqlDatabases(a as GetMysqlDatabasesArgs, opts));
}

export interface GetPostgresDatabasesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, region, type, engine, clusterSize, encrypted, sslConnection, replicationType, replicationCommitType, allowList, status, port, version, totalDiskSizeGb, usedDiskSizeGb, created, updated, hourlyPrice, monthlyPrice. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetPostgresDatabasesResult {
  databases: PostgresDatabaseInfo[];
}
/** The PostgreSQL clusters of the account. Every page is read; filters and order apply on the client. */
export function getPostgresDatabases(args?: GetPostgresDatabasesArgs, opts?: ReadOptions): Promise<GetPostgresDatabasesResult> {
  checkFieldNames("getPostgresDatabases", { ...args });
  return runFunction("getPostgresDatabases", { ...args }, opts) as Promise<unknown> as Promise<GetPostgresDatabasesResult>;
}
/** The PostgreSQL clusters of the account. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getPostgresDatabasesOutput(args?: Inputs<GetPostgresDatabasesArgs>, opts?: ReadOutputOptions): pulumi.Output<GetPostgresDatabasesResult> {
  checkFieldNames("getPostgresDatabases", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getPostgresDatabases(a as GetPostgresDatabasesArgs, opts));
}

export interface GetMysqlDatabaseBackupsArgs {
  /** The MySQL database's id. */
  databaseId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, type, created. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetMysqlDatabaseBackupsResult {
  backups: MysqlDatabaseSnapshotInfo[];
}
/** The backups of a MySQL cluster: daily automatic ones and snapshots. Every page is read; filters and order apply on the client. */
export function getMysqlDatabaseBackups(args: GetMysqlDatabaseBackupsArgs, opts?: ReadOptions): Promise<GetMysqlDatabaseBackupsResult> {
  checkFieldNames("getMysqlDatabaseBackups", { ...args });
  return runFunction("getMysqlDatabaseBackups", { ...args }, opts) as Promise<unknown> as Promise<GetMysqlDatabaseBackupsResult>;
}
/** The backups of a MySQL cluster: daily automatic ones and snapshots. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getMysqlDatabaseBackupsOutput(
  args: Inputs<GetMysqlDatabaseBackupsArgs>,
  opts?: ReadOutputOptions,
): pulumi.Output<GetMysqlDatabaseBackupsResult> {
  checkFieldNames("getMysqlDatabaseBackups", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getMysqlDatabaseBackups(a as GetMysqlDatabaseBackupsArgs, opts));
}

export interface GetPostgresDatabaseBackupsArgs {
  /** The PostgreSQL database's id. */
  databaseId: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, type, created. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetPostgresDatabaseBackupsResult {
  backups: PostgresDatabaseSnapshotInfo[];
}
/** The backups of a PostgreSQL cluster: daily automatic ones and snapshots. Every page is read; filters and order apply on the client. */
export function getPostgresDatabaseBackups(args: GetPostgresDatabaseBackupsArgs, opts?: ReadOptions): Promise<GetPostgresDatabaseBackupsResult> {
  checkFieldNames("getPostgresDatabaseBackups", { ...args });
  return runFunction("getPostgresDatabaseBackups", { ...args }, opts) as Promise<unknown> as Promise<GetPostgresDatabaseBackupsResult>;
}
/** The backups of a PostgreSQL cluster: daily automatic ones and snapshots. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getPostgresDatabaseBackupsOutput(
  args: Inputs<GetPostgresDatabaseBackupsArgs>,
  opts?: ReadOutputOptions,
): pulumi.Output<GetPostgresDatabaseBackupsResult> {
  checkFieldNames("getPostgresDatabaseBackups", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getPostgresDatabaseBackups(a as GetPostgresDatabaseBackupsArgs, opts));
}

export interface GetSshKeysArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, sshKey, created. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetSshKeysResult {
  sshKeys: SshKeyInfo[];
}
/** The SSH keys of the profile. Every page is read; filters and order apply on the client. */
export function getSshKeys(args?: GetSshKeysArgs, opts?: ReadOptions): Promise<GetSshKeysResult> {
  checkFieldNames("getSshKeys", { ...args });
  return runFunction("getSshKeys", { ...args }, opts) as Promise<unknown> as Promise<GetSshKeysResult>;
}
/** The SSH keys of the profile. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getSshKeysOutput(args?: Inputs<GetSshKeysArgs>, opts?: ReadOutputOptions): pulumi.Output<GetSshKeysResult> {
  checkFieldNames("getSshKeys", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getSshKeys(a as GetSshKeysArgs, opts));
}

export interface GetTokensArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, scopes, expiry, created. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetTokensResult {
  tokens: TokenInfo[];
}
/** The personal access tokens of the profile (their values are never listed). Every page is read; filters and order apply on the client. */
export function getTokens(args?: GetTokensArgs, opts?: ReadOptions): Promise<GetTokensResult> {
  checkFieldNames("getTokens", { ...args });
  return runFunction("getTokens", { ...args }, opts) as Promise<unknown> as Promise<GetTokensResult>;
}
/** The personal access tokens of the profile (their values are never listed). The Output form: takes Outputs (of other resources) and returns an Output. */
export function getTokensOutput(args?: Inputs<GetTokensArgs>, opts?: ReadOutputOptions): pulumi.Output<GetTokensResult> {
  checkFieldNames("getTokens", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getTokens(a as GetTokensArgs, opts));
}

export interface GetVpcIpsArgs {
  /** The VPC's id. */
  vpcId?: number | string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: address, addressRange, vpcId, subnetId, region, computeId, configId, interfaceId, active, nat11, gateway, prefix, subnetMask. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetVpcIpsResult {
  ips: VpcIp[];
}
/** The addresses of a VPC (`vpcId`), or of every VPC of the account when it is left out. Every page is read; filters and order apply on the client. */
export function getVpcIps(args?: GetVpcIpsArgs, opts?: ReadOptions): Promise<GetVpcIpsResult> {
  checkFieldNames("getVpcIps", { ...args });
  return runFunction("getVpcIps", { ...args }, opts) as Promise<unknown> as Promise<GetVpcIpsResult>;
}
/** The addresses of a VPC (`vpcId`), or of every VPC of the account when it is left out. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getVpcIpsOutput(args?: Inputs<GetVpcIpsArgs>, opts?: ReadOutputOptions): pulumi.Output<GetVpcIpsResult> {
  checkFieldNames("getVpcIps", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getVpcIps(a as GetVpcIpsArgs, opts));
}

export interface GetDatabaseEnginesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, engine, version, totalDiskSizeGb, usedDiskSizeGb. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetDatabaseEnginesResult {
  engines: DatabaseEngine[];
}
/** The engine versions a database cluster can run (its `engine`). Every page is read; filters and order apply on the client. */
export function getDatabaseEngines(args?: GetDatabaseEnginesArgs, opts?: ReadOptions): Promise<GetDatabaseEnginesResult> {
  checkFieldNames("getDatabaseEngines", { ...args });
  return runFunction("getDatabaseEngines", { ...args }, opts) as Promise<unknown> as Promise<GetDatabaseEnginesResult>;
}
/** The engine versions a database cluster can run (its `engine`). The Output form: takes Outputs (of other resources) and returns an Output. */
export function getDatabaseEnginesOutput(args?: Inputs<GetDatabaseEnginesArgs>, opts?: ReadOutputOptions): pulumi.Output<GetDatabaseEnginesResult> {
  checkFieldNames("getDatabaseEngines", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getDatabaseEngines(a as GetDatabaseEnginesArgs, opts));
}

export interface GetDatabaseTypesArgs {
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: id, label, class, disk, memory, vcpus, gpus, networkOut, transfer, successor. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetDatabaseTypesResult {
  types: InstanceType[];
}
/** The instance types a database cluster's nodes can be (its `type`): the compute types, which the API also uses for clusters. Every page is read; filters and order apply on the client. */
export function getDatabaseTypes(args?: GetDatabaseTypesArgs, opts?: ReadOptions): Promise<GetDatabaseTypesResult> {
  checkFieldNames("getDatabaseTypes", { ...args });
  return runFunction("getDatabaseTypes", { ...args }, opts) as Promise<unknown> as Promise<GetDatabaseTypesResult>;
}
/** The instance types a database cluster's nodes can be (its `type`): the compute types, which the API also uses for clusters. The Output form: takes Outputs (of other resources) and returns an Output. */
export function getDatabaseTypesOutput(args?: Inputs<GetDatabaseTypesArgs>, opts?: ReadOutputOptions): pulumi.Output<GetDatabaseTypesResult> {
  checkFieldNames("getDatabaseTypes", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getDatabaseTypes(a as GetDatabaseTypesArgs, opts));
}

export interface GetRegionAvailabilityArgs {
  /** Only this region's plans (an unknown region fails, naming it). */
  regionId?: string;
  /** Keep the items that match every filter. */
  filters?: Filter[];
  /** Sort by this field of the items: region, plan, available. */
  orderBy?: string;
  order?: "asc" | "desc";
}
export interface GetRegionAvailabilityResult {
  availability: RegionAvailability[];
}
/** Where the plans sold only in some regions (the premium and gpu instance types) can be bought now: an item per region and plan (`/regions/availability`), or those of the region `regionId` only (`/regions/{regionId}/availability`, which the API answers with a plain list). Every page is read; filters and order apply on the client. */
export function getRegionAvailability(args?: GetRegionAvailabilityArgs, opts?: ReadOptions): Promise<GetRegionAvailabilityResult> {
  checkFieldNames("getRegionAvailability", { ...args });
  return runFunction("getRegionAvailability", { ...args }, opts) as Promise<unknown> as Promise<GetRegionAvailabilityResult>;
}
/** Where the plans sold only in some regions (the premium and gpu instance types) can be bought now: an item per region and plan (`/regions/availability`), or those of the region `regionId` only (`/regions/{regionId}/availability`, which the API answers with a plain list). The Output form: takes Outputs (of other resources) and returns an Output. */
export function getRegionAvailabilityOutput(args?: Inputs<GetRegionAvailabilityArgs>, opts?: ReadOutputOptions): pulumi.Output<GetRegionAvailabilityResult> {
  checkFieldNames("getRegionAvailability", { ...args });
  return pulumi.all([pulumi.output(args ?? {}), afterDependencies(opts)]).apply(([a]) => getRegionAvailability(a as GetRegionAvailabilityArgs, opts));
}
