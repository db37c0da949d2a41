// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import type { InterfaceArgs, DeviceArgs, InterfaceArgsPurpose } from "./types";
import provider = require("./providers/config");

/** `default`, `single` or `binbash`. Changed in place. The values of `ConfigRunLevel`. */
export const ConfigRunLevel = {
  Default: "default",
  Single: "single",
  Binbash: "binbash",
} as const;
export type ConfigRunLevel = (typeof ConfigRunLevel)[keyof typeof ConfigRunLevel];

/** `paravirt` or `fullvirt`. Changed in place. The values of `ConfigVirtMode`. */
export const ConfigVirtMode = {
  Paravirt: "paravirt",
  Fullvirt: "fullvirt",
} as const;
export type ConfigVirtMode = (typeof ConfigVirtMode)[keyof typeof ConfigVirtMode];

/** The arguments of Config: its inputs. */
export interface ConfigArgs {
  /** The instance's id. Changing it replaces the profile. */
  computeId: pulumi.Input<number | string>;
  /** 1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** Device map: keys `sda`..`sdh`, each `{ diskId }` (a disk's id, string or number) or `{ volumeId }`. Changed in place. */
  devices: pulumi.Input<Record<string, pulumi.Input<DeviceArgs | null>>>;
  /** Boot helpers; the ones left out keep the service's defaults. Changed in place. */
  helpers?: pulumi.Input<{
    updatedbDisabled?: pulumi.Input<boolean>;
    distro?: pulumi.Input<boolean>;
    modulesDep?: pulumi.Input<boolean>;
    network?: pulumi.Input<boolean>;
    devtmpfsAutomount?: pulumi.Input<boolean>;
  }>;
  /** Kernel id (default `compute/latest-64bit`). Changed in place. */
  kernel?: pulumi.Input<string>;
  /** RAM limit in MB (default, or 0: all of the instance's). Changed in place. */
  memoryLimit?: pulumi.Input<number>;
  /** Root device (default `/dev/sda`). Changed in place. */
  rootDevice?: pulumi.Input<string>;
  /** `default`, `single` or `binbash`. Changed in place. */
  runLevel?: pulumi.Input<string | ConfigRunLevel>;
  /** `paravirt` or `fullvirt`. Changed in place. */
  virtMode?: pulumi.Input<string | ConfigVirtMode>;
  /** Free text. Changed in place. */
  comments?: pulumi.Input<string>;
  /** The profile's interfaces as a list (0..3; an empty list means the default public interface only). When set, this profile's interfaces are managed here and Interface resources on it are refused; left out, they are not managed here. Changed in place. */
  interfaces?: pulumi.Input<pulumi.Input<InterfaceArgs>[]>;
  /** Boot the instance with this profile: `true` boots it (or reboots a running instance into this profile when the profile is new or `booted` turns true); `false` shuts a running instance down. Deleting a booted profile shuts the instance down first. Read back from the instance's status. At most one profile per instance should set it. */
  booted?: pulumi.Input<boolean>;
  /** After a change, reboot a running instance with this profile so the change takes effect now (default false: at the next boot). */
  rebootOnChange?: pulumi.Input<boolean>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 15m: a boot or reboot at create), `update` (default 15m: a boot, reboot or shutdown at update), `delete` (default 15m: the shutdown before a booted profile is deleted). */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string>; update?: pulumi.Input<string>; delete?: pulumi.Input<string> }>;
}

/** A configuration profile of an instance (`/compute/instances/{computeId}/configs`): kernel, device map, helpers and network interfaces. Everything but the instance changes in place (one PUT); changes take effect at the instance's next boot, or at once with `rebootOnChange`. See docs/resources/config.md. */
export class Config extends pulumi.dynamic.Resource {
  /** The instance's id. Changing it replaces the profile. */
  declare readonly computeId: pulumi.Output<number>;
  /** 1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** Device map: keys `sda`..`sdh`, each `{ diskId }` (a disk's id, string or number) or `{ volumeId }`. Changed in place. */
  declare readonly devices: pulumi.Output<Record<string, { diskId?: number | string | null; volumeId?: number | string | null } | null>>;
  /** Boot helpers; the ones left out keep the service's defaults. Changed in place. */
  declare readonly helpers: pulumi.Output<{ updatedbDisabled: boolean; distro: boolean; modulesDep: boolean; network: boolean; devtmpfsAutomount: boolean }>;
  /** Kernel id (default `compute/latest-64bit`). Changed in place. */
  declare readonly kernel: pulumi.Output<string>;
  /** RAM limit in MB (default, or 0: all of the instance's). Changed in place. */
  declare readonly memoryLimit: pulumi.Output<number>;
  /** Root device (default `/dev/sda`). Changed in place. */
  declare readonly rootDevice: pulumi.Output<string>;
  /** `default`, `single` or `binbash`. Changed in place. */
  declare readonly runLevel: pulumi.Output<ConfigRunLevel>;
  /** `paravirt` or `fullvirt`. Changed in place. */
  declare readonly virtMode: pulumi.Output<ConfigVirtMode>;
  /** Free text. Changed in place. */
  declare readonly comments: pulumi.Output<string | undefined>;
  /** The profile's interfaces as a list (0..3; an empty list means the default public interface only). When set, this profile's interfaces are managed here and Interface resources on it are refused; left out, they are not managed here. Changed in place. */
  declare readonly interfaces: pulumi.Output<
    {
      purpose: InterfaceArgsPurpose;
      label?: string;
      ipamAddress?: string;
      primary?: boolean;
      subnetId?: number;
      ipv4?: { vpc?: string; nat11?: string };
      ipRanges?: string[];
    }[]
  >;
  /** The profile's interfaces as the API records them, in order, whether `interfaces` manages them or Interface resources do: `[{ id, purpose, label, ipamAddress, primary, active, vpcId, subnetId, ipv4: { vpc, nat11 }, ipRanges }]` (`id` is the interface's id; `active` says whether it is in use now; `vpcId`, `subnetId`, `ipv4` and `ipRanges` are set for `vpc`, where `ipv4.vpc` is the address assigned in the subnet; what the API reports as null is left out). A change of `interfaces` makes new records (new ids): a preview plans them unknown then, and plans each one's `active` unknown when the change boots, reboots or shuts the instance down. As last read (made, updated or refreshed): an Interface resource added to the profile, or removed (and the instance booting or shutting down: each record's `active`) changes it afterwards, and `pulumi refresh` (or `pulumi up --refresh`) reads it anew. */
  declare readonly interfaceRecords: pulumi.Output<
    {
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
    }[]
  >;
  /** Boot the instance with this profile: `true` boots it (or reboots a running instance into this profile when the profile is new or `booted` turns true); `false` shuts a running instance down. Deleting a booted profile shuts the instance down first. Read back from the instance's status. At most one profile per instance should set it. */
  declare readonly booted: pulumi.Output<boolean>;
  /** After a change, reboot a running instance with this profile so the change takes effect now (default false: at the next boot). */
  declare readonly rebootOnChange: pulumi.Output<boolean | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 15m: a boot or reboot at create), `update` (default 15m: a boot, reboot or shutdown at update), `delete` (default 15m: the shutdown before a booted profile is deleted). */
  declare readonly timeouts: pulumi.Output<{ create?: string; update?: string; delete?: string } | undefined>;

  /** Reads an existing Config by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId`). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ConfigArgs>, opts?: pulumi.CustomResourceOptions): Config {
    return new Config(name, (state ?? {}) as ConfigArgs, { ...opts, id });
  }

  constructor(name: string, args: ConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Config", name, args, opts), "compute", "Config");
  }
}
