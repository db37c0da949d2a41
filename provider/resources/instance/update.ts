import type { ApiClient } from "../../transport/client";
import { API } from "../../../api/contract";
import { pathOf, type BodyIn } from "../../../api/contract/endpoint";
import type { Instance } from "../../../api/contract/instances";
import { act } from "../../lifecycle/lost-answers";
import { toApiBody, updateBody } from "../../model/mapping";
import { generatedPassword } from "../../model/passwords";
import type { HookContext } from "../../lifecycle/hooks";
import { actOn, power, powerCycle, readInstance } from "../instance-power";
import { convertKeys, snake, type InputName, type InputsOf, type OutputsOf, type Props, type StateOf } from "../../model/table";
import { bootConfig, interfacesToApi, vpcAddress } from "./interfaces";
import { snapshotBeforeChange } from "./presnapshot";
import { restoreInto, restoreOf } from "./restore";
import { resizeSwap, swapSizeOf } from "./swap";
import { instanceSpec, SETTLED, settled, type InstanceFields } from "./table";

/**
 * The in-place update of an instance: a list of steps, each "when these inputs changed, do this", run in the
 * list's order (`UPDATE_STEPS`). A create cut short is waited for first, by the core (the table's `unfinished`).
 * Every step records the instance as it leaves it (`ctx.latest`), so a failure keeps the instance as it is now.
 */

/** What the steps of one update share. */
export interface UpdateRun {
  ctx: HookContext<Instance, InstanceFields>;
  olds: StateOf<InstanceFields>;
  news: InputsOf<InstanceFields>;
  /** The new inputs, with the root password the instance has when the program leaves it out (a rebuild makes one). */
  inputs: InputsOf<InstanceFields>;
  /** The outputs the steps change (the hook's `ctx.outputs`): what a failure keeps, too. */
  outputs: OutputsOf<InstanceFields>;
  /** Whether the update changes an input. */
  has: (field: InputName<InstanceFields>) => boolean;
  /** The backup restored into the instance, when `restore` changed. */
  restore: ReturnType<typeof restoreOf>;
}

/** One step: when it runs, and what it does. */
export interface UpdateStep {
  /** Its name, in the order of the list (the tests name the steps an update runs). */
  name: string;
  when(run: UpdateRun): boolean;
  run(run: UpdateRun): Promise<void>;
}

/** Tells from the instance whether a change action (rebuild, resize) whose answer was lost took effect. */
const appliedTo = (c: ApiClient, id: string, applied: (i: Instance) => boolean) => async () => applied(await readInstance(c, id));

/** Waits until the instance settles (and `want` holds), and records it. */
const settle = async ({ ctx }: UpdateRun, what: string, want?: (i: Instance) => boolean) => (ctx.latest = await ctx.wait(settled(what, want)));
/** Reads the instance, and records it. */
const current = async ({ ctx }: UpdateRun) => (ctx.latest = await readInstance(ctx.client, ctx.id));

/** The changes that can lose data, in words (what a pre-change snapshot is taken before). */
export function riskyChanges({ has, news, olds }: UpdateRun): string[] {
  return [
    has("restore") && news.restore !== undefined ? "the restore" : "",
    has("image") ? "the rebuild" : "",
    has("type") ? "the resize" : "",
    has("rootPass") && news.rootPass !== undefined ? "the root password reset" : "",
    has("swapSize") && typeof news.swapSize === "number" && news.swapSize !== olds.swapSize ? "the swap disk resize" : "",
  ].filter(Boolean);
}

/** The plain fields one PUT changes (a removed group or tags list is cleared). */
const PUT_FIELDS = ["label", "group", "tags", "alerts", "watchdogEnabled"] as const;

/** The swap size to resize to, when it changed and differs from what the instance has (as the steps left it). */
const swapTo = ({ has, news, outputs }: UpdateRun): number | undefined =>
  has("swapSize") && typeof news.swapSize === "number" && news.swapSize !== outputs.swapSize ? news.swapSize : undefined;

/** A root password to set: a new one, or the program's again after a restore that overwrote the disks. */
const passwordReset = ({ has, news, inputs, restore }: UpdateRun): boolean =>
  (has("rootPass") && news.rootPass !== undefined) || (restore?.overwrite === true && inputs.rootPass !== undefined);

