import type { ExampleProps } from "../../model/example";
import { z } from "zod";
import { DATABASE_APIS } from "../../../api/contract/database-endpoints";
import {
  allowList,
  checkWindow,
  clusterSize,
  commitType,
  databaseLabel,
  engineId,
  REPLICATION_TYPES,
  replicationType,
  WINDOW_FIELDS,
  type Database,
  type Engine,
} from "../../../api/contract/databases";
import { pathOf } from "../../../api/contract/endpoint";
import { DATABASE_LABEL_CHAR } from "../../../api/labels";
import { labelBounds } from "../../../api/text";
import { type StatusWait } from "../../lifecycle/steps";
import { tableFor } from "../../model/api-table";
import { backupIdInput } from "../../model/rules";
import { priceFields } from "../price-catalog";

export type { Engine };

/** A cluster as the API answers it (api/contract/databases.ts). */
export type DatabaseApi = Database;

/**
 * The maintenance window as the program gives it: the contract's fields (their ranges and texts, the API's),
 * camelCase, each optional (the rest is the cluster's current window), and a monthly window's week.
 */
const updatesSchema = z
  .object({
    frequency: WINDOW_FIELDS.frequency,
    duration: WINDOW_FIELDS.duration,
    hourOfDay: WINDOW_FIELDS.hour_of_day,
    dayOfWeek: WINDOW_FIELDS.day_of_week,
    weekOfMonth: WINDOW_FIELDS.week_of_month,
  })
  .partial()
  .strict()
  .check(
    z.superRefine((u, ctx) => {
      if (u.frequency !== undefined) checkWindow(ctx, u.frequency, u.weekOfMonth, "weekOfMonth");
    }),
  )
  // The name of its type in the generated sdk classes.
  .meta({ typeName: "MaintenanceWindow" });

export const active = (what: string, want: (d: DatabaseApi) => boolean = () => true): StatusWait<DatabaseApi> & { readyStatus: string } => ({
  what,
  readyStatus: "active",
  done: (d) => d.status === "active" && want(d),
  failed: (d) => (d.status === "failed" ? "the cluster is in status failed" : undefined),
  // Minutes-long waits: poll quickly at first, then back off to every 10 s; a progress line every 30 s.
  maxMs: 10_000,
  progressEveryMs: 30_000,
});

