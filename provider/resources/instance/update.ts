import type { ApiClient } from "../../transport/client";
import { act } from "../../lifecycle/lost-answers";
import { toApiBody, updateBody } from "../../model/mapping";
import { generatedPassword } from "../../model/passwords";
import type { HookContext } from "../../lifecycle/rest-provider";
import { instancePath, power, powerCycle } from "../instance-power";
import { convertKeys, snake, type BodyOf, type InputName, type InputsOf, type Props, type StateOf } from "../../model/table";
import { bootConfig, interfacesToApi, vpcAddress, type ApiInterface } from "./interfaces";
import { snapshotBeforeChange } from "./presnapshot";
import { restoreInto, restoreOf } from "./restore";
import { resizeSwap, swapSizeOf } from "./swap";
import { instanceSpec, SETTLED, settled, type InstanceApi, type InstanceFields } from "./table";

/** Sends a change action (rebuild, resize), telling from the instance whether a lost answer took effect. */
async function instanceAction(c: ApiClient, id: string, action: string, body: Props, applied: (i: InstanceApi) => boolean): Promise<void> {
  await act(c, `${instancePath(id)}/${action}`, body, async () => applied(await c.get<InstanceApi>(instancePath(id))));
}

/**
 * The in-place changes of an instance, in order: a rebuild (a new image), one PUT of the plain fields, the
 * backup service, a swap resize and a password reset in one power cycle, a resize, the boot profile's
 * interfaces (with a reboot), and the power state last. Every step records the instance as it leaves it
 * (`ctx.latest`), so a failure keeps the instance as it is now.
 */
