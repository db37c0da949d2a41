import { checkPrintable } from "../text";
import { z } from "zod";
import { DEVICE_SLOTS, type DeviceSlot } from "../interfaces";
import { apiTime, bool, count, int, oneOf, page, pageQuery, refuse, text, recordId, typeText } from "./common";
import { empty, endpoint, ro, rw } from "./endpoint";
import { iface, profileInterfaces } from "./interfaces";

/**
 * compute-api.md "Configuration profile" and the profiles' endpoints of "Configuration profiles and interfaces":
 * an instance's profiles (kernel, device map, helpers, network interfaces; the interfaces are
 * api/contract/interfaces.ts). The device slots are api/interfaces.ts's (the generated SDK reads them from there
 * too).
 */

/** compute-api.md "Configuration profile": "run_level | string enum | `default`, `single`, `binbash`". */
export const RUN_LEVELS = ["default", "single", "binbash"] as const;
/** compute-api.md "Configuration profile": "virt_mode | string enum | `paravirt`, `fullvirt`". */
export const VIRT_MODES = ["paravirt", "fullvirt"] as const;
/** compute-api.md "Configuration profile": "kernel | string | Kernel id; default `compute/latest-64bit`". */
export const DEFAULT_KERNEL = "compute/latest-64bit";
/** "Defaults of `run_level`, `virt_mode` and `root_device`: not shown": the real API's (recorded), docs/spec-gaps.md. */
export const PROFILE_DEFAULTS = { run_level: "default", virt_mode: "paravirt", root_device: "/dev/sda" } as const;

// ---- devices -------------------------------------------------------------------------------------------

const DEVICE_TEXT = "Must be an object with disk_id and volume_id, or null";

/** A device of a profile's map: a disk of the instance or a volume (each an id or null), or nothing. */
export const device = z.strictObject({ disk_id: int.nullable(), volume_id: int.nullable() });

/** A profile's devices as the API answers them: every slot `sda` to `sdh`, an empty one null (recorded). */
export const devices = z.strictObject({
  sda: device.nullable(),
  sdb: device.nullable(),
  sdc: device.nullable(),
  sdd: device.nullable(),
  sde: device.nullable(),
  sdf: device.nullable(),
  sdg: device.nullable(),
  sdh: device.nullable(),
});

/** A device as a request gives it: `disk_id` or `volume_id` (an id or null; left out, null), or null for none. */
export const deviceRequest = z
  .object(
    {
      disk_id: z.number({ error: "Must be a disk id or null" }).int("Must be a disk id or null").nullable().optional(),
      volume_id: z.number({ error: "Must be a volume id or null" }).int("Must be a volume id or null").nullable().optional(),
    },
    { error: DEVICE_TEXT },
  )
  .nullable()
  .optional();

/** The text of a device map's refusal: one left out, one that is not an object, or one naming a slot it has not. */
const slotsText =
  (slots: readonly DeviceSlot[], { missing, reserved }: { missing?: string; reserved?: DeviceSlot } = {}) =>
  (issue: { code?: string; input?: unknown; keys?: readonly string[] }) => {
    if (issue.input === undefined && missing) return missing;
    if (issue.code !== "unrecognized_keys") return `Must be an object keyed ${slots[0]} to ${slots[slots.length - 1]}`;
    const keys = issue.keys ?? [];
    if (reserved && keys.includes(reserved)) return `Device ${reserved} is reserved in rescue mode`;
    return `Unknown device slot ${keys.join(", ")}; use ${slots[0]} to ${slots[slots.length - 1]}`;
  };

/**
 * compute-api.md "Configuration profile": "devices | object | Keys `sda` to `sdh`; each value is an object with
 * `disk_id` (integer or null) and `volume_id` (integer or null)"; `missing`: the text when it is left out.
 */
export const devicesRequest = (missing?: string) =>
  z.strictObject(
    {
      sda: deviceRequest,
      sdb: deviceRequest,
      sdc: deviceRequest,
      sdd: deviceRequest,
      sde: deviceRequest,
      sdf: deviceRequest,
      sdg: deviceRequest,
      sdh: deviceRequest,
    },
    { error: slotsText(DEVICE_SLOTS, { missing }) },
  );

/** compute-api.md Instances rule 8: "Rescue: device `sdh` is reserved and unavailable": a rescue's devices are `sda` to `sdg`. */
export const rescueDevices = z.strictObject(
  { sda: deviceRequest, sdb: deviceRequest, sdc: deviceRequest, sdd: deviceRequest, sde: deviceRequest, sdf: deviceRequest, sdg: deviceRequest },
  { error: slotsText(DEVICE_SLOTS.slice(0, -1), { reserved: "sdh" }) },
);

// ---- helpers -------------------------------------------------------------------------------------------