export const UPDATE_STEPS: readonly UpdateStep[] = [
  {
    // snapshotBeforeChange: a snapshot before any step below that can lose data, once it is successful.
    name: "snapshot before a risky change",
    when: (r) => r.news.snapshotBeforeChange === true && riskyChanges(r).length > 0,
    async run(r) {
      await snapshotBeforeChange(r.ctx.client, r.ctx.id, riskyChanges(r).join(" and "), r.ctx.timeoutMs);
      await current(r);
    },
  },
  {
    // Before any step that touches the disks. With overwrite, the disks, profiles and root password are the
    // backup's: the password the program gives is set again (the power cycle step), the swap disk and the boot
    // profile are read anew.
    name: "restore a backup",
    when: (r) => r.restore !== undefined,
    async run(r) {
      const { client: c, id } = r.ctx;
      const restore = r.restore;
      if (!restore) return;
      await restoreInto(c, id, restore, (what) => settle(r, what));
      r.outputs.swapSize = await swapSizeOf(c, id, r.inputs);
      if (restore.overwrite === true && r.inputs.interfaces !== undefined) {
        const cfg = await bootConfig(c, id);
        r.outputs.bootConfigId = cfg?.id;
        r.outputs.vpcIpv4 = cfg && vpcAddress(cfg.interfaces);
      }
    },
  },
  {
    // An image change (with rebuildOnImageChange): the rebuild erases the disks, then the other changes follow.
    name: "rebuild",
    when: (r) => r.has("image"),
    async run(r) {
      const { client: c, id } = r.ctx;
      if (r.inputs.rootPass === undefined) r.inputs.rootPass = generatedPassword();
      const sent = ["image", "rootPass", "authorizedKeys", "authorizedUsers", "scriptId", "scriptData", "metadata", "booted"] as const;
      // The table's body of these inputs (their API names, as the create sends them).
      const body = toApiBody(instanceSpec, r.inputs, sent);
      const rebuilt = (i: Instance) => i.status === "rebuilding" || (i.image === r.news.image && SETTLED.has(i.status));
      await act(c, pathOf(API.instanceActions.rebuild, { computeId: id }), body, appliedTo(c, id, rebuilt));
      r.ctx.keep.rootPass = r.inputs.rootPass;
      await settle(r, "to finish rebuilding");
      r.outputs.swapSize = await swapSizeOf(c, id, r.inputs);
    },
  },
  {
    name: "one PUT of the plain fields",
    when: (r) => PUT_FIELDS.some(r.has) || r.has("backupSchedule"),
    async run(r) {
      const body = updateBody(instanceSpec, r.news, PUT_FIELDS.filter(r.has));
      if (r.has("backupSchedule")) body.backups = { schedule: convertKeys(r.news.backupSchedule, snake) };
      r.ctx.latest = await r.ctx.client.call(API.instances.update, { params: { computeId: r.ctx.id }, body });
    },
  },
  {
    // Enabling or cancelling twice is harmless. The record is read after it, so the outputs say what the
    // service now does (else the next preview plans it again).
    name: "the backup service",
    when: (r) => r.has("backupsEnabled"),
    async run(r) {
      await actOn(r.ctx.client, r.news.backupsEnabled ? API.backups.enable : API.backups.cancel, { computeId: r.ctx.id }, {});
      await current(r);
    },
  },
  {
    // What the API does only while the instance is shut down, in one power cycle.
    name: "swap resize and password reset, in one power cycle",
    when: (r) => swapTo(r) !== undefined || passwordReset(r),
    async run(r) {
      const { client: c, id, timeoutMs } = r.ctx;
      const swap = swapTo(r);
      const rootPass = passwordReset(r) ? r.inputs.rootPass : undefined;
      const password = rootPass !== undefined;
      const why = [swap !== undefined ? "the swap resize" : "", password ? "the password reset" : ""].filter(Boolean).join(" and ");
      await powerCycle(c, id, { timeoutMs, why, seen: (i) => (r.ctx.latest = i) }, async () => {
        if (swap !== undefined) {
          await resizeSwap(c, id, swap, timeoutMs);
          r.outputs.swapSize = swap;
        }
        if (rootPass !== undefined) {
          // Setting the same password twice is harmless.
          await actOn(c, API.instanceActions.password, { computeId: id }, { root_pass: rootPass });
          r.ctx.keep.rootPass = rootPass;
        }
      });
    },
  },
  {
    name: "resize",
    when: (r) => r.has("type"),
    async run(r) {
      const { news } = r;
      const { client: c, id } = r.ctx;
      // (`type` is a required input: always given.)
      const body: BodyIn<typeof API.instanceActions.resize> = { type: String(news.type) };
      if (news.migrationType !== undefined) body.migration_type = news.migrationType;
      if (news.allowAutoDiskResize !== undefined) body.allow_auto_disk_resize = news.allowAutoDiskResize;
      const resized = (i: Instance) => i.status === "migrating" || i.type === news.type;
      await actOn(c, API.instanceActions.resize, { computeId: id }, body, appliedTo(c, id, resized));
      await settle(r, `to be resized to ${String(news.type)}`, (i) => i.type === news.type);
    },
  },
  {
    // The boot profile's interfaces redefined, then a reboot so that they take effect.
    name: "interfaces, and a reboot",
    when: (r) => r.has("interfaces"),
    async run(r) {
      const { client: c, id, timeoutMs } = r.ctx;
      const known = r.olds.bootConfigId;
      const cfgId = known !== undefined && known !== null ? Number(known) : (await bootConfig(c, id))?.id;
      if (cfgId === undefined) throw new Error("the instance has no configuration profile to put the interfaces on");
      r.outputs.bootConfigId = cfgId;
      // The list under the API's names (checked at preview by the contract's rules, instance/interfaces.ts).
      const body: Props = { interfaces: interfacesToApi(r.news.interfaces) };
      const cfg = await c.call(API.configs.update, { params: { computeId: id, configId: cfgId }, body });
      r.outputs.vpcIpv4 = vpcAddress(cfg.interfaces);
      const now = await current(r);
      if (now.status === "running") r.ctx.latest = await power(c, id, "reboot", { configId: cfgId, timeoutMs, why: "to reboot with the new interfaces" });
    },
  },
  {
    // Last, so that it is what the program asks for.
    name: "power state",
    when: (r) => r.has("booted") || r.has("image") || r.restore !== undefined,
    async run(r) {
      const { client: c, id, timeoutMs } = r.ctx;
      const now = await settle(r, "to settle");
      if (r.news.booted !== false && now.status === "offline") r.ctx.latest = await power(c, id, "boot", { timeoutMs });
      else if (r.news.booted === false && now.status === "running") r.ctx.latest = await power(c, id, "shutdown", { timeoutMs });
    },
  },
];

