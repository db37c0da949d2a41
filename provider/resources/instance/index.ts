import { RESOURCE_NAME } from "../../model/marks";
import type { CheckFailure } from "../../model/check";
import { claimSnapshotSlot, planBackups, planSnapshotBeforeChange } from "./declared";
import { defineResource } from "../../definition";
import { fromApi, toApiBody } from "../../model/mapping";
import { isExisting } from "../../model/naming";
import { generatedPassword } from "../../model/passwords";
import { say, untilAccepted } from "../../lifecycle/steps";
import { API } from "../../../api/contract";
import type { Instance } from "../../../api/contract/instances";
import { power } from "../instance-power";
import { camel, containsUnknown, convertKeys, snake, UNKNOWN, type OutputsOf, type Props } from "../../model/table";
import { cloneBody, clonePath, cloneRuleFailures, NOT_WITH_CLONE } from "./clone";
import { bootConfig, claimAsList, interfacesFromApi, interfacesMatch, vpcAddress } from "./interfaces";
import { backupElsewhere, restoreOf, restoreRefusal } from "./restore";
import { checkSwapChange, checkTypeFits, swapAtDeploy, swapSizeOf } from "./swap";
import { instanceSpec, type InstanceFields } from "./table";
import { updateInstance } from "./update";
import { SETTLED, settled } from "./table";
import { loadPrices } from "../prices";
import { priceOutputs } from "../price-catalog";
import { resource, ref, obj, REGION, TYPE, IMAGE, PUBLIC_KEY } from "../example-parents";

export { instanceSpec, type InstanceApi } from "./table";
export { interfaceInput, interfacesFromApi, interfacesInput, interfacesMatch } from "./interfaces";
export { generatedPassword };

/** Fields the API takes only in a PUT, not in the create body. */
const PUT_ONLY = ["alerts", "watchdogEnabled"] as const;

const wantBooted = (props: Props) => props.booted !== false && (props.image !== undefined || props.backupId !== undefined || props.scriptId !== undefined);

/** Outputs: the table's, plus the fields the API nests elsewhere. */
function outputsOf(api: Instance, inputs: Props): Props {
  const outs = fromApi(instanceSpec, api, inputs);
  outs.backupsEnabled = api.backups.enabled;
  outs.backupSchedule = convertKeys(api.backups.schedule, camel);
  if (SETTLED.has(api.status)) outs.booted = api.status === "running";
  else if (inputs.booted !== undefined) outs.booted = inputs.booted;
  return outs;
}

/**
 * An instance: its table, plus the password it is deployed with, the PUT of what the create body cannot
 * carry, the wait until it runs (or is offline), its interfaces and swap disk as outputs, and the in-place
 * changes (update.ts). A replacement is made first (provider/lifecycle/replacements.ts).
 */
