import { z } from "zod";
import { bool, int, oneOf, page, pageQuery, typeText } from "./common";
import { rescueDevices } from "./configs";
import { eventEntityRecord } from "./events";
import { empty, endpoint, nothing, PATH_PARAMS, ro, rw } from "./endpoint";
import {
  authorizedKeys,
  authorizedUsers,
  instance,
  INSTANCE_PATH as I,
  instanceGroup,
  instanceLabel,
  metadata,
  rootPassword,
  ROOT_PASS_REQUIRED,
  scriptData,
  scriptId,
} from "./instances";
import { vpcAddress } from "./vpcs";

/**
 * compute-api.md "Instances": what is done to an instance (boot, reboot, shutdown, clone, rebuild, rescue, resize,
 * mutate, password) and what is read of it beside its record (NodeBalancers, volumes, statistics, transfer).
 */

/** compute-api.md `POST I/resize`: "migration_type (enum `warm`, `cold`; default `cold`)". */
export const MIGRATION_TYPES = ["warm", "cold"] as const;

/** compute-api.md "Limits": "Transfer year | 2000..2037". */
export const TRANSFER_YEARS = { min: 2000, max: 2037 } as const;

/** A profile named by a boot or reboot (one that is not the instance's is the state's to say). */
const configId = z.number({ error: typeText("an integer") }).int({ error: typeText("an integer") });

/**
 * The `config_id` today's clients send for "the default profile": linodego (2026) boots and reboots with
 * `{"config_id": 0}` when given none (its options' zero value). No profile has id 0 (ids start at 1), so 0 asks
 * rules 2 and 3 to pick one, as null and leaving it out do (docs/spec-gaps.md "Boot and reboot").
 */
export const DEFAULT_CONFIG_ID = 0;

/**
 * compute-api.md `POST I/boot` and `I/reboot`: "optional `config_id` (integer)" (null, left out or
 * `DEFAULT_CONFIG_ID`: rules 2 and 3 pick one).
 */
export const bootBody = z.object({ config_id: configId.nullable().optional() });

const ids = (what: string) =>
  z.array(z.number({ error: `Must be an array of ${what} ids` }).int(`Must be an array of ${what} ids`), { error: `Must be an array of ${what} ids` });

/**
 * compute-api.md "Clone body": to a new instance (`region`, `type`, `label`) or an existing one (`compute_id`);
 * `disks` and `configs` pick what to copy (everything when left out).
 */
export const cloneBody = z.object({
  region: z.string({ error: typeText("a string") }).optional(),
  type: z.string({ error: typeText("a string") }).optional(),
  compute_id: z
    .number({ error: typeText("an integer") })
    .int({ error: typeText("an integer") })
    .optional(),
  label: instanceLabel.optional(),
  group: instanceGroup.optional(),
  backups_enabled: bool.optional(),
  disks: ids("disk").optional(),
  configs: ids("configuration profile").optional(),
  private_ip: bool.optional(),
  metadata: metadata.nullable().optional(),
});

/** compute-api.md "Rebuild body": `image` and `root_pass` required; `type` also resizes the instance. */
export const rebuildBody = z.object({
  image: z.string({ error: (issue) => (issue.input == null ? "image is required" : "Must be a string") }),
  root_pass: rootPassword("root_pass", ROOT_PASS_REQUIRED),
  authorized_keys: authorizedKeys.optional(),
  authorized_users: authorizedUsers.optional(),
  booted: bool.optional(),
  script_id: scriptId.nullable().optional(),
  script_data: scriptData.optional(),
  metadata: metadata.nullable().optional(),
  type: z.string({ error: typeText("a string") }).optional(),
});

/** compute-api.md `POST I/rescue`: "`devices` object keyed by device name (`sda`, `sdb`, ...)"; rule 8: `sdh` is reserved. */
export const rescueBody = z.object({ devices: rescueDevices.nullable().optional() });

/** compute-api.md `POST I/resize`: "`type` (string, required), `allow_auto_disk_resize` (boolean, default true), `migration_type`". */
export const resizeBody = z.object({
  type: z.string({ error: typeText("a string", "type is required") }),
  allow_auto_disk_resize: bool.optional(),
  migration_type: oneOf(MIGRATION_TYPES, "Must be warm or cold").optional(),
});

