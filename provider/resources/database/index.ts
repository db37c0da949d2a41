import { z } from "zod";
import type { ApiClient } from "../client";
import { defineResource, type ResourceDefinition } from "../definition";
import { act } from "../lost-answers";
import { fromApi, toApiBody, updateBody } from "../mapping";
import type { HookContext } from "../rest-provider";
import { ipOrCidrError, lengthError } from "../rules";
import { say, typePath, type StatusWait } from "../steps";
import type { CheckFailure } from "../check";
import { backupIdInput, convertKeys, rule, snake, UNKNOWN, type Props, type ResourceSpec } from "../table";
export type Engine = "mysql" | "postgresql";

export interface DatabaseApi {
  id: number;
  label: string;
  status: string;
  type: string;
  allow_list: string[];
  created: string;
  updates: Record<string, unknown>;
  [k: string]: unknown;
}

const updatesSchema = z
  .object({
    frequency: z.enum(["weekly", "monthly"]),
    duration: z.number().int().min(1, "must be 1 to 3 hours").max(3, "must be 1 to 3 hours"),
    hourOfDay: z.number().int().min(0, "must be 0 to 23").max(23, "must be 0 to 23"),
    dayOfWeek: z.number().int().min(1, "must be 1 (Monday) to 7 (Sunday)").max(7, "must be 1 (Monday) to 7 (Sunday)"),
    weekOfMonth: z.number().int().min(1).max(4).nullable(),
  })
  .partial()
  .strict()
  .refine((u) => u.frequency !== "monthly" || (u.weekOfMonth !== undefined && u.weekOfMonth !== null), {
    message: "a monthly window needs weekOfMonth (1 to 4)",
    path: ["weekOfMonth"],
  })
  // The name of its type in the generated sdk classes.
  .meta({ typeName: "MaintenanceWindow" });

const REPLICATION: Record<Engine, [string, ...string[]]> = { mysql: ["none", "asynch", "semi_synch"], postgresql: ["none", "asynch"] };

