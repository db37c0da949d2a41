import { z } from "zod";
import type { ApiClient } from "../../transport/client";
import { API } from "../../../api/contract";
import type { BackupStatus } from "../../../api/contract/backups";
import { actOn, findInstance, readInstance } from "../instance-power";
import { findType } from "../instance-types";
import { containsUnknown } from "../../model/table";
import { backupIdInput, idInput } from "../../model/rules";
import { backupsOf } from "../instanceSnapshot";

/**
 * `restore`: a backup restored into an existing instance in place (`POST I/backups/{backupId}/restore` of the
 * instance the backup belongs to, `compute_id` this one). The spec's rules are checked at preview: the backup
 * must be successful and not under maintenance, in the instance's region, the instance must not be taking a
 * backup, and without `overwrite` its free disk must hold the backup's disks.
 */
export const restoreInput = z
  .object({
    backupId: backupIdInput,
    sourceComputeId: idInput.optional(),
    overwrite: z.boolean().optional(),
  })
  .strict()
  .meta({ typeName: "InstanceRestore" });

interface Restore {
  backupId: number | string;
  sourceComputeId?: number | string;
  overwrite?: boolean;
}

/** A backup's statuses while it is being taken: the API restores into no instance that is taking one. */
const TAKING: readonly BackupStatus[] = ["pending", "running", "needsPostProcessing", "paused"];

/** The restore the program asks for, when it is known (not planned unknown). */
export const restoreOf = (props: { restore?: Restore | null }): Restore | undefined =>
  props.restore !== undefined && props.restore !== null && !containsUnknown(props.restore) ? props.restore : undefined;

const sourceOf = (r: Restore, id: string): string => String(r.sourceComputeId ?? id);

/**
 * At preview: what the API would refuse about restoring `r` into instance `id` (type `type`). Each message
 * names the field and the rule; none when the restore can go ahead.
 */
export async function restoreRefusal(c: ApiClient, id: string, r: Restore, type: string): Promise<string | undefined> {
  const source = sourceOf(r, id);
  const backup = await c.find(API.backups.get, { params: { computeId: source, backupId: r.backupId } });
  if (!backup)
    return `restore.backupId: ${String(r.backupId)} is not a backup of instance ${source} (getInstanceBackups lists them; restore.sourceComputeId names another instance)`;
  if (backup.status !== "successful" || !backup.available) {
    const why = backup.status !== "successful" ? `is ${backup.status}` : "is under maintenance (available false)";
    return `restore.backupId: backup ${String(r.backupId)} ${why}: only successful backups that are not under maintenance can be restored`;
  }
  const [from, to] = await Promise.all([source === id ? undefined : findInstance(c, source), findInstance(c, id)]);
  if (from && to && from.region !== to.region) {
    return `restore.sourceComputeId: backup ${String(r.backupId)} of instance ${source} is in region ${from.region}, and instance ${id} is in ${to.region}: a backup is restored only in its own region`;
  }
  const own = await c.find(API.backups.list, { params: { computeId: id } });
  const taking = own?.snapshot.in_progress;
  if (taking && TAKING.includes(taking.status)) {
    return `restore: instance ${id} is taking a backup (${taking.label ?? taking.id}, ${taking.status}), and the API restores into no instance that is: run pulumi up again once it is done`;
  }
  if (r.overwrite !== true) {
    const need = backup.disks.reduce((n, d) => n + d.size, 0);
    const [disks, kind] = await Promise.all([c.all(API.disks.list, { params: { computeId: id } }), findType(c, type)]);
    const free = kind ? kind.disk - disks.reduce((n, d) => n + d.size, 0) : Infinity;
    if (need > free) {
      return `restore.overwrite: backup ${String(r.backupId)} needs ${need} MB and instance ${id} has ${free} MB free (type ${type}): set overwrite: true (all its disks and configuration profiles are deleted first) or free disk space`;
    }
  }
  return undefined;
}

/**
 * The restore itself: sent once (a lost answer is sent again only when the instance shows no restore under
 * way), then the wait until the instance rests again (the API leaves it offline).
 */
export async function restoreInto(c: ApiClient, id: string, r: Restore, settle: (what: string) => Promise<unknown>): Promise<void> {
  const params = { computeId: sourceOf(r, id), backupId: r.backupId };
  const body = { compute_id: Number(id), overwrite: r.overwrite === true };
  await actOn(c, API.backups.restore, params, body, async () => (await readInstance(c, id)).status === "restoring");
  await settle(`to restore backup ${String(r.backupId)}`);
}

/**
 * The instance in another region than `region` whose backups hold `backupId`, if any (an instance created from
 * a backup must be in the backup's region). The API has no lookup of a backup by id alone: the other regions'
 * instances are asked, at most 25 (beyond that the API says it at create).
 */
export async function backupElsewhere(c: ApiClient, backupId: number, region: string): Promise<{ id: number; region: string } | undefined> {
  const others = (await c.all(API.instances.list, {})).filter((i) => i.region !== region);
  if (others.length > 25) return undefined;
  for (const i of others) {
    // (An instance without the backup service may answer an error: it holds no backup.)
    const all = await backupsOf(c, i.id).catch(() => []);
    if (all.some((b) => b.id === backupId)) return i;
  }
  return undefined;
}
