// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import type * as pulumi from "@pulumi/pulumi";

/** The values of `InterfaceArgsPurpose`. */
export const InterfaceArgsPurpose = {
  Public: "public",
  Vlan: "vlan",
  Vpc: "vpc",
} as const;
export type InterfaceArgsPurpose = (typeof InterfaceArgsPurpose)[keyof typeof InterfaceArgsPurpose];

/** The values of `MaintenanceWindowFrequency`. */
export const MaintenanceWindowFrequency = {
  Weekly: "weekly",
  Monthly: "monthly",
} as const;
export type MaintenanceWindowFrequency = (typeof MaintenanceWindowFrequency)[keyof typeof MaintenanceWindowFrequency];

/** The CloneSourceArgs object type. */
export interface CloneSourceArgs {
  computeId: pulumi.Input<number | string>;
  disks?: pulumi.Input<pulumi.Input<number | string>[]>;
  configs?: pulumi.Input<pulumi.Input<number | string>[]>;
}

/** The DeviceArgs object type. */
export interface DeviceArgs {
  diskId?: pulumi.Input<number | string | null>;
  volumeId?: pulumi.Input<number | string | null>;
}

/** The InstanceRestore object type. */
export interface InstanceRestore {
  backupId: pulumi.Input<number | string>;
  sourceComputeId?: pulumi.Input<number | string>;
  overwrite?: pulumi.Input<boolean>;
}

/** The InterfaceArgs object type. */
export interface InterfaceArgs {
  purpose: pulumi.Input<string | InterfaceArgsPurpose>;
  label?: pulumi.Input<string>;
  ipamAddress?: pulumi.Input<string>;
  primary?: pulumi.Input<boolean>;
  subnetId?: pulumi.Input<number | string>;
  ipv4?: pulumi.Input<{ vpc?: pulumi.Input<string>; nat11?: pulumi.Input<string> }>;
  ipRanges?: pulumi.Input<pulumi.Input<string>[]>;
}

/** The MaintenanceWindow object type. */
export interface MaintenanceWindow {
  frequency?: pulumi.Input<string | MaintenanceWindowFrequency>;
  duration?: pulumi.Input<number>;
  hourOfDay?: pulumi.Input<number>;
  dayOfWeek?: pulumi.Input<number>;
  weekOfMonth?: pulumi.Input<number | null>;
}
