// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/disk");

/** `raw`, `swap`, `ext3`, `ext4` (default) or `initrd`. Changing it replaces the disk. The values of `DiskFilesystem`. */
export const DiskFilesystem = {
  Raw: "raw",
  Swap: "swap",
  Ext3: "ext3",
  Ext4: "ext4",
  Initrd: "initrd",
} as const;
export type DiskFilesystem = (typeof DiskFilesystem)[keyof typeof DiskFilesystem];

/** The arguments of Disk: its inputs. */
export interface DiskArgs {
  /** The instance's id (`instance.id`). Changing it replaces the disk. */
  computeId: pulumi.Input<number | string>;
  /** Size in MB, within the instance type's disk allowance. Changed in place by a disk resize: a running instance is shut down, the disk resized, and the instance booted again. */
  size: pulumi.Input<number>;
  /** 1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** `raw`, `swap`, `ext3`, `ext4` (default) or `initrd`. Changing it replaces the disk. */
  filesystem?: pulumi.Input<string | DiskFilesystem>;
  /** Image to deploy on the disk. Changing it replaces the disk. */
  image?: pulumi.Input<string>;
  /** Root password for an image deploy (generated and kept as a secret when left out). Changed in place by the per-disk password reset, inside a shutdown and boot of a running instance: the disk is never erased for it. */
  rootPass?: pulumi.Input<string>;
  /** Public SSH keys for root. Create-only. */
  authorizedKeys?: pulumi.Input<pulumi.Input<string>[]>;
  /** Users whose profile keys are added. Create-only. */
  authorizedUsers?: pulumi.Input<pulumi.Input<string>[]>;
  /** Deployment script (needs a compatible image). Create-only. */
  scriptId?: pulumi.Input<number>;
  /** Inputs of the deployment script (JSON, at most 65535 characters). Secret. Create-only. */
  scriptData?: pulumi.Input<Record<string, unknown>>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 10m), `update` (default 30m), `delete` (default 10m). An update covers the instance's shutdown and boot around a resize or a password reset. */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string>; update?: pulumi.Input<string>; delete?: pulumi.Input<string> }>;
}

/** A disk of an instance (`/compute/instances/{computeId}/disks`): empty, or deployed from an image. Waits until the disk is ready. A replacement makes the new disk before the old one is deleted (so the instance's disk allowance must have room for both). See docs/resources/disk.md. */
export class Disk extends pulumi.dynamic.Resource {
  /** The instance's id (`instance.id`). Changing it replaces the disk. */
  declare readonly computeId: pulumi.Output<number>;
  /** Size in MB, within the instance type's disk allowance. Changed in place by a disk resize: a running instance is shut down, the disk resized, and the instance booted again. */
  declare readonly size: pulumi.Output<number>;
  /** 1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** `raw`, `swap`, `ext3`, `ext4` (default) or `initrd`. Changing it replaces the disk. */
  declare readonly filesystem: pulumi.Output<DiskFilesystem>;
  /** Image to deploy on the disk. Changing it replaces the disk. */
  declare readonly image: pulumi.Output<string | undefined>;
  /** Root password for an image deploy (generated and kept as a secret when left out). Changed in place by the per-disk password reset, inside a shutdown and boot of a running instance: the disk is never erased for it. */
  declare readonly rootPass: pulumi.Output<string | undefined>;
  /** Public SSH keys for root. Create-only. */
  declare readonly authorizedKeys: pulumi.Output<string[] | undefined>;
  /** Users whose profile keys are added. Create-only. */
  declare readonly authorizedUsers: pulumi.Output<string[] | undefined>;
  /** Deployment script (needs a compatible image). Create-only. */
  declare readonly scriptId: pulumi.Output<number | undefined>;
  /** Inputs of the deployment script (JSON, at most 65535 characters). Secret. Create-only. */
  declare readonly scriptData: pulumi.Output<Record<string, unknown> | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 10m), `update` (default 30m), `delete` (default 10m). An update covers the instance's shutdown and boot around a resize or a password reset. */
  declare readonly timeouts: pulumi.Output<{ create?: string; update?: string; delete?: string } | undefined>;
  /** `ready`, `not ready` or `deleting`. */
  declare readonly status: pulumi.Output<string>;
  /** When the disk was created. */
  declare readonly created: pulumi.Output<string>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;

  /** Reads an existing Disk by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DiskArgs>, opts?: pulumi.CustomResourceOptions): Disk {
    return new Disk(name, (state ?? {}) as DiskArgs, { ...opts, id });
  }

  constructor(name: string, args: DiskArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Disk", name, args, opts), "compute", "Disk");
  }
}
