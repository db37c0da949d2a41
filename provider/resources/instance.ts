import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ApiClient } from "../client";
import {
  act,
  camel,
  convertKeys,
  describeFailure,
  fromApi,
  keepResourceError,
  restProvider,
  rule,
  snake,
  toApiBody,
  updateBody,
  type CheckFailure,
  type DynamicProviderImpl,
  type ResourceSpec,
} from "../resource";
import { instanceLabelError, rootPassError, sshPublicKeyError } from "../rules";
import { claimAsList } from "../ownership";
import { power } from "./power";
import { timeoutsField } from "../timeouts";
import { waitFor } from "../wait";

export interface InstanceApi {
  id: number;
  label: string;
  status: string;
  type: string;
  image: string | null;
  backups: { enabled: boolean; available: boolean; last_successful: string | null; schedule: { day: string | null; window: string | null } };
  [k: string]: unknown;
}

type Props = Record<string, unknown>;

const publicKey = rule((v) => sshPublicKeyError(v));

export const interfaceInput = z
  .object({
    purpose: z.enum(["public", "vlan", "vpc"]),
    label: z.string().min(1).max(64).optional(),
    ipamAddress: z
      .string()
      .regex(/^\d+\.\d+\.\d+\.\d+\/\d+$/, "must be an IPv4 address with a netmask, for example 10.0.0.1/24")
      .optional(),
    primary: z.boolean().optional(),
    subnetId: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
    ipv4: z.object({ vpc: z.string().optional(), nat11: z.string().optional() }).strict().optional(),
    ipRanges: z.array(z.string()).optional(),
  })
  .strict()
  .superRefine((i, ctx) => {
    if (i.purpose === "vpc" && i.subnetId === undefined) ctx.addIssue({ code: "custom", path: ["subnetId"], message: "a vpc interface needs a subnetId" });
    if (i.purpose === "vlan" && !i.label) ctx.addIssue({ code: "custom", path: ["label"], message: "a vlan interface needs a label" });
  });

export const interfacesInput = z
  .array(interfaceInput)
  .min(1, "must have 1 to 3 interfaces")
  .max(3, "must have at most 3 interfaces")
  .refine((l) => l.filter((i) => i.primary).length <= 1, "at most one interface can be primary")
  .refine((l) => l.filter((i) => i.purpose === "public").length <= 1, "at most one public interface");

