import { FieldErrors, jsonObject, badRequest, notFound, paginate } from "../../http";
import { type RequestContext, type Router } from "../../router";
import { rw, type DatabaseContext } from "./context";
import type { DatabaseBackupRecord, DatabaseRecord, Engine } from "./records";
import { databaseSnapshotLabelError } from "../../../api/labels";

/**
 * An engine's cluster backups (`/databases/<engine>/instances/{instanceId}/backups`): list, snapshot, view,
 * delete, restore. The daily automatic backups are made as time passes (the context's `find`).
 */
export function registerBackupRoutes(router: Router, databases: DatabaseContext, engine: Engine): void {
  const { store, d, now, dur, stamp, find, requireStatus, notProvisioning, dbEvent } = databases;
  const base = `/databases/${engine}/instances`;

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
    return paginate(backupsOf(db).map(backupView), ctx);
  });
  router.add("POST", `${base}/{instanceId}/backups`, { scope: rw, auth: "required" }, (ctx) => {
    const db = find(ctx, engine, "read_write");
    requireStatus(db, ["active"], "take a snapshot");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = typeof body.label === "string" ? body.label : undefined;
    if (label === undefined) errors.add("label", "label is required: 1 to 30 characters");
    else {
      const e = databaseSnapshotLabelError(label);
      if (e) errors.add("label", `Label ${e}`);
    }
    const target = body.target ?? "primary";
    if (target !== "primary" && target !== "secondary") errors.add("target", "Must be primary or secondary");
    else if (target === "secondary" && db.cluster_size !== 3) errors.add("target", "secondary applies only to a high availability (three-node) cluster");
    errors.throwIfAny();
    if (label === undefined) throw badRequest("label is required: 1 to 30 characters", "label");
    if (backupsOf(db).filter((b) => b.type === "snapshot").length >= 3) throw badRequest("A database keeps at most 3 snapshots: delete one first");
    if (backupsOf(db).some((b) => b._doneAt > now())) throw badRequest("A backup is in progress: wait for it to finish");
    const done = now() + dur("snapshot");
    d.databaseBackups.push({
      id: store.nextId("dbbackup"),
      database_id: db.id,
      label,
      type: "snapshot",
      created: stamp(),
      _doneAt: done,
    });
    db.status = "backing_up";
    db._queue.push({ status: "active", at: done });
    dbEvent("database_backup_create", ctx.user.username, db, { finish: done });
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
    dbEvent("database_restore", ctx.user.username, db, { finish: now() + dur("restoring") });
    return {};
  });
}
