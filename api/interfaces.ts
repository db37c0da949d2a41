/**
 * A profile's (or a create request's) network interfaces, as the API rules them. compute-api.md "Limits":
 * "Interfaces per profile or create request | 1 to 3" (a profile may have none: "An empty `interfaces` array
 * yields a default `public` interface only"); "Interface": "purpose | string enum | `public`, `vlan`, `vpc`",
 * "primary | ... At most one per profile". At most one `public` interface is docs/spec-gaps.md's.
 */
export const INTERFACE_PURPOSES = ["public", "vlan", "vpc"] as const;

export const MAX_INTERFACES = 3;

/** The refusals of a list's size, of two primaries, and of a second `public` interface. */
export const INTERFACE_LIST_TEXTS = {
  none: "must have 1 to 3 interfaces",
  tooMany: "must have at most 3 interfaces",
  twoPrimary: "at most one interface can be primary",
  twoPublic: "at most one public interface",
} as const;

/** compute-api.md "Configuration profile": "devices | object | Keys `sda` to `sdh`". */
export const DEVICE_SLOTS = ["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"] as const;

export type DeviceSlot = (typeof DEVICE_SLOTS)[number];

const SLOTS: ReadonlySet<string> = new Set(DEVICE_SLOTS);
export const isDeviceSlot = (name: string): name is DeviceSlot => SLOTS.has(name);