export const instance = defineResource({
  spec: instanceSpec,
  example: () => {
    const net = resource("Vpc", "net", { region: REGION, description: "web tier" });
    const app = resource("Subnet", "app", { vpcId: ref(net), ipv4: "10.0.1.0/24" });
    const web = resource("Instance", "web", {
      region: REGION,
      type: TYPE,
      image: IMAGE,
      authorizedKeys: [PUBLIC_KEY],
      tags: ["web", "production"],
      backupsEnabled: true,
      interfaces: [obj("InstanceInterface", { purpose: "public", primary: true }), obj("InstanceInterface", { purpose: "vpc", subnetId: ref(app) })],
    });
    return {
      title: "A web server deployed from an image, with a public and a VPC interface",
      resources: [net, app, web],
      outputs: { publicIps: ref(web, "ipv4"), vpcIp: ref(web, "vpcIpv4") },
    };
  },
  lookup: { name: "getInstances", scope: "`computes:read_only`", listKey: "instances", description: "The instances of the account, filtered and ordered." },
  sdk: { file: "instance" },
  hooks: {
    async validate(news, olds, { program }, client) {
      // The prices its plan gives at preview (read once per session).
      await loadPrices(program, client());
      const failures: CheckFailure[] = [];
      const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
      if (news.cloneFrom !== undefined) {
        for (const f of NOT_WITH_CLONE)
          if (news[f] !== undefined) fail(f, "a clone copies the source's disks and profiles: give it without cloneFrom, or leave it out");
        // Before the clone is made (at preview where the source is known): what the API would refuse.
        if (!failures.length && !isExisting(olds) && !containsUnknown(news.cloneFrom) && !containsUnknown(news.region)) {
          failures.push(...(await cloneRuleFailures(client(), news).catch(() => [])));
        }
        return failures;
      }
      if (news.scriptId !== undefined && news.image === undefined) fail("scriptId", "a deployment script needs an image");
      if (news.image !== undefined && news.backupId !== undefined) fail("backupId", "give either image or backupId, not both");
      if (news.metadata !== undefined && news.image === undefined) fail("metadata", "user data needs an image with cloud-init");
      if (news.swapSize !== undefined && news.image === undefined) {
        fail("swapSize", "only an image deploy makes a swap disk (manage the disks of other instances as Disk resources)");
      }
      if (news.snapshotBeforeChange === true && news.backupsEnabled !== true && news.backupsEnabled !== UNKNOWN) {
        fail("snapshotBeforeChange", "needs backupsEnabled: true (the paid backup service keeps the snapshots)");
      }
      // A backup is restored only in its own region: at preview, where the backup and the region are known,
      // for a new instance or one a new region or backup replaces.
      const made = !isExisting(olds) || olds.region !== news.region || olds.backupId !== news.backupId;
      if (!failures.length && made && typeof news.backupId === "number" && typeof news.region === "string" && news.region !== UNKNOWN) {
        const other = await backupElsewhere(client(), news.backupId, news.region).catch(() => undefined);
        if (other)
          fail(
            "backupId",
            `backup ${news.backupId} belongs to instance ${other.id} in region ${other.region}: a backup is restored only in its own region (${news.region} here)`,
          );
      }
      return failures;
    },

    async diff(client, id, olds, news, d, program) {
      // What a snapshot of this instance checks at preview: the backup service as it will be.
      if (typeof news.backupsEnabled === "boolean") planBackups(program, id, news.backupsEnabled);
      // Pre-change snapshots: recorded for its disks' steps, and the one snapshot slot taken.
      planSnapshotBeforeChange(program, id, news.snapshotBeforeChange === true);
      if (news.snapshotBeforeChange === true) {
        const name = typeof news[RESOURCE_NAME] === "string" ? news[RESOURCE_NAME] : id;
        const holder = claimSnapshotSlot(program, id, `Instance ${name} (snapshotBeforeChange)`);
        if (holder !== undefined) {
          throw new Error(
            `snapshotBeforeChange: instance ${id} has one snapshot slot, which ${holder} of this program takes: the pre-change snapshots would replace it; keep one of the two`,
          );
        }
      }
      if (news.interfaces !== undefined && olds.bootConfigId !== undefined) claimAsList(program, id, olds.bootConfigId, `Instance ${id} (its interfaces)`);
      // An image change rebuilds in place when asked to; otherwise it replaces.
      if (news.rebuildOnImageChange === true) d.replaces = d.replaces.filter((f) => f !== "image");
      // A restore into it: what the API would refuse, said at preview.
      const restore = restoreOf(news);
      if (d.changed.includes("restore") && restore && !d.replaces.length) {
        const refusal = await restoreRefusal(client(), id, restore, String(olds.type));
        if (refusal) throw new Error(refusal);
      }
      // A resize: the disks must fit the new type (rule 6), the swap disk counted at the size it will have.
      if (d.changed.includes("type") && !d.replaces.length && typeof news.type === "string" && news.type !== UNKNOWN) {
        await checkTypeFits(client(), id, news.type, d.changed.includes("swapSize") && typeof news.swapSize === "number" ? news.swapSize : undefined);
      }
      const swapTo = news.swapSize;
      if (d.changed.includes("swapSize") && typeof swapTo === "number" && !d.replaces.length) {
        // A state written before swapSize was read back does not know the size: look at the swap disk.
        const c = client();
        if (olds.swapSize === undefined && (await swapSizeOf(c, id, olds)) === swapTo) {
          d.changed.splice(d.changed.indexOf("swapSize"), 1);
          d.changes = d.changed.length > 0;
        } else await checkSwapChange(c, id, olds, swapTo);
      }
    },

    createBody(table, ins) {
      if (ins.restore !== undefined) say("restore: a new instance is not restored into (nothing is sent for it); create it from a backup with backupId");
      if (ins.cloneFrom !== undefined) return cloneBody(ins.cloneFrom, ins);
      // The create body has no alerts, watchdog or backup schedule: those follow in one PUT.
      const body = { ...table };
      for (const k of PUT_ONLY) delete body[snake(k)];
      if (ins.backupsEnabled !== undefined) body.backups_enabled = ins.backupsEnabled;
      return body;
    },

    // A clone is made from its source's path; a lost answer is found by its label as any instance's.
    send: (create, { inputs }) => create(inputs.cloneFrom === undefined ? undefined : clonePath(inputs.cloneFrom)),

    async afterCreate(ctx) {
      const { client: c, id, props: ins } = ctx;
      const clone = ins.cloneFrom !== undefined;
      // A clone has the source's tags unless the program gives its own.
      const put = toApiBody(instanceSpec, ins, clone ? [...PUT_ONLY, "tags"] : PUT_ONLY);
      if (ins.backupSchedule !== undefined) put.backups = { schedule: convertKeys(ins.backupSchedule, snake) };
      if (Object.keys(put).length) ctx.latest = await c.call(API.instances.update, { params: { computeId: id }, body: put });
      if (clone) {
        const made = await ctx.wait(settled("to be cloned"));
        return ins.booted === true && made.status === "offline" ? power(c, id, "boot", { timeoutMs: ctx.timeoutMs }) : made;
      }
      const booted = wantBooted(ins);
      return ctx.wait(settled(booted ? "to be running" : "to be offline", (i) => (booted ? i.status === "running" : i.status === "offline")));
    },

    update: updateInstance,

    mapOutputs: outputsOf,

    /** The boot profile's interfaces and the swap disk's size, read on create and refresh (an update reports its own). */
    async extraOutputs(c, api, props, { op, program }) {
      const extra: OutputsOf<InstanceFields> = priceOutputs((await loadPrices(program, c))?.instance(api.type, String(api.region), api.backups.enabled));
      if (op === "update") return extra;
      const id = String(api.id);
      if (op === "create" && props.interfaces !== undefined) {
        const cfg = await bootConfig(c, id);
        extra.bootConfigId = cfg?.id;
        extra.vpcIpv4 = cfg && vpcAddress(cfg.interfaces);
        claimAsList(program, id, extra.bootConfigId, `Instance ${id} (its interfaces)`);
      }
      if (op === "read" && props.interfaces !== undefined && props.bootConfigId !== undefined) {
        const list = await c.find(API.interfaces.list, { params: { computeId: id, configId: String(props.bootConfigId) } });
        if (list) {
          extra.vpcIpv4 = vpcAddress(list);
          const actual = interfacesFromApi(list);
          extra.interfaces = interfacesMatch(props.interfaces, actual) ? props.interfaces : actual;
        }
      }
      // The swap size is learnt once and kept: an image deploy makes the swap disk it was asked for (512 MB
      // unless said), and a refresh keeps what the state knows; only a state (or an import) that does not
      // know it reads the disks. (A change made to the swap disk by hand is not seen: docs/reliability.md.)
      const known = op === "create" ? swapAtDeploy(props) : typeof props.swapSize === "number" ? props.swapSize : undefined;
      // (An import has no state: whether it was deployed from an image is the record's to say.)
      const swap = known ?? (await swapSizeOf(c, id, { ...props, image: props.image ?? api.image ?? undefined }));
      if (swap !== undefined) extra.swapSize = swap;
      return extra;
    },

    /**
     * preview: what the steps above set. A create: the generated password (unknown), the swap disk asked for,
     * the power state it waits for. An update: the power state step 7 leaves, and what a rebuild makes anew.
     */
    plan({ op, olds, news, changed, program }, outs) {
      // Its price, from the catalogue its check read: the type, region and backup service it will have (the
      // API enables backups only when asked).
      const backups = typeof outs.backupsEnabled === "boolean" ? outs.backupsEnabled : op === "create" && news.backupsEnabled === undefined ? false : undefined;
      if (
        program.prices &&
        typeof outs.type === "string" &&
        typeof outs.region === "string" &&
        backups !== undefined &&
        !containsUnknown([outs.type, outs.region])
      ) {
        Object.assign(outs, priceOutputs(program.prices.instance(outs.type, outs.region, backups)));
      }
      const deploys = news.image !== undefined || news.scriptId !== undefined;
      if (op === "create") {
        if (deploys && news.rootPass === undefined) outs.rootPass = UNKNOWN;
        const swap = swapAtDeploy(news);
        if (swap !== undefined && !containsUnknown(news.image)) outs.swapSize = swap;
        return;
      }
      const restored = changed.includes("restore") && news.restore !== undefined;
      if (restored) {
        if (olds.swapSize !== undefined) outs.swapSize = UNKNOWN;
        if (news.interfaces !== undefined && restoreOf(news)?.overwrite === true) outs.bootConfigId = UNKNOWN;
      }
      if (changed.includes("booted") || changed.includes("image") || restored) {
        outs.status = news.booted === false ? "offline" : "running";
        outs.booted = news.booted !== false;
      }
      if (changed.includes("image")) {
        if (news.rootPass === undefined) outs.rootPass = UNKNOWN;
        outs.swapSize = UNKNOWN;
      }
      if (changed.includes("interfaces") && olds.bootConfigId === undefined) outs.bootConfigId = UNKNOWN;
    },
    // The API refuses while the instance is cloned or restores a backup (a clone of it under way): waited for.
    deleteSteps: ({ id, timeoutMs }, remove) => untilAccepted(`instance ${id}`, timeoutMs, remove, () => true),
  },
});
export const instanceProvider = instance.provider;
