import { z } from "zod";
import { databaseLabelError, databaseSnapshotLabelError } from "../labels";
import { addressOrRangeError } from "../network";
import { apiTime, bool, int, needs, oneOf, refuse, ruled, recordId } from "./common";

/**
 * databases-api.md: the managed database clusters (MySQL and PostgreSQL), their backups, credentials and CA
 * certificate: the records, the bodies, and the facts both sides read (the engines' replication types, the
 * cluster sizes, the maintenance window's ranges, the statuses each operation needs). The endpoints are
 * api/contract/database-endpoints.ts; the engines and `/databases/types` are the reference data's.
 */

/** The two engines of the clusters: `M` is `/databases/mysql/instances`, `P` `/databases/postgresql/instances`. */
export const ENGINES = ["mysql", "postgresql"] as const;
export type Engine = (typeof ENGINES)[number];

/** "replication_type | string enum | MySQL: `none`, `asynch`, `semi_synch`. PostgreSQL: `none`, `asynch`." */
export const REPLICATION_TYPES = { mysql: ["none", "asynch", "semi_synch"], postgresql: ["none", "asynch"] } as const;
export type ReplicationType = (typeof REPLICATION_TYPES)[Engine][number];

/** "replication_commit_type | string enum | PostgreSQL only: `on`, `local`, `remote_write`, `remote_apply`, `off`; default `local`". */
export const COMMIT_TYPES = ["on", "local", "remote_write", "remote_apply", "off"] as const;
export const DEFAULT_COMMIT_TYPE = "local";

/** "status | string enum" (the same list as "States and transitions"). */
export const DATABASE_STATUSES = [
  "provisioning",
  "active",
  "suspending",
  "suspended",
  "resuming",
  "restoring",
  "failed",
  "degraded",
  "updating",
  "backing_up",
] as const;
export type DatabaseStatus = (typeof DATABASE_STATUSES)[number];

/** The operations of the spec's "Status required by an operation" table that name statuses. */
export type GatedOperation = "update" | "snapshot" | "credentials" | "patch" | "ssl" | "delete" | "restore";

/**
 * "Status required by an operation": "Update, snapshot create, credentials view, patch, SSL certificate view |
 * `active`"; "Delete, backup restore | `active`, `degraded` or `failed`". (The backups' row is `BACKUPS_NOT_WHILE`.)
 */
export const STATUS_NEEDED: Readonly<Record<GatedOperation, readonly DatabaseStatus[]>> = {
  update: ["active"],
  snapshot: ["active"],
  credentials: ["active"],
  patch: ["active"],
  ssl: ["active"],
  delete: ["active", "degraded", "failed"],
  restore: ["active", "degraded", "failed"],
};

/** "Backups list, backup view, backup delete | not `provisioning`". */
export const BACKUPS_NOT_WHILE: DatabaseStatus = "provisioning";

/** The spec's "Limits": "Snapshots per database | 3" (rule 5). */
export const MAX_SNAPSHOTS = 3;

/** "cluster_size | integer enum `1`, `3` | Default 1"; "Limits": "Cluster size | 1 or 3". */
export const clusterSize = z.union([z.literal(1), z.literal(3)], { error: "Must be 1 or 3" });
export type ClusterSize = z.output<typeof clusterSize>;
/** Rule 6: "`target` `secondary` applies to a high availability cluster": one of this many nodes. */
export const HIGH_AVAILABILITY_SIZE = 3;

/** The reason with its first letter a capital (the API's reason, from a rule's text). */
const reason = (rule: string): string => rule.charAt(0).toUpperCase() + rule.slice(1);

/**
 * docs/spec-gaps.md "Replication vs cluster size" (the spec: "not shown"): one node replicates nothing (`none`,
 * the default), three nodes replicate (not `none`; default `asynch`). The rule's text, or undefined.
 */
