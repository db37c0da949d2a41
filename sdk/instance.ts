// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import type { InterfaceArgs, CloneSourceArgs, InstanceRestore, InterfaceArgsPurpose } from "./types";
import provider = require("./providers/instance");

/** The values of `InstanceBackupScheduleDay`. */
export const InstanceBackupScheduleDay = {
  Scheduling: "Scheduling",
  Sunday: "Sunday",
  Monday: "Monday",
  Tuesday: "Tuesday",
  Wednesday: "Wednesday",
  Thursday: "Thursday",
  Friday: "Friday",
  Saturday: "Saturday",
} as const;
export type InstanceBackupScheduleDay = (typeof InstanceBackupScheduleDay)[keyof typeof InstanceBackupScheduleDay];

/** The values of `InstanceBackupScheduleWindow`. */
export const InstanceBackupScheduleWindow = {
  Scheduling: "Scheduling",
  W0: "W0",
  W2: "W2",
  W4: "W4",
  W6: "W6",
  W8: "W8",
  W10: "W10",
  W12: "W12",
  W14: "W14",
  W16: "W16",
  W18: "W18",
  W20: "W20",
  W22: "W22",
} as const;
export type InstanceBackupScheduleWindow = (typeof InstanceBackupScheduleWindow)[keyof typeof InstanceBackupScheduleWindow];

/** How a `type` change migrates: `cold` (default; shuts down first) or `warm`. The values of `InstanceMigrationType`. */
export const InstanceMigrationType = {
  Warm: "warm",
  Cold: "cold",
} as const;
export type InstanceMigrationType = (typeof InstanceMigrationType)[keyof typeof InstanceMigrationType];

