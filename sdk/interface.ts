// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/interface");

/** `public`, `vlan` or `vpc`. Cannot change: a change replaces the interface. The values of `InterfacePurpose`. */
export const InterfacePurpose = {
  Public: "public",
  Vlan: "vlan",
  Vpc: "vpc",
} as const;
export type InterfacePurpose = (typeof InterfacePurpose)[keyof typeof InterfacePurpose];

/** The arguments of Interface: its inputs. */
export interface InterfaceResourceArgs {
  /** The instance's id. */
  computeId: pulumi.Input<number | string>;
  /** The profile's id (`config.id`, or an instance's `bootConfigId`). */
  configId: pulumi.Input<number | string>;
  /** `public`, `vlan` or `vpc`. Cannot change: a change replaces the interface. */
  purpose: pulumi.Input<string | InterfacePurpose>;
  /** VLAN name (1..64), for `vlan`. A change replaces the interface. */
  label?: pulumi.Input<string>;
  /** The address on the VLAN, as `ip/netmask`, for `vlan`. A change replaces the interface. */
  ipamAddress?: pulumi.Input<string>;
  /** The default route (at most one per profile; setting it clears the others). Changed in place for `public` and `vpc`; replaces a `vlan` interface. */
  primary?: pulumi.Input<boolean>;
  /** The VPC subnet (`subnet.id`), for `vpc`. A change replaces the interface (the API cannot move it). */
  subnetId?: pulumi.Input<number | string>;
  /** For `vpc`: `vpc` (the address in the subnet; assigned when left out) and `nat11` (a public address mapped 1:1, or `any`). Changed in place. */
  ipv4?: pulumi.Input<{ vpc?: pulumi.Input<string>; nat11?: pulumi.Input<string> }>;
  /** For `vpc`: IPv4 ranges of the subnet routed to this interface. Changed in place. */
  ipRanges?: pulumi.Input<pulumi.Input<string>[]>;
}

/** One network interface of a configuration profile (`/compute/instances/{computeId}/configs/{configId}/interfaces`), added after the others (at most 3 per profile). It becomes active when the instance next boots with the profile. A profile's interfaces are managed either one by one with Interface resources or as a list (a Config's or an Instance's `interfaces`), never both: the provider refuses the mix. See docs/resources/interface.md. */
export class Interface extends pulumi.dynamic.Resource {
  /** The instance's id. */
  declare readonly computeId: pulumi.Output<number>;
  /** The profile's id (`config.id`, or an instance's `bootConfigId`). */
  declare readonly configId: pulumi.Output<number>;
  /** `public`, `vlan` or `vpc`. Cannot change: a change replaces the interface. */
  declare readonly purpose: pulumi.Output<InterfacePurpose>;
  /** VLAN name (1..64), for `vlan`. A change replaces the interface. */
  declare readonly label: pulumi.Output<string | undefined>;
  /** The address on the VLAN, as `ip/netmask`, for `vlan`. A change replaces the interface. */
  declare readonly ipamAddress: pulumi.Output<string | undefined>;
  /** The default route (at most one per profile; setting it clears the others). Changed in place for `public` and `vpc`; replaces a `vlan` interface. */
  declare readonly primary: pulumi.Output<boolean>;
  /** The VPC subnet (`subnet.id`), for `vpc`. A change replaces the interface (the API cannot move it). */
  declare readonly subnetId: pulumi.Output<number | undefined>;
  /** For `vpc`: `vpc` (the address in the subnet; assigned when left out) and `nat11` (a public address mapped 1:1, or `any`). Changed in place. */
  declare readonly ipv4: pulumi.Output<{ vpc: string; nat11: string } | undefined>;
  /** For `vpc`: IPv4 ranges of the subnet routed to this interface. Changed in place. */
  declare readonly ipRanges: pulumi.Output<string[]>;
  /** The VPC of the subnet, for `vpc`. */
  declare readonly vpcId: pulumi.Output<number>;
  /** Whether the interface is in use now (the instance runs with this profile and booted after it was added). As last read (made, updated or refreshed): the instance booting with its profile, or shutting down (a Config's `booted`, or the Instance's) changes it afterwards, and `pulumi refresh` (or `pulumi up --refresh`) reads it anew. */
  declare readonly active: pulumi.Output<boolean>;

  /** Reads an existing Interface by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId`, `configId`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<InterfaceResourceArgs>, opts?: pulumi.CustomResourceOptions): Interface {
    return new Interface(name, (state ?? {}) as InterfaceResourceArgs, { ...opts, id });
  }

  constructor(name: string, args: InterfaceResourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Interface", name, args, opts), "compute", "Interface");
  }
}
