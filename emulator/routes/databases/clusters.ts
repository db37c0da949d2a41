import { randomBytes } from "node:crypto";
import { catalog } from "../../catalog";
import { z } from "zod";
import { FieldErrors, jsonObject, badRequest, forbidden, paginate } from "../../http";
import { type Router, type SignedInContext } from "../../router";
import { asObject, intWithin, oneOf, optionalBoolean, readFields, readText } from "../../body";
import { addressOrRangeError } from "../../../api/network";
import { checkText } from "../../../api/text";
import { settle } from "../../state";
import { newPassword, ro, rw, type DatabaseContext } from "./context";
import type { DatabaseRecord, Engine } from "./records";

const REPLICATION: Record<Engine, string[]> = { mysql: ["none", "asynch", "semi_synch"], postgresql: ["none", "asynch"] };
const COMMIT_TYPES = ["on", "local", "remote_write", "remote_apply", "off"];
const PORTS: Record<Engine, number> = { mysql: 3306, postgresql: 5432 };

/** The create's fields read as given. */
const CREATE_FIELDS = {
  cluster_size: z.union([z.literal(1), z.literal(3)], { error: "Must be 1 or 3" }).optional(),
  encrypted: optionalBoolean,
  ssl_connection: optionalBoolean,
};

/** A PEM CA certificate (made up, but shaped like one), base64-encoded as the API gives it. */
function caCertificate(label: string): string {
  const der = Buffer.concat([Buffer.from([0x30, 0x82, 0x03, 0x1d]), Buffer.from(`CN=${label} CA,O=compute emulator`), randomBytes(760)]);
  const body = der.toString("base64").replace(/(.{64})/g, "$1\n");
  return Buffer.from(`-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`).toString("base64");
}

/** A cluster's label: its length, then letters, digits, `-` and `_`, starting with a letter or digit. */
const databaseLabelError = (label: string): string | undefined =>
  checkText(label, "databaseLabel") ??
  (/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(label) ? undefined : "must use letters, digits, '-' and '_', starting with a letter or digit");

/** An allow list: IP addresses and CIDR ranges. */
function readAllowList(v: unknown, errors: FieldErrors): string[] | undefined {
  if (!Array.isArray(v)) return void errors.add("allow_list", "Must be an array of IP addresses and CIDR ranges");
  const list: string[] = [];
  v.forEach((x: unknown, i) => {
    const e = typeof x === "string" ? addressOrRangeError(x) : "must be a string";
    if (e) errors.add(`allow_list[${i}]`, e);
    else if (typeof x === "string") list.push(x);
  });
  return list;
}

/** The fields of a maintenance window every window has. */
const WINDOW_FIELDS = {
  frequency: oneOf(["weekly", "monthly"], "Must be weekly or monthly"),
  duration: intWithin(1, 3, "Must be 1 to 3 hours"),
  hour_of_day: intWithin(0, 23, "Must be 0 to 23"),
  day_of_week: intWithin(1, 7, "Must be 1 (Monday) to 7 (Sunday)"),
};

/** A maintenance window (`updates`): weekly, or monthly on a week of the month. */
function readUpdates(v: unknown, errors: FieldErrors): DatabaseRecord["updates"] | undefined {
  const u = asObject(v);
  if (!u) return void errors.add("updates", "Must be an object");
  const { frequency, duration, hour_of_day, day_of_week } = readFields(u, WINDOW_FIELDS, errors, "updates.");
  const week = intWithin(1, 4, "").safeParse(u.week_of_month);
  if (frequency === "monthly" && !week.success) errors.add("updates.week_of_month", "Must be 1 to 4 for a monthly window");
  if (frequency === "weekly" && u.week_of_month !== undefined && u.week_of_month !== null)
    errors.add("updates.week_of_month", "Must be null for a weekly window");
  if (frequency === undefined || duration === undefined || hour_of_day === undefined || day_of_week === undefined) return undefined;
  return { frequency, duration, hour_of_day, day_of_week, week_of_month: week.success ? week.data : null };
}