/** compute-api.md `POST I/mutate`: "`allow_auto_disk_resize` (boolean, default true)". */
export const mutateBody = z.object({ allow_auto_disk_resize: bool.optional() });

/** compute-api.md `POST I/password`: "`root_pass` (string, required)". */
export const passwordBody = z.object({ root_pass: rootPassword("root_pass", ROOT_PASS_REQUIRED) });

// ---- what is read beside the record ----------------------------------------------------------------------

/** A series of samples: `[time (ms), value]`. */
const series = z.array(z.tuple([z.number(), z.number()]));
const traffic = z.strictObject({ in: series, out: series, private_in: series, private_out: series });

/** compute-api.md "Statistics": "`cpu` (array, percentage of CPU used), `io` (`io`, `swap`), `netv4` and `netv6` (each `in`, `out`, `private_in`, `private_out`), `title`". */
export const statistics = z.strictObject({ cpu: series, io: z.strictObject({ io: series, swap: series }), netv4: traffic, netv6: traffic, title: z.string() });

/** compute-api.md "Network transfer", current month: `billable` (GB over the quota), `quota` (GB), `used` (bytes). */
export const transfer = z.strictObject({ billable: int, quota: int, used: int });

/** compute-api.md "Network transfer", given month: `bytes_in`, `bytes_out`, `bytes_total`. */
export const monthTransfer = z.strictObject({ bytes_in: int, bytes_out: int, bytes_total: int });

/** "Fields of volume and NodeBalancer records in list results: not shown": the emulator has neither, so no item is in the contract. */
const unshown = z.never();

const TRANSFER_YEAR_TEXT = `Must be an integer from ${TRANSFER_YEARS.min} to ${TRANSFER_YEARS.max}`;
/** compute-api.md `GET I/transfer/{year}/{month}`: "`year` integer 2000..2037". */
const transferYear = z
  .string()
  .regex(/^\d{1,6}$/, TRANSFER_YEAR_TEXT)
  .transform(Number)
  .refine((y) => y >= TRANSFER_YEARS.min && y <= TRANSFER_YEARS.max, TRANSFER_YEAR_TEXT);

const source = "compute-api.md";
const scope = { ro: ro("computes"), rw: rw("computes") };

/**
 * An instance's IPv4 address in its networking view (`GET I/ips`: not in compute-api.md; the real API's, as
 * today's recordings show it, renamed: `linode_id` is `compute_id`, an entity of type `linode` is `compute`): the
 * address, its network (`gateway` null for a private one), its reverse DNS name, the instance, the VPC address
 * it is the 1:1 NAT of (`vpc_nat_1_1`), whether it is a reserved one, and what it is assigned to.
 */
export const instanceIpv4 = z.strictObject({
  address: z.string(),
  gateway: z.string().nullable(),
  subnet_mask: z.string(),
  prefix: int,
  type: z.literal("ipv4"),
  public: z.boolean(),
  rdns: z.string().nullable(),
  compute_id: int,
  interface_id: int.nullable(),
  region: z.string(),
  vpc_nat_1_1: z.strictObject({ vpc_id: int, subnet_id: int, address: z.string() }).nullable(),
  reserved: z.boolean(),
  assigned_entity: eventEntityRecord.nullable(),
});

/** An instance's IPv6 address (its SLAAC or its link-local one) in its networking view (recorded). */
const instanceIpv6 = z.strictObject({
  address: z.string(),
  gateway: z.string(),
  subnet_mask: z.string(),
  prefix: int,
  type: z.literal("ipv6"),
  rdns: z.string().nullable(),
  compute_id: int,
  region: z.string(),
  public: z.boolean(),
});

/** An IPv6 range routed to the instance (recorded; the emulator routes none). */
const ipv6Range = z.strictObject({ range: z.string(), prefix: int, region: z.string(), route_target: z.string() });

