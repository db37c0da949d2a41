import type { ExampleProps } from "../model/example";
import { z } from "zod";
import type { ApiClient } from "../transport/client";
import { defineResource } from "../definition";
import { toApiBody, updateBody } from "../model/mapping";
import { DEVICE_SLOTS, INTERFACE_PURPOSES, isDeviceSlot } from "../../api/interfaces";
import { labelBounds } from "../../api/text";
import { pathOf } from "../../api/contract/endpoint";
import {
  configsApi,
  DEFAULT_KERNEL,
  helpersRequest,
  memoryLimit,
  PROFILE_DEFAULTS,
  profileLabel,
  profileUpdate,
  rootDevice,
  profileComments,
  type Profile,
} from "../../api/contract/configs";
import { iface, type Interface } from "../../api/contract/interfaces";
import { putChanged, say } from "../lifecycle/steps";
import { findInstance, power, readInstance, refusedWhileRunning } from "./instance-power";
import { tableFor } from "../model/api-table";
import { camel, convertKeys, type Props, isObject, UNKNOWN, fieldOf } from "../model/table";
import { idInput, madeSince } from "../model/rules";
import { claimAsList, INTERFACE_KEYS, interfacesFromApi, interfacesInput, interfacesMatch, interfacesToApi } from "./instance/interfaces";
import type { PlanContext } from "../model/plan";
import { resource, ref, mapOf, emptyHost, bootDisk, configDevice } from "./example-parents";

/** A configuration profile as the API answers it (api/contract/configs.ts). */
export type ConfigApi = Profile;

/** An interface of the profile as the API records it (what `interfaceRecords` lists; the API's nulls left out). */
const interfaceRecord = z.object({
  id: z.number().int(),
  purpose: z.enum(INTERFACE_PURPOSES),
  label: z.string().optional(),
  ipamAddress: z.string().optional(),
  primary: z.boolean(),
  active: z.boolean(),
  vpcId: z.number().int().optional(),
  subnetId: z.number().int().optional(),
  ipv4: z.object({ vpc: z.string().optional(), nat11: z.string().optional() }).optional(),
  ipRanges: z.array(z.string()).optional(),
});

/** Leaves out the keys whose value is null or missing. */
const given = (o: Props): Props => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** The profile's interfaces as the API records them, in its order (ids, `active`, the VPC the subnet is in). */
export function interfaceRecords(list: readonly Interface[]): Props[] {
  return list.map((i) =>
    given({
      id: i.id,
      purpose: i.purpose,
      label: i.label,
      ipamAddress: i.ipam_address,
      primary: i.primary,
      active: i.active,
      vpcId: i.vpc_id,
      subnetId: i.subnet_id,
      ipv4: i.ipv4 ? given({ vpc: i.ipv4.vpc, nat11: i.ipv4.nat_1_1 }) : undefined,
      ipRanges: i.ip_ranges,
    }),
  );
}

const device = z
  .object({ diskId: idInput.nullable().optional(), volumeId: idInput.nullable().optional() })
  .strict()
  // The name of its type in the generated sdk classes.
  .meta({ typeName: "DeviceArgs" })
  .nullable();
/**
 * Devices with every slot present (`null` when empty), as the API reports them, so a diff compares like with like.
 * The slots are the contract's (api/interfaces.ts `DEVICE_SLOTS`, which api/contract/configs.ts's device map reads).
 */
const devices = z
  .record(z.string(), device)
  .superRefine((v, ctx) => {
    for (const k of Object.keys(v))
      if (!isDeviceSlot(k)) ctx.addIssue({ code: "custom", path: [k], message: `unknown device slot; use ${DEVICE_SLOTS.join(", ")}` });
  })
  .transform((v) => Object.fromEntries(DEVICE_SLOTS.map((s) => [s, v[s] ? { diskId: v[s].diskId ?? null, volumeId: v[s].volumeId ?? null } : null])));