export function databaseSpec(engine: Engine) {
  const name = engine === "mysql" ? "MysqlDatabase" : "PostgresDatabase";
  const human = engine === "mysql" ? "MySQL" : "PostgreSQL";
  const api = DATABASE_APIS[engine].clusters;
  const replication = REPLICATION_TYPES[engine];
  return tableFor({ create: api.create, get: api.get, update: api.update, list: api.list })({
    type: name,
    noun: `${human} database`,
    uniqueLabel: true,
    holdsData: true,
    autoName: { field: "label", ...labelBounds("databaseLabel"), allowed: DATABASE_LABEL_CHAR, separators: "-_" },
    description: `A managed ${human} cluster (\`/databases/${engine}/instances\`). Create waits until it is active (the real service takes 15 to 30 minutes; a progress line every 30 s). The root \`username\`, \`password\` and \`caCertificate\` are secret outputs, read again on every refresh (a credentials reset made elsewhere shows up). **A replacement makes a new, empty cluster**: the preview shows it as a replace, and the old cluster is deleted only once the new one is active.`,
    idFormat: "The API's integer database id, as a string.",
    fields: [
      {
        name: "label",
        kind: "input",
        computed: true,
        schema: databaseLabel,
        description: "3..32 characters, unique among your databases; auto-named `<resource name>-<suffix>` when left out. Changed in place.",
      },
      {
        name: "region",
        kind: "input",
        required: true,
        forceNew: true,
        schema: z.string().min(1),
        description: "Region id (one offering managed databases). Changing it replaces the cluster (a new, empty one).",
      },
      {
        name: "type",
        kind: "input",
        required: true,
        schema: z.string().min(1),
        description: "Instance type of the nodes. Changed in place, to a type with more disk only: a smaller one is refused at preview.",
      },
      {
        name: "engine",
        kind: "input",
        required: true,
        forceNew: true,
        schema: engineId(engine),
        description: "`engine/version`. Versions are never upgraded in place: changing it replaces the cluster.",
      },
      {
        name: "clusterSize",
        kind: "input",
        computed: true,
        forceNew: true,
        schema: clusterSize,
        description: "1 node, or 3 (a primary and two replicas). Changing it replaces the cluster.",
      },
      {
        name: "encrypted",
        kind: "input",
        computed: true,
        forceNew: true,
        schema: z.boolean(),
        description: "Encryption at rest (default false). Changing it replaces the cluster.",
      },
      {
        name: "sslConnection",
        kind: "input",
        computed: true,
        forceNew: true,
        schema: z.boolean(),
        description: "Require SSL to connect (default true). Changing it replaces the cluster.",
      },
      {
        name: "replicationType",
        kind: "input",
        computed: true,
        forceNew: true,
        schema: replicationType(engine),
        description: `${replication.map((r) => `\`${r}\``).join(", ")}: \`none\` for one node, another for three. Changing it replaces the cluster.`,
      },
      ...(engine === "postgresql"
        ? [
            {
              name: "replicationCommitType" as const,
              kind: "input" as const,
              computed: true,
              forceNew: true,
              schema: commitType,
              description: "Synchronization level of the replicas (default `local`). Changing it replaces the cluster.",
            },
          ]
        : []),
      {
        name: "allowList",
        kind: "input",
        computed: true,
        clearTo: [],
        unordered: true,
        schema: allowList,
        description:
          "IP addresses and CIDR ranges that may connect; empty blocks everything, `0.0.0.0/0` admits all. Changed in place (the provider waits until it is applied).",
      },
      {
        name: "updates",
        kind: "input",
        computed: true,
        partial: true,
        schema: updatesSchema,
        description:
          "Maintenance window: `frequency` (`weekly`, `monthly`), `duration` (1..3 h), `hourOfDay` (0..23), `dayOfWeek` (1..7), `weekOfMonth` (1..4, monthly). Changed in place.",
      },
      {
        name: "passwordRotation",
        kind: "input",
        control: true,
        schema: z.string(),
        description:
          "Any value (a date, a counter): a new value resets the root credentials in place (a new random `password`, read back as the secret output), so a rotation is one config change. Left out or removed, nothing is reset. Refused while the cluster restores a backup (a reset then would leave it failed).",
      },
      {
        name: "restoreBackupId",
        kind: "input",
        control: true,
        schema: backupIdInput,
        description:
          "The id of one of this cluster's backups (`getMysqlDatabaseBackups`/`getPostgresDatabaseBackups`, or a `MysqlDatabaseSnapshot`'s id) to restore into it in place: **a restore erases all the cluster's data and replaces it with the backup's** (rule 7). Setting it or changing it restores (the id stays the same; the provider waits until the cluster is active again and reads the credentials again); removing it restores nothing. Checked at preview: the backup must be one of this cluster's. A new cluster (or a replacement) has no backups of its own: there the value is recorded and nothing is restored (a line says so). A restore after a credentials reset leaves the cluster failed (rule 7): in one update, the restore comes first and a `passwordRotation` after it.",
      },
      { name: "status", kind: "output", description: "`provisioning`, `active`, `updating`, `backing_up`, `restoring`, `failed`, ..." },
      {
        name: "hosts",
        kind: "output",
        outputType: "object",
        schema: z.object({ primary: z.string().nullable(), secondary: z.string().nullable(), standby: z.string().nullable().optional() }),
        description:
          "`primary` and `secondary` host names (set when provisioning completes); `standby` where the API names the replicas' host so (its current platform).",
      },
      { name: "port", kind: "output", outputType: "integer", description: "The port to connect to." },
      { name: "version", kind: "output", description: "The engine version." },
      { name: "totalDiskSizeGb", kind: "output", outputType: "integer", changesWith: ["type"], description: "Disk size in GB." },
      { name: "usedDiskSizeGb", kind: "output", outputType: "integer", changesWith: ["restoreBackupId"], description: "Disk used in GB." },
      { name: "username", kind: "output", secret: true, description: "The root user (secret)." },
      {
        name: "password",
        kind: "output",
        secret: true,
        changesWith: ["passwordRotation", "restoreBackupId"],
        description: "The root password (secret), read again on refresh.",
      },
      { name: "caCertificate", kind: "output", secret: true, description: "The base64 CA certificate (secret)." },
      { name: "created", kind: "output", description: "When the cluster was created." },
      { name: "updated", kind: "output", changesWith: ["label", "allowList", "type", "updates", "restoreBackupId"], description: "When it last changed." },
      ...priceFields("the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`)", ["type", "clusterSize"]),
    ],
    timeouts: { defaults: { create: "60m", update: "30m", delete: "20m" } },
    waitCreated: active("to be active"),
    waitGone: { maxMs: 10_000, skipOn404: true },
    kept: { noun: "database", note: "run pulumi up again to go on waiting, or pulumi destroy to remove it.", afterUpdate: true },
    collectionPath: () => pathOf(api.list, {}),
    itemPath: (id) => pathOf(api.get, { instanceId: id }),
    async findExisting(client, body) {
      return (await client.all(api.list, {})).find((d) => d.label === body.label);
    },
  });
}

/** A database's table rows (either engine's), for the types of its hooks. */
export type DatabaseFields = ReturnType<typeof databaseSpec>["fields"];

// The inputs its examples may give (MysqlDatabase, PostgresDatabase): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../../model/example" {
  interface ExampleInputs {
    MysqlDatabase: ExampleProps<DatabaseFields>;
    PostgresDatabase: ExampleProps<DatabaseFields>;
  }
}
