import { randomBytes } from "node:crypto";
import { allDatabasesApi, DATABASE_APIS } from "../../../api/contract/database-endpoints";
import { DEFAULT_COMMIT_TYPE, STATUS_NEEDED, type Database, type Engine } from "../../../api/contract/databases";
import { forbidden, HttpError, paginate, type ErrorItem } from "../../http";
import { rowsOf, type Req, type Row } from "../../router";
import { settle } from "../../state";
import { newPassword, type DatabaseContext } from "./context";
import type { DatabaseRecord } from "./records";
import { engineNotFound, engineOf, LABEL_TAKEN, regionRefusal, typeNotFound } from "./rules";

const PORTS: Record<Engine, number> = { mysql: 3306, postgresql: 5432 };

/** A PEM CA certificate (made up, but shaped like one), base64-encoded as the API gives it. */
function caCertificate(label: string): string {
  const der = Buffer.concat([Buffer.from([0x30, 0x82, 0x03, 0x1d]), Buffer.from(`CN=${label} CA,O=compute emulator`), randomBytes(760)]);
  const body = der.toString("base64").replace(/(.{64})/g, "$1\n");
  return Buffer.from(`-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`).toString("base64");
}

const row = rowsOf<DatabaseContext>();

type Clusters = (typeof DATABASE_APIS)[Engine]["clusters"];
type CreateRequest = Req<Clusters["create"]>;

/** "label | ... | User-defined, unique" (across both engines): the refusal of a label another cluster has. */
function labelTaken({ d }: DatabaseContext, label: string | undefined, self?: DatabaseRecord): ErrorItem[] {
  return label !== undefined && d.databases.some((x) => x.label === label && x !== self) ? [{ field: "label", reason: LABEL_TAKEN }] : [];
}

/** The refusals of a list of them, if any (each field the account's state refuses, at once). */
function refuseAll(refusals: ErrorItem[]): void {
  if (refusals.length) throw new HttpError(400, refusals);
}

/** A create's label, region, type and engine, checked against the account and the catalogue: what the cluster is made of. */
function checkCreate(c: DatabaseContext, engine: Engine, { user, body }: CreateRequest) {
  // Rule 1: a restricted user needs the add_databases grant.
  if (user.restricted && !user.grants?.global.add_databases) throw forbidden("You do not have permission to add databases: the add_databases grant is needed");
  const refusals = labelTaken(c, body.label);
  const region = regionRefusal(body.region);
  if (region) refusals.push({ field: "region", reason: region });
  const type = c.typeOf(body.type);
  if (!type) refusals.push({ field: "type", reason: typeNotFound(body.type) });
  const eng = engineOf(engine, body.engine);
  if (!eng) refusals.push({ field: "engine", reason: engineNotFound(engine, body.engine) });
  if (!type || !eng || refusals.length) throw new HttpError(400, refusals);
  return { region: body.region, type, version: eng.version };
}