export const configSpec = tableFor({ create: configsApi.create, get: configsApi.get, update: configsApi.update, list: configsApi.list })({
  type: "Config",
  noun: "configuration profile",
  description:
    "A configuration profile of an instance (`/compute/instances/{computeId}/configs`): kernel, device map, helpers and network interfaces. Everything but the instance changes in place (one PUT); changes take effect at the instance's next boot, or at once with `rebootOnChange`.",
  idFormat: "The API's integer profile id, as a string; the `configId` of Interface resources.",
  deleteNote:
    "the API keeps the profile a running instance booted with: its instance is shut down first (with `booted: true`, or when the API refuses because the instance was booted with it by hand), and stays shut down, since the profile is gone.",
  autoName: { field: "label", ...labelBounds("configLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  fields: [
    {
      name: "computeId",
      kind: "input",
      required: true,
      forceNew: true,
      inPath: true,
      schema: idInput,
      description: "The instance's id. Changing it replaces the profile.",
    },
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: profileLabel,
      description: "1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    {
      name: "devices",
      kind: "input",
      required: true,
      schema: devices,
      description: "Device map: keys `sda`..`sdh`, each `{ diskId }` (a disk's id, string or number) or `{ volumeId }`. Changed in place.",
    },
    {
      name: "helpers",
      kind: "input",
      computed: true,
      partial: true,
      schema: z
        .object({
          updatedbDisabled: helpersRequest.shape.updatedb_disabled,
          distro: helpersRequest.shape.distro,
          modulesDep: helpersRequest.shape.modules_dep,
          network: helpersRequest.shape.network,
          devtmpfsAutomount: helpersRequest.shape.devtmpfs_automount,
        })
        .partial()
        .strict(),
      description: "Boot helpers; the ones left out keep the service's defaults. Changed in place.",
    },
    {
      name: "kernel",
      kind: "input",
      computed: true,
      clearTo: DEFAULT_KERNEL,
      schema: z.string().min(1),
      description: `Kernel id (default \`${DEFAULT_KERNEL}\`). Changed in place.`,
    },
    {
      name: "memoryLimit",
      kind: "input",
      computed: true,
      clearTo: 0,
      schema: memoryLimit,
      description: "RAM limit in MB (default, or 0: all of the instance's). Changed in place.",
    },
    {
      name: "rootDevice",
      kind: "input",
      computed: true,
      clearTo: PROFILE_DEFAULTS.root_device,
      schema: rootDevice,
      description: `Root device (default \`${PROFILE_DEFAULTS.root_device}\`). Changed in place.`,
    },
    {
      name: "runLevel",
      kind: "input",
      computed: true,
      clearTo: PROFILE_DEFAULTS.run_level,
      schema: profileUpdate.shape.run_level.unwrap(),
      description: "`default`, `single` or `binbash`. Changed in place.",
    },
    {
      name: "virtMode",
      kind: "input",
      computed: true,
      clearTo: PROFILE_DEFAULTS.virt_mode,
      schema: profileUpdate.shape.virt_mode.unwrap(),
      description: "`paravirt` or `fullvirt`. Changed in place.",
    },
    { name: "comments", kind: "input", computed: true, clearTo: null, schema: profileComments, description: "Free text. Changed in place." },
    {
      name: "interfaces",
      apiKeys: INTERFACE_KEYS,
      kind: "input",
      computed: true,
      notImported: true,
      // 1 to 3, or none (the default public interface only).
      schema: interfacesInput.or(z.array(z.never()).length(0)),
      description:
        "The profile's interfaces as a list (0..3; an empty list means the default public interface only). When set, this profile's interfaces are managed here and Interface resources on it are refused; left out, they are not managed here. Changed in place.",
    },
    {
      name: "interfaceRecords",
      kind: "output",
      api: "interfaces",
      outputType: "array",
      changesWith: ["interfaces"],
      changedBy: "an Interface resource added to the profile, or removed (and the instance booting or shutting down: each record's `active`)",
      schema: z.array(interfaceRecord),
      description:
        "The profile's interfaces as the API records them, in order, whether `interfaces` manages them or Interface resources do: `[{ id, purpose, label, ipamAddress, primary, active, vpcId, subnetId, ipv4: { vpc, nat11 }, ipRanges }]` (`id` is the interface's id; `active` says whether it is in use now; `vpcId`, `subnetId`, `ipv4` and `ipRanges` are set for `vpc`, where `ipv4.vpc` is the address assigned in the subnet; what the API reports as null is left out). A change of `interfaces` makes new records (new ids): a preview plans them unknown then, and plans each one's `active` unknown when the change boots, reboots or shuts the instance down.",
    },
    {
      name: "booted",
      kind: "input",
      drifts: true,
      control: true,
      computed: true,
      schema: z.boolean(),
      description:
        "Boot the instance with this profile: `true` boots it (or reboots a running instance into this profile when the profile is new or `booted` turns true); `false` shuts a running instance down. Deleting a booted profile shuts the instance down first. Read back from the instance's status. At most one profile per instance should set it.",
    },
    {
      name: "rebootOnChange",
      kind: "input",
      control: true,
      schema: z.boolean(),
      description: "After a change, reboot a running instance with this profile so the change takes effect now (default false: at the next boot).",
    },
  ],
  timeouts: {
    defaults: { create: "15m", update: "15m", delete: "15m" },
    covers: { create: "a boot or reboot at create", update: "a boot, reboot or shutdown at update", delete: "the shutdown before a booted profile is deleted" },
  },
  collectionPath: (inputs) => pathOf(configsApi.list, { computeId: String(inputs.computeId) }),
  itemPath: (id, props) => pathOf(configsApi.get, { computeId: String(props.computeId), configId: id }),
  async findExisting(client, body, inputs, since) {
    const all = await client.all(configsApi.list, { params: { computeId: String(inputs.computeId) } });
    return all.find((c) => c.label === body.label && madeSince(c.created, since));
  },
});