export async function updateInstance(
  ctx: HookContext<InstanceApi, InstanceFields>,
  olds: StateOf<InstanceFields>,
  news: InputsOf<InstanceFields>,
  changed: InputName<InstanceFields>[],
): Promise<InstanceApi> {
  const { client: c, id, timeoutMs } = ctx;
  const ins = { ...news };
  if (ins.rootPass === undefined && olds.rootPass !== undefined) ins.rootPass = olds.rootPass;
  // What a failure keeps: the outputs the steps changed so far, and the old password until the reset is made.
  const extra = Object.assign(ctx.outputs, { bootConfigId: olds.bootConfigId, vpcIpv4: olds.vpcIpv4, swapSize: olds.swapSize });
  ctx.keep.rootPass = olds.rootPass;
  const has = (f: InputName<InstanceFields>) => changed.includes(f);
  const settle = async (what: string, want?: (i: InstanceApi) => boolean) => (ctx.latest = await ctx.wait(settled(what, want)));
  const current = async () => (ctx.latest = await c.get<InstanceApi>(instancePath(id)));
  const seen = (i: InstanceApi) => (ctx.latest = i);

  // 0. A create cut short (a timeout, Ctrl-C) that kept it in the stack before it settled: the core waits for it
  // first (the table's `unfinished`).
  // 0a. snapshotBeforeChange: a snapshot before any step below that can lose data, once it is successful.
  const risky = [
    has("restore") && news.restore !== undefined ? "the restore" : "",
    has("image") ? "the rebuild" : "",
    has("type") ? "the resize" : "",
    has("rootPass") && news.rootPass !== undefined ? "the root password reset" : "",
    has("swapSize") && typeof news.swapSize === "number" && news.swapSize !== olds.swapSize ? "the swap disk resize" : "",
  ].filter(Boolean);
  if (news.snapshotBeforeChange === true && risky.length) {
    await snapshotBeforeChange(c, id, risky.join(" and "), timeoutMs);
    await current();
  }
  // 0b. A backup restored into it (`restore` set or changed): before any step that touches its disks. With
  // overwrite, the disks, profiles and root password are the backup's: the password the program gives is
  // set again in step 4, and the swap disk and boot profile are read anew.
  const restore = has("restore") ? restoreOf(news) : undefined;
  if (restore) {
    await restoreInto(c, id, restore, (what) => settle(what));
    extra.swapSize = await swapSizeOf(c, id, ins);
    if (restore.overwrite === true && ins.interfaces !== undefined) {
      const cfg = await bootConfig(c, id);
      extra.bootConfigId = cfg?.id;
      extra.vpcIpv4 = cfg && vpcAddress(cfg.interfaces);
    }
  }
  // 1. An image change with rebuildOnImageChange: rebuild (erases the disks), then the other changes.
  if (has("image")) {
    if (ins.rootPass === undefined) ins.rootPass = generatedPassword();
    const body = toApiBody(instanceSpec, ins, ["image", "rootPass", "authorizedKeys", "authorizedUsers", "scriptId", "scriptData", "metadata", "booted"]);
    await instanceAction(c, id, "rebuild", body, (i) => i.status === "rebuilding" || (i.image === news.image && SETTLED.has(i.status)));
    ctx.keep.rootPass = ins.rootPass;
    await settle("to finish rebuilding");
    extra.swapSize = await swapSizeOf(c, id, ins);
  }
  // 2. One PUT for the plain fields (a removed group or tags list is cleared).
  const putFields = (["label", "group", "tags", "alerts", "watchdogEnabled"] as const).filter(has);
  if (putFields.length || has("backupSchedule")) {
    const body = updateBody(instanceSpec, news, putFields);
    if (has("backupSchedule")) body.backups = { schedule: convertKeys(news.backupSchedule, snake) };
    ctx.latest = (await c.request<InstanceApi>("PUT", instancePath(id), { body })).body;
  }
  // 3. The backup service. Enabling or cancelling twice is harmless.
  // The record read after it, so the outputs say what the service now does (else the next preview plans it again).
  if (has("backupsEnabled")) {
    await act(c, `${instancePath(id)}/backups/${news.backupsEnabled ? "enable" : "cancel"}`, {});
    await current();
  }
  // 4. What the API does only while the instance is shut down, in one power cycle: a swap disk resize and the
  // root password reset.
  const swapTo = has("swapSize") && typeof news.swapSize === "number" && news.swapSize !== extra.swapSize ? news.swapSize : undefined;
  const password = (has("rootPass") && news.rootPass !== undefined) || (restore?.overwrite === true && ins.rootPass !== undefined);
  if (swapTo !== undefined || password) {
    const why = [swapTo !== undefined ? "the swap resize" : "", password ? "the password reset" : ""].filter(Boolean).join(" and ");
    await powerCycle(c, id, { timeoutMs, why, seen }, async () => {
      if (swapTo !== undefined) {
        await resizeSwap(c, id, swapTo, timeoutMs);
        extra.swapSize = swapTo;
      }
      if (password) {
        // Setting the same password twice is harmless.
        await act(c, `${instancePath(id)}/password`, { root_pass: ins.rootPass });
        ctx.keep.rootPass = ins.rootPass;
      }
    });
  }
  // 5. A resize: wait until the new type is in place.
  if (has("type")) {
    const body: BodyOf<InstanceFields> = { type: news.type };
    if (news.migrationType !== undefined) body.migration_type = news.migrationType;
    if (news.allowAutoDiskResize !== undefined) body.allow_auto_disk_resize = news.allowAutoDiskResize;
    await instanceAction(c, id, "resize", body, (i) => i.status === "migrating" || i.type === news.type);
    await settle(`to be resized to ${String(news.type)}`, (i) => i.type === news.type);
  }
  // 6. Interfaces: redefine the boot profile's interfaces, then reboot so they take effect.
  if (has("interfaces")) {
    const cfgId = olds.bootConfigId !== undefined && olds.bootConfigId !== null ? Number(olds.bootConfigId) : (await bootConfig(c, id))?.id;
    if (cfgId === undefined) throw new Error("the instance has no configuration profile to put the interfaces on");
    extra.bootConfigId = cfgId;
    const put = { body: { interfaces: interfacesToApi(news.interfaces) } };
    const cfg = (await c.request<{ interfaces: ApiInterface[] }>("PUT", `${instancePath(id)}/configs/${cfgId}`, put)).body;
    extra.vpcIpv4 = vpcAddress(cfg.interfaces);
    const now = await current();
    if (now.status === "running") seen(await power(c, id, "reboot", { configId: cfgId, timeoutMs, why: "to reboot with the new interfaces" }));
  }
  // 7. Power state last, so it is what the user asked for.
  if (has("booted") || has("image") || restore) {
    const now = await settle("to settle");
    if (news.booted !== false && now.status === "offline") seen(await power(c, id, "boot", { timeoutMs }));
    else if (news.booted === false && now.status === "running") seen(await power(c, id, "shutdown", { timeoutMs }));
  }
  // The outputs: what the steps changed (in ctx.outputs), and the password (one generated for a rebuild, too).
  if (ins.rootPass !== undefined) ctx.outputs.rootPass = ins.rootPass;
  return ctx.latest ?? (await current());
}
