// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/vpc");

/** The arguments of Vpc: its inputs. */
export interface VpcArgs {
  /** 1..64 ASCII letters, digits and hyphens (no `--`); unique among your VPCs. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** At most 255 characters. Changed in place. */
  description?: pulumi.Input<string>;
  /** Region id (one with VPC support). Changing it replaces the VPC. */
  region: pulumi.Input<string>;
}

/** A VPC (`/vpcs`): a private network in one region; its subnets are Subnet resources. See docs/resources/vpc.md. */
export class Vpc extends pulumi.dynamic.Resource {
  /** 1..64 ASCII letters, digits and hyphens (no `--`); unique among your VPCs. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** At most 255 characters. Changed in place. */
  declare readonly description: pulumi.Output<string>;
  /** Region id (one with VPC support). Changing it replaces the VPC. */
  declare readonly region: pulumi.Output<string>;
  /** When the VPC was created. */
  declare readonly created: pulumi.Output<string>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;

  /** Reads an existing Vpc by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<VpcArgs>, opts?: pulumi.CustomResourceOptions): Vpc {
    return new Vpc(name, (state ?? {}) as VpcArgs, { ...opts, id });
  }

  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Vpc", name, args, opts), "compute", "Vpc");
  }
}