/** The arguments of Instance: its inputs. */
export interface InstanceArgs {
  /** Region id (for example `us-east`). Changing it replaces the instance. */
  region: pulumi.Input<string>;
  /** Instance type id. Changed in place by a resize (see `migrationType`, `allowAutoDiskResize`); the provider waits for the resize to finish. */
  type: pulumi.Input<string>;
  /** 3..64 characters: letters, digits, `-`, `_`, `.`; unique among your instances. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** Deprecated group label. Changed in place. */
  group?: pulumi.Input<string>;
  /** Tags (3..50 characters each; unrestricted users only). Order does not matter. Changed in place. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** Alert thresholds (`cpu`, `io`, `networkIn`, `networkOut`, `transferQuota`); the ones left out keep the service's defaults. Changed in place. */
  alerts?: pulumi.Input<{
    cpu?: pulumi.Input<number>;
    io?: pulumi.Input<number>;
    networkIn?: pulumi.Input<number>;
    networkOut?: pulumi.Input<number>;
    transferQuota?: pulumi.Input<number>;
  }>;
  /** Reboot the instance when it powers off unexpectedly. Changed in place. */
  watchdogEnabled?: pulumi.Input<boolean>;
  /** When automatic backups run: `day` and two-hour `window` (`W0`..`W22`). Changed in place. */
  backupSchedule?: pulumi.Input<{ day?: pulumi.Input<string | InstanceBackupScheduleDay>; window?: pulumi.Input<string | InstanceBackupScheduleWindow> }>;
  /** The paid backup service. Changed in place (enable, or cancel: cancelling deletes every backup). */
  backupsEnabled?: pulumi.Input<boolean>;
  /** Whether the instance runs. When set, the provider keeps it so: changed in place by a boot or a shutdown, and `pulumi refresh` sees an instance shut down by hand. Left out, the power state is not managed (an image deploy boots). */
  booted?: pulumi.Input<boolean>;
  /** Image to deploy (`compute/...` or `private/...`). Changing it replaces the instance, or rebuilds it in place with `rebuildOnImageChange` (the disks are erased either way). */
  image?: pulumi.Input<string>;
  /** Root password for an image or script deploy: 7..128 characters, strong enough by the API's strength score (not a common password, word, name, repeat, sequence or keyboard pattern; 64 random lowercase letters and digits are). Generated (and kept as a secret output) when left out. Changed in place by a password reset, which shuts the instance down and boots it again. */
  rootPass?: pulumi.Input<string>;
  /** Public SSH keys for root. Create-only: changing them replaces the instance. */
  authorizedKeys?: pulumi.Input<pulumi.Input<string>[]>;
  /** Users whose profile SSH keys are added for root. Create-only. */
  authorizedUsers?: pulumi.Input<pulumi.Input<string>[]>;
  /** Deployment script to run (needs a compatible image). Create-only. */
  scriptId?: pulumi.Input<number>;
  /** Inputs of the deployment script (JSON). Secret. Create-only. */
  scriptData?: pulumi.Input<Record<string, unknown>>;
  /** Create from this backup of another instance. Create-only. */
  backupId?: pulumi.Input<number>;
  /** Swap disk size in MB for an image deploy (default 512): the size asked for at create, kept by refresh (a state that lacks it reads the swap disk once; a resize made outside Pulumi is not seen). Changed in place by resizing the swap disk (the instance is shut down and booted again), within the type's disk allowance; adding or removing the swap disk (0) is refused. */
  swapSize?: pulumi.Input<number>;
  /** 1..3 network interfaces (`purpose` `public`, `vlan` or `vpc`; index 0 is eth0). After create, a change updates the boot profile's interfaces and reboots the instance (interface changes take effect on reboot). Left out: the interfaces are not managed here. */
  interfaces?: pulumi.Input<pulumi.Input<InterfaceArgs>[]>;
  /** `userData`: base64 cloud-config (needs a cloud-init image and a region with the Metadata capability). Secret. Create-only. */
  metadata?: pulumi.Input<{ userData: pulumi.Input<string> }>;
  /** Firewall to attach at create. Create-only. */
  firewallId?: pulumi.Input<number>;
  /** Add a private IPv4 address. Create-only. */
  privateIp?: pulumi.Input<boolean>;
  /** Make the instance as a clone of another (`computeId`; `disks` and `configs` pick what to copy, else everything): its disks, profiles and tags, in this instance's `region` and `type`. Not with an image, a backup, a script, keys, a root password, `swapSize`, `interfaces` or `firewallId` (the clone copies the source's). A source made with user data needs `metadata`. The clone is offline until it boots (`booted: true`). Changing it makes a new clone. */
  cloneFrom?: pulumi.Input<CloneSourceArgs>;
  /** Restore a backup into this existing instance in place: `backupId` (a backup of this instance, from `getInstanceBackups` or an `InstanceSnapshot`'s id, or of the instance `sourceComputeId` names), `overwrite` (default false). **With `overwrite: true` every disk and configuration profile of the instance is deleted first** (Disk and Config resources of them are gone, and the root password becomes the backup's: a `rootPass` the program gives is set again); without it the backup's disks are added beside the instance's, which must have the room. Setting or changing it restores (same id and addresses); removing it restores nothing; the instance is then booted again as `booted` says. Refused at preview where the API refuses: another region, a backup not successful or under maintenance, an instance taking a backup, not enough free disk without `overwrite`. On a new instance nothing is restored (create from a backup with `backupId`). */
  restore?: pulumi.Input<InstanceRestore>;
  /** Take a snapshot of the instance in the same `up`, right before any change that can lose data: a rebuild (`image`), a resize (`type`), a root password reset, a swap disk resize, a `restore`, and a resize or delete of one of its Disk resources; the change waits until the snapshot is successful (a failed snapshot stops it). Each snapshot (labelled `pulumi-before-<change>-<time>`) takes the instance's one snapshot slot, replacing the one before: restore it with `restore` or a new instance's `backupId`. Needs `backupsEnabled: true`; an InstanceSnapshot of the same instance in the program is refused (one slot). */
  snapshotBeforeChange?: pulumi.Input<boolean>;
  /** How a `type` change migrates: `cold` (default; shuts down first) or `warm`. */
  migrationType?: pulumi.Input<string | InstanceMigrationType>;
  /** On a resize to a larger type, grow the data disk too (default true). */
  allowAutoDiskResize?: pulumi.Input<boolean>;
  /** Rebuild in place (same id and addresses, disks erased) instead of replacing the instance when `image` changes. */
  rebuildOnImageChange?: pulumi.Input<boolean>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 15m), `update` (default 60m), `delete` (default 10m). Pulumi's `customTimeouts` reach the plugin's resources only (where they win over this input), never the dynamic classes. */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string>; update?: pulumi.Input<string>; delete?: pulumi.Input<string> }>;
}