const body = (inputs: Props, only?: string[]) => {
  const b = only
    ? updateBody(
        configSpec,
        inputs,
        only.filter((f) => f !== "interfaces"),
      )
    : toApiBody(configSpec, inputs);
  if (inputs.interfaces !== undefined && (!only || only.includes("interfaces"))) b.interfaces = interfacesToApi(inputs.interfaces);
  return b;
};

const instanceStatus = async (c: ApiClient, props: Props) => (await readInstance(c, String(props.computeId))).status;

/**
 * The outputs beyond the table's: devices as given, `booted` from the instance, and the interfaces as a
 * list in the form the input takes (the program's own list when it matches), whether or not the program
 * manages them: an import, a create and a refresh all give the same form.
 */
async function extraOutputs(c: ApiClient, api: Profile, props: Props): Promise<Props> {
  const outs: Props = { devices: convertKeys(api.devices, camel) };
  if (props.booted !== undefined) {
    const status = await instanceStatus(c, props);
    if (status === "running" || status === "offline") outs.booted = status === "running";
  }
  const actual = interfacesFromApi(api.interfaces);
  outs.interfaces = Array.isArray(props.interfaces) && interfacesMatch(props.interfaces.filter(isObject), actual) ? props.interfaces : actual;
  outs.interfaceRecords = interfaceRecords(api.interfaces);
  return outs;
}

/** After a boot, reboot or shutdown: the profile read again, since its interfaces' `active` changed with it. */
const afterPower = async (c: ApiClient, id: string, props: Props, api: Profile): Promise<Profile> =>
  api.interfaces.length ? c.call(configsApi.get, { params: { computeId: String(props.computeId), configId: id } }) : api;

/**
 * preview: a boot, reboot or shutdown (`booted` changed, or `rebootOnChange` with a change sent) may change
 * whether each interface is active; the ids stay. A state written before `interfaceRecords` existed plans
 * them unknown (the update reads them).
 */
function plan({ op, olds, news, changed }: PlanContext<typeof configSpec.fields>, outs: Props): void {
  if (op === "create" || changed.includes("interfaces")) return;
  const records = olds.interfaceRecords;
  if (!Array.isArray(records)) {
    outs.interfaceRecords = UNKNOWN;
    return;
  }
  const sent = changed.some((f) => !fieldOf(configSpec, f)?.control);
  const powered = changed.includes("booted") ? news.booted !== undefined : sent && news.rebootOnChange === true;
  if (powered) outs.interfaceRecords = records.map((r) => (isObject(r) ? { ...r, active: UNKNOWN } : r));
}

/**
 * A profile: its table, plus the power changes `booted` and `rebootOnChange` ask for (a boot, reboot or
 * shutdown of its instance), and the claim of an instance's interfaces when given as a list.
 */
