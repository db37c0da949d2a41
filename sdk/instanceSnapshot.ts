// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/instanceSnapshot");

/** The arguments of InstanceSnapshot: its inputs. */
export interface InstanceSnapshotArgs {
  /** The instance's id (`instance.id`); its backup service must be enabled. Changing it takes a snapshot of the other instance. */
  computeId: pulumi.Input<number | string>;
  /** 1..255 characters; auto-named `<resource name>-<suffix>` when left out. Changing it takes a new snapshot (which replaces the old one). */
  label?: pulumi.Input<string>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). A snapshot can take several minutes. */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string> }>;
}

/** A snapshot of an instance (`POST /compute/instances/{computeId}/backups`): its disks and profiles, kept by the paid backup service (the instance's `backupsEnabled`). Create waits until it is `successful`, with progress lines. An instance has one snapshot slot: a new snapshot replaces the one there, so a program declares at most one per instance. The API deletes no single snapshot: deleting the resource leaves the snapshot in place (until the next one, or the backup service's cancel). See docs/resources/instance-snapshot.md. */
export class InstanceSnapshot extends pulumi.dynamic.Resource {
  /** The instance's id (`instance.id`); its backup service must be enabled. Changing it takes a snapshot of the other instance. */
  declare readonly computeId: pulumi.Output<number>;
  /** 1..255 characters; auto-named `<resource name>-<suffix>` when left out. Changing it takes a new snapshot (which replaces the old one). */
  declare readonly label: pulumi.Output<string>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). A snapshot can take several minutes. */
  declare readonly timeouts: pulumi.Output<{ create?: string } | undefined>;
  /** `successful` once taken (`pending`, `running`, `needsPostProcessing` before; `failed`, `userAborted`). */
  declare readonly status: pulumi.Output<"paused" | "pending" | "running" | "needsPostProcessing" | "successful" | "failed" | "userAborted">;
  /** `snapshot`. */
  declare readonly type: pulumi.Output<string>;
  /** False while the backup is under maintenance (it cannot be restored then). */
  declare readonly available: pulumi.Output<boolean>;
  /** The labels of the configuration profiles in the snapshot. */
  declare readonly configs: pulumi.Output<string[]>;
  /** The disks in the snapshot: `label`, `size` (MB), `filesystem`. */
  declare readonly disks: pulumi.Output<{ label: string; size: number; filesystem: string }[]>;
  /** When the snapshot was started. */
  declare readonly created: pulumi.Output<string>;
  /** When it finished, or null. */
  declare readonly finished: pulumi.Output<string | null>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;

  /** Reads an existing InstanceSnapshot by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<InstanceSnapshotArgs>, opts?: pulumi.CustomResourceOptions): InstanceSnapshot {
    return new InstanceSnapshot(name, (state ?? {}) as InstanceSnapshotArgs, { ...opts, id });
  }

  constructor(name: string, args: InstanceSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("InstanceSnapshot", name, args, opts), "compute", "InstanceSnapshot");
  }
}
