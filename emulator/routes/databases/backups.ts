import { DATABASE_APIS } from "../../../api/contract/database-endpoints";
import { HIGH_AVAILABILITY_SIZE, MAX_SNAPSHOTS, SECONDARY_TARGET_RULE, STATUS_NEEDED, type DatabaseBackup, type Engine } from "../../../api/contract/databases";
import { badRequest, notFound, paginate } from "../../http";
import { rowsOf, type Req, type Row } from "../../router";
import { type ClusterRequest, type DatabaseContext } from "./context";
import type { DatabaseBackupRecord, DatabaseRecord } from "./records";

const row = rowsOf<DatabaseContext>();

type Backups = (typeof DATABASE_APIS)[Engine]["backups"];

const backupsOf = ({ d }: DatabaseContext, db: DatabaseRecord) => d.databaseBackups.filter((b) => b.database_id === db.id);
const backupView = (b: DatabaseBackupRecord): DatabaseBackup => ({ id: b.id, label: b.label, type: b.type, created: b.created });

/** The cluster of the path, and its backup `backupId` (404 when it has none of that id). */
function backupOf(c: DatabaseContext, engine: Engine, req: ClusterRequest & { params: { backupId: number } }, level: "read_only" | "read_write") {
  const db = c.find(req, engine, level);
  const b = backupsOf(c, db).find((x) => x.id === req.params.backupId);
  return { db, b };
}

/** A snapshot (rule 5: at most 3, one backup at a time; rule 6: `secondary` on a three-node cluster only). */
function takeSnapshot(c: DatabaseContext, engine: Engine, req: Req<Backups["create"]>) {
  const { now, dur } = c;
  const db = c.find(req, engine, "read_write");
  c.requireStatus(db, STATUS_NEEDED.snapshot, "take a snapshot");
  const { label, target } = req.body;
  if (target === "secondary" && db.cluster_size !== HIGH_AVAILABILITY_SIZE) throw badRequest(SECONDARY_TARGET_RULE, "target");
  const backups = backupsOf(c, db);
  if (backups.filter((b) => b.type === "snapshot").length >= MAX_SNAPSHOTS)
    throw badRequest(`A database keeps at most ${MAX_SNAPSHOTS} snapshots: delete one first`);
  if (backups.some((b) => b._doneAt > now())) throw badRequest("A backup is in progress: wait for it to finish");
  const done = now() + dur("snapshot");
  c.d.databaseBackups.push({ id: c.store.nextId("dbbackup"), database_id: db.id, label, type: "snapshot", created: c.stamp(), _doneAt: done });
  db.status = "backing_up";
  db._queue.push({ status: "active", at: done });
  c.dbEvent("database_backup_create", req.user.username, db, { finish: done });
  return {};
}

/**
 * An engine's cluster backups (`/databases/<engine>/instances/{instanceId}/backups`): list, snapshot, view,
 * delete, restore. The daily automatic backups are made as time passes (the context's `find`).
 */
export function backupRows(engine: Engine): Row<DatabaseContext>[] {
  const api = DATABASE_APIS[engine].backups;
  return [
    row(api.list, (c, req) => {
      const db = c.find(req, engine);
      c.backupsAvailable(db);
      return paginate(backupsOf(c, db).map(backupView), req);
    }),
    row(api.create, (c, req) => takeSnapshot(c, engine, req)),
    row(api.get, (c, req) => {
      const { db, b } = backupOf(c, engine, req, "read_only");
      c.backupsAvailable(db);
      if (!b) throw notFound();
      return backupView(b);
    }),
    row(api.delete, (c, req) => {
      const { db, b } = backupOf(c, engine, req, "read_write");
      c.backupsAvailable(db);
      if (!b) throw notFound();
      c.d.databaseBackups = c.d.databaseBackups.filter((x) => x !== b);
      return {};
    }),
    row(api.restore, (c, req) => {
      const { now, dur } = c;
      const { db, b } = backupOf(c, engine, req, "read_write");
      c.requireStatus(db, STATUS_NEEDED.restore, "restore a backup");
      if (!b) throw notFound();
      if (b._doneAt > now()) throw badRequest("The backup has not finished yet");
      // Rule 7: a restore after a credentials reset leaves the cluster failed.
      const end = db._resetSinceBackup ? "failed" : "active";
      db.status = "restoring";
      db._queue.push({ status: end, at: now() + dur("restoring") });
      c.dbEvent("database_restore", req.user.username, db, { finish: now() + dur("restoring") });
      return {};
    }),
  ];
}
