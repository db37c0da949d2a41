import type { ExampleProps } from "../../model/example";
import { z } from "zod";
import { labelBounds } from "../../../api/text";
import { pathOf } from "../../../api/contract/endpoint";
import { instanceActionsApi, resizeBody } from "../../../api/contract/instance-actions";
import {
  alertThreshold,
  authorizedKeys,
  backupDay,
  backupWindow,
  instanceGroup,
  instanceLabel,
  instancesApi,
  rootPass,
  scriptData,
  swapSize,
  tags,
  transferQuota,
  userData,
  type Instance,
  type InstanceStatus,
} from "../../../api/contract/instances";
import { generatedPassword } from "../../model/passwords";
import { tableFor } from "../../model/api-table";
import { type StatusWait } from "../../model/table";
import { madeSince } from "../../model/rules";
import { cloneFromInput } from "./clone";
import { INTERFACE_KEYS, interfacesInput } from "./interfaces";
import { restoreInput } from "./restore";
import { priceFields } from "../price-catalog";

/** The table of an instance: its fields, paths, label rule, waits and how a lost create is found. */

/** An instance as the API answers it (api/contract/instances.ts). */
export type InstanceApi = Instance;

/** The statuses an instance rests in (no action under way). */
export const SETTLED: ReadonlySet<InstanceStatus> = new Set(["running", "offline", "stopped"]);

/** A wait until the instance rests in a status `want` accepts. */
export const settled = (what: string, want: (i: Instance) => boolean = () => true): StatusWait<Instance> => ({
  what,
  done: (i) => SETTLED.has(i.status) && want(i),
});

