import { randomBytes } from "node:crypto";
import { BACKUPS_NOT_WHILE, type Database, type DatabaseStatus, type Engine } from "../../../api/contract/databases";
import type { FamilyContext } from "../../family";
import { badRequest, forbidden, notFound } from "../../http";
import { apiTime, eventEntity, settle, type EventTiming, type User } from "../../state";
import { DB_MS, scaled } from "../../timing";
import { databaseState, type DatabaseRecord } from "./records";
import { typeOf } from "./rules";

/** Durations at speed 1 (ms): emulator/timing.ts, with their sources. */
export { DB_MS } from "../../timing";

const DAY = 24 * 3600_000;
/** databases-api.md rule 4: automatic backups, each "retained for 7 days". */
const AUTO_BACKUP_DAYS = 7;

export const newPassword = () => randomBytes(18).toString("base64url");

/** Who asks for a cluster, and which: what a cluster route's request carries. */
export interface ClusterRequest {
  params: { instanceId: number };
  user: User;
}

/**
 * What the database routes (clusters, backups, credentials) share: the store and the database collections in
 * it, the clock and speed, and the helpers that find (as the request's user may see them), check the status of,
 * and show clusters. Made once per emulator by `databaseContext`.
 */
export type DatabaseContext = ReturnType<typeof databaseContext>;

export function databaseContext({ store, now, timing }: FamilyContext) {
  const d = databaseState(store);
  const dur = (k: keyof typeof DB_MS) => scaled(DB_MS[k], timing);
  const stamp = () => apiTime(now());

  const canSee = (user: User, db: DatabaseRecord, level: "read_only" | "read_write") => {
    if (!user.restricted) return true;
    const g = user.grants?.database.find((x) => x.id === db.id);
    return level === "read_only" ? Boolean(g?.permissions) : g?.permissions === "read_write";
  };
  /** Daily automatic backups at 00:00 UTC, each kept 7 days (made lazily, as time passes). */
  const autoBackups = (db: DatabaseRecord) => {
    const created = Date.parse(`${db.created}Z`);
    const oldest = now() - AUTO_BACKUP_DAYS * DAY;
    d.databaseBackups = d.databaseBackups.filter((b) => !(b.database_id === db.id && b.type === "auto" && Date.parse(`${b.created}Z`) <= oldest));
    for (let t = Math.ceil(Math.max(created, oldest + 1) / DAY) * DAY; t <= now(); t += DAY) {
      if (t <= created) continue;
      const at = apiTime(t);
      if (!d.databaseBackups.some((b) => b.database_id === db.id && b.type === "auto" && b.created === at)) {
        d.databaseBackups.push({
          id: store.nextId("dbbackup"),
          database_id: db.id,
          label: `auto${at.slice(0, 10).replace(/-/g, "")}`,
          type: "auto",
          created: at,
          _doneAt: t,
        });
      }
    }
  };
  /** The cluster of the request's path, of `engine`, as the user may see it (404), or change it (403). */
  const find = ({ params, user }: ClusterRequest, engine: Engine, level: "read_only" | "read_write" = "read_only") => {
    const db = d.databases.find((x) => x.id === params.instanceId && x.engine === engine);
    if (!db || !canSee(user, db, "read_only")) throw notFound();
    if (!canSee(user, db, level)) throw forbidden("You have only read access to this database");
    settle(db, now());
    if (db.status !== "provisioning") autoBackups(db);
    return db;
  };
  /** A precondition of the spec's "Status required by an operation" (api/contract/databases.ts `STATUS_NEEDED`). */
  const requireStatus = (db: DatabaseRecord, allowed: readonly DatabaseStatus[], what: string) => {
    if (!allowed.includes(db.status)) throw badRequest(`The database must be ${allowed.join(", ")} to ${what}; it is ${db.status}`);
  };
  /** "Backups list, backup view, backup delete | not `provisioning`". */
  const backupsAvailable = (db: DatabaseRecord) => {
    if (db.status === BACKUPS_NOT_WHILE) throw badRequest("The database is still provisioning: backups are not available yet");
  };
  const unrestricted = (user: User, what: string) => {
    if (user.restricted) throw forbidden(`Only unrestricted users can ${what}, whatever the token's scopes`);
  };
  /**
   * A cluster as the API shows it, with `members` (what the real API answers beside the spec's fields: each
   * node's address and its role, `primary` or `failover`; none until provisioning ends). Addresses from
   * 198.51.100.0/24, a documentation range. `replication_commit_type` is PostgreSQL's only.
   */
  const dbView = (db: DatabaseRecord): Database => {
    const { _owner, _queue, _password, _ca, _resetSinceBackup, replication_commit_type, ...rest } = db;
    const members: Database["members"] = {};
    if (db.hosts.primary !== null) {
      for (let n = 0; n < db.cluster_size; n++) members[`198.51.100.${(((db.id - 1) * 3 + n) % 254) + 1}`] = n === 0 ? "primary" : "failover";
    }
    return { ...rest, ...(db.engine === "postgresql" ? { replication_commit_type } : {}), members };
  };
  /**
   * An event of a database (recorded: entity type `database`, its engine's path). A create is a
   * `notification` until the cluster is active, then `finished` (as the real API's database_create was).
   */
  const dbEvent = (action: string, username: string, db: DatabaseRecord, timing: EventTiming = {}) =>
    store.event(action, username, eventEntity("database", db.id, db.label, `/databases/${db.engine}/instances/${db.id}`), timing);
  return { store, d, now, dur, stamp, canSee, find, requireStatus, backupsAvailable, unrestricted, dbView, typeOf, dbEvent };
}
