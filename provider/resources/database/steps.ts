import { act } from "../../lifecycle/lost-answers";
import type { HookContext } from "../../lifecycle/hooks";
import { type InputsOf, type ResourceSpec, type StateOf } from "../../model/table";
import { active, type DatabaseApi, type DatabaseFields } from "./table";

/** The statuses a restore is accepted in (the spec's precondition table). */
const RESTORABLE = ["active", "degraded", "failed"];

export const restoringRefusal = (id: string) =>
  `passwordRotation: database ${id} is restoring a backup, and a credentials reset during a restore leaves it failed: run pulumi up again once it is active`;

/**
 * A new root password (`passwordRotation` changed): the credentials reset, once the cluster is active (never
 * during a restore), a wait until it is active again, and the new credentials as outputs.
 */
export async function rotatePassword(
  ctx: HookContext<DatabaseApi, DatabaseFields>,
  spec: ResourceSpec<DatabaseApi>,
  olds: StateOf<DatabaseFields>,
): Promise<void> {
  const { client: c, id } = ctx;
  const now = await c.get<DatabaseApi>(spec.itemPath(id, olds));
  if (now?.status === "restoring") throw new Error(restoringRefusal(id));
  ctx.latest = await ctx.wait(active("to be active before the credentials reset"));
  // A reset twice is harmless: the second makes one more new password, read below.
  await act(c, `${spec.itemPath(id, olds)}/credentials/reset`, {});
  ctx.latest = await ctx.wait(active("to reset its credentials"));
  const cred = await c.get<{ username: string; password: string }>(`${spec.itemPath(id, olds)}/credentials`);
  Object.assign(ctx.outputs, { username: cred?.username, password: cred?.password });
}

/**
 * A backup restored into the cluster in place (`restoreBackupId` set or changed): once the cluster is in a
 * status the API restores in (waited for), the restore, a wait through `restoring` until it is active again,
 * and the credentials read again (the backup's data may hold other ones). A lost answer is sent again only
 * when the cluster shows no restore under way: a second restore of the same backup is the same data.
 */
export async function restoreBackup(
  ctx: HookContext<DatabaseApi, DatabaseFields>,
  spec: ResourceSpec<DatabaseApi>,
  olds: StateOf<DatabaseFields>,
  backupId: InputsOf<DatabaseFields>["restoreBackupId"],
): Promise<void> {
  const { client: c, id } = ctx;
  const path = `${spec.itemPath(id, olds)}/backups/${String(backupId)}/restore`;
  ctx.latest = await ctx.wait({
    what: "to be in a status a restore is accepted in",
    done: (d) => RESTORABLE.includes(d.status),
    maxMs: 10_000,
    progressEveryMs: 30_000,
  });
  let sawRestoring = false;
  await act(c, path, {}, async () => (await c.get<DatabaseApi>(spec.itemPath(id, olds)))?.status === "restoring");
  // From here a failure keeps the new value: the restore was accepted (running it again is a new restore).
  ctx.keep.restoreBackupId = backupId;
  const started = Date.now();
  ctx.latest = await ctx.wait({
    what: `to restore backup ${String(backupId)}`,
    // The API may show the restore a moment after accepting it: active counts once restoring was seen, or after 10 s.
    done: (d) => {
      if (d.status === "restoring") sawRestoring = true;
      return d.status === "active" && (sawRestoring || Date.now() - started > 10_000);
    },
    failed: (d) =>
      d.status === "failed"
        ? `the restore of backup ${String(backupId)} left the cluster failed (the API's rule 7: a restore after a credentials reset does); restore another backup, or recreate the cluster`
        : undefined,
    maxMs: 10_000,
    progressEveryMs: 30_000,
  });
  const cred = await c.get<{ username: string; password: string }>(`${spec.itemPath(id, olds)}/credentials`);
  Object.assign(ctx.outputs, { username: cred?.username, password: cred?.password });
}
