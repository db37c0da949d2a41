import type { ApiClient } from "../../transport/client";
import { pathOf } from "../../../api/contract/endpoint";
import { backupsApi, type Backup, type BackupStatus } from "../../../api/contract/backups";
import { say, waitStatus } from "../../lifecycle/steps";
import { actOn } from "../instance-power";
import { madeSince } from "../../model/rules";
import { backupsOf } from "../instanceSnapshot";

/**
 * `snapshotBeforeChange`: a snapshot of the instance taken in the same `up`, right before a change that can
 * lose data (a rebuild, a resize, a root password reset, a swap or data disk resize, a disk's delete, a
 * restore), kept in the instance's one snapshot slot (each replaces the one before). Which instances ask for
 * it is recorded by their diff in provider/resources/instance/declared.ts (the engine diffs an instance before its disks' steps).
 */

/** The label of a pre-change snapshot: what comes next, and when (1..255 characters). */
export const preChangeLabel = (why: string, at = new Date()): string =>
  `pulumi-before-${why.replace(/[^A-Za-z0-9]+/g, "-")}-${at.toISOString().replace(/[-:]|\.\d+/g, "")}`.slice(0, 255);

const FAILED: readonly BackupStatus[] = ["failed", "userAborted"];

/**
 * Takes the snapshot and waits until it is successful: the change that follows goes ahead only then. A lost
 * answer is told by the label (taken since this began), never a second snapshot; a failed snapshot stops the
 * change.
 */
export async function snapshotBeforeChange(c: ApiClient, computeId: string, why: string, timeoutMs: number): Promise<Backup> {
  const label = preChangeLabel(why);
  const since = Date.now();
  const find = async () => (await backupsOf(c, computeId)).find((b) => b.type === "snapshot" && b.label === label && madeSince(b.created, since));
  say(`instance ${computeId}: a snapshot (${label}) before ${why}, as snapshotBeforeChange asks; it replaces the one in the instance's slot`);
  await actOn(c, backupsApi.create, { computeId }, { label }, async () => (await find()) !== undefined);
  const made = await find();
  if (!made) throw new Error(`the snapshot ${label} of instance ${computeId} was taken but does not appear in its backups`);
  return waitStatus<Backup>(
    c,
    pathOf(backupsApi.get, { computeId, backupId: made.id }),
    `snapshot ${made.id} of instance ${computeId}`,
    {
      what: `to be taken before ${why}`,
      done: (b) => b.status === "successful",
      failed: (b) => (FAILED.includes(b.status) ? `the snapshot before ${why} ended ${b.status}: the change was not made` : undefined),
      maxMs: 5_000,
      progressEveryMs: 15_000,
    },
    timeoutMs,
  );
}