/** The new cluster's record, provisioning until it is active with its hosts and port. */
function newDatabase(c: DatabaseContext, engine: Engine, req: CreateRequest): DatabaseRecord {
  const { region, type, version } = checkCreate(c, engine, req);
  const { body } = req;
  const { label, cluster_size: size } = body;
  const { now, dur, stamp } = c;
  return {
    id: c.store.nextId("database"),
    engine,
    label,
    version,
    region,
    type: type.id,
    cluster_size: size,
    encrypted: body.encrypted,
    ssl_connection: body.ssl_connection,
    replication_type: body.replication_type,
    ...(engine === "postgresql" ? { replication_commit_type: body.replication_commit_type ?? DEFAULT_COMMIT_TYPE } : {}),
    allow_list: body.allow_list,
    hosts: { primary: null, secondary: null },
    port: 0,
    status: "provisioning",
    total_disk_size_gb: Math.floor(type.disk / 1024),
    used_disk_size_gb: 0,
    created: stamp(),
    updated: stamp(),
    updates: { frequency: "weekly", duration: 3, hour_of_day: 0, day_of_week: 1, week_of_month: null },
    _owner: req.user.username,
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
}

function createDatabase(c: DatabaseContext, engine: Engine, req: CreateRequest): Database {
  const { user } = req;
  const db = newDatabase(c, engine, req);
  c.d.databases.push(db);
  if (user.restricted) user.grants?.database.push({ id: db.id, label: db.label, permissions: "read_write" });
  c.dbEvent("database_create", user.username, db, { notification: true, finish: db._queue[0].at });
  return c.dbView(db);
}

/** An update: the label and the window at once; an allow list or a type take a while to apply (updating, then active). */
function updateDatabase(c: DatabaseContext, engine: Engine, req: Req<Clusters["update"]>): Database {
  const { now, dur, typeOf } = c;
  const db = c.find(req, engine, "read_write");
  c.requireStatus(db, STATUS_NEEDED.update, "be updated");
  const { label, allow_list: allowList, updates, type } = req.body;
  const refusals = labelTaken(c, label, db);
  const newType = type !== undefined && type !== db.type ? typeOf(type) : undefined;
  const oldDisk = typeOf(db.type)?.disk ?? 0;
  if (type !== undefined && type !== db.type) {
    if (!newType) refusals.push({ field: "type", reason: typeNotFound(type) });
    else if (newType.disk <= oldDisk)
      refusals.push({ field: "type", reason: `A database can only move to a type with more disk space than ${db.type} (${oldDisk} MB)` });
  }
  refuseAll(refusals);
  if (label !== undefined) db.label = label;
  if (updates) db.updates = { ...updates, week_of_month: updates.week_of_month ?? null };
  const slow: Partial<Database> = {};
  if (allowList) slow.allow_list = allowList;
  if (newType) Object.assign(slow, { type: newType.id, total_disk_size_gb: Math.floor(newType.disk / 1024) });
  if (Object.keys(slow).length) {
    db.status = "updating";
    db._queue.push({ status: "active", at: now() + dur("updating") * (newType ? 3 : 1), patch: slow });
    if (allowList) db.allow_list = allowList;
  }
  db.updated = c.stamp();
  // A change that takes time is a notification until it is done (recorded in 2024); others are finished at once.
  const until = db._queue.at(-1)?.at;
  c.dbEvent("database_update", req.user.username, db, until !== undefined && until > now() ? { notification: true, finish: until } : {});
  return c.dbView(db);
}

/** An engine's clusters (`/databases/<engine>/instances`): list, create, view, update, delete. */
export function clusterRows(engine: Engine): Row<DatabaseContext>[] {
  const api = DATABASE_APIS[engine].clusters;
  return [
    row(api.list, (c, req) =>
      paginate(
        c.d.databases.filter((x) => x.engine === engine && c.canSee(req.user, x, "read_only")).map((x) => c.dbView(settle(x, c.now()))),
        req,
      ),
    ),
    row(api.create, (c, req) => createDatabase(c, engine, req)),
    row(api.get, (c, req) => c.dbView(c.find(req, engine))),
    row(api.update, (c, req) => updateDatabase(c, engine, req)),
    row(api.delete, (c, req) => {
      c.unrestricted(req.user, "delete a database");
      const db = c.find(req, engine, "read_write");
      c.requireStatus(db, STATUS_NEEDED.delete, "be deleted");
      c.d.databases = c.d.databases.filter((x) => x !== db);
      c.d.databaseBackups = c.d.databaseBackups.filter((b) => b.database_id !== db.id);
      c.dbEvent("database_delete", req.user.username, db);
      return {};
    }),
  ];
}

/**
 * The list of every engine's clusters (`/databases/instances`): each with its `instance_uri`, and without
 * `replication_type` and `replication_commit_type`, which the real API leaves out of this list (its answers in
 * 2024 and since).
 */
export const allDatabasesRow = row(allDatabasesApi.list, (c, req) =>
  paginate(
    c.d.databases
      .filter((x) => c.canSee(req.user, x, "read_only"))
      .map((db) => {
        const { replication_type: _type, replication_commit_type: _commit, ...rest } = c.dbView(settle(db, c.now()));
        return { ...rest, instance_uri: `/v4/databases/${db.engine}/instances/${db.id}` };
      }),
    req,
  ),
);
