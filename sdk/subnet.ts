// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/subnet");

/** The arguments of Subnet: its inputs. */
export interface SubnetArgs {
  /** The VPC's id (`vpc.id`). Changing it replaces the subnet. */
  vpcId: pulumi.Input<number | string>;
  /** 1..64 ASCII letters, digits and hyphens (no `--`); unique in the VPC. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** IPv4 range in canonical CIDR form inside RFC 1918, prefix /1../29, not overlapping 192.168.128.0/17 nor another subnet of the VPC (checked at preview against the program's other subnets where known). Changing it replaces the subnet. */
  ipv4: pulumi.Input<string>;
}

/** A subnet of a VPC (`/vpcs/{vpcId}/subnets`). Instances join it through a `vpc` interface (an Instance's `interfaces`, a Config's, or an Interface resource). See docs/resources/subnet.md. */
export class Subnet extends pulumi.dynamic.Resource {
  /** The VPC's id (`vpc.id`). Changing it replaces the subnet. */
  declare readonly vpcId: pulumi.Output<number>;
  /** 1..64 ASCII letters, digits and hyphens (no `--`); unique in the VPC. Auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** IPv4 range in canonical CIDR form inside RFC 1918, prefix /1../29, not overlapping 192.168.128.0/17 nor another subnet of the VPC (checked at preview against the program's other subnets where known). Changing it replaces the subnet. */
  declare readonly ipv4: pulumi.Output<string>;
  /** The instances in the subnet: `[{ id, interfaces: [{ id, active, configId }] }]`. As last read (made, updated or refreshed): an Instance, Config or Interface with a vpc interface in this subnet, made or changed after it changes it afterwards, and `pulumi refresh` (or `pulumi up --refresh`) reads it anew. */
  declare readonly computes: pulumi.Output<{ id: number; interfaces: { id: number; active: boolean; configId: number }[] }[]>;
  /** When the subnet was created. */
  declare readonly created: pulumi.Output<string>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;

  /** Reads an existing Subnet by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`vpcId`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<SubnetArgs>, opts?: pulumi.CustomResourceOptions): Subnet {
    return new Subnet(name, (state ?? {}) as SubnetArgs, { ...opts, id });
  }

  constructor(name: string, args: SubnetArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Subnet", name, args, opts), "compute", "Subnet");
  }
}