/** compute-api.md "Configuration profile": "helpers | object | Booleans `updatedb_disabled`, `distro`, `modules_dep`, `network`, `devtmpfs_automount`". */
export const helpers = z.strictObject({
  updatedb_disabled: z.boolean(),
  distro: z.boolean(),
  modules_dep: z.boolean(),
  network: z.boolean(),
  devtmpfs_automount: z.boolean(),
});

/** A profile's helpers when a request gives none: all on (the real API's, recorded). */
export const DEFAULT_HELPERS: z.output<typeof helpers> = { updatedb_disabled: true, distro: true, modules_dep: true, network: true, devtmpfs_automount: true };

/** Helpers in a request: any of them, each a boolean; another name is refused. */
export const helpersRequest = z.strictObject(
  { updatedb_disabled: bool.optional(), distro: bool.optional(), modules_dep: bool.optional(), network: bool.optional(), devtmpfs_automount: bool.optional() },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown helper ${issue.keys.join(", ")}` : "Must be an object of booleans") },
);

// ---- profiles ------------------------------------------------------------------------------------------

/**
 * compute-api.md "Configuration profile", as the real API answers it (recorded): with `initrd` (a disk id or
 * null), `created` and `updated`; no `compute_id` (the instance is in the path).
 */
export const profile = z.strictObject({
  id: recordId,
  label: z.string(),
  comments: z.string().nullable(),
  devices,
  helpers,
  interfaces: z.array(iface),
  kernel: z.string(),
  memory_limit: int,
  root_device: z.string(),
  run_level: z.enum(RUN_LEVELS),
  virt_mode: z.enum(VIRT_MODES),
  initrd: int.nullable(),
  created: apiTime,
  updated: apiTime,
});

/** compute-api.md "Limits": "Config label | 1..48 chars". */
/** A profile's `comments`: free text (line breaks and tabs, no other control character: docs/spec-gaps.md). */
export const profileComments = z.string({ error: "Must be a string or null" }).superRefine((v, ctx) => {
  const p = checkPrintable(v, true);
  if (p) refuse(ctx, `Comments ${p}`, p);
});

export const profileLabel = text("configLabel");

const ROOT_DEVICE_TEXT = "Must be a device path, for example /dev/sda";
/** compute-api.md "Configuration profile": "root_device | string | Root device to boot (device path form)". */
export const rootDevice = z.string({ error: ROOT_DEVICE_TEXT }).superRefine((v, ctx) => {
  if (!/^\/dev\/[a-z0-9/]+$/.test(v)) refuse(ctx, ROOT_DEVICE_TEXT, "must be a device path, for example /dev/sda");
});

/** compute-api.md "Configuration profile": "memory_limit | integer | Defaults to the instance's total RAM" (0: all of it; more than it is the account's to refuse). */
export const memoryLimit = count("Must be a whole number of MB, 0 or more");

/** compute-api.md `PUT I/configs/{configId}`: "any profile fields" (rule 5: interfaces given redefine them all). */
export const profileUpdate = z
  .object({
    label: profileLabel,
    comments: profileComments.nullable(),
    devices: devicesRequest(),
    helpers: helpersRequest,
    kernel: z.string({ error: typeText("a string") }),
    memory_limit: memoryLimit,
    root_device: rootDevice,
    run_level: oneOf(RUN_LEVELS),
    virt_mode: oneOf(VIRT_MODES),
    // null is taken as not given, as the real API does (recorded: the Go client sends it when no interfaces are given).
    interfaces: profileInterfaces.nullable(),
  })
  .partial();

/** compute-api.md `POST I/configs`: "profile fields (`label` and `devices` required)". */
export const profileCreate = profileUpdate.extend({
  label: text("configLabel", { missing: "label is required" }),
  devices: devicesRequest("devices is required"),
});

const source = "compute-api.md";
const scope = { ro: ro("computes"), rw: rw("computes") };
const I = "/compute/instances/{computeId}";
const C = `${I}/configs/{configId}`;

/** compute-api.md "Configuration profiles and interfaces": the profiles. */
export const configsApi = {
  list: endpoint({
    method: "GET",
    path: `${I}/configs`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "List an instance's configuration profiles",
    query: pageQuery,
    answer: page(profile),
  }),
  create: endpoint({
    method: "POST",
    path: `${I}/configs`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Create a configuration profile",
    body: profileCreate,
    answer: profile,
  }),
  get: endpoint({ method: "GET", path: C, source, scope: scope.ro, auth: "required", summary: "View a configuration profile", answer: profile }),
  update: endpoint({
    method: "PUT",
    path: C,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Update a configuration profile",
    body: profileUpdate,
    answer: profile,
  }),
  delete: endpoint({ method: "DELETE", path: C, source, scope: scope.rw, auth: "required", summary: "Delete a configuration profile", answer: empty }),
};

export type Device = z.output<typeof device>;
export type Devices = z.output<typeof devices>;
export type Helpers = z.output<typeof helpers>;
export type Profile = z.output<typeof profile>;
export type RunLevel = (typeof RUN_LEVELS)[number];
export type VirtMode = (typeof VIRT_MODES)[number];
