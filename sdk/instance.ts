import * as pulumi from "@pulumi/pulumi";
import { registration } from "./secrets";
import { shim } from "./shim";

const provider = shim("Instance");

export interface InterfaceArgs {
  purpose: pulumi.Input<"public" | "vlan" | "vpc">;
  label?: pulumi.Input<string>;
  ipamAddress?: pulumi.Input<string>;
  primary?: pulumi.Input<boolean>;
  /** A subnet's id (string or number): `subnet.id`. */
  subnetId?: pulumi.Input<string | number>;
  ipv4?: pulumi.Input<{ vpc?: pulumi.Input<string>; nat11?: pulumi.Input<string> }>;
  ipRanges?: pulumi.Input<pulumi.Input<string>[]>;
}

/** What an image deploy takes, on an instance or a disk. */
export interface DeployArgs {
  image?: pulumi.Input<string>;
  /** Secret. Generated when an image is given without one (read it from the `rootPass` output). */
  rootPass?: pulumi.Input<string>;
  authorizedKeys?: pulumi.Input<pulumi.Input<string>[]>;
  authorizedUsers?: pulumi.Input<pulumi.Input<string>[]>;
  scriptId?: pulumi.Input<number>;
  /** Secret. */
  scriptData?: pulumi.Input<Record<string, unknown>>;
}

export interface InstanceArgs extends DeployArgs {
  region: pulumi.Input<string>;
  type: pulumi.Input<string>;
  label?: pulumi.Input<string>;
  group?: pulumi.Input<string>;
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  alerts?: pulumi.Input<{ cpu?: number; io?: number; networkIn?: number; networkOut?: number; transferQuota?: number }>;
  watchdogEnabled?: pulumi.Input<boolean>;
  backupSchedule?: pulumi.Input<{ day?: string; window?: string }>;
  backupsEnabled?: pulumi.Input<boolean>;
  booted?: pulumi.Input<boolean>;
  backupId?: pulumi.Input<number>;
  swapSize?: pulumi.Input<number>;
  interfaces?: pulumi.Input<pulumi.Input<InterfaceArgs>[]>;
  /** Secret. */
  metadata?: pulumi.Input<{ userData: pulumi.Input<string> }>;
  firewallId?: pulumi.Input<number>;
  privateIp?: pulumi.Input<boolean>;
  migrationType?: pulumi.Input<"warm" | "cold">;
  allowAutoDiskResize?: pulumi.Input<boolean>;
  rebuildOnImageChange?: pulumi.Input<boolean>;
  timeouts?: pulumi.Input<{ create?: string; update?: string; delete?: string }>;
}

/** A compute instance. See docs/resources/instance.md. */
export class Instance extends pulumi.dynamic.Resource {
  declare readonly region: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string>;
  declare readonly group: pulumi.Output<string>;
  declare readonly tags: pulumi.Output<string[]>;
  declare readonly alerts: pulumi.Output<{ cpu: number; io: number; networkIn: number; networkOut: number; transferQuota: number }>;
  declare readonly watchdogEnabled: pulumi.Output<boolean>;
  declare readonly backupSchedule: pulumi.Output<{ day: string | null; window: string | null }>;
  declare readonly backupsEnabled: pulumi.Output<boolean>;
  declare readonly booted: pulumi.Output<boolean>;
  declare readonly image: pulumi.Output<string | undefined>;
  declare readonly rootPass: pulumi.Output<string | undefined>;
  /** The swap disk's size (MB) of an image deploy. */
  declare readonly swapSize: pulumi.Output<number | undefined>;
  declare readonly interfaces: pulumi.Output<InterfaceArgs[] | undefined>;
  declare readonly status: pulumi.Output<string>;
  declare readonly ipv4: pulumi.Output<string[]>;
  declare readonly ipv6: pulumi.Output<string | null>;
  declare readonly specs: pulumi.Output<{ disk: number; memory: number; vcpus: number; gpus: number; transfer: number }>;
  declare readonly hypervisor: pulumi.Output<string>;
  declare readonly hostUuid: pulumi.Output<string>;
  declare readonly hasUserData: pulumi.Output<boolean>;
  declare readonly backups: pulumi.Output<{ enabled: boolean; available: boolean; lastSuccessful: string | null }>;
  declare readonly bootConfigId: pulumi.Output<number | undefined>;
  /** The instance's address in its VPC subnet (first vpc interface of `interfaces`). */
  declare readonly vpcIpv4: pulumi.Output<string | undefined>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;

  /**
   * Reads an existing Instance by its id, without managing it (Pulumi's `get`): its outputs are what the API shows.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<InstanceArgs>, opts?: pulumi.CustomResourceOptions): Instance {
    return new Instance(name, (state ?? {}) as InstanceArgs, { ...opts, id });
  }

  constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Instance", name, args, opts), "compute", "Instance");
  }
}