export const instanceSpec = tableFor({
  create: instancesApi.create,
  get: instancesApi.get,
  update: instancesApi.update,
  list: instancesApi.list,
  // A clone is made by its source's clone action, with its own body (clone.ts).
  alsoCreate: [instanceActionsApi.clone],
})({
  type: "Instance",
  noun: "instance",
  uniqueLabel: true,
  holdsData: true,
  autoName: { field: "label", ...labelBounds("instanceLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  generated: { field: "rootPass", value: generatedPassword, when: (inputs) => inputs.image !== undefined || inputs.scriptId !== undefined },
  description:
    "A compute instance (`/compute/instances`): deployed from an image, a deployment script or a backup, or created empty. Waits for the instance to be running (or offline) after create and after every change. A replacement makes the new instance before the old one (and its disks) is deleted.",
  idFormat: 'The API\'s integer instance id, as a string (for example `"123"`); it is the `computeId` of disks, configs and interfaces.',
  deleteNote: "the API refuses while the instance is cloned or restores a backup: the delete waits for that to end (within the delete timeout), then goes on.",
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
      schema: instanceLabel,
      description:
        "3..64 characters: letters, digits, `-`, `_`, `.`; unique among your instances. Auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    { name: "group", kind: "input", computed: true, clearTo: "", schema: instanceGroup, description: "Deprecated group label. Changed in place." },
    {
      name: "tags",
      kind: "input",
      computed: true,
      clearTo: [],
      unordered: true,
      schema: tags,
      description: "Tags (3..50 characters each; unrestricted users only). Order does not matter. Changed in place.",
    },
    {
      name: "alerts",
      kind: "input",
      computed: true,
      partial: true,
      schema: z.object({ cpu: alertThreshold, io: alertThreshold, networkIn: alertThreshold, networkOut: alertThreshold, transferQuota }).partial().strict(),
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
      kind: "input",
      computed: true,
      partial: true,
      control: true,
      schema: z.object({ day: backupDay, window: backupWindow }).partial().strict(),
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
      drifts: true,
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
      // A deploy given none gets a strong one (kept as a secret output).
      schema: rootPass,
      description:
        "Root password for an image or script deploy: 7..128 characters, strong enough by the API's strength score (not a common password, word, name, repeat, sequence or keyboard pattern; 64 random lowercase letters and digits are). Generated (and kept as a secret output) when left out. Changed in place by a password reset, which shuts the instance down and boots it again.",
    },
    {
      name: "authorizedKeys",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: authorizedKeys,
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
      schema: scriptData,
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
      schema: swapSize,
      description:
        "Swap disk size in MB for an image deploy (default 512): the size asked for at create, kept by refresh (a state that lacks it reads the swap disk once; a resize made outside Pulumi is not seen). Changed in place by resizing the swap disk (the instance is shut down and booted again), within the type's disk allowance; adding or removing the swap disk (0) is refused.",
    },
    {
      name: "interfaces",
      apiKeys: INTERFACE_KEYS,
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
      schema: z.object({ userData }).strict(),
      description: "`userData`: base64 cloud-config (needs a cloud-init image and a region with the Metadata capability). Secret. Create-only.",
    },
    { name: "firewallId", kind: "input", forceNew: true, writeOnly: true, schema: z.number().int(), description: "Firewall to attach at create. Create-only." },
    { name: "privateIp", kind: "input", forceNew: true, writeOnly: true, schema: z.boolean(), description: "Add a private IPv4 address. Create-only." },
    {
      name: "cloneFrom",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      control: true,
      schema: cloneFromInput,
      description:
        "Make the instance as a clone of another (`computeId`; `disks` and `configs` pick what to copy, else everything): its disks, profiles and tags, in this instance's `region` and `type`. Not with an image, a backup, a script, keys, a root password, `swapSize`, `interfaces` or `firewallId` (the clone copies the source's). A source made with user data needs `metadata`. The clone is offline until it boots (`booted: true`). Changing it makes a new clone.",
    },
    {
      name: "restore",
      kind: "input",
      control: true,
      schema: restoreInput,
      description:
        "Restore a backup into this existing instance in place: `backupId` (a backup of this instance, from `getInstanceBackups` or an `InstanceSnapshot`'s id, or of the instance `sourceComputeId` names), `overwrite` (default false). **With `overwrite: true` every disk and configuration profile of the instance is deleted first** (Disk and Config resources of them are gone, and the root password becomes the backup's: a `rootPass` the program gives is set again); without it the backup's disks are added beside the instance's, which must have the room. Setting or changing it restores (same id and addresses); removing it restores nothing; the instance is then booted again as `booted` says. Refused at preview where the API refuses: another region, a backup not successful or under maintenance, an instance taking a backup, not enough free disk without `overwrite`. On a new instance nothing is restored (create from a backup with `backupId`).",
    },
    {
      name: "snapshotBeforeChange",
      kind: "input",
      control: true,
      schema: z.boolean(),
      description:
        "Take a snapshot of the instance in the same `up`, right before any change that can lose data: a rebuild (`image`), a resize (`type`), a root password reset, a swap disk resize, a `restore`, and a resize or delete of one of its Disk resources; the change waits until the snapshot is successful (a failed snapshot stops it). Each snapshot (labelled `pulumi-before-<change>-<time>`) takes the instance's one snapshot slot, replacing the one before: restore it with `restore` or a new instance's `backupId`. Needs `backupsEnabled: true`; an InstanceSnapshot of the same instance in the program is refused (one slot).",
    },
    {
      name: "migrationType",
      kind: "input",
      control: true,
      schema: resizeBody.shape.migration_type.unwrap(),
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
    {
      name: "status",
      kind: "output",
      changedBy: "a Config with `booted` (which boots the instance, or shuts it down), or a booted Config deleted",
      description: "`running`, `offline`, `provisioning`, `booting`, `migrating`, ...",
    },
    { name: "ipv4", kind: "output", outputType: "array", description: "IPv4 addresses: the public one first, then the private one if any." },
    { name: "ipv6", kind: "output", schema: z.string().nullable(), description: "SLAAC IPv6 address (/128), or null." },
    {
      name: "specs",
      kind: "output",
      changesWith: ["type"],
      outputType: "object",
      schema: z.object({
        disk: z.number(),
        memory: z.number(),
        vcpus: z.number(),
        gpus: z.number(),
        transfer: z.number(),
        acceleratedDevices: z.number().optional(),
      }),
      description:
        "`disk`, `memory` (MB), `vcpus`, `gpus`, `transfer`, and `acceleratedDevices` where the API reports it (the real API does; the spec's table does not list it).",
    },
    { name: "hypervisor", kind: "output", description: "`kvm`." },
    { name: "hostUuid", kind: "output", changesWith: ["type"], description: "The host machine (a resize migrates the instance to another)." },
    { name: "hasUserData", kind: "output", outputType: "boolean", changesWith: ["image"], description: "Whether the instance was provisioned with user data." },
    {
      name: "backups",
      kind: "output",
      changesWith: ["backupsEnabled", "backupSchedule"],
      outputType: "object",
      schema: z.object({
        enabled: z.boolean(),
        available: z.boolean(),
        lastSuccessful: z.string().nullable(),
        schedule: z.object({ day: z.string().nullable(), window: z.string().nullable() }),
      }),
      description: "Backup service state: `enabled`, `available`, `lastSuccessful`, `schedule`.",
    },
    {
      name: "vpcIpv4",
      kind: "output",
      changesWith: ["interfaces", "image", "restore"],
      presentWhen: "`interfaces` has a vpc interface",
      description: "The address of the instance's first vpc interface in its subnet (set when `interfaces` has one).",
    },
    {
      name: "bootConfigId",
      kind: "output",
      outputType: "integer",
      presentWhen: "`interfaces` is set",
      description: "The configuration profile whose interfaces `interfaces` manages (set when `interfaces` is).",
    },
    { name: "created", kind: "output", description: "When the instance was created." },
    {
      name: "updated",
      kind: "output",
      changesWith: ["label", "group", "tags", "alerts", "watchdogEnabled", "backupSchedule", "type", "image", "restore"],
      description: "When it last changed.",
    },
    ...priceFields("its type's price in its region (the region's own where the catalogue gives one), with the backups add-on's when `backupsEnabled`", [
      "type",
      "region",
      "backupsEnabled",
    ]),
  ],
  timeouts: {
    defaults: { create: "15m", update: "60m", delete: "10m" },
    note: "Pulumi's `customTimeouts` reach the plugin's resources only (where they win over this input), never the dynamic classes.",
  },
  waitGone: true,
  // A create cut short before it settled: the next update waits for it first; its status and power state
  // are unknown until then.
  unfinished: { statuses: [...SETTLED], wait: settled("to finish what the last run began"), outputs: ["status", "booted"] },
  kept: {
    note: "run pulumi up again to continue, or pulumi destroy to remove it.",
    updateNote: "The state records the instance as it is now; run pulumi up again to finish.",
  },
  collectionPath: () => pathOf(instancesApi.list, {}),
  readsFromList: true,
  itemPath: (id) => pathOf(instancesApi.get, { computeId: id }),
  // A lost create answer: the instance with our label (every create carries one: auto-named or pinned),
  // made since this create began.
  async findExisting(client, body, _inputs, since) {
    if (typeof body.label !== "string") throw new Error("the answer to the create was lost and it had no label to find the instance by");
    const all = await client.all(instancesApi.list, {});
    return all.find((i) => i.label === body.label && madeSince(i.created, since));
  },
});

/** The instance's table rows, for the types of its hooks (`InputsOf`, `StateOf`, `InputName`). */
export type InstanceFields = typeof instanceSpec.fields;

// The inputs its examples may give (Instance): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../../model/example" {
  interface ExampleInputs {
    Instance: ExampleProps<InstanceFields>;
  }
}