export const instanceSpec: ResourceSpec<InstanceApi> = {
  type: "Instance",
  noun: "instance",
  uniqueLabel: true,
  holdsData: true,
  autoName: { field: "label", min: 3, max: 64, allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  description:
    "A compute instance (`/compute/instances`): deployed from an image, a deployment script or a backup, or created empty. Waits for the instance to be running (or offline) after create and after every change. A replacement makes the new instance before the old one (and its disks) is deleted.",
  idFormat: 'The API\'s integer instance id, as a string (for example `"123"`); it is the `computeId` of disks, configs and interfaces.',
  example: `import * as compute from "pulumi-compute";

const web = new compute.Instance("web", {
    region: "us-east",
    type: "c1-standard-2",
    image: "compute/debian12",
    rootPass: config.requireSecret("rootPass"),
    authorizedKeys: [key.sshKey],
    tags: ["web"],
});
export const ip = web.ipv4[0];`,
  fields: [
    {
      name: "region",
      kind: "input",
      required: true,
      forceNew: true,
      schema: z.string().min(1),
      description: "Region id (for example `us-east`). Changing it replaces the instance.",
    },
    {
      name: "type",
      kind: "input",
      required: true,
      schema: z.string().min(1),
      description: "Instance type id. Changed in place by a resize (see `migrationType`, `allowAutoDiskResize`); the provider waits for the resize to finish.",
    },
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: rule(instanceLabelError),
      description:
        "3..64 characters: letters, digits, `-`, `_`, `.`; unique among your instances. Auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    { name: "group", kind: "input", computed: true, clearTo: "", schema: z.string().max(50), description: "Deprecated group label. Changed in place." },
    {
      name: "tags",
      kind: "input",
      computed: true,
      clearTo: [],
      unordered: true,
      schema: z.array(z.string().min(3, "a tag must be 3 to 50 characters").max(50, "a tag must be 3 to 50 characters")),
      description: "Tags (3..50 characters each; unrestricted users only). Order does not matter. Changed in place.",
    },
    {
      name: "alerts",
      kind: "input",
      computed: true,
      partial: true,
      schema: z
        .object({
          cpu: z.number().int().min(0),
          io: z.number().int().min(0),
          networkIn: z.number().int().min(0),
          networkOut: z.number().int().min(0),
          transferQuota: z.number().int().min(0).max(100),
        })
        .partial()
        .strict(),
      description:
        "Alert thresholds (`cpu`, `io`, `networkIn`, `networkOut`, `transferQuota`); the ones left out keep the service's defaults. Changed in place.",
    },
    {
      name: "watchdogEnabled",
      kind: "input",
      computed: true,
      clearTo: true,
      schema: z.boolean(),
      description: "Reboot the instance when it powers off unexpectedly. Changed in place.",
    },
    {
      name: "backupSchedule",
      api: "backups.schedule",
      kind: "input",
      computed: true,
      partial: true,
      control: true,
      schema: z
        .object({
          day: z.enum(["Scheduling", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]),
          window: z.enum(["Scheduling", "W0", "W2", "W4", "W6", "W8", "W10", "W12", "W14", "W16", "W18", "W20", "W22"]),
        })
        .partial()
        .strict(),
      description: "When automatic backups run: `day` and two-hour `window` (`W0`..`W22`). Changed in place.",
    },
    {
      name: "backupsEnabled",
      kind: "input",
      computed: true,
      control: true,
      schema: z.boolean(),
      description: "The paid backup service. Changed in place (enable, or cancel: cancelling deletes every backup).",
    },
    {
      name: "booted",
      kind: "input",
      computed: true,
      schema: z.boolean(),
      description:
        "Whether the instance runs. When set, the provider keeps it so: changed in place by a boot or a shutdown, and `pulumi refresh` sees an instance shut down by hand. Left out, the power state is not managed (an image deploy boots).",
    },
    {
      name: "image",
      kind: "input",
      forceNew: true,
      schema: z.string().min(1),
      description:
        "Image to deploy (`compute/...` or `private/...`). Changing it replaces the instance, or rebuilds it in place with `rebuildOnImageChange` (the disks are erased either way).",
    },
    {
      name: "rootPass",
      kind: "input",
      secret: true,
      writeOnly: true,
      computed: true,
      schema: rule(rootPassError),
      description:
        "Root password for an image or script deploy: 7..128 characters with at least three of lowercase, uppercase, digits and symbols. Generated (and kept as a secret output) when left out. Changed in place by a password reset, which shuts the instance down and boots it again.",
    },
    {
      name: "authorizedKeys",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.array(publicKey),
      description: "Public SSH keys for root. Create-only: changing them replaces the instance.",
    },
    {
      name: "authorizedUsers",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.array(z.string().min(1)),
      description: "Users whose profile SSH keys are added for root. Create-only.",
    },
    {
      name: "scriptId",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.number().int(),
      description: "Deployment script to run (needs a compatible image). Create-only.",
    },
    {
      name: "scriptData",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      secret: true,
      raw: true,
      schema: z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= 65535, "must be at most 65535 characters as JSON"),
      description: "Inputs of the deployment script (JSON). Secret. Create-only.",
    },
    {
      name: "backupId",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.number().int(),
      description: "Create from this backup of another instance. Create-only.",
    },
    {
      name: "swapSize",
      kind: "input",
      computed: true,
      schema: z.number().int().min(0),
      description:
        "Swap disk size in MB for an image deploy (default 512), read back from the instance's swap disk. Changed in place by resizing the swap disk (the instance is shut down and booted again), within the type's disk allowance; adding or removing the swap disk (0) is refused.",
    },
    {
      name: "interfaces",
      kind: "input",
      writeOnly: true,
      computed: true,
      schema: interfacesInput,
      description:
        "1..3 network interfaces (`purpose` `public`, `vlan` or `vpc`; index 0 is eth0). After create, a change updates the boot profile's interfaces and reboots the instance (interface changes take effect on reboot). Left out: the interfaces are not managed here.",
    },
    {
      name: "metadata",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      secret: true,
      schema: z.object({ userData: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64-encoded") }).strict(),
      description: "`userData`: base64 cloud-config (needs a cloud-init image and a region with the Metadata capability). Secret. Create-only.",
    },
    { name: "firewallId", kind: "input", forceNew: true, writeOnly: true, schema: z.number().int(), description: "Firewall to attach at create. Create-only." },
    { name: "privateIp", kind: "input", forceNew: true, writeOnly: true, schema: z.boolean(), description: "Add a private IPv4 address. Create-only." },
    {
      name: "migrationType",
      kind: "input",
      control: true,
      schema: z.enum(["warm", "cold"]),
      description: "How a `type` change migrates: `cold` (default; shuts down first) or `warm`.",
    },
    {
      name: "allowAutoDiskResize",
      kind: "input",
      control: true,
      schema: z.boolean(),
      description: "On a resize to a larger type, grow the data disk too (default true).",
    },
    {
      name: "rebuildOnImageChange",
      kind: "input",
      control: true,
      schema: z.boolean(),
      description: "Rebuild in place (same id and addresses, disks erased) instead of replacing the instance when `image` changes.",
    },
    timeoutsField("Instance", "Pulumi's `customTimeouts` do not reach dynamic providers."),
    { name: "status", kind: "output", description: "`running`, `offline`, `provisioning`, `booting`, `migrating`, ..." },
    { name: "ipv4", kind: "output", outputType: "array", description: "IPv4 addresses: the public one first, then the private one if any." },
    { name: "ipv6", kind: "output", description: "SLAAC IPv6 address (/128), or null." },
    { name: "specs", kind: "output", outputType: "object", description: "`disk`, `memory` (MB), `vcpus`, `gpus`, `transfer`." },
    { name: "hypervisor", kind: "output", description: "`kvm`." },
    { name: "hostUuid", kind: "output", description: "The host machine." },
    { name: "hasUserData", kind: "output", outputType: "boolean", description: "Whether the instance was provisioned with user data." },
    { name: "backups", kind: "output", outputType: "object", description: "Backup service state: `enabled`, `available`, `lastSuccessful`, `schedule`." },
    { name: "vpcIpv4", kind: "output", description: "The address of the instance's first vpc interface in its subnet (set when `interfaces` has one)." },
    {
      name: "bootConfigId",
      kind: "output",
      outputType: "integer",
      description: "The configuration profile whose interfaces `interfaces` manages (set when `interfaces` is).",
    },
    { name: "created", kind: "output", description: "When the instance was created." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  collectionPath: () => "/compute/instances",
  itemPath: (id) => `/compute/instances/${encodeURIComponent(id)}`,
  // A lost create answer: the instance with our label (every create carries one: auto-named or pinned),
  // made no earlier than this create began (less a minute for clock skew).
  async findExisting(client, body, _inputs, since) {
    if (typeof body.label !== "string") throw new Error("the answer to the create was lost and it had no label to find the instance by");
    const all = await client.list<InstanceApi>("/compute/instances");
    return all.find((i) => i.label === body.label && Date.parse(`${String(i.created)}Z`) >= since - 60_000);
  },
};

/** Fields the API takes only in a PUT, not in the create body. */
const PUT_ONLY = ["alerts", "watchdogEnabled"];

const SETTLED = new Set(["running", "offline", "stopped"]);
const path = (id: string) => `/compute/instances/${encodeURIComponent(id)}`;

/** A strong random root password (kept as a secret output). */
export function generatedPassword(): string {
  const base = randomBytes(24).toString("base64").replace(/[+/=]/g, "");
  return `${base.slice(0, 24)}-Aa9`;
}

async function waitSettled(c: ApiClient, id: string, want: (i: InstanceApi) => boolean, what: string, timeoutMs: number): Promise<InstanceApi> {
  return (await waitFor<InstanceApi>({
    client: c,
    path: path(id),
    what: `instance ${id} ${what}`,
    done: (i) => SETTLED.has(i.status) && want(i),
    timeoutMs,
    describe: (i) => `status ${i.status}`,
  }))!;
}

const wantBooted = (props: Props) => props.booted !== false && (props.image !== undefined || props.backupId !== undefined || props.scriptId !== undefined);

/** Outputs: the table's, plus the fields the API nests elsewhere. */
function outputsOf(api: InstanceApi, inputs: Props, extra: Props = {}): Props {
  const outs = fromApi(instanceSpec, api, inputs);
  outs.backupsEnabled = api.backups.enabled;
  outs.backupSchedule = convertKeys(api.backups.schedule, camel);
  if (SETTLED.has(api.status)) outs.booted = api.status === "running";
  else if (inputs.booted !== undefined) outs.booted = inputs.booted;
  return { ...outs, ...extra };
}

/** The profile whose interfaces `interfaces` manages: the deploy's default profile (the first). */
async function bootConfig(c: ApiClient, id: string): Promise<{ id: number; interfaces: Array<Record<string, unknown>> } | undefined> {
  return (await c.list<{ id: number; interfaces: Array<Record<string, unknown>> }>(`${path(id)}/configs`))[0];
}
async function bootConfigId(c: ApiClient, id: string): Promise<number | undefined> {
  return (await bootConfig(c, id))?.id;
}
/** The first vpc interface's address. */
const vpcAddress = (list: Array<Record<string, unknown>>) => (list.find((i) => i.purpose === "vpc")?.ipv4 as { vpc?: string } | undefined)?.vpc;

/** Interfaces as the user declares them, from the API's records (for drift). */
export function interfacesFromApi(list: Array<Record<string, unknown>>): Props[] {
  return list.map((i) => {
    const out: Props = { purpose: i.purpose };
    if (i.purpose === "vlan") {
      out.label = i.label;
      if (i.ipam_address) out.ipamAddress = i.ipam_address;
    }
    if (i.primary) out.primary = true;
    if (i.purpose === "vpc") {
      out.subnetId = i.subnet_id;
      const v4 = i.ipv4 as { vpc?: string; nat_1_1?: string | null } | null;
      if (v4) out.ipv4 = { vpc: v4.vpc, ...(v4.nat_1_1 ? { nat11: v4.nat_1_1 } : {}) };
      if (Array.isArray(i.ip_ranges) && i.ip_ranges.length) out.ipRanges = i.ip_ranges;
    }
    return out;
  });
}

/** Compares declared interfaces with what the API reports, ignoring what the user left to the service. */
export function interfacesMatch(declared: Props[], actual: Props[]): boolean {
  if (declared.length !== actual.length) return false;
  return declared.every((d, i) =>
    Object.entries(d).every(([k, v]) => {
      if (k === "ipv4" && v && typeof v === "object") return Object.entries(v).every(([kk, vv]) => (actual[i].ipv4 as Props | undefined)?.[kk] === vv);
      if (k === "primary") return Boolean(v) === Boolean(actual[i].primary);
      return JSON.stringify(actual[i][k]) === JSON.stringify(v);
    }),
  );
}

/** Sends a change action (rebuild, resize), telling from the instance whether a lost answer took effect. */
async function instanceAction(c: ApiClient, id: string, action: string, body: Props, applied: (i: InstanceApi) => boolean): Promise<void> {
  await act(c, `${path(id)}/${action}`, body, async () => applied((await c.get<InstanceApi>(path(id)))!));
}

interface DiskApi {
  id: number;
  size: number;
  filesystem: string;
  status: string;
}

/** The swap disk an image deploy made (`swapSize`), if any. */
async function swapDisk(c: ApiClient, id: string): Promise<DiskApi | undefined> {
  return (await c.list<DiskApi>(`${path(id)}/disks`)).find((d) => d.filesystem === "swap");
}
/** `swapSize` as the instance has it, for an image deploy (0: no swap disk); other instances manage their disks as Disk resources. */
const swapSizeOf = async (c: ApiClient, id: string, props: Props) => (props.image === undefined ? undefined : ((await swapDisk(c, id))?.size ?? 0));

/**
 * Refuses, at preview, a `swapSize` change the API cannot make in place: adding or removing the swap disk,
 * or growing it past the type's disk allowance.
 */
async function checkSwapChange(c: ApiClient, id: string, olds: Props, to: number): Promise<void> {
  const disks = await c.list<DiskApi>(`${path(id)}/disks`);
  const swap = disks.find((d) => d.filesystem === "swap");
  const from = swap?.size ?? 0;
  if (from === to) return;
  if (!swap) throw new Error(`swapSize: instance ${id} has no swap disk to resize to ${to} MB; add one as a Disk resource (filesystem swap) instead`);
  if (to === 0)
    throw new Error(
      `swapSize: 0 would remove instance ${id}'s swap disk, which is not done in place; give a size of 1 MB or more, or delete the swap disk from its profile yourself`,
    );
  const type = await c.get<{ disk: number }>(`/compute/types/${encodeURIComponent(String(olds.type))}`, true);
  const used = disks.reduce((n, d) => n + d.size, 0);
  if (type && used - from + to > type.disk) {
    throw new Error(
      `swapSize: ${to} MB does not fit: the disks of instance ${id} would use ${used - from + to} MB, more than the ${type.disk} MB of type ${String(olds.type)} (${type.disk - used + from} MB are free for swap); shrink another disk or choose a larger type`,
    );
  }
}

/** Resizes the swap disk (the instance is shut down at this point) and waits until it is ready. */
async function resizeSwap(c: ApiClient, id: string, size: number, timeoutMs: number): Promise<void> {
  const swap = await swapDisk(c, id);
  if (!swap) throw new Error(`swapSize: instance ${id} has no swap disk`);
  if (swap.size === size) return;
  const disk = `${path(id)}/disks/${swap.id}`;
  await act(c, `${disk}/resize`, { size }, async () => {
    const d = (await c.get<DiskApi>(disk))!;
    return d.status === "not ready" || d.size === size;
  });
  await waitFor<DiskApi>({
    client: c,
    path: disk,
    what: `swap disk ${swap.id} of instance ${id} to be resized to ${size} MB`,
    done: (d) => d.status === "ready" && d.size === size,
    timeoutMs,
    describe: (d) => `status ${d.status}`,
  });
}

/**
 * An instance: its table, plus the password it is deployed with, the PUT of what the create body cannot
 * carry, the wait until it runs (or is offline), its interfaces and swap disk as outputs, and the in-place
 * changes (rebuild, resize, swap resize, password reset, interfaces, power). A replacement is made first
 * (resource.ts).
 */
export const instanceProvider: DynamicProviderImpl = restProvider(instanceSpec, {
  validate(news) {
    const failures: CheckFailure[] = [];
    const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
    if (news.scriptId !== undefined && news.image === undefined) fail("scriptId", "a deployment script needs an image");
    if (news.image !== undefined && news.backupId !== undefined) fail("backupId", "give either image or backupId, not both");
    if (news.metadata !== undefined && news.image === undefined) fail("metadata", "user data needs an image with cloud-init");
    if (news.swapSize !== undefined && news.image === undefined) {
      fail("swapSize", "only an image deploy makes a swap disk (manage the disks of other instances as Disk resources)");
    }
    return failures;
  },

  async diff(client, id, olds, news, d) {
    if (news.interfaces !== undefined && olds.bootConfigId !== undefined) claimAsList(id, olds.bootConfigId, `Instance ${id} (its interfaces)`);
    // An image change rebuilds in place when asked to; otherwise it replaces.
    if (news.rebuildOnImageChange === true) d.replaces = d.replaces.filter((f) => f !== "image");
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

  prepare: (ins) => ((ins.image !== undefined || ins.scriptId !== undefined) && ins.rootPass === undefined ? { ...ins, rootPass: generatedPassword() } : ins),

  createBody(ins) {
    // The create body has no alerts, watchdog or backup schedule: those follow in one PUT.
    const body = toApiBody(instanceSpec, ins);
    for (const k of PUT_ONLY) delete body[snake(k)];
    if (ins.backupsEnabled !== undefined) body.backups_enabled = ins.backupsEnabled;
    return body;
  },

  async afterCreate(ctx) {
    const { client: c, id, props: ins } = ctx;
    const put = toApiBody(instanceSpec, ins, PUT_ONLY);
    if (ins.backupSchedule !== undefined) put.backups = { schedule: convertKeys(ins.backupSchedule, snake) };
    if (Object.keys(put).length) ctx.latest = (await c.request<InstanceApi>("PUT", path(id), { body: put })).body;
    const booted = wantBooted(ins);
    return waitSettled(c, id, (i) => (booted ? i.status === "running" : i.status === "offline"), booted ? "to be running" : "to be offline", ctx.timeoutMs);
  },

  async update(ctx, olds, news, changed) {
    const { client: c, id, timeoutMs: timeout } = ctx;
    let last: InstanceApi | undefined;
    const ins: Props = { ...news };
    if (ins.rootPass === undefined && olds.rootPass !== undefined) ins.rootPass = olds.rootPass;
    const extra: Props = { bootConfigId: olds.bootConfigId, vpcIpv4: olds.vpcIpv4, swapSize: olds.swapSize };
    // What the state keeps if a step fails: the old password unless the reset went through.
    let passwordSet = false;
    try {
      const has = (f: string) => changed.includes(f);
      const settle = async (what: string, want: (i: InstanceApi) => boolean = () => true) => {
        last = await waitSettled(c, id, want, what, timeout);
        return last;
      };
      const current = async () => (last = (await c.get<InstanceApi>(path(id)))!);

      // 1. An image change with rebuildOnImageChange: rebuild (erases the disks), then the other changes.
      if (has("image")) {
        if (ins.rootPass === undefined) ins.rootPass = generatedPassword();
        const body = toApiBody(instanceSpec, ins, ["image", "rootPass", "authorizedKeys", "authorizedUsers", "scriptId", "scriptData", "metadata", "booted"]);
        await instanceAction(c, id, "rebuild", body, (i) => i.status === "rebuilding" || (i.image === news.image && SETTLED.has(i.status)));
        passwordSet = true;
        await settle("to finish rebuilding");
        extra.swapSize = await swapSizeOf(c, id, ins);
      }
      // 2. One PUT for the plain fields (a removed group or tags list is cleared).
      const putFields = ["label", "group", "tags", "alerts", "watchdogEnabled"].filter(has);
      if (putFields.length || has("backupSchedule")) {
        const body = updateBody(instanceSpec, news, putFields);
        if (has("backupSchedule")) body.backups = { schedule: convertKeys(news.backupSchedule, snake) };
        last = (await c.request<InstanceApi>("PUT", path(id), { body })).body;
      }
      // 3. The backup service.
      // Enabling or cancelling twice is harmless.
      if (has("backupsEnabled")) await act(c, `${path(id)}/backups/${news.backupsEnabled ? "enable" : "cancel"}`, {});
      // 4. What the API does only while the instance is shut down, in one shutdown/boot cycle: a swap disk
      // resize and the root password reset.
      const swapTo = has("swapSize") && typeof news.swapSize === "number" && news.swapSize !== extra.swapSize ? news.swapSize : undefined;
      const password = has("rootPass") && news.rootPass !== undefined;
      if (swapTo !== undefined || password) {
        const why = [swapTo !== undefined ? "the swap resize" : "", password ? "the password reset" : ""].filter(Boolean).join(" and ");
        const wasRunning = (await current()).status === "running";
        if (wasRunning) last = await power<InstanceApi>(c, id, "shutdown", { timeoutMs: timeout, why: `to shut down for ${why}` });
        try {
          if (swapTo !== undefined) {
            await resizeSwap(c, id, swapTo, timeout);
            extra.swapSize = swapTo;
          }
          if (password) {
            // Setting the same password twice is harmless.
            await act(c, `${path(id)}/password`, { root_pass: news.rootPass });
            passwordSet = true;
          }
        } finally {
          // Refused or not, an instance that was running is booted again.
          if (wasRunning) last = await power<InstanceApi>(c, id, "boot", { timeoutMs: timeout, why: `to boot after ${why}` });
        }
      }
      // 5. A resize: wait until the new type is in place.
      if (has("type")) {
        const body: Props = { type: news.type };
        if (news.migrationType !== undefined) body.migration_type = news.migrationType;
        if (news.allowAutoDiskResize !== undefined) body.allow_auto_disk_resize = news.allowAutoDiskResize;
        await instanceAction(c, id, "resize", body, (i) => i.status === "migrating" || i.type === news.type);
        await settle(`to be resized to ${String(news.type)}`, (i) => i.type === news.type);
      }
      // 6. Interfaces: redefine the boot profile's interfaces, then reboot so they take effect.
      if (has("interfaces")) {
        const cfgId = (olds.bootConfigId as number | undefined) ?? (await bootConfigId(c, id));
        if (cfgId === undefined) throw new Error("the instance has no configuration profile to put the interfaces on");
        extra.bootConfigId = cfgId;
        const put = { body: { interfaces: convertKeys(news.interfaces, snake) } };
        const cfg = (await c.request<{ interfaces: Array<Record<string, unknown>> }>("PUT", `${path(id)}/configs/${cfgId}`, put)).body;
        extra.vpcIpv4 = vpcAddress(cfg.interfaces);
        const now = await current();
        if (now.status === "running") {
          last = await power<InstanceApi>(c, id, "reboot", { configId: cfgId, timeoutMs: timeout, why: "to reboot with the new interfaces" });
        }
      }
      // 7. Power state last, so it is what the user asked for.
      if (has("booted") || has("image")) {
        const now = await settle("to settle");
        if (news.booted !== false && now.status === "offline") {
          last = await power<InstanceApi>(c, id, "boot", { timeoutMs: timeout });
        } else if (news.booted === false && now.status === "running") {
          last = await power<InstanceApi>(c, id, "shutdown", { timeoutMs: timeout });
        }
      }
      // The outputs: what the steps changed, and the password (one generated for a rebuild, too).
      Object.assign(ctx.outputs, extra);
      if (ins.rootPass !== undefined) ctx.outputs.rootPass = ins.rootPass;
      return last ?? (await current());
    } catch (err) {
      const e = describeFailure(instanceSpec, "update", id, err);
      if (last) {
        const outs = outputsOf(last, { ...ins, rootPass: passwordSet ? ins.rootPass : olds.rootPass }, extra);
        throw keepResourceError(`${e.message}. The state records the instance as it is now; run pulumi up again to finish.`, id, outs, news, e);
      }
      throw e;
    }
  },
  carry: ["rootPass"],

  mapOutputs: (api, props) => outputsOf(api, props),

  /** The boot profile's interfaces and the swap disk's size, read on create and refresh (an update reports its own). */
  async extraOutputs(c, api, props, { op }) {
    const extra: Props = {};
    if (op === "update") return extra;
    const id = String(api.id);
    if (op === "create" && props.interfaces !== undefined) {
      const cfg = await bootConfig(c, id);
      extra.bootConfigId = cfg?.id;
      extra.vpcIpv4 = cfg && vpcAddress(cfg.interfaces);
      claimAsList(id, extra.bootConfigId, `Instance ${id} (its interfaces)`);
    }
    if (op === "read" && props.interfaces !== undefined && props.bootConfigId !== undefined) {
      const list = await c.get<Array<Record<string, unknown>>>(`${path(id)}/configs/${String(props.bootConfigId)}/interfaces`, true);
      if (list) {
        extra.vpcIpv4 = vpcAddress(list);
        const actual = interfacesFromApi(list);
        extra.interfaces = interfacesMatch(props.interfaces as Props[], actual) ? props.interfaces : actual;
      }
    }
    const swap = await swapSizeOf(c, id, props);
    if (swap !== undefined) extra.swapSize = swap;
    return extra;
  },

  waitGone: true,
  keptNote: "run pulumi up again to continue, or pulumi destroy to remove it.",
});