export function replicationRule(engine: Engine, size: ClusterSize, replication: string): string | undefined {
  if (size === 1 && replication !== "none") return "a one-node cluster has no replication: use none (or a cluster of 3 nodes)";
  if (size === 3 && replication === "none") return `a three-node cluster replicates: use ${REPLICATION_TYPES[engine].slice(1).join(" or ")}`;
  return undefined;
}

/** The replication a cluster of `size` nodes has when the create names none. */
export const defaultReplication = (size: ClusterSize): ReplicationType => (size === 3 ? "asynch" : "none");

/** The maintenance window's `frequency` values (docs/spec-gaps.md "Maintenance window"; the spec: "not shown"). */
export const WINDOW_FREQUENCIES = ["weekly", "monthly"] as const;

/** An integer within `[least, most]`: refused with the rule (`must be 0 to 23`) and, as the API's reason, its capitalized text. */
const within = (least: number, most: number, rule: string) =>
  z.int({ error: reason(rule) }).check(z.refine((n) => n >= least && n <= most, { message: reason(rule), params: { rule } }));

/**
 * The maintenance window's fields (`updates`): databases-api.md "Database instance" gives their types, "the
 * allowed ranges and values of the `updates` fields: not shown": docs/spec-gaps.md "Maintenance window". The
 * provider's `updates` input is made of these (camelCase), so that a range cannot differ between the two sides.
 */
export const WINDOW_FIELDS = {
  frequency: oneOf(WINDOW_FREQUENCIES, "Must be weekly or monthly"),
  duration: within(1, 3, "must be 1 to 3 hours"),
  hour_of_day: within(0, 23, "must be 0 to 23"),
  day_of_week: within(1, 7, "must be 1 (Monday) to 7 (Sunday)"),
  week_of_month: z.int({ error: "Must be 1 to 4 for a monthly window, null for a weekly one" }).nullable(),
};

/** A window's `week_of_month` for its `frequency`: 1 to 4 for a monthly window, null for a weekly one (the rule's text, or undefined). */
export function windowRule(frequency: unknown, week: unknown): string | undefined {
  const inMonth = typeof week === "number" && Number.isInteger(week) && week >= 1 && week <= 4;
  if (frequency === "monthly" && !inMonth) return "must be 1 to 4 for a monthly window";
  if (frequency === "weekly" && week !== undefined && week !== null) return "must be null for a weekly window";
  return undefined;
}

/** `refuse` for the window rule, under `path` (the API's `week_of_month`, the provider's `weekOfMonth`). */
export function checkWindow(ctx: z.core.$RefinementCtx, frequency: unknown, week: unknown, path: string): void {
  const rule = windowRule(frequency, week);
  if (rule) refuse(ctx, reason(rule), rule, [path]);
}

/** A window as a PUT sends it: every field (`week_of_month` may be left out of a weekly one). */
export const maintenanceWindowBody = z
  .object(
    {
      frequency: WINDOW_FIELDS.frequency,
      duration: WINDOW_FIELDS.duration,
      hour_of_day: WINDOW_FIELDS.hour_of_day,
      day_of_week: WINDOW_FIELDS.day_of_week,
      week_of_month: WINDOW_FIELDS.week_of_month.optional(),
    },
    { error: "Must be an object" },
  )
  // Said with the other fields' refusals (all at once), whenever the window is an object.
  .check(
    z.superRefine((u, ctx) => checkWindow(ctx, u.frequency, u.week_of_month, "week_of_month"), {
      when: (p) => typeof p.value === "object" && p.value !== null,
    }),
  );

/**
 * The window as a cluster's record shows it. `day_of_week` is null in the real API's answer to a create (recorded
 * 2024: TestDatabase_MySQL_Suite), set once the cluster is provisioned.
 */
export const maintenanceWindow = z.strictObject({
  frequency: z.enum(WINDOW_FREQUENCIES),
  duration: int,
  hour_of_day: int,
  day_of_week: int.nullable(),
  week_of_month: int.nullable(),
});

/** "hosts | object | `primary` and `secondary` host names; assigned after provisioning completes." */
export const databaseHosts = z.strictObject({ primary: z.string().nullable(), secondary: z.string().nullable() });

