import type { z } from "zod";
import { ruleOf } from "../../../api/contract/common";
import type { DatabaseApis } from "../../../api/contract/database-endpoints";
import { STATUS_NEEDED } from "../../../api/contract/databases";
import { pathOf } from "../../../api/contract/endpoint";
import { act } from "../../lifecycle/lost-answers";
import type { HookContext } from "../../lifecycle/hooks";
import { type InputsOf } from "../../model/table";
import { active, type DatabaseApi, type DatabaseFields } from "./table";

export const restoringRefusal = (id: string) =>
  `passwordRotation: database ${id} is restoring a backup, and a credentials reset during a restore leaves it failed: run pulumi up again once it is active`;

/**
 * A body the provider made from its inputs and the API's record, read by the contract's schema of the request it
 * goes with: typed as the API takes it, and refused here, naming the field, when the API would refuse it.
 */
export function sendable<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const [issue] = r.error.issues;
  throw new Error(`${what}: ${issue.path.map(String).join(".")}: ${ruleOf(issue)}`);
}

/** The root credentials, as outputs. */
async function readCredentials(ctx: HookContext<DatabaseApi, DatabaseFields>, api: DatabaseApis): Promise<void> {
  const cred = await ctx.client.call(api.clusters.credentials, { params: { instanceId: ctx.id } });
  ctx.outputs = { ...ctx.outputs, username: cred.username, password: cred.password };
}

/**
 * A new root password (`passwordRotation` changed): the credentials reset, once the cluster is active (never
 * during a restore), a wait until it is active again, and the new credentials as outputs.
 */
export async function rotatePassword(ctx: HookContext<DatabaseApi, DatabaseFields>, api: DatabaseApis): Promise<void> {
  const { client: c, id } = ctx;
  const now = await c.find(api.clusters.get, { params: { instanceId: id } });
  if (now?.status === "restoring") throw new Error(restoringRefusal(id));
  ctx.latest = await ctx.wait(active("to be active before the credentials reset"));
  // A reset twice is harmless: the second makes one more new password, read below.
  await act(c, pathOf(api.clusters.resetCredentials, { instanceId: id }), {});
  ctx.latest = await ctx.wait(active("to reset its credentials"));
  await readCredentials(ctx, api);
}

/**
 * A backup restored into the cluster in place (`restoreBackupId` set or changed): once the cluster is in a
 * status the API restores in (waited for), the restore, a wait through `restoring` until it is active again,
 * and the credentials read again (the backup's data may hold other ones). A lost answer is sent again only
 * when the cluster shows no restore under way: a second restore of the same backup is the same data.
 */
export async function restoreBackup(
  ctx: HookContext<DatabaseApi, DatabaseFields>,
  api: DatabaseApis,
  backupId: NonNullable<InputsOf<DatabaseFields>["restoreBackupId"]>,
): Promise<void> {
  const { client: c, id } = ctx;
  const path = pathOf(api.backups.restore, { instanceId: id, backupId });
  ctx.latest = await ctx.wait({
    what: "to be in a status a restore is accepted in",
    done: (d) => STATUS_NEEDED.restore.includes(d.status),
    maxMs: 10_000,
    progressEveryMs: 30_000,
  });
  let sawRestoring = false;
  await act(c, path, {}, async () => (await c.find(api.clusters.get, { params: { instanceId: id } }))?.status === "restoring");
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
  await readCredentials(ctx, api);
}