/**
 * The read-only networking view of an instance (`GET I/ips`), as the real API answers it today (recorded:
 * terraform-provider-linode reads it for every instance): its IPv4 addresses by kind (`public`, `private`,
 * `shared`, `reserved`, and its VPC addresses, the VPC address record of api/contract/vpcs.ts) and its IPv6 ones
 * (`slaac`, `link_local`, the `global` ranges, and `vpc`, empty in every recording).
 */
export const instanceIps = z.strictObject({
  ipv4: z.strictObject({
    public: z.array(instanceIpv4),
    private: z.array(instanceIpv4),
    shared: z.array(instanceIpv4),
    reserved: z.array(instanceIpv4),
    vpc: z.array(vpcAddress),
  }),
  ipv6: z.strictObject({ slaac: instanceIpv6, link_local: instanceIpv6, global: z.array(ipv6Range), vpc: z.array(z.never()) }),
});

/** compute-api.md "Instances": the actions, and what is read beside the record. */
export const instanceActionsApi = {
  boot: endpoint({
    method: "POST",
    path: `${I}/boot`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Boot an instance",
    body: bootBody,
    answer: empty,
  }),
  reboot: endpoint({
    method: "POST",
    path: `${I}/reboot`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Reboot an instance",
    body: bootBody,
    answer: empty,
  }),
  shutdown: endpoint({
    method: "POST",
    path: `${I}/shutdown`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Shut an instance down",
    body: nothing,
    answer: empty,
  }),
  clone: endpoint({
    method: "POST",
    path: `${I}/clone`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Clone an instance",
    body: cloneBody,
    answer: instance,
  }),
  rebuild: endpoint({
    method: "POST",
    path: `${I}/rebuild`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Rebuild an instance from an image",
    body: rebuildBody,
    answer: instance,
  }),
  rescue: endpoint({
    method: "POST",
    path: `${I}/rescue`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Boot an instance into rescue mode",
    body: rescueBody,
    answer: empty,
  }),
  resize: endpoint({
    method: "POST",
    path: `${I}/resize`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Resize an instance to another type",
    body: resizeBody,
    answer: empty,
  }),
  mutate: endpoint({
    method: "POST",
    path: `${I}/mutate`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Upgrade an instance to its type's successor",
    body: mutateBody,
    answer: empty,
  }),
  password: endpoint({
    method: "POST",
    path: `${I}/password`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Reset an instance's root password",
    body: passwordBody,
    answer: empty,
  }),
  nodebalancers: endpoint({
    method: "GET",
    path: `${I}/nodebalancers`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "List the NodeBalancers of an instance",
    query: pageQuery,
    answer: page(unshown),
  }),
  volumes: endpoint({
    method: "GET",
    path: `${I}/volumes`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "List the volumes of an instance",
    query: pageQuery,
    answer: page(unshown),
  }),
  ips: endpoint({
    method: "GET",
    path: `${I}/ips`,
    source: "recorded",
    scope: scope.ro,
    auth: "required",
    summary: "View an instance's networking: its IPv4 and IPv6 addresses",
    answer: instanceIps,
  }),
  stats: endpoint({
    method: "GET",
    path: `${I}/stats`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "Statistics of the past 24 hours",
    answer: statistics,
  }),
  statsOfMonth: endpoint({
    method: "GET",
    path: `${I}/stats/{year}/{month}`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "Statistics of a month (the current one: the past 30 days)",
    answer: statistics,
  }),
  transfer: endpoint({
    method: "GET",
    path: `${I}/transfer`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "Network transfer of the current month",
    answer: transfer,
  }),
  transferOfMonth: endpoint({
    method: "GET",
    path: `${I}/transfer/{year}/{month}`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "Network transfer of a month",
    params: { year: transferYear, month: PATH_PARAMS.month },
    answer: monthTransfer,
  }),
};

export type Statistics = z.output<typeof statistics>;
export type InstanceIps = z.output<typeof instanceIps>;
export type InstanceIpv4 = z.output<typeof instanceIpv4>;
export type Transfer = z.output<typeof transfer>;
export type MonthTransfer = z.output<typeof monthTransfer>;