/** `members` (the real API's, beside the spec's fields: recorded): each node's address and its role. */
export const MEMBER_ROLES = ["primary", "failover"] as const;

/**
 * databases-api.md "Database instance", with `members` (recorded). The sizes are null while the real API
 * provisions (recorded 2024); `replication_commit_type` is PostgreSQL's only. The real API's current platform
 * (`platform` `rdbms-default`) answers another record (docs/spec-gaps.md): the emulator answers this one.
 */
export const database = z.strictObject({
  id: recordId,
  label: z.string(),
  type: z.string(),
  engine: z.enum(ENGINES),
  version: z.string(),
  region: z.string(),
  status: z.enum(DATABASE_STATUSES),
  port: int,
  encrypted: z.boolean(),
  allow_list: z.array(z.string()),
  cluster_size: clusterSize,
  hosts: databaseHosts,
  created: apiTime,
  updated: apiTime,
  total_disk_size_gb: int.nullable(),
  used_disk_size_gb: int.nullable(),
  members: z.record(z.string(), z.enum(MEMBER_ROLES)),
  ssl_connection: z.boolean(),
  replication_type: z.enum(REPLICATION_TYPES.mysql),
  replication_commit_type: z.enum(COMMIT_TYPES).optional(),
  updates: maintenanceWindow,
});

/**
 * An item of `GET /databases/instances`: "each has an `instance_uri` for details"; without `replication_type` and
 * `replication_commit_type`, which the real API leaves out of this list (recorded: TestDatabase_List).
 */
export const databaseListItem = database.omit({ replication_type: true, replication_commit_type: true }).extend({ instance_uri: z.string() }).strict();

/** A cluster's label: "label | string 3..32 | User-defined, unique" (its characters: api/labels.ts). */
export const databaseLabel = ruled(databaseLabelError, { missing: "Label is required" });

/** "allow_list | array of strings | Each item an IP address or CIDR range". */
export const allowList = z.array(
  z.string({ error: "must be a string" }).check(
    z.superRefine((v, ctx) => {
      const e = addressOrRangeError(v);
      if (e) refuse(ctx, e);
    }),
  ),
  { error: "Must be an array of IP addresses and CIDR ranges" },
);

/** An engine's `replication_type` (what a create may ask for). */
export const replicationType = <E extends Engine>(engine: E) =>
  oneOf(REPLICATION_TYPES[engine], `Must be one of ${REPLICATION_TYPES[engine].join(", ")} for ${engine}`);

/** PostgreSQL's `replication_commit_type`. */
export const commitType = oneOf(COMMIT_TYPES);

/** An engine's example id, for the rule's text (the emulator's catalogue has them). */
const ENGINE_EXAMPLE: Record<Engine, string> = { mysql: "mysql/8.0.35", postgresql: "postgresql/16.1" };

/** "engine (required, `engine/version`)", of the path's engine (whether the version exists is the catalogue's). */
export const engineId = (engine: Engine) =>
  z.string({ error: needs("engine is required (engine/version)", `Engine must be a string: ${engine}/<version>`) }).check(
    z.superRefine((v, ctx) => {
      if (!new RegExp(`^${engine}/[0-9][0-9.]*$`).test(v))
        refuse(ctx, `Engine ${v} is not a ${engine} engine; see /databases/engines`, `must be ${engine}/<version>, for example ${ENGINE_EXAMPLE[engine]}`);
    }),
  );

/** The fields both create bodies have: "MySQL create body: `label` (required), `region` (required), `type` (required), `engine` (required, `engine/version`), `cluster_size`, `encrypted`, `ssl_connection`, `replication_type`, `allow_list`". */
const createFields = <E extends Engine>(engine: E) => ({
  label: databaseLabel,
  region: z.string({ error: needs("region is required", "Must be a region id") }),
  type: z.string({ error: needs("type is required", "Must be an instance type id") }),
  engine: engineId(engine),
  cluster_size: clusterSize.default(1),
  encrypted: bool.default(false),
  ssl_connection: bool.default(true),
  replication_type: replicationType(engine).optional(),
});

