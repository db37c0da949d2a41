import type { DEVICE_SLOTS } from "../api/interfaces";
import type { InstanceArgs } from "./instance";

/** Names of earlier releases, kept so that programs written for them compile. */

/** What an image deploy takes, on an instance or a disk. */
export type DeployArgs = Pick<InstanceArgs, "image" | "rootPass" | "authorizedKeys" | "authorizedUsers" | "scriptId" | "scriptData">;

/** A device slot of a configuration profile: `sda`..`sdh`. */
export type DeviceSlot = (typeof DEVICE_SLOTS)[number];
