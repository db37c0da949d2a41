import { z } from "zod";
import { configsApi, deviceRequest, DEFAULT_HELPERS, type Devices, type Profile } from "../../../api/contract/configs";
import { DEVICE_SLOTS, type DeviceSlot } from "../../../api/interfaces";
import { catalog } from "../../catalog";
import { badRequest, FieldErrors, paginate } from "../../http";
import type { Req } from "../../router";
import type { TakenAddresses } from "./base";
import { row, type ComputeContext } from "./context";
import { noDevices } from "./provisioning";
import type { ConfigRecord, InstanceRecord } from "./records";

/** Configuration profiles (`I/configs...`); their interfaces are interfaces.ts. */

/** A device map as a request gives it (a profile's `sda` to `sdh`, a rescue's `sda` to `sdg`). */
export type DevicesGiven = { [K in DeviceSlot]?: z.output<typeof deviceRequest> };

/** A device map from a request: each device a disk of the instance or none (no volumes here); what is wrong added to `errors`. */
export function readDevices(c: ComputeContext, inst: InstanceRecord, given: DevicesGiven, errors: FieldErrors): Devices {
  const devices = noDevices();
  const disks = c.disksOf(inst.id);
  for (const slot of DEVICE_SLOTS) {
    const dev = given[slot];
    if (!dev) continue;
    const diskId = dev.disk_id ?? null;
    if (diskId !== null && !disks.some((x) => x.id === diskId)) errors.add(`devices.${slot}.disk_id`, `Disk ${diskId} is not a disk of this instance`);
    if (dev.volume_id != null) errors.add(`devices.${slot}.volume_id`, `Volume ${dev.volume_id} not found`);
    devices[slot] = { disk_id: diskId, volume_id: null };
  }
  return devices;
}

type ProfileBody = Req<typeof configsApi.update>["body"];

/** A profile's fields from a request, checked against the account's state (all optional here; create's schema asks for label and devices). */
function profileFields(c: ComputeContext, inst: InstanceRecord, body: ProfileBody, errors: FieldErrors, existing?: ConfigRecord): Partial<ConfigRecord> {
  const { devices, helpers, kernel, memory_limit: memory, interfaces, ...plain } = body;
  const out: Partial<ConfigRecord> = { ...plain };
  if (devices) out.devices = readDevices(c, inst, devices, errors);
  if (helpers) out.helpers = { ...(existing?.helpers ?? DEFAULT_HELPERS), ...helpers };
  if (kernel !== undefined) {
    if (!catalog.kernels.some((k) => k.id === kernel)) errors.add("kernel", `Kernel ${kernel} not found`);
    else out.kernel = kernel;
  }
  if (memory !== undefined) {
    const max = c.typeOfInstance(inst).memory;
    if (memory > max) errors.add("memory_limit", `Must be a whole number of MB from 0 to ${max}`);
    else out.memory_limit = memory === 0 ? max : memory;
  }
  // Rule 5: interfaces given redefine them all; an item repeating an existing id keeps it. null: not given.
  if (interfaces) {
    const taken: TakenAddresses = [];
    const keep = (id: number | undefined) => existing?.interfaces.find((x) => x.id === id)?.id;
    // The profile's interfaces are replaced: the addresses they hold are free for the new ones.
    const replaced = new Set(existing?.interfaces.map((x) => x.id));
    out.interfaces = interfaces.map((i, index) => c.ifaceRecord(i, errors, `interfaces[${index}]`, inst.region, taken, keep(i.id), replaced));
  }
  return out;
}

function createConfig(c: ComputeContext, req: Req<typeof configsApi.create>): Profile {
  const inst = c.instance(req, "read_write");
  const errors = new FieldErrors();
  const fields = profileFields(c, inst, req.body, errors);
  errors.throwIfAny();
  const cfg = c.newConfig(inst, { ...fields, label: req.body.label });
  // A notification of the instance, the profile its secondary entity (recorded: linode_config_create).
  c.instanceNote("compute_config_create", req.user.username, inst, { notification: true, secondary: c.configEntity(cfg) });
  return c.configView(inst, cfg);
}

function updateConfig(c: ComputeContext, req: Req<typeof configsApi.update>): Profile {
  const inst = c.instance(req, "read_write");
  const cfg = c.configOf(inst, req.params.configId);
  const errors = new FieldErrors();
  const fields = profileFields(c, inst, req.body, errors, cfg);
  errors.throwIfAny();
  Object.assign(cfg, fields, { updated: c.stamp() });
  c.instanceNote("compute_config_update", req.user.username, inst, { notification: true, secondary: c.configEntity(cfg) });
  return c.configView(inst, cfg);
}

function deleteConfig(c: ComputeContext, req: Req<typeof configsApi.delete>) {
  const inst = c.instance(req, "read_write");
  const cfg = c.configOf(inst, req.params.configId);
  if (c.running(inst) && inst._lastBootedConfig === cfg.id) {
    throw badRequest("This profile is the one the running instance booted with: shut the instance down (or reboot it with another profile) first");
  }
  c.d.configs = c.d.configs.filter((x) => x !== cfg);
  if (inst._lastBootedConfig === cfg.id) inst._lastBootedConfig = null;
  c.instanceNote("compute_config_delete", req.user.username, inst, { notification: true, secondary: c.configEntity(cfg) });
  return {};
}

export const CONFIG_ROWS = [
  row(configsApi.list, (c, req) => {
    const inst = c.instance(req);
    return paginate(
      c.configsOf(inst.id).map((x) => c.configView(inst, x)),
      req,
    );
  }),
  row(configsApi.create, createConfig),
  row(configsApi.get, (c, req) => {
    const inst = c.instance(req);
    return c.configView(inst, c.configOf(inst, req.params.configId));
  }),
  row(configsApi.update, updateConfig),
  row(configsApi.delete, deleteConfig),
];
