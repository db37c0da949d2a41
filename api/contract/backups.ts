import { z } from "zod";
import { apiTime, bool, int, text, recordId } from "./common";
import { FILESYSTEMS } from "./disks";
import { empty, endpoint, nothing, ro, rw } from "./endpoint";
import { INSTANCE_PATH as I } from "./instances";

/** compute-api.md "Instance backup record" and "Backups": an instance's automatic backups and its one snapshot. */

/** compute-api.md "Instance backup record": "type | string enum | `auto`, `snapshot`". */
export const BACKUP_TYPES = ["auto", "snapshot"] as const;

/** compute-api.md "Instance backup record": "status | string enum". */
export const BACKUP_STATUSES = ["paused", "pending", "running", "needsPostProcessing", "successful", "failed", "userAborted"] as const;

/** A disk in a backup: its label, size (MB) and filesystem (the real API's items; the spec says "Disks in the backup"). */
export const backupDisk = z.strictObject({ label: z.string(), size: int, filesystem: z.enum(FILESYSTEMS) });

/** compute-api.md "Instance backup record", with the real API's `region` (recorded). */
export const backup = z.strictObject({
  id: recordId,
  label: z.string().nullable(),
  type: z.enum(BACKUP_TYPES),
  status: z.enum(BACKUP_STATUSES),
  available: z.boolean(),
  configs: z.array(z.string()),
  disks: z.array(backupDisk),
  created: apiTime,
  finished: apiTime.nullable(),
  updated: apiTime,
  region: z.string(),
});

/** compute-api.md: "The backups list result is an object with `automatic` ... and `snapshot` (object with `current` and `in_progress`, each a backup record)". */
export const backupsList = z.strictObject({
  automatic: z.array(backup),
  snapshot: z.strictObject({ current: backup.nullable(), in_progress: backup.nullable() }),
});

/** compute-api.md "Limits": "Snapshot label | 1..255 chars"; required. */
export const snapshotLabel = text("snapshotLabel", { missing: "label is required" });

/** compute-api.md `POST I/backups`: "`label` (string 1..255, required)". */
export const snapshotBody = z.object({ label: snapshotLabel });

/** compute-api.md `POST I/backups/{backupId}/restore`: "`compute_id` (integer, required, target instance), `overwrite` (boolean)". */
export const restoreBody = z.object({
  compute_id: z.number({ error: "compute_id is required" }).int("compute_id is required"),
  overwrite: bool.optional(),
});

const source = "compute-api.md";
const scope = { ro: ro("computes"), rw: rw("computes") };
const B = `${I}/backups` as const;

/** compute-api.md "Backups". */
export const backupsApi = {
  list: endpoint({ method: "GET", path: B, source, scope: scope.ro, auth: "required", summary: "List an instance's backups", answer: backupsList }),
  create: endpoint({
    method: "POST",
    path: B,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Take a snapshot (it replaces the existing one)",
    body: snapshotBody,
    answer: backup,
  }),
  cancel: endpoint({
    method: "POST",
    path: `${B}/cancel`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Cancel the backup service (every backup is deleted)",
    body: nothing,
    answer: empty,
  }),
  enable: endpoint({
    method: "POST",
    path: `${B}/enable`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Enable the backup service",
    body: nothing,
    answer: empty,
  }),
  get: endpoint({ method: "GET", path: `${B}/{backupId}`, source, scope: scope.ro, auth: "required", summary: "View a backup", answer: backup }),
  restore: endpoint({
    method: "POST",
    path: `${B}/{backupId}/restore`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Restore a backup into an instance",
    body: restoreBody,
    answer: empty,
  }),
};

export type Backup = z.output<typeof backup>;
export type BackupsList = z.output<typeof backupsList>;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];