export function databaseSpec(engine: Engine): ResourceSpec<DatabaseApi> {
  const name = engine === "mysql" ? "MysqlDatabase" : "PostgresDatabase";
  const human = engine === "mysql" ? "MySQL" : "PostgreSQL";
  return {
    type: name,
    noun: `${human} database`,
    uniqueLabel: true,
    holdsData: true,
    autoName: { field: "label", min: 3, max: 32, allowed: /[A-Za-z0-9_-]/, separators: "-_" },
    description: `A managed ${human} cluster (\`/databases/${engine}/instances\`). Create waits until it is active (the real service takes 15 to 30 minutes; a progress line every 30 s). The root \`username\`, \`password\` and \`caCertificate\` are secret outputs, read again on every refresh (a credentials reset made elsewhere shows up). **A replacement makes a new, empty cluster**: the preview shows it as a replace, and the old cluster is deleted only once the new one is active.`,
    idFormat: "The API's integer database id, as a string.",
    example: `const db = new compute.${name}("app-db", {
    region: "us-east",
    type: "c1-standard-2",
    engine: "${engine === "mysql" ? "mysql/8.0.35" : "postgresql/16.1"}",
    allowList: [pulumi.interpolate\`\${web.vpcIpv4}/32\`],
});
export const dbHost = db.hosts.apply((h) => h.primary);
export const dbPassword = db.password; // a secret`,
    fields: [
      {
        name: "label",
        kind: "input",
        computed: true,
        schema: rule(
          (v) =>
            lengthError(v, 3, 32) ??
            (/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(v) ? undefined : "must use letters, digits, '-' and '_', starting with a letter or digit"),
        ),
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
        schema: z
          .string()
          .regex(new RegExp(`^${engine}/[0-9][0-9.]*$`), `must be ${engine}/<version>, for example ${engine === "mysql" ? "mysql/8.0.35" : "postgresql/16.1"}`),
        description: "`engine/version`. Versions are never upgraded in place: changing it replaces the cluster.",
      },
      {
        name: "clusterSize",
        kind: "input",
        computed: true,
        forceNew: true,
        schema: z.union([z.literal(1), z.literal(3)]),
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
        schema: z.enum(REPLICATION[engine]),
        description: `${REPLICATION[engine].map((r) => `\`${r}\``).join(", ")}: \`none\` for one node, another for three. Changing it replaces the cluster.`,
      },
      ...(engine === "postgresql"
        ? [
            {
              name: "replicationCommitType",
              kind: "input" as const,
              computed: true,
              forceNew: true,
              schema: z.enum(["on", "local", "remote_write", "remote_apply", "off"]),
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
        schema: z.array(rule((v) => ipOrCidrError(v))),
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
    ],
    timeouts: { defaults: { create: "60m", update: "30m", delete: "20m" } },
    collectionPath: () => `/databases/${engine}/instances`,
    itemPath: (id) => `/databases/${engine}/instances/${encodeURIComponent(id)}`,
    async findExisting(client, body) {
      return (await client.list<DatabaseApi>(`/databases/${engine}/instances`)).find((d) => d.label === body.label);
    },
  };
}

/** The API's engine is the type only ("mysql"); the input and the items are `engine/version`. */
const engineVersion = (api: Props): Props => ({ engine: `${String(api.engine)}/${String(api.version)}` });

const active = (what: string, want: (d: DatabaseApi) => boolean = () => true): StatusWait<DatabaseApi> => ({
  what,
  done: (d) => d.status === "active" && want(d),
  failed: (d) => (d.status === "failed" ? "the cluster is in status failed" : undefined),
  // Minutes-long waits: poll quickly at first, then back off to every 10 s; a progress line every 30 s.
  maxMs: 10_000,
  progressEveryMs: 30_000,
});

/** The statuses a restore is accepted in (the spec's precondition table). */
const RESTORABLE = ["active", "degraded", "failed"];

const typeDisk = async (c: ApiClient, id: string) => (await c.get<{ disk: number }>(typePath(id), true))?.disk;

const restoringRefusal = (id: string) =>
  `passwordRotation: database ${id} is restoring a backup, and a credentials reset during a restore leaves it failed: run pulumi up again once it is active`;

/**
 * A new root password (`passwordRotation` changed): the credentials reset, once the cluster is active (never
 * during a restore), a wait until it is active again, and the new credentials as outputs.
 */
async function rotatePassword(ctx: HookContext<DatabaseApi>, spec: ResourceSpec<DatabaseApi>, olds: Props): Promise<void> {
  const { client: c, id } = ctx;
  const now = await c.get<DatabaseApi>(spec.itemPath(id, olds));
  if (now?.status === "restoring") throw new Error(restoringRefusal(id));
  ctx.latest = await ctx.wait(active("to be active before the credentials reset"));
  // A reset twice is harmless: the second makes one more new password, read below.
  await act(c, `${spec.itemPath(id, olds)}/credentials/reset`, {});
  ctx.latest = await ctx.wait(active("to reset its credentials"));
  const cred = await c.get<{ username: string; password: string }>(`${spec.itemPath(id, olds)}/credentials`);
  Object.assign(ctx.outputs, { username: cred?.username, password: cred?.password });
}

/**
 * A backup restored into the cluster in place (`restoreBackupId` set or changed): once the cluster is in a
 * status the API restores in (waited for), the restore, a wait through `restoring` until it is active again,
 * and the credentials read again (the backup's data may hold other ones). A lost answer is sent again only
 * when the cluster shows no restore under way: a second restore of the same backup is the same data.
 */
async function restoreBackup(ctx: HookContext<DatabaseApi>, spec: ResourceSpec<DatabaseApi>, olds: Props, backupId: unknown): Promise<void> {
  const { client: c, id } = ctx;
  const path = `${spec.itemPath(id, olds)}/backups/${String(backupId)}/restore`;
  ctx.latest = await ctx.wait({
    what: "to be in a status a restore is accepted in",
    done: (d) => RESTORABLE.includes(d.status),
    maxMs: 10_000,
    progressEveryMs: 30_000,
  });
  let sawRestoring = false;
  await act(c, path, {}, async () => (await c.get<DatabaseApi>(spec.itemPath(id, olds)))?.status === "restoring");
  // From here a failure keeps the new value: the restore was accepted (running it again is a new restore).
  ctx.keep.restoreBackupId = backupId;
  const started = Date.now();
  ctx.latest = await ctx.wait({
    what: `to restore backup ${String(backupId)}`,
    // The API may show the restore a moment after accepting it: active counts once restoring was seen, or after 10 s.
    done: (d) => {
      if (d.status === "restoring") sawRestoring = true;
      return d.status === "active" && (sawRestoring || Date.now() - started > 10_000);
    },
    failed: (d) =>
      d.status === "failed"
        ? `the restore of backup ${String(backupId)} left the cluster failed (the API's rule 7: a restore after a credentials reset does); restore another backup, or recreate the cluster`
        : undefined,
    maxMs: 10_000,
    progressEveryMs: 30_000,
  });
  const cred = await c.get<{ username: string; password: string }>(`${spec.itemPath(id, olds)}/credentials`);
  Object.assign(ctx.outputs, { username: cred?.username, password: cred?.password });
}

/**
 * A managed database: its table, plus the replication rule, the refusal of a smaller type at preview, the
 * long wait until it is active, the maintenance window set once it is, the credentials read as outputs,
 * and in-place changes made while it is active. A replacement is made first (provider/replacements.ts).
 */
export function databaseDefinition(engine: Engine): ResourceDefinition<DatabaseApi> {
  const spec = databaseSpec(engine);
  // Rebuilt in every output, so that what a failure keeps in the stack has it too (else the next diff sees a new engine).
  const outputsOf = (api: DatabaseApi, props: Props): Props => ({ ...fromApi(spec, api, props), ...engineVersion(api) });
  const human = engine === "mysql" ? "MySQL" : "PostgreSQL";
  return defineResource({
    spec,
    lookup: {
      name: engine === "mysql" ? "getMysqlDatabases" : "getPostgresDatabases",
      listKey: "databases",
      description: `The ${human} clusters of the account.`,
      extra: engineVersion,
    },
    sdk: { file: engine === "mysql" ? "mysqlDatabase" : "postgresDatabase", ...(engine === "mysql" ? { argsAliases: ["DatabaseArgs"] } : {}) },
    hooks: {
      validate(news) {
        const failures: CheckFailure[] = [];
        const size = news.clusterSize ?? 1;
        const repl = news.replicationType;
        if (typeof repl === "string" && repl !== UNKNOWN) {
          const fail = (reason: string) => failures.push({ property: "replicationType", reason: `replicationType: ${reason}` });
          if (size === 1 && repl !== "none") fail("a one-node cluster has no replication: use none, or clusterSize 3");
          if (size === 3 && repl === "none") fail("a three-node cluster replicates: choose a replication type other than none");
        }
        return failures;
      },
      async diff(client, id, olds, news, d) {
        // The engine as the API lists it now (`mysql/8`, major only) names the cluster's full version
        // (`mysql/8.0.35`, rebuilt from the record): the same engine, not a replacement.
        if (d.replaces.includes("engine") && typeof news.engine === "string" && typeof olds.engine === "string" && olds.engine.startsWith(`${news.engine}.`)) {
          d.replaces = d.replaces.filter((f) => f !== "engine");
          d.changed = d.changed.filter((f) => f !== "engine");
          d.changes = d.changed.length > 0;
        }
        // A restore: the backup must be one of this cluster's (the API's path), read at preview.
        const restore = news.restoreBackupId;
        if (d.changed.includes("restoreBackupId") && restore !== undefined && restore !== UNKNOWN && !d.replaces.length) {
          const found = await client().get(`${spec.itemPath(id, olds)}/backups/${String(restore)}`, true);
          if (found === undefined) {
            throw new Error(
              `restoreBackupId: ${String(restore)} is not a backup of ${human} database ${id} (getMysqlDatabaseBackups/getPostgresDatabaseBackups list them); a restore takes a backup of the same cluster`,
            );
          }
        }
        // A credentials reset during a restore leaves the cluster failed (rule 7): refused at preview.
        if (d.changed.includes("passwordRotation") && news.passwordRotation !== undefined) {
          const db = await client().get<DatabaseApi>(spec.itemPath(id, olds), true);
          if (db?.status === "restoring") throw new Error(restoringRefusal(id));
        }
        // A smaller type is refused here, at preview: the API only moves a database to more disk.
        if (d.changed.includes("type") && typeof news.type === "string" && news.type !== UNKNOWN) {
          const c = client();
          const [from, to] = [await typeDisk(c, String(olds.type)), await typeDisk(c, news.type)];
          if (to === undefined) throw new Error(`type: ${news.type} is not an instance type`);
          if (from !== undefined && to <= from) {
            const why = `a database can only move to a type with more disk than ${String(olds.type)} (${from} MB); ${news.type} has ${to} MB`;
            throw new Error(`type: ${why}. To shrink, create a new database and move the data.`);
          }
        }
      },
      createBody(inputs) {
        if (inputs.restoreBackupId !== undefined) {
          say(
            `restoreBackupId ${String(inputs.restoreBackupId)}: a new ${human} cluster has no backups of its own, so nothing is restored; a later change of restoreBackupId restores into it`,
          );
        }
        const body = toApiBody(spec, inputs);
        delete body.updates; // not in the create body: set by a PUT once active
        return body;
      },
      waitCreated: active("to be active"),
      async afterCreate({ client: c, id, props: inputs }, last) {
        if (inputs.updates === undefined) return last;
        const updates = { ...last.updates, ...(convertKeys(inputs.updates, snake) as object) };
        return (await c.request<DatabaseApi>("PUT", spec.itemPath(id, inputs), { body: { updates } })).body;
      },
      async update(ctx, olds, news, changed) {
        const { client: c, id } = ctx;
        // A restore first: it replaces the data, and the other changes (a new password) apply to what it leaves.
        if (changed.includes("restoreBackupId") && news.restoreBackupId !== undefined) {
          ctx.keep.restoreBackupId = olds.restoreBackupId;
          await restoreBackup(ctx, spec, olds, news.restoreBackupId);
        }
        const sent = changed.filter((f) => ["label", "allowList", "type", "updates"].includes(f));
        if (sent.length) {
          // The API takes updates only while the cluster is active.
          const now = (ctx.latest = await ctx.wait(active("to be active before the update")));
          const body = updateBody(spec, news, sent);
          if (body.updates) body.updates = { ...now.updates, ...body.updates };
          await c.request("PUT", spec.itemPath(id, olds), { body });
          const wantList = JSON.stringify([...((news.allowList as string[] | undefined) ?? [])].sort());
          const applied = (d: DatabaseApi) =>
            (!sent.includes("type") || d.type === news.type) && (!sent.includes("allowList") || JSON.stringify([...d.allow_list].sort()) === wantList);
          ctx.latest = await ctx.wait(active("to apply the change", applied));
        }
        if (changed.includes("passwordRotation") && news.passwordRotation !== undefined) {
          await rotatePassword(ctx, spec, olds);
        }
        return ctx.latest ?? ((await c.get<DatabaseApi>(spec.itemPath(id, olds))) as DatabaseApi);
      },
      keepUpdated: true,
      mapOutputs: outputsOf,
      /**
       * The credentials and certificate, read when the cluster is active on create and refresh; an update
       * keeps the ones it has (it cannot change them; refresh sees a reset made elsewhere).
       */
      async extraOutputs(c, api, inputs, { op, olds: old }) {
        const id = String(api.id);
        const outs: Props = {};
        if (api.status === "active" && (op !== "update" || old.password === undefined)) {
          const [cred, ssl] = await Promise.all([
            c.get<{ username: string; password: string }>(`${spec.itemPath(id, inputs)}/credentials`),
            c.get<{ ca_certificate: string }>(`${spec.itemPath(id, inputs)}/ssl`),
          ]);
          Object.assign(outs, { username: cred?.username, password: cred?.password, caCertificate: ssl?.ca_certificate });
        } else {
          for (const k of ["username", "password", "caCertificate"]) if (old[k] !== undefined) outs[k] = old[k];
        }
        return outs;
      },
      waitGone: { maxMs: 10_000, skipOn404: true },
      keptNoun: "database",
      keptNote: "run pulumi up again to go on waiting, or pulumi destroy to remove it.",
    },
  });
}

export const mysqlDatabase = databaseDefinition("mysql");
export const postgresDatabase = databaseDefinition("postgresql");
export const mysqlSpec = mysqlDatabase.spec;
export const postgresSpec = postgresDatabase.spec;
export const mysqlProvider = mysqlDatabase.provider;
export const postgresProvider = postgresDatabase.provider;