/** A compute instance (`/compute/instances`): deployed from an image, a deployment script or a backup, or created empty. Waits for the instance to be running (or offline) after create and after every change. A replacement makes the new instance before the old one (and its disks) is deleted. See docs/resources/instance.md. */
export class Instance extends pulumi.dynamic.Resource {
  /** Region id (for example `us-east`). Changing it replaces the instance. */
  declare readonly region: pulumi.Output<string>;
  /** Instance type id. Changed in place by a resize (see `migrationType`, `allowAutoDiskResize`); the provider waits for the resize to finish. */
  declare readonly type: pulumi.Output<string>;
  /** 3..64 characters: letters, digits, `-`, `_`, `.`; unique among your instances. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** Deprecated group label. Changed in place. */
  declare readonly group: pulumi.Output<string>;
  /** Tags (3..50 characters each; unrestricted users only). Order does not matter. Changed in place. */
  declare readonly tags: pulumi.Output<string[]>;
  /** Alert thresholds (`cpu`, `io`, `networkIn`, `networkOut`, `transferQuota`); the ones left out keep the service's defaults. Changed in place. */
  declare readonly alerts: pulumi.Output<{ cpu: number; io: number; networkIn: number; networkOut: number; transferQuota: number }>;
  /** Reboot the instance when it powers off unexpectedly. Changed in place. */
  declare readonly watchdogEnabled: pulumi.Output<boolean>;
  /** When automatic backups run: `day` and two-hour `window` (`W0`..`W22`). Changed in place. */
  declare readonly backupSchedule: pulumi.Output<{ day: InstanceBackupScheduleDay; window: InstanceBackupScheduleWindow }>;
  /** The paid backup service. Changed in place (enable, or cancel: cancelling deletes every backup). */
  declare readonly backupsEnabled: pulumi.Output<boolean>;
  /** Whether the instance runs. When set, the provider keeps it so: changed in place by a boot or a shutdown, and `pulumi refresh` sees an instance shut down by hand. Left out, the power state is not managed (an image deploy boots). */
  declare readonly booted: pulumi.Output<boolean>;
  /** Image to deploy (`compute/...` or `private/...`). Changing it replaces the instance, or rebuilds it in place with `rebuildOnImageChange` (the disks are erased either way). */
  declare readonly image: pulumi.Output<string | undefined>;
  /** Root password for an image or script deploy: 7..128 characters, strong enough by the API's strength score (not a common password, word, name, repeat, sequence or keyboard pattern; 64 random lowercase letters and digits are). Generated (and kept as a secret output) when left out. Changed in place by a password reset, which shuts the instance down and boots it again. */
  declare readonly rootPass: pulumi.Output<string | undefined>;
  /** Public SSH keys for root. Create-only: changing them replaces the instance. */
  declare readonly authorizedKeys: pulumi.Output<string[] | undefined>;
  /** Users whose profile SSH keys are added for root. Create-only. */
  declare readonly authorizedUsers: pulumi.Output<string[] | undefined>;
  /** Deployment script to run (needs a compatible image). Create-only. */
  declare readonly scriptId: pulumi.Output<number | undefined>;
  /** Inputs of the deployment script (JSON). Secret. Create-only. */
  declare readonly scriptData: pulumi.Output<Record<string, unknown> | undefined>;
  /** Create from this backup of another instance. Create-only. */
  declare readonly backupId: pulumi.Output<number | undefined>;
  /** Swap disk size in MB for an image deploy (default 512): the size asked for at create, kept by refresh (a state that lacks it reads the swap disk once; a resize made outside Pulumi is not seen). Changed in place by resizing the swap disk (the instance is shut down and booted again), within the type's disk allowance; adding or removing the swap disk (0) is refused. */
  declare readonly swapSize: pulumi.Output<number>;
  /** 1..3 network interfaces (`purpose` `public`, `vlan` or `vpc`; index 0 is eth0). After create, a change updates the boot profile's interfaces and reboots the instance (interface changes take effect on reboot). Left out: the interfaces are not managed here. */
  declare readonly interfaces: pulumi.Output<
    | {
        purpose: InterfaceArgsPurpose;
        label?: string;
        ipamAddress?: string;
        primary?: boolean;
        subnetId?: number;
        ipv4?: { vpc?: string; nat11?: string };
        ipRanges?: string[];
      }[]
    | undefined
  >;
  /** `userData`: base64 cloud-config (needs a cloud-init image and a region with the Metadata capability). Secret. Create-only. */
  declare readonly metadata: pulumi.Output<{ userData: string } | undefined>;
  /** Firewall to attach at create. Create-only. */
  declare readonly firewallId: pulumi.Output<number | undefined>;
  /** Add a private IPv4 address. Create-only. */
  declare readonly privateIp: pulumi.Output<boolean | undefined>;
  /** Make the instance as a clone of another (`computeId`; `disks` and `configs` pick what to copy, else everything): its disks, profiles and tags, in this instance's `region` and `type`. Not with an image, a backup, a script, keys, a root password, `swapSize`, `interfaces` or `firewallId` (the clone copies the source's). A source made with user data needs `metadata`. The clone is offline until it boots (`booted: true`). Changing it makes a new clone. */
  declare readonly cloneFrom: pulumi.Output<{ computeId: number; disks?: number[]; configs?: number[] } | undefined>;
  /** Restore a backup into this existing instance in place: `backupId` (a backup of this instance, from `getInstanceBackups` or an `InstanceSnapshot`'s id, or of the instance `sourceComputeId` names), `overwrite` (default false). **With `overwrite: true` every disk and configuration profile of the instance is deleted first** (Disk and Config resources of them are gone, and the root password becomes the backup's: a `rootPass` the program gives is set again); without it the backup's disks are added beside the instance's, which must have the room. Setting or changing it restores (same id and addresses); removing it restores nothing; the instance is then booted again as `booted` says. Refused at preview where the API refuses: another region, a backup not successful or under maintenance, an instance taking a backup, not enough free disk without `overwrite`. On a new instance nothing is restored (create from a backup with `backupId`). */
  declare readonly restore: pulumi.Output<{ backupId: number | string; sourceComputeId?: number; overwrite?: boolean } | undefined>;
  /** Take a snapshot of the instance in the same `up`, right before any change that can lose data: a rebuild (`image`), a resize (`type`), a root password reset, a swap disk resize, a `restore`, and a resize or delete of one of its Disk resources; the change waits until the snapshot is successful (a failed snapshot stops it). Each snapshot (labelled `pulumi-before-<change>-<time>`) takes the instance's one snapshot slot, replacing the one before: restore it with `restore` or a new instance's `backupId`. Needs `backupsEnabled: true`; an InstanceSnapshot of the same instance in the program is refused (one slot). */
  declare readonly snapshotBeforeChange: pulumi.Output<boolean | undefined>;
  /** How a `type` change migrates: `cold` (default; shuts down first) or `warm`. */
  declare readonly migrationType: pulumi.Output<InstanceMigrationType | undefined>;
  /** On a resize to a larger type, grow the data disk too (default true). */
  declare readonly allowAutoDiskResize: pulumi.Output<boolean | undefined>;
  /** Rebuild in place (same id and addresses, disks erased) instead of replacing the instance when `image` changes. */
  declare readonly rebuildOnImageChange: pulumi.Output<boolean | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 15m), `update` (default 60m), `delete` (default 10m). Pulumi's `customTimeouts` reach the plugin's resources only (where they win over this input), never the dynamic classes. */
  declare readonly timeouts: pulumi.Output<{ create?: string; update?: string; delete?: string } | undefined>;
  /** `running`, `offline`, `provisioning`, `booting`, `migrating`, ... As last read (made, updated or refreshed): a Config with `booted` (which boots the instance, or shuts it down), or a booted Config deleted changes it afterwards, and `pulumi refresh` (or `pulumi up --refresh`) reads it anew. */
  declare readonly status: pulumi.Output<string>;
  /** IPv4 addresses: the public one first, then the private one if any. */
  declare readonly ipv4: pulumi.Output<string[]>;
  /** SLAAC IPv6 address (/128), or null. */
  declare readonly ipv6: pulumi.Output<string | null>;
  /** `disk`, `memory` (MB), `vcpus`, `gpus`, `transfer`, and `acceleratedDevices` where the API reports it (the real API does; the spec's table does not list it). */
  declare readonly specs: pulumi.Output<{ disk: number; memory: number; vcpus: number; gpus: number; transfer: number; acceleratedDevices?: number }>;
  /** `kvm`. */
  declare readonly hypervisor: pulumi.Output<string>;
  /** The host machine (a resize migrates the instance to another). */
  declare readonly hostUuid: pulumi.Output<string>;
  /** Whether the instance was provisioned with user data. */
  declare readonly hasUserData: pulumi.Output<boolean>;
  /** Backup service state: `enabled`, `available`, `lastSuccessful`, `schedule`. */
  declare readonly backups: pulumi.Output<{
    enabled: boolean;
    available: boolean;
    lastSuccessful: string | null;
    schedule: { day: string | null; window: string | null };
  }>;
  /** The address of the instance's first vpc interface in its subnet (set when `interfaces` has one). */
  declare readonly vpcIpv4: pulumi.Output<string | undefined>;
  /** The configuration profile whose interfaces `interfaces` manages (set when `interfaces` is). */
  declare readonly bootConfigId: pulumi.Output<number | undefined>;
  /** When the instance was created. */
  declare readonly created: pulumi.Output<string>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;
  /** What it costs an hour: its type's price in its region (the region's own where the catalogue gives one), with the backups add-on's when `backupsEnabled`, from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  declare readonly hourlyPrice: pulumi.Output<number | undefined>;
  /** What it costs a month: its type's price in its region (the region's own where the catalogue gives one), with the backups add-on's when `backupsEnabled`, from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  declare readonly monthlyPrice: pulumi.Output<number | undefined>;

  /** Reads an existing Instance by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<InstanceArgs>, opts?: pulumi.CustomResourceOptions): Instance {
    return new Instance(name, (state ?? {}) as InstanceArgs, { ...opts, id });
  }

  constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Instance", name, args, opts), "compute", "Instance");
  }
}
