import { z } from "zod";
import { int } from "../../../api/contract/common";
import { database, databaseBackup, DATABASE_STATUSES } from "../../../api/contract/databases";
import { collectionsOf } from "../../family";

/** The database family's records (managed clusters and their backups) and its collections in the state file. */

/** A status change to come: at `at` (ms), the cluster takes `status` and the fields of `patch`. */
const step = z.strictObject({ status: z.enum(DATABASE_STATUSES), at: z.number(), patch: database.partial().optional() });

/**
 * A cluster as the state keeps it: the API's record (its `members` made when shown, from its size), and the
 * emulator's own fields: its owner, the status changes to come, its root password and CA certificate, and whether
 * its credentials were reset since (a restore then leaves it failed: rule 7).
 */
export const storedDatabase = database
  .omit({ members: true })
  .extend({ _owner: z.string(), _queue: z.array(step), _password: z.string(), _ca: z.string(), _resetSinceBackup: z.boolean() })
  .strict();
export type DatabaseRecord = z.output<typeof storedDatabase>;

/** A backup as the state keeps it: the API's record, its cluster, and when it is done (a snapshot takes a while; it blocks other snapshots until then). */
export const storedDatabaseBackup = databaseBackup.extend({ database_id: int, _doneAt: z.number() }).strict();
export type DatabaseBackupRecord = z.output<typeof storedDatabaseBackup>;

/** The database family's collections in the state file. */
export const databaseState = collectionsOf({ databases: storedDatabase, databaseBackups: storedDatabaseBackup });
export type DatabaseState = ReturnType<typeof databaseState>;
