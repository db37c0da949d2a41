import { z } from "zod";
import { instanceLabelError } from "../labels";
import { rootPasswordError, WEAK_PASSWORD_TEXT } from "../passwords";
import { sshKeyError } from "../ssh-keys";
import { checkLength, checkPrintable, LENGTH_LIMITS } from "../text";
import { apiTime, bool, count, int, oneOf, page, pageQuery, refuse, ruled, recordId, typeText } from "./common";
import { interfaceList } from "./interfaces";
import { empty, endpoint, ro, rw } from "./endpoint";

/**
 * compute-api.md "Compute instance" and the endpoints of "Instances" that make, read, change and delete one; the
 * fields a deploy takes (an instance's create and rebuild, a disk's create). The instance's actions are
 * api/contract/instance-actions.ts.
 */

/** compute-api.md "Compute instance": "status | string enum". */
export const INSTANCE_STATUSES = [
  "running",
  "offline",
  "booting",
  "rebooting",
  "shutting_down",
  "provisioning",
  "deleting",
  "migrating",
  "rebuilding",
  "cloning",
  "restoring",
  "stopped",
  "billing_suspension",
] as const;

/**
 * The real API's refusal while an instance has running or queued actions (compute-api.md rules 6 and 9; recorded:
 * `Linode busy.`, renamed): nothing was done, and the same request is taken once they end.
 */
export const BUSY_TEXT = "Compute busy.";

/**
 * The refusal of what changes an instance (or makes something of it: an image captured from its disk) to a
 * restricted user whose grant on it is `read_only` (403): it needs `read_write`.
 */
export const READ_ONLY_INSTANCE_TEXT = "You have only read access to this instance";

