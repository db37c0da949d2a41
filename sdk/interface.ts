import * as pulumi from "@pulumi/pulumi";
import type { InterfaceArgs } from "./instance";
import { registration } from "./secrets";
import { shim } from "./shim";

const provider = shim("Interface");

export interface InterfaceResourceArgs extends InterfaceArgs {
  computeId: pulumi.Input<string | number>;
  /** `config.id`, or `instance.bootConfigId`. */
  configId: pulumi.Input<string | number>;
}

/** One interface of a configuration profile. See docs/resources/interface.md. */
export class Interface extends pulumi.dynamic.Resource {
  declare readonly computeId: pulumi.Output<number>;
  declare readonly configId: pulumi.Output<number>;
  declare readonly purpose: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string | null>;
  declare readonly ipamAddress: pulumi.Output<string | null>;
  declare readonly primary: pulumi.Output<boolean>;
  declare readonly subnetId: pulumi.Output<number | null>;
  declare readonly ipv4: pulumi.Output<{ vpc: string | null; nat11: string | null } | null>;
  declare readonly ipRanges: pulumi.Output<string[] | null>;
  declare readonly vpcId: pulumi.Output<number | null>;
  declare readonly active: pulumi.Output<boolean>;

  /**
   * Reads an existing Interface by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId` and `configId`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<InterfaceResourceArgs>, opts?: pulumi.CustomResourceOptions): Interface {
    return new Interface(name, (state ?? {}) as InterfaceResourceArgs, { ...opts, id });
  }

  constructor(name: string, args: InterfaceResourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Interface", name, args, opts), "compute", "Interface");
  }
}
