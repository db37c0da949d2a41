import { randomBytes } from "node:crypto";
import { catalog } from "../catalog";
import { collections, type ApiFamily, type FamilyContext } from "../family";
import { FieldErrors, jsonObject, badRequest, forbidden, notFound, paginate, type RequestContext } from "../http";
import { ipOrCidrError, lengthError } from "../rules";
import { apiTime, settle, view, type Step } from "../state";
import { scaled } from "../timing";

/** Durations at speed 1 (ms). Provisioning is minutes on the real service (15 to 30): here 30 s. */
export const DB_MS = { provisioning: 30_000, updating: 5_000, snapshot: 10_000, restoring: 10_000, patching: 5_000 };

const ro = { group: "databases", level: "read_only" } as const;
const rw = { group: "databases", level: "read_write" } as const;
type Engine = "mysql" | "postgresql";

const REPLICATION: Record<Engine, string[]> = { mysql: ["none", "asynch", "semi_synch"], postgresql: ["none", "asynch"] };
const COMMIT_TYPES = ["on", "local", "remote_write", "remote_apply", "off"];
const PORTS: Record<Engine, number> = { mysql: 3306, postgresql: 5432 };
const ROOT_USER: Record<Engine, string> = { mysql: "root", postgresql: "postgres" };
const DAY = 24 * 3600_000;

export interface DatabaseRecord {
  id: number;
  engine: "mysql" | "postgresql";
  label: string;
  version: string;
  region: string;
  type: string;
  cluster_size: 1 | 3;
  encrypted: boolean;
  ssl_connection: boolean;
  replication_type: string;
  replication_commit_type?: string;
  allow_list: string[];
  hosts: { primary: string | null; secondary: string | null };
  port: number;
  status: string;
  total_disk_size_gb: number;
  used_disk_size_gb: number;
  created: string;
  updated: string;
  updates: { frequency: string; duration: number; hour_of_day: number; day_of_week: number; week_of_month: number | null };
  _owner: string;
  _queue: Step[];
  _password: string;
  _ca: string;
  /** Set by a credentials reset: a restore after one leaves the cluster failed (rule 7). */
  _resetSinceBackup: boolean;
}

export interface DatabaseBackupRecord {
  id: number;
  database_id: number;
  label: string;
  type: "snapshot" | "auto";
  created: string;
  /** When the backup finishes (a snapshot takes a while; it blocks other snapshots until then). */
  _doneAt: number;
}

/** The database family's collections in the state file. */
export interface DatabaseState {
  databases: DatabaseRecord[];
  databaseBackups: DatabaseBackupRecord[];
}

export const databaseState = collections<DatabaseState>({ databases: [], databaseBackups: [] });

const newPassword = () => randomBytes(18).toString("base64url");

/** A PEM CA certificate (made up, but shaped like one), base64-encoded as the API gives it. */
function caCertificate(label: string): string {
  const der = Buffer.concat([Buffer.from([0x30, 0x82, 0x03, 0x1d]), Buffer.from(`CN=${label} CA,O=compute emulator`), randomBytes(760)]);
  const body = der.toString("base64").replace(/(.{64})/g, "$1\n");
  return Buffer.from(`-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`).toString("base64");
}

/** The database family (`/databases/...`): managed MySQL and PostgreSQL clusters with their backups. */
export const databaseFamily: ApiFamily<DatabaseState> = { name: "databases", state: databaseState, register: registerDatabaseRoutes };