/** "the allowed values of `backups.schedule.day` ... not shown": the real API's (`Scheduling`: the API picks). */
export const BACKUP_DAYS = ["Scheduling", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
/** "... and `backups.schedule.window`: not shown": the real API's two-hour windows `W0`..`W22` (UTC), or `Scheduling`. */
export const BACKUP_WINDOWS = ["Scheduling", "W0", "W2", "W4", "W6", "W8", "W10", "W12", "W14", "W16", "W18", "W20", "W22"] as const;

/** compute-api.md "Limits": "Default swap size | 512" (MB; a create's `swap_size`, used only when deploying from an image). */
export const DEFAULT_SWAP_SIZE = 512;

/** A deprecated `group` label: at most 50 characters (the real API's; the spec gives none). */
export const GROUP_MAX = 50;

/** An alert's `transfer_quota`: a percentage of the transfer pool, 0 to 100. */
export const TRANSFER_QUOTA = { min: 0, max: 100 } as const;

// ---- the record ----------------------------------------------------------------------------------------

/** compute-api.md "Compute instance": "specs | object | `disk`, `gpus`, `memory`, `transfer`, `vcpus`" (and the real API's `accelerated_devices`, since 2025). */
export const instanceSpecs = z.strictObject({ disk: int, gpus: int, memory: int, transfer: int, vcpus: int, accelerated_devices: int.optional() });

/** compute-api.md "Compute instance": "alerts | object | `cpu`, `io`, `network_in`, `network_out`, `transfer_quota`; integers". */
export const instanceAlerts = z.strictObject({ cpu: int, io: int, network_in: int, network_out: int, transfer_quota: int });

/** A backup schedule as the API answers it: null until the service picks one. */
export const backupSchedule = z.strictObject({ day: z.enum(BACKUP_DAYS).nullable(), window: z.enum(BACKUP_WINDOWS).nullable() });

/** compute-api.md "Compute instance": "backups | object | `available` boolean, `enabled` boolean, `last_successful` date-time, `schedule` object". */
export const instanceBackups = z.strictObject({ available: z.boolean(), enabled: z.boolean(), last_successful: apiTime.nullable(), schedule: backupSchedule });

/**
 * compute-api.md "Compute instance", with the fields the real API answers beyond the table (recorded in the HEAD
 * answers, absent from the 2024 ones, hence optional): `site_type`, `placement_group` (null: the emulator has no
 * placement groups), `lke_cluster_id`, `disk_encryption`, `capabilities`, `interface_generation`,
 * `maintenance_policy`.
 */
export const instance = z.strictObject({
  id: recordId,
  label: z.string(),
  group: z.string(),
  status: z.enum(INSTANCE_STATUSES),
  region: z.string(),
  type: z.string(),
  image: z.string().nullable(),
  created: apiTime,
  updated: apiTime,
  hypervisor: z.literal("kvm"),
  host_uuid: z.string(),
  has_user_data: z.boolean(),
  ipv4: z.array(z.string()),
  ipv6: z.string().nullable(),
  specs: instanceSpecs,
  alerts: instanceAlerts,
  backups: instanceBackups,
  tags: z.array(z.string()),
  watchdog_enabled: z.boolean(),
  site_type: z.string().optional(),
  placement_group: z.null().optional(),
  lke_cluster_id: int.nullable().optional(),
  disk_encryption: z.enum(["enabled", "disabled"]).optional(),
  capabilities: z.array(z.string()).optional(),
  interface_generation: z.string().optional(),
  maintenance_policy: z.string().optional(),
});

// ---- the fields of requests ----------------------------------------------------------------------------

/** compute-api.md "Compute instance": "label | string, 3..64 chars" and docs/spec-gaps.md's characters (api/labels.ts). */
export const instanceLabel = ruled(instanceLabelError);

const GROUP_TEXT = `Must be a string of at most ${GROUP_MAX} characters`;
/** compute-api.md "Compute instance": "group | string | Deprecated group label". */
export const instanceGroup = z
  .string({ error: GROUP_TEXT })
  .max(GROUP_MAX, GROUP_TEXT)
  .superRefine((v, ctx) => {
    // A label of free text: no control character (docs/spec-gaps.md).
    const p = checkPrintable(v);
    if (p) refuse(ctx, `Group ${p}`, p);
  });

const TAGS_TEXT = `Must be an array of tags of ${LENGTH_LIMITS.tag[0]} to ${LENGTH_LIMITS.tag[1]} characters`;
/**
 * compute-api.md "Compute instance": "tags | array of strings". A tag is 3 to 50 characters (the real API's) of
 * free text (api/text.ts: no control characters). Refused as a list.
 */
export const tags = z.array(z.string({ error: TAGS_TEXT }), { error: TAGS_TEXT }).superRefine((list, ctx) => {
  for (const t of list) {
    const e = checkLength(t, "tag");
    if (e) return refuse(ctx, TAGS_TEXT, `a tag ${e}`);
  }
  for (const t of list) {
    const e = checkPrintable(t);
    if (e) return refuse(ctx, `A tag ${e}`, `a tag ${e}`);
  }
});

const ALERT_TEXT = "Must be a whole number, 0 or more";
/** An alert threshold ("Units and ranges of the alert thresholds: not shown"): a whole number, 0 or more. */
export const alertThreshold = count(ALERT_TEXT);
/** An alert's `transfer_quota`: a percentage. */
export const transferQuota = z
  .number({ error: ALERT_TEXT })
  .int(ALERT_TEXT)
  .min(TRANSFER_QUOTA.min, ALERT_TEXT)
  .max(TRANSFER_QUOTA.max, `Must be a percentage, ${TRANSFER_QUOTA.min} to ${TRANSFER_QUOTA.max}`);

/** An update's `alerts`: any of them (the others keep theirs); another name is refused. */
export const alertsRequest = z.strictObject(
  {
    cpu: alertThreshold.optional(),
    io: alertThreshold.optional(),
    network_in: alertThreshold.optional(),
    network_out: alertThreshold.optional(),
    transfer_quota: transferQuota.optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown alert ${issue.keys.join(", ")}` : "Must be an object of alert thresholds") },
);

/** A backup schedule's day, and its two-hour window. */
export const backupDay = oneOf(BACKUP_DAYS);
export const backupWindow = oneOf(BACKUP_WINDOWS);
/** An update's `backups.schedule`: a day and a window, either may be left out. */
export const backupScheduleRequest = z.object({ day: backupDay.optional(), window: backupWindow.optional() }, { error: "Must be an object: { day, window }" });

const ROOT_PASS_TEXT = "Must be a string of 7 to 128 characters";
/** "root_pass is required when ...": the text of a required password left out. */
export const ROOT_PASS_REQUIRED = "root_pass is required when deploying from an image or a script";

/**
 * compute-api.md "Limits": "root_pass | 7..128 chars", strong enough (api/passwords.ts): a weak one is refused
 * with the spec's text alone (rule 7), a length with the field's name before it (`name`: the field).
 */
export const rootPassword = (name: string, missing?: string) =>
  z.string({ error: (issue) => (missing && issue.input == null ? missing : ROOT_PASS_TEXT) }).superRefine((v, ctx) => {
    const e = rootPasswordError(v);
    if (e) refuse(ctx, e === WEAK_PASSWORD_TEXT ? e : `${name} ${e}`, e);
  });
export const rootPass = rootPassword("root_pass");

/** compute-api.md Create body: "authorized_keys | array of strings | Public SSH keys appended to root's authorized keys" (api/ssh-keys.ts). */
export const authorizedKeys = z.array(
  z.string({ error: "must be a string" }).superRefine((v, ctx) => {
    const e = sshKeyError(v);
    if (e) refuse(ctx, e);
  }),
  { error: "Must be an array of SSH public keys" },
);

/** compute-api.md Create body: "authorized_users | array of strings | Usernames whose profile SSH keys are appended" (who they are is the account's). */
export const authorizedUsers = z.array(z.string({ error: typeText("a string") }), {
  error: "Must be an array of usernames",
});

/** A reference by id or name to what the account or the catalogue holds: refused here when it is not of the id's type; which one is not found is the state's to say. */
const required = (field: string, type: "a string" | "an integer") => typeText(type, `${field} is required`);

/** An image id (`compute/...`, `private/...`). */
export const imageRef = z.string({ error: typeText("a string") });
/** compute-api.md Create body: "script_id | integer | Deployment script to run; requires a compatible image". */
export const scriptId = z.number({ error: typeText("an integer") }).int({ error: typeText("an integer") });

const SCRIPT_DATA_MAX = LENGTH_LIMITS.scriptData[1];
/** compute-api.md Create body: "script_data | object | Valid JSON, at most 65535 characters" (counted as JSON). */
export const scriptData = z.record(z.string(), z.unknown(), { error: "Must be a JSON object" }).superRefine((v, ctx) => {
  if (checkLength(JSON.stringify(v), "scriptData"))
    refuse(ctx, `Must be at most ${SCRIPT_DATA_MAX} characters`, `must be at most ${SCRIPT_DATA_MAX} characters as JSON`);
});

/** compute-api.md Create body: "metadata | object | `user_data`: base64-encoded cloud-config". */
export const userData = z.string({ error: "Must be a base64-encoded string" }).superRefine((v, ctx) => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v)) refuse(ctx, "Must be base64-encoded", "must be base64-encoded");
});
export const metadata = z.object({ user_data: userData.optional() }, { error: "Must be an object: { user_data }" });

/** compute-api.md Create body: "swap_size | integer | Default 512" (MB). */
export const swapSize = count("Must be a whole number of MB, 0 or more");

/**
 * What a deploy takes (compute-api.md: an instance's create and rebuild, a disk's create): the image, the root
 * password, keys and users, a deployment script and its inputs. `null` is taken as not given.
 */
export const deployFields = {
  image: imageRef.nullable().optional(),
  root_pass: rootPass.nullable().optional(),
  authorized_keys: authorizedKeys.optional(),
  authorized_users: authorizedUsers.optional(),
  script_id: scriptId.nullable().optional(),
  script_data: scriptData.optional(),
};

/**
 * The rules between a body's fields are tried even when one of its fields is refused, so that every refusal is
 * listed at once (as the API lists them): they read only whether a field is given.
 */
export const BETWEEN_FIELDS = { when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null };

/** Whether a body deploys (an image or a script): its root password is required then. */
export const deploys = (body: { image?: string | null; script_id?: number | null }): boolean => body.image != null || body.script_id != null;

// ---- the bodies ----------------------------------------------------------------------------------------

/** compute-api.md "Create body (`POST /compute/instances`)". Which region, type, image, backup or script exists is the state's to say. */
export const instanceCreate = z
  .object({
    region: z.string({ error: required("region", "a string") }),
    type: z.string({ error: required("type", "a string") }),
    label: instanceLabel.optional(),
    image: deployFields.image,
    root_pass: deployFields.root_pass,
    authorized_keys: deployFields.authorized_keys,
    authorized_users: deployFields.authorized_users,
    script_id: deployFields.script_id,
    script_data: deployFields.script_data,
    metadata: metadata.nullable().optional(),
    backup_id: z
      .number({ error: typeText("an integer") })
      .int({ error: typeText("an integer") })
      .optional(),
    backups_enabled: bool.optional(),
    booted: bool.optional(),
    private_ip: bool.optional(),
    swap_size: swapSize.optional(),
    firewall_id: z.number({ error: "Must be an integer" }).int("Must be an integer").nullable().optional(),
    group: instanceGroup.optional(),
    tags: tags.optional(),
    interfaces: interfaceList(false).nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.backup_id !== undefined && body.image != null) refuse(ctx, "Give either image or backup_id, not both", undefined, ["backup_id"]);
    if (deploys(body) && body.root_pass == null) refuse(ctx, ROOT_PASS_REQUIRED, "is required when deploying from an image or a script", ["root_pass"]);
    if (body.interfaces !== undefined && body.image == null && body.backup_id === undefined && body.script_id == null)
      refuse(
        ctx,
        "Interfaces need an image or a backup to deploy: an empty instance has no configuration profile to hold them",
        "need an image or a backup to deploy",
        ["interfaces"],
      );
  }, BETWEEN_FIELDS);

/** compute-api.md `PUT I`: "any of `alerts`, `backups` (`schedule`), `group`, `label`, `tags`, `watchdog_enabled`". */
export const instanceUpdate = z.object({
  label: instanceLabel.optional(),
  group: instanceGroup.optional(),
  tags: tags.optional(),
  watchdog_enabled: bool.optional(),
  alerts: alertsRequest.optional(),
  backups: z.object({ schedule: backupScheduleRequest.optional() }, { error: "Must be an object: { schedule: { day, window } }" }).optional(),
});

const source = "compute-api.md";
const scope = { ro: ro("computes"), rw: rw("computes") };
export const INSTANCE_PATH = "/compute/instances/{computeId}";

/** compute-api.md "Instances": the instance itself. */
export const instancesApi = {
  list: endpoint({
    method: "GET",
    path: "/compute/instances",
    source,
    scope: scope.ro,
    auth: "required",
    summary: "List instances",
    query: pageQuery,
    answer: page(instance),
  }),
  create: endpoint({
    method: "POST",
    path: "/compute/instances",
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Create an instance",
    body: instanceCreate,
    answer: instance,
  }),
  get: endpoint({ method: "GET", path: INSTANCE_PATH, source, scope: scope.ro, auth: "required", summary: "View an instance", answer: instance }),
  update: endpoint({
    method: "PUT",
    path: INSTANCE_PATH,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Update an instance",
    body: instanceUpdate,
    answer: instance,
  }),
  delete: endpoint({ method: "DELETE", path: INSTANCE_PATH, source, scope: scope.rw, auth: "required", summary: "Delete an instance", answer: empty }),
};

export type Instance = z.output<typeof instance>;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];
export type InstanceSpecs = z.output<typeof instanceSpecs>;
export type InstanceAlerts = z.output<typeof instanceAlerts>;
export type BackupDay = (typeof BACKUP_DAYS)[number];
export type BackupWindow = (typeof BACKUP_WINDOWS)[number];
