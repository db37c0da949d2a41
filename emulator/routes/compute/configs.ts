import { isInt, ro, rw, type Body, type TakenAddresses } from "./base";
import type { ComputeContext } from "./context";
import { catalog } from "../../catalog";
import { FieldErrors, jsonObject, badRequest, notFound, paginate } from "../../http";
import { type RequestContext, type Router } from "../../router";
import { checkInterfaces, refusedAt } from "../../rules";
import { DEVICE_SLOTS, isDeviceSlot } from "../../../api/interfaces";
import { checkText } from "../../../api/text";
import { asObject, oneOf, optionalBoolean, readFields, readText } from "../../body";
import { z } from "zod";
import type { ConfigRecord, InstanceRecord } from "./records";

const ROOT_DEVICE_TEXT = "Must be a device path, for example /dev/sda";
/** A profile's comments: text, or null. */
const COMMENTS = z.string({ error: "Must be a string or null" }).nullable().optional();
/** How a profile boots: its root device, run level and virtualization mode. */
const BOOT_FIELDS = {
  root_device: z
    .string({ error: ROOT_DEVICE_TEXT })
    .regex(/^\/dev\/[a-z0-9/]+$/, ROOT_DEVICE_TEXT)
    .optional(),
  run_level: oneOf(["default", "single", "binbash"]).optional(),
  virt_mode: oneOf(["paravirt", "fullvirt"]).optional(),
};
/** A profile's helpers, each a boolean. */
const HELPER_FIELDS = {
  updatedb_disabled: optionalBoolean,
  distro: optionalBoolean,
  modules_dep: optionalBoolean,
  network: optionalBoolean,
  devtmpfs_automount: optionalBoolean,
};

