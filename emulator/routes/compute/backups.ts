import { busyError, isInt, ro, rw } from "./base";
import type { ComputeContext } from "./context";
import { jsonObject, badRequest, notFound } from "../../http";
import { type RequestContext, type Router } from "../../router";
import { checkText } from "../../../api/text";
import { apiTime, settle, view } from "../../state";
import type { BackupRecord, InstanceRecord } from "./records";

/** Instance backups (`I/backups...`): list, snapshot, enable, cancel, view, restore. */
export function registerBackupRoutes(router: Router, compute: ComputeContext): void {
  const { store, d, now, dur, typeOf, canSee, instance, settleAll, disksOf, configsOf, busy, usedDisk, restoreInto } = compute;
  const { instanceEvent, instanceNote } = compute;

  const backupsOf = (id: number) => d.backups.filter((b) => b.compute_id === id).map((b) => settle(b, now()));
  /** A backup record without `compute_id`: the instance is in the path, and the real API never answers it. */
  const backupView = (b: BackupRecord) => {
    const { compute_id: _instance, ...rest } = view(b);
    return rest;
  };
  const snapshotOf = (inst: InstanceRecord, label: string | null, type: BackupRecord["type"]): BackupRecord => {
    const disks = disksOf(inst.id);
    const cfgs = configsOf(inst.id);
    const at = now();
    return {
      id: store.nextId("backup"),
      compute_id: inst.id,
      label,
      type,
      status: "pending",
      available: true,
      configs: cfgs.map((c) => c.label),
      disks: disks.map((x) => ({ label: x.label, size: x.size, filesystem: x.filesystem })),
      created: apiTime(at),
      finished: null,
      updated: apiTime(at),
      region: inst.region,
      _queue: [
        { status: "running", at: at + Math.round(dur("snapshot") / 3) },
        { status: "successful", at: at + dur("snapshot"), patch: { finished: apiTime(at + dur("snapshot")) } },
      ],
      _source: {
        disks: disks.map((x) => ({ srcId: x.id, label: x.label, size: x.size, filesystem: x.filesystem })),
        configs: cfgs.map(({ id: _i, compute_id: _c, ...rest }) => structuredClone(rest)),
        type: inst.type,
        rootPassHash: inst._rootPassHash,
      },
    };
  };
  const backup = (ctx: RequestContext, inst: InstanceRecord) => {
    const b = backupsOf(inst.id).find((x) => String(x.id) === ctx.params.backupId);
    if (!b) throw notFound();
    return b;
  };

  router.add("GET", "/compute/instances/{computeId}/backups", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    const all = backupsOf(inst.id);
    const snaps = all.filter((b) => b.type === "snapshot");
    const current = snaps.filter((b) => b.status === "successful").pop() ?? null;
    const inProgress = snaps.find((b) => b.status === "pending" || b.status === "running") ?? null;
    return {
      automatic: all.filter((b) => b.type === "auto").map(backupView),
      snapshot: { current: current && backupView(current), in_progress: inProgress && backupView(inProgress) },
    };
  });

  router.add("POST", "/compute/instances/{computeId}/backups", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (typeof body.label !== "string") throw badRequest("label is required", "label");
    const e = checkText(body.label, "snapshotLabel");
    if (e) throw badRequest(`Label ${e}`, "label");
    if (!inst.backups.enabled) throw badRequest("The backup service is not enabled on this instance");
    if (backupsOf(inst.id).some((b) => b.status === "pending" || b.status === "running")) throw badRequest("A backup is already in progress");
    // A new snapshot replaces the existing one.
    d.backups = d.backups.filter((b) => !(b.compute_id === inst.id && b.type === "snapshot"));
    const snap = snapshotOf(inst, body.label, "snapshot");
    d.backups.push(snap);
    // The real API's snapshot event (linode_snapshot, renamed): started until the snapshot is taken.
    instanceEvent("compute_snapshot", ctx.user.username, inst, { finish: Math.max(...snap._queue.map((step) => step.at)) });
    return backupView(snap);
  });

  router.add("POST", "/compute/instances/{computeId}/backups/enable", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    inst.backups = { ...inst.backups, enabled: true, available: true };
    instanceNote("backups_enable", ctx.user.username, inst, { notification: true });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/backups/cancel", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    inst.backups = { ...inst.backups, enabled: false, available: false, last_successful: null };
    d.backups = d.backups.filter((b) => b.compute_id !== inst.id);
    instanceNote("backups_cancel", ctx.user.username, inst, { notification: true });
    return {};
  });

  router.add("GET", "/compute/instances/{computeId}/backups/{backupId}", { scope: ro, auth: "required" }, (ctx) => backupView(backup(ctx, instance(ctx))));

  router.add("POST", "/compute/instances/{computeId}/backups/{backupId}/restore", { scope: rw, auth: "required" }, (ctx) => {
    const src = instance(ctx, "read_only");
    const b = backup(ctx, src);
    const body = jsonObject(ctx);
    if (!isInt(body.compute_id)) throw badRequest("compute_id is required", "compute_id");
    const target = d.instances.find((i) => i.id === body.compute_id && canSee(ctx.user, i.id, "read_write"));
    if (!target) throw badRequest(`Instance ${body.compute_id} not found`, "compute_id");
    settleAll(target);
    if (target.region !== b.region) throw badRequest("A backup cannot be restored to an instance in another region", "compute_id");
    if (b.status !== "successful" || !b.available) throw badRequest("Only successful backups that are not under maintenance can be restored");
    if (backupsOf(target.id).some((x) => x.status === "pending" || x.status === "running"))
      throw badRequest("The target instance is creating a backup", "compute_id");
    if (busy(target)) throw busyError();
    const need = b.disks.reduce((n, x) => n + x.size, 0);
    if (body.overwrite === true) {
      d.disks = d.disks.filter((x) => x.compute_id !== target.id);
      d.configs = d.configs.filter((x) => x.compute_id !== target.id);
    } else if (need > typeOf(target.type)!.disk - usedDisk(target.id)) {
      throw badRequest(`Insufficient space on the target instance: the backup needs ${need} MB; restore with overwrite true or free disk space`, "overwrite");
    }
    restoreInto(target, b, dur("restoring"));
    target.status = "restoring";
    target._activeInterfaces = [];
    target._queue.push({ status: "offline", at: now() + dur("restoring") });
    if (body.overwrite === true) target._rootPassHash = b._source.rootPassHash;
    settleAll(target);
    instanceEvent("backups_restore", ctx.user.username, target);
    return {};
  });
}