/** The run of one update: the inputs with the password carried, the outputs a failure keeps, the changes. */
export function updateRun(
  ctx: HookContext<Instance, InstanceFields>,
  olds: StateOf<InstanceFields>,
  news: InputsOf<InstanceFields>,
  changed: readonly InputName<InstanceFields>[],
): UpdateRun {
  const inputs = { ...news };
  if (inputs.rootPass === undefined && olds.rootPass !== undefined) inputs.rootPass = olds.rootPass;
  // What a failure keeps: the outputs the steps changed so far, and the old password until the reset is made.
  ctx.outputs = { ...ctx.outputs, bootConfigId: olds.bootConfigId, vpcIpv4: olds.vpcIpv4, swapSize: olds.swapSize };
  ctx.keep.rootPass = olds.rootPass;
  const has = (f: InputName<InstanceFields>) => changed.includes(f);
  return { ctx, olds, news, inputs, outputs: ctx.outputs, has, restore: has("restore") ? restoreOf(news) : undefined };
}

/** The update hook: the steps whose `when` holds, in order; the outputs then carry the password (a rebuild's too). */
export async function updateInstance(
  ctx: HookContext<Instance, InstanceFields>,
  olds: StateOf<InstanceFields>,
  news: InputsOf<InstanceFields>,
  changed: InputName<InstanceFields>[],
): Promise<Instance> {
  const run = updateRun(ctx, olds, news, changed);
  for (const step of UPDATE_STEPS) if (step.when(run)) await step.run(run);
  if (run.inputs.rootPass !== undefined) ctx.outputs.rootPass = run.inputs.rootPass;
  return ctx.latest ?? (await current(run));
}
