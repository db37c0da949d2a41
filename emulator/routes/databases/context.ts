import { randomBytes } from "node:crypto";
import { catalog } from "../../catalog";
import type { FamilyContext } from "../../family";
import { badRequest, forbidden, notFound } from "../../http";
import { type SignedInContext } from "../../router";
import { apiTime, eventEntity, settle, view, type EventTiming } from "../../state";
import { scaled } from "../../timing";
import { databaseState, type DatabaseRecord, type Engine } from "./records";

/** Durations at speed 1 (ms). Provisioning is minutes on the real service (15 to 30): here 30 s. */
export const DB_MS = { provisioning: 30_000, updating: 5_000, snapshot: 10_000, restoring: 10_000, patching: 5_000 };

export const ro = { group: "databases", level: "read_only" } as const;
export const rw = { group: "databases", level: "read_write" } as const;
const DAY = 24 * 3600_000;

export const newPassword = () => randomBytes(18).toString("base64url");

/**
 * What the database route modules (clusters, backups, credentials) share: the store and the database
 * collections in it, the clock and speed, and the helpers that find (as the request's user may see them),
 * check the status of, and show clusters. Made once per emulator by `createDatabaseContext`.
 */
export type DatabaseContext = ReturnType<typeof createDatabaseContext>;

export function createDatabaseContext({ store, now, timing }: FamilyContext) {
  const d = databaseState(store);
  const dur = (k: keyof typeof DB_MS) => scaled(DB_MS[k], timing);
  const stamp = () => apiTime(now());

  const canSee = (ctx: SignedInContext, db: DatabaseRecord, level: "read_only" | "read_write") => {
    const u = ctx.user;
    if (!u.restricted) return true;
    const g = u.grants?.database.find((x) => x.id === db.id);
    return level === "read_only" ? Boolean(g?.permissions) : g?.permissions === "read_write";
  };
  /** Daily automatic backups at 00:00 UTC, each kept 7 days (made lazily, as time passes). */
  const autoBackups = (db: DatabaseRecord) => {
    const created = Date.parse(`${db.created}Z`);
    d.databaseBackups = d.databaseBackups.filter((b) => !(b.database_id === db.id && b.type === "auto" && Date.parse(`${b.created}Z`) <= now() - 7 * DAY));
    for (let t = Math.ceil(Math.max(created, now() - 7 * DAY + 1) / DAY) * DAY; t <= now(); t += DAY) {
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
  const find = (ctx: SignedInContext, engine: Engine | undefined, level: "read_only" | "read_write" = "read_only") => {
    const db = d.databases.find((x) => String(x.id) === ctx.params.instanceId && (!engine || x.engine === engine));
    if (!db || !canSee(ctx, db, "read_only")) throw notFound();
    if (!canSee(ctx, db, level)) throw forbidden("You have only read access to this database");
    settle(db, now());
    if (db.status !== "provisioning") autoBackups(db);
    return db;
  };
  const requireStatus = (db: DatabaseRecord, allowed: string[], what: string) => {
    if (!allowed.includes(db.status)) throw badRequest(`The database must be ${allowed.join(", ")} to ${what}; it is ${db.status}`);
  };
  const notProvisioning = (db: DatabaseRecord, what: string) => {
    if (db.status === "provisioning") throw badRequest(`The database is still provisioning: ${what} are not available yet`);
  };
  const unrestricted = (ctx: SignedInContext, what: string) => {
    if (ctx.user.restricted) throw forbidden(`Only unrestricted users can ${what}, whatever the token's scopes`);
  };
  /**
   * A cluster as the API shows it, with `members` (what the real API answers beside the spec's fields: each
   * node's address and its role, `primary` or `failover`; none until provisioning ends). Addresses from
   * 198.51.100.0/24, a documentation range.
   */
  const dbView = (db: DatabaseRecord): Record<string, unknown> => {
    const v = view(db);
    if (db.engine === "mysql") delete v.replication_commit_type;
    delete v.engine;
    const members: Record<string, "primary" | "failover"> = {};
    if (db.hosts.primary !== null) {
      for (let n = 0; n < db.cluster_size; n++) members[`198.51.100.${(((db.id - 1) * 3 + n) % 254) + 1}`] = n === 0 ? "primary" : "failover";
    }
    return { ...v, engine: db.engine, members };
  };
  const typeOf = (id: unknown) => catalog.types.find((t) => t.id === id);
  /**
   * An event of a database (recorded: entity type `database`, its engine's path). A create is a
   * `notification` until the cluster is active, then `finished` (as the real API's database_create was).
   */
  const dbEvent = (action: string, username: string, db: DatabaseRecord, timing: EventTiming = {}) =>
    store.event(action, username, eventEntity("database", db.id, db.label, `/databases/${db.engine}/instances/${db.id}`), timing);
  return { store, d, now, dur, stamp, canSee, find, requireStatus, notProvisioning, unrestricted, dbView, typeOf, dbEvent };
}