export const config = defineResource({
  spec: configSpec,
  example: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const data = resource("Disk", "data", { computeId: ref(host), size: 10240, filesystem: "ext4" });
    const profile = resource("Config", "profile", {
      computeId: ref(host),
      label: "debian12",
      devices: mapOf("ConfigDevice", { sda: configDevice(boot), sdb: configDevice(data) }),
      kernel: "compute/latest-64bit",
      rootDevice: "/dev/sda",
      booted: true,
    });
    return {
      title: "A profile that boots an instance from its own disks",
      resources: [host, boot, data, profile],
      // The profile's own reading of the power state: the instance's status, read before the profile booted it, would say `offline`.
      outputs: { profileId: ref(profile), booted: ref(profile, "booted") },
    };
  },
  lookup: {
    name: "getConfigs",
    scope: "`computes:read_only`",
    listKey: "configs",
    description: "The configuration profiles of an instance.",
    parents: { computeId: "instance" },
    // (An item read as the contract's interfaces; `extra({})` asks for its keys only.)
    extra: (api) => {
      const list = z.array(iface).safeParse(api.interfaces);
      return { interfaceRecords: interfaceRecords(list.success ? list.data : []) };
    },
  },
  sdk: { file: "config" },
  hooks: {
    diff(_client, id, olds, news, _d, program) {
      if (news.interfaces !== undefined) claimAsList(program, olds.computeId, id, `Config ${id}`);
    },
    createBody: (_table, inputs) => body(inputs),
    async afterCreate({ client: c, id, props: inputs, timeoutMs, program }, api) {
      if (inputs.interfaces !== undefined) claimAsList(program, inputs.computeId, api.id, `Config ${id}`);
      if (inputs.booted !== undefined) {
        const status = await instanceStatus(c, inputs);
        if (inputs.booted === true) await power(c, String(inputs.computeId), status === "running" ? "reboot" : "boot", { configId: id, timeoutMs });
        else if (status === "running") await power(c, String(inputs.computeId), "shutdown", { configId: id, timeoutMs });
        else return api;
        return afterPower(c, id, inputs, api);
      }
      return api;
    },
    async update({ client: c, id, timeoutMs }, olds, news, changed) {
      // Fields that steer the provider (booted, rebootOnChange, timeouts) are not sent.
      const { api, sent } = await putChanged(c, configSpec, id, olds, news, changed, { body });
      const status = news.booted !== undefined || news.rebootOnChange === true ? await instanceStatus(c, olds) : undefined;
      const computeId = String(olds.computeId);
      if (changed.includes("booted") && news.booted === true) await power(c, computeId, status === "running" ? "reboot" : "boot", { configId: id, timeoutMs });
      else if (changed.includes("booted") && news.booted === false && status === "running") await power(c, computeId, "shutdown", { configId: id, timeoutMs });
      else if (sent.length && news.rebootOnChange === true && status === "running") await power(c, computeId, "reboot", { configId: id, timeoutMs });
      else return api;
      return afterPower(c, id, olds, api);
    },
    extraOutputs,
    plan,
    // The API keeps the profile a running instance booted with: a booted profile shuts it down first. One
    // booted by hand, or by another resource: the instance is shut down for the delete, and stays so (it
    // cannot boot a profile that is gone).
    async deleteSteps({ client: c, id, props, timeoutMs }, remove) {
      if (props.booted === true && (await findInstance(c, String(props.computeId)))?.status === "running") {
        await power(c, String(props.computeId), "shutdown", { configId: id, timeoutMs });
      }
      try {
        return await remove();
      } catch (err) {
        const computeId = String(props.computeId);
        if (!(await refusedWhileRunning(c, computeId, err))) throw err;
        say(`profile ${id} is the one instance ${computeId} runs with: the instance is shut down to delete it, and stays shut down`);
        await power(c, computeId, "shutdown", { configId: id, timeoutMs, why: `to shut down for the delete of profile ${id}` });
        return remove();
      }
    },
  },
});
export const configProvider = config.provider;

// The inputs its examples may give (Config): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Config: ExampleProps<typeof configSpec.fields>;
  }
}