/** Configuration profiles (`I/configs...`) and their interfaces (`I/configs/{configId}/interfaces...`). */
export function registerConfigRoutes(router: Router, compute: ComputeContext): void {
  const { d, stamp, typeOf, instance, disksOf, configsOf, running, helpersDefault, newConfig } = compute;
  const { configView, ifaceView, ifaceActive, ifaceRecord, configEntity, instanceNote } = compute;

  const config = (ctx: RequestContext, inst: InstanceRecord) => {
    const c = configsOf(inst.id).find((x) => String(x.id) === ctx.params.configId);
    if (!c) throw notFound();
    return c;
  };
  /** A profile's devices, `sda` to `sdh`: a disk of the instance or none (no volumes here). */
  const readDevices = (inst: InstanceRecord, value: unknown, errors: FieldErrors): ConfigRecord["devices"] | undefined => {
    const given = asObject(value);
    if (!given) return void errors.add("devices", "Must be an object keyed sda to sdh");
    const devices: ConfigRecord["devices"] = Object.fromEntries(DEVICE_SLOTS.map((s) => [s, null]));
    for (const [slot, dev] of Object.entries(given)) {
      if (!isDeviceSlot(slot)) {
        errors.add(`devices.${slot}`, "Unknown device slot; use sda to sdh");
        continue;
      }
      if (dev === null) continue;
      const v = asObject(dev) ?? {};
      const diskId = v.disk_id ?? null;
      const disk = isInt(diskId) ? disksOf(inst.id).find((x) => x.id === diskId) : undefined;
      if (diskId !== null && !disk) errors.add(`devices.${slot}.disk_id`, `Disk ${String(diskId)} is not a disk of this instance`);
      if (v.volume_id !== undefined && v.volume_id !== null) errors.add(`devices.${slot}.volume_id`, `Volume ${String(v.volume_id)} not found`);
      devices[slot] = { disk_id: disk?.id ?? null, volume_id: null };
    }
    return devices;
  };

  /** A profile's helpers: booleans by name, over the ones it has (or the defaults). */
  const readHelpers = (value: unknown, errors: FieldErrors, existing?: ConfigRecord): ConfigRecord["helpers"] | undefined => {
    const given = asObject(value);
    if (!given) return void errors.add("helpers", "Must be an object of booleans");
    for (const k of Object.keys(given)) if (!Object.hasOwn(HELPER_FIELDS, k)) errors.add(`helpers.${k}`, "Unknown helper");
    return { ...(existing?.helpers ?? helpersDefault()), ...readFields(given, HELPER_FIELDS, errors, "helpers.") };
  };

  /**
   * A profile's interfaces: all of them (rule 5: updating redefines them; an item repeating an existing id
   * keeps it). `null` is taken as not given, as the real API does (recorded: the Go client sends it when no
   * interfaces are given; a create then has none, an update keeps them).
   */
  const readInterfaces = (inst: InstanceRecord, list: unknown, errors: FieldErrors, taken: TakenAddresses, existing?: ConfigRecord) => {
    if (!Array.isArray(list)) return void errors.add("interfaces", "Must be an array of interfaces");
    const e = checkInterfaces(list, true);
    if (e) return void errors.add(refusedAt("interfaces", e), e.reason);
    return list.map((i: Body, index) => {
      const old = existing?.interfaces.find((x) => x.id === i.id);
      return ifaceRecord(i, errors, `interfaces[${index}]`, inst.region, taken, old?.id);
    });
  };

  /** A profile's fields, in the API's order (all optional here; create checks label and devices are present). */
  const configFields = (inst: InstanceRecord, body: Body, errors: FieldErrors, taken: TakenAddresses, existing?: ConfigRecord): Partial<ConfigRecord> => {
    const out: Partial<ConfigRecord> = {};
    if (body.label !== undefined) out.label = readText(body.label, "label", (v) => checkText(v, "configLabel"), errors);
    Object.assign(out, readFields(body, { comments: COMMENTS }, errors) satisfies Partial<ConfigRecord>);
    if (body.devices !== undefined) out.devices = readDevices(inst, body.devices, errors);
    if (body.helpers !== undefined) out.helpers = readHelpers(body.helpers, errors, existing);
    if (body.kernel !== undefined) {
      const kernel = catalog.kernels.find((k) => k.id === body.kernel);
      if (!kernel) errors.add("kernel", `Kernel ${String(body.kernel)} not found`);
      else out.kernel = kernel.id;
    }
    if (body.memory_limit !== undefined) {
      const max = typeOf(inst.type)?.memory ?? 0;
      if (!isInt(body.memory_limit) || body.memory_limit < 0 || body.memory_limit > max)
        errors.add("memory_limit", `Must be a whole number of MB from 0 to ${max}`);
      else out.memory_limit = body.memory_limit === 0 ? max : body.memory_limit;
    }
    Object.assign(out, readFields(body, BOOT_FIELDS, errors) satisfies Partial<ConfigRecord>);
    if (body.interfaces !== undefined && body.interfaces !== null) out.interfaces = readInterfaces(inst, body.interfaces, errors, taken, existing);
    return out;
  };

  router.add("GET", "/compute/instances/{computeId}/configs", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    return paginate(
      configsOf(inst.id).map((c) => configView(inst, c)),
      ctx,
    );
  });
  router.add("POST", "/compute/instances/{computeId}/configs", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    if (body.label === undefined) errors.add("label", "label is required");
    if (body.devices === undefined) errors.add("devices", "devices is required");
    const taken: TakenAddresses = [];
    const fields = configFields(inst, body, errors, taken);
    errors.throwIfAny();
    const cfg = newConfig(inst.id, { ...fields, label: fields.label! });
    // A notification of the instance, the profile its secondary entity (recorded: linode_config_create).
    instanceNote("compute_config_create", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return configView(inst, cfg);
  });
  router.add("GET", "/compute/instances/{computeId}/configs/{configId}", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    return configView(inst, config(ctx, inst));
  });
  router.add("PUT", "/compute/instances/{computeId}/configs/{configId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    const errors = new FieldErrors();
    const taken: TakenAddresses = [];
    const fields = configFields(inst, jsonObject(ctx), errors, taken, cfg);
    errors.throwIfAny();
    Object.assign(cfg, fields, { updated: stamp() });
    instanceNote("compute_config_update", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return configView(inst, cfg);
  });
  router.add("DELETE", "/compute/instances/{computeId}/configs/{configId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    if (running(inst) && inst._lastBootedConfig === cfg.id) {
      throw badRequest("This profile is the one the running instance booted with: shut the instance down (or reboot it with another profile) first");
    }
    d.configs = d.configs.filter((c) => c !== cfg);
    if (inst._lastBootedConfig === cfg.id) inst._lastBootedConfig = null;
    instanceNote("compute_config_delete", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return {};
  });

  const iface = (ctx: RequestContext, cfg: ConfigRecord) => {
    const i = cfg.interfaces.find((x) => String(x.id) === ctx.params.interfaceId);
    if (!i) throw notFound();
    return i;
  };
  router.add("GET", "/compute/instances/{computeId}/configs/{configId}/interfaces", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    const cfg = config(ctx, inst);
    return cfg.interfaces.map((i) => ifaceView(inst, cfg, i));
  });
  router.add("POST", "/compute/instances/{computeId}/configs/{configId}/interfaces", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    const body = jsonObject(ctx);
    if (body.purpose === undefined) throw badRequest("purpose is required", "purpose");
    const e = checkInterfaces([...cfg.interfaces.map((i) => ({ ...i, primary: body.primary === true ? false : i.primary })), body], true);
    if (e) throw badRequest(e.reason, e.index === undefined ? "interfaces" : e.field);
    const errors = new FieldErrors();
    const taken: TakenAddresses = [];
    const rec = ifaceRecord(body, errors, "interface", inst.region, taken);
    errors.throwIfAny();
    if (rec.primary) for (const i of cfg.interfaces) i.primary = false;
    cfg.interfaces.push(rec);
    instanceNote("compute_config_update", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return ifaceView(inst, cfg, rec);
  });
  router.add("POST", "/compute/instances/{computeId}/configs/{configId}/interfaces/order", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    const ids = jsonObject(ctx).ids;
    const have = cfg.interfaces.map((i) => i.id).sort();
    if (!Array.isArray(ids) || ids.length !== have.length || [...(ids as unknown[])].sort().some((x, i) => x !== have[i])) {
      throw badRequest("ids must list every interface of the profile exactly once", "ids");
    }
    cfg.interfaces = (ids as number[]).map((id) => cfg.interfaces.find((i) => i.id === id)!);
    instanceNote("compute_config_update", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return {};
  });
  router.add("GET", "/compute/instances/{computeId}/configs/{configId}/interfaces/{interfaceId}", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    const cfg = config(ctx, inst);
    return ifaceView(inst, cfg, iface(ctx, cfg));
  });
  router.add("PUT", "/compute/instances/{computeId}/configs/{configId}/interfaces/{interfaceId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    const i = iface(ctx, cfg);
    const body = jsonObject(ctx);
    if (i.purpose === "vlan") throw badRequest("vlan interfaces cannot be updated: delete it and add a new one");
    if (body.purpose !== undefined && body.purpose !== i.purpose) throw badRequest("purpose cannot be changed", "purpose");
    if (body.subnet_id !== undefined && body.subnet_id !== i.subnet_id) {
      throw badRequest("subnet_id cannot be changed: add a new vpc interface to join another subnet", "subnet_id");
    }
    if (i.purpose === "public") {
      const extra = Object.keys(body).filter((k) => !["primary", "purpose"].includes(k));
      if (extra.length) throw badRequest("Only primary can be updated on a public interface", extra[0]);
    }
    if (body.primary !== undefined && typeof body.primary !== "boolean") throw badRequest("Must be a boolean", "primary");
    if (body.primary === true) for (const x of cfg.interfaces) x.primary = false;
    if (body.primary !== undefined) i.primary = body.primary;
    if (i.purpose === "vpc") {
      if (body.ipv4 !== undefined) {
        const v = asObject(body.ipv4) ?? {};
        const nat = v.nat_1_1 === null || typeof v.nat_1_1 === "string" ? v.nat_1_1 : i.ipv4?.nat_1_1;
        i.ipv4 = { vpc: typeof v.vpc === "string" ? v.vpc : (i.ipv4?.vpc ?? null), nat_1_1: nat ?? null };
      }
      if (body.ip_ranges !== undefined) {
        const ranges = z.array(z.string()).safeParse(body.ip_ranges);
        if (!ranges.success) throw badRequest("Must be an array of IPv4 CIDR ranges", "ip_ranges");
        i.ip_ranges = ranges.data;
      }
    }
    instanceNote("compute_config_update", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return ifaceView(inst, cfg, i);
  });
  router.add("DELETE", "/compute/instances/{computeId}/configs/{configId}/interfaces/{interfaceId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    const i = iface(ctx, cfg);
    if (ifaceActive(inst, cfg, i)) {
      throw badRequest("An active interface cannot be deleted: shut the instance down, or reboot it with another profile, first");
    }
    cfg.interfaces = cfg.interfaces.filter((x) => x !== i);
    instanceNote("compute_config_update", ctx.user.username, inst, { notification: true, secondary: configEntity(cfg) });
    return {};
  });
}
