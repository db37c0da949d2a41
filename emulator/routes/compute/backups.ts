import { backupsApi, type Backup, type BackupsList } from "../../../api/contract/backups";
import { badRequest } from "../../http";
import type { Req } from "../../router";
import { apiTime } from "../../state";
import { copyOf } from "../../store";
import { busyError } from "./base";
import { row, type ComputeContext } from "./context";
import type { BackupRecord, InstanceRecord } from "./records";

/** Instance backups (`I/backups...`): list, snapshot, enable, cancel, view, restore (compute-api.md "Backups"). */

const underWay = (b: BackupRecord) => b.status === "pending" || b.status === "running";

/** A backup of the instance as it is now: its disks and profiles, pending, running, then successful. */
function snapshotOf(c: ComputeContext, inst: InstanceRecord, label: string | null, type: BackupRecord["type"]): BackupRecord {
  const disks = c.disksOf(inst.id);
  const at = c.now();
  const done = at + c.dur("snapshot");
  return {
    id: c.store.nextId("backup"),
    compute_id: inst.id,
    label,
    type,
    status: "pending",
    available: true,
    configs: c.configsOf(inst.id).map((x) => x.label),
    disks: disks.map((x) => ({ label: x.label, size: x.size, filesystem: x.filesystem })),
    created: apiTime(at),
    finished: null,
    updated: apiTime(at),
    region: inst.region,
    _queue: [
      { status: "running", at: at + Math.round(c.dur("snapshot") / 3) },
      { status: "successful", at: done, patch: { finished: apiTime(done) } },
    ],
    _source: {
      disks: disks.map((x) => ({ srcId: x.id, label: x.label, size: x.size, filesystem: x.filesystem })),
      configs: c.configsOf(inst.id).map(({ id: _i, compute_id: _c, ...rest }) => copyOf(rest)),
      type: inst.type,
      rootPassHash: inst._rootPassHash,
    },
  };
}

function listBackups(c: ComputeContext, req: Req<typeof backupsApi.list>): BackupsList {
  const all = c.backupsOf(c.instance(req).id);
  const snaps = all.filter((b) => b.type === "snapshot");
  const current = snaps.filter((b) => b.status === "successful").pop();
  const inProgress = snaps.find(underWay);
  return {
    automatic: all.filter((b) => b.type === "auto").map(c.backupView),
    snapshot: { current: current ? c.backupView(current) : null, in_progress: inProgress ? c.backupView(inProgress) : null },
  };
}

/** A snapshot needs the backup service; one at a time, and it replaces the one there. */
function takeSnapshot(c: ComputeContext, req: Req<typeof backupsApi.create>): Backup {
  const inst = c.instance(req, "read_write");
  if (!inst.backups.enabled) throw badRequest("The backup service is not enabled on this instance");
  if (c.backupsOf(inst.id).some(underWay)) throw badRequest("A backup is already in progress");
  c.d.backups = c.d.backups.filter((b) => !(b.compute_id === inst.id && b.type === "snapshot"));
  const snap = snapshotOf(c, inst, req.body.label, "snapshot");
  c.d.backups.push(snap);
  // The real API's snapshot event (linode_snapshot, renamed): started until the snapshot is taken.
  c.instanceEvent("compute_snapshot", req.user.username, inst, { finish: Math.max(...snap._queue.map((step) => step.at)) });
  return c.backupView(snap);
}

/** The restore rules: no cross-region restore, a successful backup not under maintenance, a target taking no backup and at rest. */
function checkRestore(c: ComputeContext, req: Req<typeof backupsApi.restore>, b: BackupRecord): InstanceRecord {
  const target = c.d.instances.find((i) => i.id === req.body.compute_id && c.canSee(req.user, i.id, "read_write"));
  if (!target) throw badRequest(`Instance ${req.body.compute_id} not found`, "compute_id");
  c.settleAll(target);
  if (target.region !== b.region) throw badRequest("A backup cannot be restored to an instance in another region", "compute_id");
  if (b.status !== "successful" || !b.available) throw badRequest("Only successful backups that are not under maintenance can be restored");
  if (c.backupsOf(target.id).some(underWay)) throw badRequest("The target instance is creating a backup", "compute_id");
  if (c.busy(target)) throw busyError();
  const need = b.disks.reduce((n, x) => n + x.size, 0);
  const type = c.typeOfInstance(target);
  if (req.body.overwrite !== true && need > type.disk - c.usedDisk(target.id)) {
    throw badRequest(`Insufficient space on the target instance: the backup needs ${need} MB; restore with overwrite true or free disk space`, "overwrite");
  }
  // Its disks deleted, the target holds the backup's disks only if its type does.
  if (need > type.disk) throw badRequest(`The backup's disks take ${need} MB, more than the ${type.disk} MB of the target's type ${type.id}`, "compute_id");
  return target;
}

/** A restore: with `overwrite`, the target's disks and profiles are deleted first, and its root password becomes the backup's. */
function restoreBackup(c: ComputeContext, req: Req<typeof backupsApi.restore>) {
  const b = c.backupOf(c.instance(req, "read_only"), req.params.backupId);
  const target = checkRestore(c, req, b);
  if (req.body.overwrite === true) {
    c.d.disks = c.d.disks.filter((x) => x.compute_id !== target.id);
    c.d.configs = c.d.configs.filter((x) => x.compute_id !== target.id);
    target._rootPassHash = b._source.rootPassHash;
  }
  c.restoreInto(target, b, c.dur("restoring"));
  target.status = "restoring";
  target._activeInterfaces = [];
  target._queue.push({ status: "offline", at: c.now() + c.dur("restoring") });
  c.settleAll(target);
  c.instanceEvent("backups_restore", req.user.username, target);
  return {};
}

export const BACKUP_ROWS = [
  row(backupsApi.list, listBackups),
  row(backupsApi.create, takeSnapshot),
  row(backupsApi.cancel, (c, req) => {
    const inst = c.instance(req, "read_write");
    inst.backups = { ...inst.backups, enabled: false, available: false, last_successful: null };
    c.d.backups = c.d.backups.filter((b) => b.compute_id !== inst.id);
    c.instanceNote("backups_cancel", req.user.username, inst, { notification: true });
    return {};
  }),
  row(backupsApi.enable, (c, req) => {
    const inst = c.instance(req, "read_write");
    inst.backups = { ...inst.backups, enabled: true, available: true };
    c.instanceNote("backups_enable", req.user.username, inst, { notification: true });
    return {};
  }),
  row(backupsApi.get, (c, req) => c.backupView(c.backupOf(c.instance(req), req.params.backupId))),
  row(backupsApi.restore, restoreBackup),
];
