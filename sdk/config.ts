import * as pulumi from "@pulumi/pulumi";
import type { InterfaceArgs } from "./instance";
import { registration } from "./secrets";
import { shim } from "./shim";

const provider = shim("Config");

export type DeviceSlot = "sda" | "sdb" | "sdc" | "sdd" | "sde" | "sdf" | "sdg" | "sdh";
export interface DeviceArgs {
  /** A disk's id: `disk.id` (string or number). */
  diskId?: pulumi.Input<string | number>;
  volumeId?: pulumi.Input<string | number>;
}

export interface ConfigArgs {
  computeId: pulumi.Input<string | number>;
  /** Auto-named `<resource name>-<suffix>` when left out. */
  label?: pulumi.Input<string>;
  devices: pulumi.Input<Partial<Record<DeviceSlot, pulumi.Input<DeviceArgs> | null>>>;
  helpers?: pulumi.Input<{ updatedbDisabled?: boolean; distro?: boolean; modulesDep?: boolean; network?: boolean; devtmpfsAutomount?: boolean }>;
  kernel?: pulumi.Input<string>;
  memoryLimit?: pulumi.Input<number>;
  rootDevice?: pulumi.Input<string>;
  runLevel?: pulumi.Input<"default" | "single" | "binbash">;
  virtMode?: pulumi.Input<"paravirt" | "fullvirt">;
  comments?: pulumi.Input<string>;
  /** Manage the profile's interfaces as a list (then no Interface resource may target it). */
  interfaces?: pulumi.Input<pulumi.Input<InterfaceArgs>[]>;
  /** Boot the instance with this profile (true), or shut it down (false). */
  booted?: pulumi.Input<boolean>;
  /** Reboot a running instance with this profile after a change (default false). */
  rebootOnChange?: pulumi.Input<boolean>;
  /** How long the power changes may take: `create`, `update`, `delete` (default 15m each). */
  timeouts?: pulumi.Input<{ create?: string; update?: string; delete?: string }>;
}

/** A configuration profile of an instance. See docs/resources/config.md. */
export class Config extends pulumi.dynamic.Resource {
  declare readonly computeId: pulumi.Output<number>;
  declare readonly label: pulumi.Output<string>;
  declare readonly devices: pulumi.Output<Record<DeviceSlot, { diskId: number | null; volumeId: number | null } | null>>;
  declare readonly helpers: pulumi.Output<Record<string, boolean>>;
  declare readonly kernel: pulumi.Output<string>;
  declare readonly memoryLimit: pulumi.Output<number>;
  declare readonly rootDevice: pulumi.Output<string>;
  declare readonly runLevel: pulumi.Output<string>;
  declare readonly virtMode: pulumi.Output<string>;
  declare readonly comments: pulumi.Output<string | null>;
  declare readonly interfaces: pulumi.Output<InterfaceArgs[] | undefined>;
  declare readonly booted: pulumi.Output<boolean | undefined>;

  /**
   * Reads an existing Config by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`computeId`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ConfigArgs>, opts?: pulumi.CustomResourceOptions): Config {
    return new Config(name, (state ?? {}) as ConfigArgs, { ...opts, id });
  }

  constructor(name: string, args: ConfigArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Config", name, args, opts), "compute", "Config");
  }
}
