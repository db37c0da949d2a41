import * as pulumi from "@pulumi/pulumi";
import type { DeployArgs } from "./instance";
import { registration } from "./secrets";
import { shim } from "./shim";

const provider = shim("Disk");

export interface DiskArgs extends DeployArgs {
  /** The instance's id: `instance.id` (string or number). */
  computeId: pulumi.Input<string | number>;
  /** MB. Changed in place (a running instance is shut down for the resize and booted again). */
  size: pulumi.Input<number>;
  label?: pulumi.Input<string>;
  filesystem?: pulumi.Input<"raw" | "swap" | "ext3" | "ext4" | "initrd">;
  timeouts?: pulumi.Input<{ create?: string; update?: string; delete?: string }>;
}

/** A disk of an instance. See docs/resources/disk.md. */
export class Disk extends pulumi.dynamic.Resource {
  declare readonly computeId: pulumi.Output<number>;
  declare readonly size: pulumi.Output<number>;
  declare readonly label: pulumi.Output<string>;
  declare readonly filesystem: pulumi.Output<string>;
  declare readonly image: pulumi.Output<string | undefined>;
  declare readonly rootPass: pulumi.Output<string | undefined>;
  declare readonly status: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  /**
   * Reads an existing Disk by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DiskArgs>, opts?: pulumi.CustomResourceOptions): Disk {
    return new Disk(name, (state ?? {}) as DiskArgs, { ...opts, id });
  }

  constructor(name: string, args: DiskArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Disk", name, args, opts), "compute", "Disk");
  }
}