/** An engine's clusters (`/databases/<engine>/instances`): list, create, view, update, delete. */
export function registerClusterRoutes(router: Router, databases: DatabaseContext, engine: Engine): void {
  const { store, d, now, dur, stamp, canSee, find, requireStatus, unrestricted, dbView, typeOf, dbEvent } = databases;
  const base = `/databases/${engine}/instances`;

  const readLabel = (value: unknown, errors: FieldErrors, self?: DatabaseRecord): string | undefined => {
    const label = readText(value, "label", databaseLabelError, errors, { notText: "is required" });
    if (label !== undefined && d.databases.some((x) => x.label === label && x !== self)) {
      return void errors.add("label", "Label must be unique among your databases");
    }
    return label;
  };

  router.add("GET", base, { scope: ro, auth: "required" }, (ctx) =>
    paginate(
      d.databases.filter((x) => x.engine === engine && canSee(ctx, x, "read_only")).map((x) => dbView(settle(x, now()))),
      ctx,
    ),
  );

  /** A create body, checked: what the cluster is made of. */
  interface DatabaseCreate {
    label: string;
    region: string;
    type: NonNullable<ReturnType<typeof typeOf>>;
    version: string;
    size: 1 | 3;
    encrypted: boolean;
    sslConnection: boolean;
    replication: string;
    commit?: string;
    allowList: string[];
  }

  /** The replication a cluster of `size` nodes asks for (or its default), and PostgreSQL's commit type. */
  const readReplication = (body: Record<string, unknown>, size: 1 | 3, errors: FieldErrors) => {
    const given = body.replication_type ?? (size === 3 ? "asynch" : "none");
    const replication = typeof given === "string" && REPLICATION[engine].includes(given) ? given : undefined;
    if (!replication) errors.add("replication_type", `Must be one of ${REPLICATION[engine].join(", ")} for ${engine}`);
    else if (size === 1 && replication !== "none") errors.add("replication_type", "A one-node cluster has no replication: use none (or cluster_size 3)");
    else if (size === 3 && replication === "none")
      errors.add("replication_type", "A three-node cluster replicates: use asynch" + (engine === "mysql" ? " or semi_synch" : ""));
    const commit = body.replication_commit_type;
    if (commit === undefined) return { replication };
    if (engine !== "postgresql") errors.add("replication_commit_type", "Only for PostgreSQL");
    else if (typeof commit !== "string" || !COMMIT_TYPES.includes(commit)) errors.add("replication_commit_type", `Must be one of ${COMMIT_TYPES.join(", ")}`);
    return { replication, commit: typeof commit === "string" ? commit : undefined };
  };

  /** Checks a create body in the API's order; every refusal at once (400), else what to make. */
  const checkCreate = (ctx: SignedInContext): DatabaseCreate => {
    const u = ctx.user;
    if (u.restricted && !u.grants?.global.add_databases) throw forbidden("You do not have permission to add databases: the add_databases grant is needed");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = readLabel(body.label, errors);
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
    const { cluster_size: size = 1, encrypted, ssl_connection } = readFields(body, CREATE_FIELDS, errors);
    const { replication, commit } = readReplication(body, size, errors);
    const allowList = body.allow_list === undefined ? [] : readAllowList(body.allow_list, errors);
    errors.throwIfAny();
    // With no refusal, each of these was read.
    if (!label || !eng || !region || !type || !allowList || !replication) throw badRequest("label, region, type and engine are required");
    const sslConnection = ssl_connection !== false;
    return { label, region: region.id, type, version: eng.version, size, encrypted: encrypted === true, sslConnection, replication, commit, allowList };
  };

  /** The new cluster's record, provisioning until it is active with its hosts and port. */
  const newDatabase = (req: DatabaseCreate, owner: string): DatabaseRecord => {
    const { label, size } = req;
    return {
      id: store.nextId("database"),
      engine,
      label,
      version: req.version,
      region: req.region,
      type: req.type.id,
      cluster_size: size,
      encrypted: req.encrypted,
      ssl_connection: req.sslConnection,
      replication_type: req.replication,
      ...(engine === "postgresql" ? { replication_commit_type: req.commit ?? "local" } : {}),
      allow_list: req.allowList,
      hosts: { primary: null, secondary: null },
      port: 0,
      status: "provisioning",
      total_disk_size_gb: Math.floor(req.type.disk / 1024),
      used_disk_size_gb: 0,
      created: stamp(),
      updated: stamp(),
      updates: { frequency: "weekly", duration: 3, hour_of_day: 0, day_of_week: 1, week_of_month: null },
      _owner: owner,
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
  };

  router.add("POST", base, { scope: rw, auth: "required" }, (ctx) => {
    const u = ctx.user;
    const db = newDatabase(checkCreate(ctx), u.username);
    d.databases.push(db);
    if (u.restricted) u.grants?.database.push({ id: db.id, label: db.label, permissions: "read_write" });
    dbEvent("database_create", u.username, db, { notification: true, finish: db._queue[0].at });
    return dbView(db);
  });

  router.add("GET", `${base}/{instanceId}`, { scope: ro, auth: "required" }, (ctx) => dbView(find(ctx, engine)));

  router.add("PUT", `${base}/{instanceId}`, { scope: rw, auth: "required" }, (ctx) => {
    const db = find(ctx, engine, "read_write");
    requireStatus(db, ["active"], "be updated");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = body.label === undefined ? undefined : readLabel(body.label, errors, db);
    const allowList = body.allow_list === undefined ? undefined : readAllowList(body.allow_list, errors);
    const updates = body.updates === undefined ? undefined : readUpdates(body.updates, errors);
    let newType: (typeof catalog.types)[number] | undefined;
    if (body.type !== undefined && body.type !== db.type) {
      newType = typeOf(body.type);
      if (!newType) errors.add("type", `Type ${String(body.type)} not found`);
      else if (newType.disk <= typeOf(db.type)!.disk)
        errors.add("type", `A database can only move to a type with more disk space than ${db.type} (${typeOf(db.type)!.disk} MB)`);
    }
    errors.throwIfAny();
    if (label !== undefined) db.label = label;
    if (updates) db.updates = updates;
    // An allow list or a type takes a while to apply: updating, then active.
    const slow: Partial<DatabaseRecord> = {};
    if (allowList) slow.allow_list = allowList;
    if (newType) Object.assign(slow, { type: newType.id, total_disk_size_gb: Math.floor(newType.disk / 1024) });
    if (Object.keys(slow).length) {
      db.status = "updating";
      db._queue.push({ status: "active", at: now() + dur("updating") * (newType ? 3 : 1), patch: slow });
      if (allowList) db.allow_list = allowList;
    }
    db.updated = stamp();
    // A change that takes time is a notification until it is done (recorded in 2024); others are finished at once.
    const until = db._queue.at(-1)?.at;
    dbEvent("database_update", ctx.user.username, db, until !== undefined && until > now() ? { notification: true, finish: until } : {});
    return dbView(db);
  });

  router.add("DELETE", `${base}/{instanceId}`, { scope: rw, auth: "required" }, (ctx) => {
    unrestricted(ctx, "delete a database");
    const db = find(ctx, engine, "read_write");
    requireStatus(db, ["active", "degraded", "failed"], "be deleted");
    d.databases = d.databases.filter((x) => x !== db);
    d.databaseBackups = d.databaseBackups.filter((b) => b.database_id !== db.id);
    dbEvent("database_delete", ctx.user.username, db);
    return {};
  });
}

/** The list of every engine's clusters (`/databases/instances`). */
export function registerClusterListRoute(router: Router, databases: DatabaseContext): void {
  const { d, now, canSee, dbView } = databases;
  // The cross-engine list: each cluster with its `instance_uri`, and without `replication_type` and
  // `replication_commit_type`, which the real API leaves out of this list (its answers in 2024 and since).
  const listItem = (db: DatabaseRecord) => {
    const { replication_type: _type, replication_commit_type: _commit, ...rest } = dbView(settle(db, now()));
    return { ...rest, instance_uri: `/v4/databases/${db.engine}/instances/${db.id}` };
  };
  router.add("GET", "/databases/instances", { scope: ro, auth: "required" }, (ctx) =>
    paginate(d.databases.filter((x) => canSee(ctx, x, "read_only")).map(listItem), ctx),
  );
}