/**
 * The replication rule, said with the other fields' refusals (when the size is one the spec has): a create body's,
 * and a cluster's record as the emulator keeps it.
 */
export const checkReplication =
  (engine: Engine) =>
  (b: { cluster_size?: unknown; replication_type?: unknown }, ctx: z.core.$RefinementCtx): void => {
    const size = b.cluster_size;
    if ((size !== 1 && size !== 3) || typeof b.replication_type !== "string") return;
    const rule = replicationRule(engine, size, b.replication_type);
    if (rule) refuse(ctx, reason(rule), rule, ["replication_type"]);
  };
const always = { when: () => true };

/** MySQL's create body; `replication_commit_type` is "PostgreSQL only". */
export const mysqlCreate = z
  .object({
    ...createFields("mysql"),
    replication_commit_type: z.never({ error: "Only for PostgreSQL" }).optional(),
    allow_list: allowList.default(() => []),
  })
  .check(z.superRefine(checkReplication("mysql"), always))
  .transform((b) => ({ ...b, replication_type: b.replication_type ?? defaultReplication(b.cluster_size) }));

/** "PostgreSQL create body: the same fields, with `replication_type` limited to `none`, `asynch`, plus `replication_commit_type`." */
export const postgresqlCreate = z
  .object({ ...createFields("postgresql"), replication_commit_type: commitType.default(DEFAULT_COMMIT_TYPE), allow_list: allowList.default(() => []) })
  .check(z.superRefine(checkReplication("postgresql"), always))
  .transform((b) => ({ ...b, replication_type: b.replication_type ?? defaultReplication(b.cluster_size) }));

/**
 * "Update body (all optional): `label` (string 3..32), `allow_list` (array), `type` (string; requests re-sizing to
 * an instance type with more disk space), `updates` (maintenance window object)."
 */
export const databaseUpdate = z.object({
  label: databaseLabel.optional(),
  allow_list: allowList.optional(),
  type: z.string({ error: "Must be an instance type id" }).optional(),
  updates: maintenanceWindowBody.optional(),
});

/** "Database backup": `type` enum. */
export const BACKUP_TYPES = ["snapshot", "auto"] as const;

/** databases-api.md "Database backup". */
export const databaseBackup = z.strictObject({ id: recordId, type: z.enum(BACKUP_TYPES), label: z.string(), created: apiTime });

/** A snapshot's label: "`label` (string 1..30, required)", "ASCII letters and digits only". */
export const databaseSnapshotLabel = ruled(databaseSnapshotLabelError, { missing: "label is required: 1 to 30 characters" });

/** A snapshot's `target`: "enum `primary`, `secondary`; default `primary`". */
export const SNAPSHOT_TARGETS = ["primary", "secondary"] as const;
export const snapshotTarget = oneOf(SNAPSHOT_TARGETS, "Must be primary or secondary");

/** Rule 6 in its words ("`target` `secondary` applies to a high availability cluster"): what a `secondary` target needs. */
export const SECONDARY_TARGET_RULE = "secondary applies to a high availability (three-node) cluster";

/** The snapshot create body. */
export const databaseSnapshotCreate = z.object({ label: databaseSnapshotLabel, target: snapshotTarget.default("primary") });

/** "Credentials": "`username` (string, root user) and `password` (string, randomly generated root password)". */
export const databaseCredentials = z.strictObject({ username: z.string(), password: z.string() });

/** "SSL certificate": "`ca_certificate` (string, base64-encoded CA certificate)"; null in the real API's 2024 answers (recorded). */
export const databaseSsl = z.strictObject({ ca_certificate: z.string().nullable() });

export type Database = z.output<typeof database>;
export type DatabaseListItem = z.output<typeof databaseListItem>;
export type DatabaseBackup = z.output<typeof databaseBackup>;
export type MaintenanceWindow = z.output<typeof maintenanceWindow>;