function registerDatabaseRoutes({ router, store, now, timing }: FamilyContext): void {
  const d = databaseState(store);
  const dur = (k: keyof typeof DB_MS) => scaled(DB_MS[k], timing);
  const stamp = () => apiTime(now());

  const canSee = (ctx: RequestContext, db: DatabaseRecord, level: "read_only" | "read_write") => {
    const u = ctx.user!;
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
  const find = (ctx: RequestContext, engine: Engine | undefined, level: "read_only" | "read_write" = "read_only") => {
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
  const unrestricted = (ctx: RequestContext, what: string) => {
    if (ctx.user!.restricted) throw forbidden(`Only unrestricted users can ${what}, whatever the token's scopes`);
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

  const checkLabel = (label: unknown, errors: FieldErrors, self?: DatabaseRecord) => {
    const e = typeof label === "string" ? lengthError(label, 3, 32) : "is required";
    if (e) return errors.add("label", `Label ${e}`);
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(label as string))
      return errors.add("label", "Label must use letters, digits, '-' and '_', starting with a letter or digit");
    if (d.databases.some((x) => x.label === label && x !== self)) errors.add("label", "Label must be unique among your databases");
  };
  const checkAllowList = (v: unknown, errors: FieldErrors) => {
    if (!Array.isArray(v)) return errors.add("allow_list", "Must be an array of IP addresses and CIDR ranges");
    v.forEach((x, i) => {
      const e = typeof x === "string" ? ipOrCidrError(x) : "must be a string";
      if (e) errors.add(`allow_list[${i}]`, e);
    });
  };
  const checkUpdates = (v: unknown, errors: FieldErrors) => {
    const u = v as Record<string, unknown>;
    if (typeof u !== "object" || u === null) return errors.add("updates", "Must be an object");
    if (!["weekly", "monthly"].includes(u.frequency as string)) errors.add("updates.frequency", "Must be weekly or monthly");
    if (!Number.isInteger(u.duration) || (u.duration as number) < 1 || (u.duration as number) > 3) errors.add("updates.duration", "Must be 1 to 3 hours");
    if (!Number.isInteger(u.hour_of_day) || (u.hour_of_day as number) < 0 || (u.hour_of_day as number) > 23)
      errors.add("updates.hour_of_day", "Must be 0 to 23");
    if (!Number.isInteger(u.day_of_week) || (u.day_of_week as number) < 1 || (u.day_of_week as number) > 7)
      errors.add("updates.day_of_week", "Must be 1 (Monday) to 7 (Sunday)");
    const w = u.week_of_month;
    if (u.frequency === "monthly" && (!Number.isInteger(w) || (w as number) < 1 || (w as number) > 4))
      errors.add("updates.week_of_month", "Must be 1 to 4 for a monthly window");
    if (u.frequency === "weekly" && w !== undefined && w !== null) errors.add("updates.week_of_month", "Must be null for a weekly window");
  };

  for (const engine of ["mysql", "postgresql"] as Engine[]) {
    const base = `/databases/${engine}/instances`;

    router.add("GET", base, { scope: ro, auth: "required" }, (ctx) =>
      paginate(
        d.databases.filter((x) => x.engine === engine && canSee(ctx, x, "read_only")).map((x) => dbView(settle(x, now()))),
        ctx.query,
      ),
    );

    router.add("POST", base, { scope: rw, auth: "required" }, (ctx) => {
      const u = ctx.user!;
      if (u.restricted && !u.grants?.global.add_databases) throw forbidden("You do not have permission to add databases: the add_databases grant is needed");
      const body = jsonObject(ctx);
      const errors = new FieldErrors();
      checkLabel(body.label, errors);
      const region = catalog.regions.find((r) => r.id === body.region);
      if (body.region === undefined) errors.add("region", "region is required");
      else if (!region) errors.add("region", `Region ${String(body.region)} not found`);
      else if (!region.capabilities.includes("Managed Databases")) errors.add("region", `Region ${region.id} does not offer managed databases`);
      const type = typeOf(body.type);
      if (body.type === undefined) errors.add("type", "type is required");
      else if (!type) errors.add("type", `Type ${String(body.type)} not found`);
      const eng = catalog.engines.find((e) => e.id === body.engine);
      if (body.engine === undefined) errors.add("engine", "engine is required (engine/version)");
      else if (!eng || eng.engine !== engine) errors.add("engine", `Engine ${String(body.engine)} is not a ${engine} engine; see /databases/engines`);
      const size = body.cluster_size ?? 1;
      if (size !== 1 && size !== 3) errors.add("cluster_size", "Must be 1 or 3");
      for (const k of ["encrypted", "ssl_connection"]) if (body[k] !== undefined && typeof body[k] !== "boolean") errors.add(k, "Must be a boolean");
      const replication = (body.replication_type as string | undefined) ?? (size === 3 ? "asynch" : "none");
      if (!REPLICATION[engine].includes(replication)) errors.add("replication_type", `Must be one of ${REPLICATION[engine].join(", ")} for ${engine}`);
      else if (size === 1 && replication !== "none") errors.add("replication_type", "A one-node cluster has no replication: use none (or cluster_size 3)");
      else if (size === 3 && replication === "none")
        errors.add("replication_type", "A three-node cluster replicates: use asynch" + (engine === "mysql" ? " or semi_synch" : ""));
      if (body.replication_commit_type !== undefined) {
        if (engine !== "postgresql") errors.add("replication_commit_type", "Only for PostgreSQL");
        else if (!COMMIT_TYPES.includes(body.replication_commit_type as string))
          errors.add("replication_commit_type", `Must be one of ${COMMIT_TYPES.join(", ")}`);
      }
      if (body.allow_list !== undefined) checkAllowList(body.allow_list, errors);
      errors.throwIfAny();
      const id = store.nextId("database");
      const label = body.label as string;
      const db: DatabaseRecord = {
        id,
        engine,
        label,
        version: eng!.version,
        region: region!.id,
        type: type!.id,
        cluster_size: size as 1 | 3,
        encrypted: body.encrypted === true,
        ssl_connection: body.ssl_connection !== false,
        replication_type: replication,
        ...(engine === "postgresql" ? { replication_commit_type: (body.replication_commit_type as string | undefined) ?? "local" } : {}),
        allow_list: (body.allow_list as string[] | undefined) ?? [],
        hosts: { primary: null, secondary: null },
        port: 0,
        status: "provisioning",
        total_disk_size_gb: Math.floor(type!.disk / 1024),
        used_disk_size_gb: 0,
        created: stamp(),
        updated: stamp(),
        updates: { frequency: "weekly", duration: 3, hour_of_day: 0, day_of_week: 1, week_of_month: null },
        _owner: u.username,
        _queue: [
          {
            status: "active",
            at: now() + dur("provisioning"),
            patch: {
              hosts: { primary: `${label}-${engine}-primary.db.example`, secondary: size === 3 ? `${label}-${engine}-secondary.db.example` : null },
              port: PORTS[engine],
              used_disk_size_gb: 1,
            },
          },
        ],
        _password: newPassword(),
        _ca: caCertificate(label),
        _resetSinceBackup: false,
      };
      d.databases.push(db);
      if (u.restricted) u.grants!.database.push({ id, label, permissions: "read_write" });
      store.event("database_create", u.username, { id, type: "database", label });
      return dbView(db);
    });

    router.add("GET", `${base}/{instanceId}`, { scope: ro, auth: "required" }, (ctx) => dbView(find(ctx, engine)));

    router.add("PUT", `${base}/{instanceId}`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine, "read_write");
      requireStatus(db, ["active"], "be updated");
      const body = jsonObject(ctx);
      const errors = new FieldErrors();
      if (body.label !== undefined) checkLabel(body.label, errors, db);
      if (body.allow_list !== undefined) checkAllowList(body.allow_list, errors);
      if (body.updates !== undefined) checkUpdates(body.updates, errors);
      let newType: (typeof catalog.types)[number] | undefined;
      if (body.type !== undefined && body.type !== db.type) {
        newType = typeOf(body.type);
        if (!newType) errors.add("type", `Type ${String(body.type)} not found`);
        else if (newType.disk <= typeOf(db.type)!.disk)
          errors.add("type", `A database can only move to a type with more disk space than ${db.type} (${typeOf(db.type)!.disk} MB)`);
      }
      errors.throwIfAny();
      if (body.label !== undefined) db.label = body.label as string;
      if (body.updates !== undefined) {
        const w = body.updates as DatabaseRecord["updates"];
        db.updates = {
          frequency: w.frequency,
          duration: w.duration,
          hour_of_day: w.hour_of_day,
          day_of_week: w.day_of_week,
          week_of_month: w.week_of_month ?? null,
        };
      }
      // An allow list or a type takes a while to apply: updating, then active.
      const slow: Record<string, unknown> = {};
      if (body.allow_list !== undefined) slow.allow_list = body.allow_list;
      if (newType) Object.assign(slow, { type: newType.id, total_disk_size_gb: Math.floor(newType.disk / 1024) });
      if (Object.keys(slow).length) {
        db.status = "updating";
        db._queue.push({ status: "active", at: now() + dur("updating") * (newType ? 3 : 1), patch: slow });
        if (body.allow_list !== undefined) db.allow_list = body.allow_list as string[];
      }
      db.updated = stamp();
      store.event("database_update", ctx.user!.username, { id: db.id, type: "database", label: db.label });
      return dbView(db);
    });

    router.add("DELETE", `${base}/{instanceId}`, { scope: rw, auth: "required" }, (ctx) => {
      unrestricted(ctx, "delete a database");
      const db = find(ctx, engine, "read_write");
      requireStatus(db, ["active", "degraded", "failed"], "be deleted");
      d.databases = d.databases.filter((x) => x !== db);
      d.databaseBackups = d.databaseBackups.filter((b) => b.database_id !== db.id);
      store.event("database_delete", ctx.user!.username, { id: db.id, type: "database", label: db.label });
      return {};
    });

    // Backups: the spec states read_write even to list and view them.
    const backupsOf = (db: DatabaseRecord) => d.databaseBackups.filter((b) => b.database_id === db.id);
    const backupView = (b: DatabaseBackupRecord) => ({ id: b.id, label: b.label, type: b.type, created: b.created });
    const backup = (ctx: RequestContext, db: DatabaseRecord) => {
      const b = backupsOf(db).find((x) => String(x.id) === ctx.params.backupId);
      if (!b) throw notFound();
      return b;
    };
    router.add("GET", `${base}/{instanceId}/backups`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine);
      notProvisioning(db, "backups");
      return paginate(backupsOf(db).map(backupView), ctx.query);
    });
    router.add("POST", `${base}/{instanceId}/backups`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine, "read_write");
      requireStatus(db, ["active"], "take a snapshot");
      const body = jsonObject(ctx);
      const errors = new FieldErrors();
      if (typeof body.label !== "string" || body.label.length < 1 || body.label.length > 30) errors.add("label", "label is required: 1 to 30 characters");
      else if (!/^[A-Za-z0-9]+$/.test(body.label)) errors.add("label", "Must use only ASCII letters and digits");
      const target = body.target ?? "primary";
      if (target !== "primary" && target !== "secondary") errors.add("target", "Must be primary or secondary");
      else if (target === "secondary" && db.cluster_size !== 3) errors.add("target", "secondary applies only to a high availability (three-node) cluster");
      errors.throwIfAny();
      if (backupsOf(db).filter((b) => b.type === "snapshot").length >= 3) throw badRequest("A database keeps at most 3 snapshots: delete one first");
      if (backupsOf(db).some((b) => b._doneAt > now())) throw badRequest("A backup is in progress: wait for it to finish");
      const done = now() + dur("snapshot");
      d.databaseBackups.push({
        id: store.nextId("dbbackup"),
        database_id: db.id,
        label: body.label as string,
        type: "snapshot",
        created: stamp(),
        _doneAt: done,
      });
      db.status = "backing_up";
      db._queue.push({ status: "active", at: done });
      store.event("database_backup_create", ctx.user!.username, { id: db.id, type: "database", label: db.label });
      return {};
    });
    router.add("GET", `${base}/{instanceId}/backups/{backupId}`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine);
      notProvisioning(db, "backups");
      return backupView(backup(ctx, db));
    });
    router.add("DELETE", `${base}/{instanceId}/backups/{backupId}`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine, "read_write");
      notProvisioning(db, "backups");
      const b = backup(ctx, db);
      d.databaseBackups = d.databaseBackups.filter((x) => x !== b);
      return {};
    });
    router.add("POST", `${base}/{instanceId}/backups/{backupId}/restore`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine, "read_write");
      requireStatus(db, ["active", "degraded", "failed"], "restore a backup");
      const b = backup(ctx, db);
      if (b._doneAt > now()) throw badRequest("The backup has not finished yet");
      // Rule 7: a restore after a credentials reset leaves the cluster failed.
      const end = db._resetSinceBackup ? "failed" : "active";
      db.status = "restoring";
      db._queue.push({ status: end, at: now() + dur("restoring") });
      store.event("database_restore", ctx.user!.username, { id: db.id, type: "database", label: db.label });
      return {};
    });

    router.add("GET", `${base}/{instanceId}/credentials`, { scope: ro, auth: "required" }, (ctx) => {
      const db = find(ctx, engine);
      requireStatus(db, ["active"], "show its credentials");
      return { username: ROOT_USER[engine], password: db._password };
    });
    router.add("POST", `${base}/{instanceId}/credentials/reset`, { scope: rw, auth: "required" }, (ctx) => {
      unrestricted(ctx, "reset database credentials");
      const db = find(ctx, engine, "read_write");
      db._password = newPassword();
      db._resetSinceBackup = true;
      store.event("database_credentials_reset", ctx.user!.username, { id: db.id, type: "database", label: db.label });
      return {};
    });
    router.add("POST", `${base}/{instanceId}/patch`, { scope: rw, auth: "required" }, (ctx) => {
      const db = find(ctx, engine, "read_write");
      requireStatus(db, ["active"], "be patched");
      db.status = "updating";
      db._queue.push({ status: "active", at: now() + dur("patching") });
      return {};
    });
    router.add("GET", `${base}/{instanceId}/ssl`, { scope: ro, auth: "required" }, (ctx) => {
      const db = find(ctx, engine);
      requireStatus(db, ["active"], "show its SSL certificate");
      return { ca_certificate: db._ca };
    });
  }

  // The cross-engine list: each cluster with its `instance_uri`, and without `replication_type` and
  // `replication_commit_type`, which the real API leaves out of this list (its answers in 2024 and since).
  const listItem = (db: DatabaseRecord) => {
    const { replication_type: _type, replication_commit_type: _commit, ...rest } = dbView(settle(db, now()));
    return { ...rest, instance_uri: `/v4/databases/${db.engine}/instances/${db.id}` };
  };
  router.add("GET", "/databases/instances", { scope: ro, auth: "required" }, (ctx) =>
    paginate(d.databases.filter((x) => canSee(ctx, x, "read_only")).map(listItem), ctx.query),
  );
}
