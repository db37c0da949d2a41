import { z } from "zod";
import { int } from "../../../api/contract/common";
import {
  allowList,
  checkReplication,
  checkWindow,
  database,
  databaseBackup,
  databaseLabel,
  databaseSnapshotLabel,
  DATABASE_STATUSES,
  replicationType,
  WINDOW_FIELDS,
  type DatabaseStatus,
} from "../../../api/contract/databases";
import { refuse } from "../../../api/contract/common";
import { collectionsOf } from "../../family";

/** The database family's records (managed clusters and their backups) and its collections in the state file. */

/** A status change to come: at `at` (ms), the cluster takes `status` and the fields of `patch`. */
const step = z.strictObject({ status: z.enum(DATABASE_STATUSES), at: z.number(), patch: database.partial().optional() });

/**
 * The maintenance window as the state keeps it: what an update's window may be (api/contract/databases.ts
 * `WINDOW_FIELDS`, `week_of_month` by the frequency), `day_of_week` set (a cluster's create sets Monday).
 */
const storedWindow = z.strictObject(WINDOW_FIELDS).check(z.superRefine((u, ctx) => checkWindow(ctx, u.frequency, u.week_of_month, "week_of_month")));

/** "SSL certificate": "`ca_certificate` (string, base64-encoded CA certificate)": what the cluster keeps to answer. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The statuses a cluster passes through: each ends with a step of its `_queue` (else the cluster would stay in it). */
export const PASSING_STATUSES: readonly DatabaseStatus[] = ["provisioning", "suspending", "resuming", "restoring", "updating", "backing_up"];

/**
 * What a cluster's record must hold between its own fields, as the API makes them: its replication its engine's
 * and its size's (rule of the create body), `replication_commit_type` PostgreSQL's only (and always PostgreSQL's),
 * a passing status with the step that ends it to come.
 */
function checkCluster(db: z.output<typeof storedFields>, ctx: z.core.$RefinementCtx): void {
  const replication = replicationType(db.engine).safeParse(db.replication_type);
  if (!replication.success) refuse(ctx, replication.error.issues[0].message, undefined, ["replication_type"]);
  else checkReplication(db.engine)(db, ctx);
  if (db.engine === "mysql" && db.replication_commit_type !== undefined) refuse(ctx, "Only for PostgreSQL", undefined, ["replication_commit_type"]);
  if (db.engine === "postgresql" && db.replication_commit_type === undefined)
    refuse(ctx, "A PostgreSQL cluster has a replication_commit_type (local when its create named none)", undefined, ["replication_commit_type"]);
  if (PASSING_STATUSES.includes(db.status) && db._queue.length === 0)
    refuse(ctx, `A cluster ${db.status} has the step that ends it to come (its _queue is empty)`, undefined, ["_queue"]);
}

/**
 * A cluster's fields as the state keeps them: the API's record (its `members` made when shown, from its size),
 * its label, allow list and window by the API's rules, and the emulator's own fields: its owner, the status changes
 * to come, its root password and CA certificate (base64), and whether its credentials were reset since (a restore then
 * leaves it failed: rule 7).
 */
const storedFields = database
  .omit({ members: true })
  .extend({
    label: databaseLabel,
    allow_list: allowList,
    updates: storedWindow,
    _owner: z.string(),
    _queue: z.array(step),
    _password: z.string(),
    _ca: z.string().regex(BASE64, "Must be base64, as the API answers a CA certificate"),
    _resetSinceBackup: z.boolean(),
  })
  .strict();

/**
 * A cluster as the state keeps it (`storedFields`), its fields held together (`checkCluster`). Its region, type,
 * engine and version are the catalogue's, its label unique: the family's `references` (references.ts).
 */
export const storedDatabase = storedFields.check(z.superRefine(checkCluster));
export type DatabaseRecord = z.output<typeof storedDatabase>;

/**
 * A backup as the state keeps it: the API's record (its label by a snapshot's rule: an automatic one's,
 * `autoYYYYMMDD`, is one too), its cluster, and when it is done (a snapshot takes a while; it blocks other snapshots
 * until then).
 */
export const storedDatabaseBackup = databaseBackup.extend({ label: databaseSnapshotLabel, database_id: int, _doneAt: z.number() }).strict();
export type DatabaseBackupRecord = z.output<typeof storedDatabaseBackup>;

/** The database family's collections in the state file. */
export const databaseState = collectionsOf({ databases: storedDatabase, databaseBackups: storedDatabaseBackup });
export type DatabaseState = ReturnType<typeof databaseState>;
