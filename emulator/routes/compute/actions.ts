import { randomUUID } from "node:crypto";
import { busyError, hash, isInt, rw } from "./base";
import type { ComputeContext } from "./context";
import { FieldErrors, jsonObject, badRequest } from "../../http";
import { type Router, type SignedInContext } from "../../router";
import { isDeviceSlot } from "../../../api/interfaces";
import { apiTime } from "../../state";
import { z } from "zod";
import type { ConfigRecord, DiskRecord, InstanceRecord } from "./records";
import type { User } from "../../state";
import { asObject, oneOf, optionalBoolean, readFields, type Fields } from "../../body";

/** A clone's fields read as given. */
const CLONE_FIELDS = {
  group: z.string({ error: "Must be a string of at most 50 characters" }).max(50, "Must be a string of at most 50 characters").optional(),
  private_ip: optionalBoolean,
  backups_enabled: optionalBoolean,
};

/** A resize's fields. */
const RESIZE_FIELDS = {
  type: z.string({ error: "type is required" }),
  allow_auto_disk_resize: optionalBoolean,
  migration_type: oneOf(["warm", "cold"], "Must be warm or cold").optional(),
};

/** Instance actions (`I/...`): boot, reboot, shutdown, resize, mutate, rebuild, password, rescue, clone. */
export function registerActionRoutes(router: Router, compute: ComputeContext): void {
  const { store, d, now, dur, stamp, typeOf, regionOf, canSee, requireAdd, instance, settleAll, disksOf, configsOf, busy, running, usedDisk } = compute;
  const { instanceEntity, configEntity, instanceEvent, instanceNote } = compute;
  const { instanceView, publicIp, privateIp, checkImage, checkRootPass, checkKeys, checkScript, checkMetadata, checkLabel, newDisk, newConfig, deployImage } =
    compute;

  /** The profile to boot with (rules 2 and 3). */
  const pickConfig = (inst: InstanceRecord, configId: unknown, forReboot: boolean): ConfigRecord => {
    const cfgs = configsOf(inst.id);
    if (configId !== undefined && configId !== null) {
      const c = isInt(configId) ? cfgs.find((x) => x.id === configId) : undefined;
      if (!c) throw badRequest(`Config ${String(configId)} not found on this instance`, "config_id");
      return c;
    }
    const last = cfgs.find((c) => c.id === inst._lastBootedConfig);
    if (cfgs.length === 0) throw badRequest("The instance has no configuration profile to boot", "config_id");
    if (forReboot) {
      if (last) return last;
      if (cfgs.length === 1) return cfgs[0];
    } else {
      if (cfgs.length === 1) return cfgs[0];
      if (last) return last;
    }
    throw badRequest("No configuration profile could be determined: the instance has several and none was booted last; give config_id", "config_id");
  };
  const bootInto = (inst: InstanceRecord, cfg: ConfigRecord, status: string, ms: number) => {
    inst.status = status;
    inst._queue.push({ status: "running", at: now() + ms, patch: { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) } });
    settleAll(inst);
  };

  router.add("POST", "/compute/instances/{computeId}/boot", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (inst.status === "deleting") throw badRequest("The instance is being deleted");
    if (busy(inst)) {
      // Spec rule 9 does not list boot among the actions refused while others run, and the real API accepted a
      // boot sent right after a create (recorded): the boot is queued after what is under way. One that will
      // run anyway changes nothing, unless it names another profile, which it then boots into.
      const last = inst._queue[inst._queue.length - 1];
      const willRun = last.status === "running";
      // Answered with an event all the same, finished when the instance runs: a client that waits on the event of
      // its own boot request (linodego's event poller) gets one.
      const anyway = () => {
        const booted = configsOf(inst.id).find((c) => c.id === last.patch?._lastBootedConfig);
        instanceEvent("compute_boot", ctx.user.username, inst, { start: last.at, secondary: booted ? configEntity(booted) : null });
        return {};
      };
      if (willRun && (body.config_id === undefined || body.config_id === null)) return anyway();
      const cfg = pickConfig(inst, body.config_id, false);
      if (willRun && last.patch?._lastBootedConfig === cfg.id) return anyway();
      inst._queue.push({
        status: "running",
        at: last.at + dur(willRun ? "rebooting" : "booting"),
        patch: { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) },
      });
      // Queued behind what is under way: scheduled until then (recorded: a boot waits as scheduled while the create runs).
      instanceEvent("compute_boot", ctx.user.username, inst, { start: last.at, secondary: configEntity(cfg) });
      return {};
    }
    if (running(inst)) {
      // Already running: nothing to do (a repeated boot is harmless), and its event finished at once.
      const booted = configsOf(inst.id).find((c) => c.id === inst._lastBootedConfig);
      instanceNote("compute_boot", ctx.user.username, inst, { secondary: booted ? configEntity(booted) : null });
      return {};
    }
    const cfg = pickConfig(inst, body.config_id, false);
    bootInto(inst, cfg, "booting", dur("booting"));
    instanceEvent("compute_boot", ctx.user.username, inst, { secondary: configEntity(cfg) });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/reboot", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (busy(inst)) throw busyError();
    const cfg = pickConfig(inst, body.config_id, true);
    bootInto(inst, cfg, "rebooting", dur("rebooting"));
    instanceEvent("compute_reboot", ctx.user.username, inst, { secondary: configEntity(cfg) });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/shutdown", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    if (busy(inst)) throw busyError();
    if (inst.status === "offline") {
      instanceNote("compute_shutdown", ctx.user.username, inst); // nothing to do: its event finished at once
      return {};
    }
    inst.status = "shutting_down";
    inst._queue.push({ status: "offline", at: now() + dur("shutting_down"), patch: { _activeInterfaces: [] } });
    settleAll(inst);
    instanceEvent("compute_shutdown", ctx.user.username, inst);
    return {};
  });

  /** Moves the instance to another type (resize, mutate, rebuild with type): rule 6. */
  const migrate = (inst: InstanceRecord, newTypeId: string, autoDisk: boolean, field: string) => {
    const from = typeOf(inst.type)!;
    const to = typeOf(newTypeId);
    if (!to) throw badRequest(`Type ${newTypeId} not found`, field);
    if (to.id === inst.type) throw badRequest(`The instance is already of type ${to.id}`, field);
    const disks = disksOf(inst.id);
    const used = disks.reduce((n, x) => n + x.size, 0);
    if (used > to.disk) {
      throw badRequest(`The instance's disks use ${used} MB, more than the ${to.disk} MB of type ${to.id}: delete or shrink disks first`, field);
    }
    const back = inst.status === "offline" ? "offline" : "running";
    const at = now() + dur("migrating");
    inst.status = "migrating";
    inst._queue.push({
      status: back,
      at,
      // A resize migrates the instance to another host (compute-api.md, rebuild rule 5), which changes the record.
      patch: {
        type: to.id,
        specs: { disk: to.disk, gpus: to.gpus, memory: to.memory, transfer: to.transfer, vcpus: to.vcpus },
        host_uuid: randomUUID(),
        updated: apiTime(at),
      },
    });
    // Growing to a larger type grows the one data disk (with at most a swap disk beside it).
    const data = disks.filter((x) => x.filesystem !== "swap");
    if (autoDisk && to.disk > from.disk && data.length === 1 && disks.length <= 2) {
      const grow = data[0];
      grow.status = "not ready";
      grow._queue.push({ status: "ready", at, patch: { size: to.disk - (used - grow.size), updated: apiTime(at) } });
    }
  };

  router.add("POST", "/compute/instances/{computeId}/resize", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const { type, allow_auto_disk_resize } = readFields(body, RESIZE_FIELDS, errors);
    errors.throwIfAny();
    if (type === undefined) throw badRequest("type is required", "type");
    if (busy(inst)) throw busyError();
    migrate(inst, type, allow_auto_disk_resize !== false, "type");
    instanceEvent("compute_resize", ctx.user.username, inst);
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/mutate", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (busy(inst)) throw busyError();
    const successor = typeOf(inst.type)?.successor;
    if (!successor) throw badRequest(`Type ${inst.type} has no upgrade available`);
    migrate(inst, successor, body.allow_auto_disk_resize !== false, "type");
    instanceEvent("compute_mutate", ctx.user.username, inst);
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/rebuild", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    if (body.image === undefined || body.image === null) errors.add("image", "image is required");
    const img = checkImage(body, errors, ctx.user.username);
    const rootPass = checkRootPass(body, errors, true);
    checkKeys(body, errors);
    checkScript(body, errors, img?.id);
    const userData = checkMetadata(body, errors, inst.region, img);
    const { booted: bootAfter } = readFields(body, { booted: optionalBoolean }, errors);
    const newType = typeof body.type === "string" ? typeOf(body.type) : undefined;
    if (body.type !== undefined && !newType) errors.add("type", `Type ${String(body.type)} not found`);
    errors.throwIfAny();
    // With no refusal, the image and the password were read.
    if (!img || rootPass === undefined) throw badRequest("image and root_pass are required");
    if (busy(inst)) throw busyError();
    const keepIfaces = configsOf(inst.id).find((c) => c.id === inst._lastBootedConfig)?.interfaces ?? configsOf(inst.id)[0]?.interfaces ?? [];
    d.disks = d.disks.filter((x) => x.compute_id !== inst.id);
    d.configs = d.configs.filter((x) => x.compute_id !== inst.id);
    if (newType && newType.id !== inst.type) {
      const to = newType;
      Object.assign(inst, { type: to.id, specs: { disk: to.disk, gpus: to.gpus, memory: to.memory, transfer: to.transfer, vcpus: to.vcpus } });
    }
    const ms = dur("rebuilding") + (newType && newType.id !== inst.type ? dur("migrating") : 0);
    const cfg = deployImage(inst, img, 512, keepIfaces, ms);
    Object.assign(inst, {
      image: img.id,
      status: "rebuilding",
      _rootPassHash: hash(rootPass),
      _activeInterfaces: [],
      has_user_data: Boolean(userData) || inst.has_user_data,
      updated: stamp(),
    });
    const booted = bootAfter !== false;
    const patch = booted ? { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) } : { _lastBootedConfig: null };
    inst._queue.push({ status: booted ? "running" : "offline", at: now() + ms, patch });
    settleAll(inst);
    instanceEvent("compute_rebuild", ctx.user.username, inst);
    return instanceView(inst);
  });

  router.add("POST", "/compute/instances/{computeId}/password", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const rootPass = checkRootPass(body, errors, true);
    errors.throwIfAny();
    if (rootPass === undefined) throw badRequest("root_pass is required", "root_pass");
    if (inst.status !== "offline" || busy(inst)) throw badRequest("The instance must be shut down to reset the root password");
    const data = disksOf(inst.id).filter((x) => x.filesystem !== "swap");
    if (data.length === 0) throw badRequest("The instance has no disk to set a password on");
    if (data.length > 1) throw badRequest("The instance has several non-swap disks: use the per-disk password reset");
    inst._rootPassHash = hash(rootPass);
    instanceNote("password_reset", ctx.user.username, inst);
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/rescue", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const devices = body.devices === undefined || body.devices === null ? {} : asObject(body.devices);
    if (!devices) throw badRequest("Must be an object of devices", "devices");
    const errors = new FieldErrors();
    for (const [slot, dev] of Object.entries(devices)) {
      if (slot === "sdh") errors.add("devices.sdh", "Device sdh is reserved in rescue mode");
      else if (!isDeviceSlot(slot)) errors.add(`devices.${slot}`, "Unknown device slot; use sda to sdg");
      else if (asObject(dev)) {
        const id = asObject(dev)?.disk_id;
        if (id !== null && id !== undefined && !disksOf(inst.id).some((x) => x.id === id))
          errors.add(`devices.${slot}.disk_id`, `Disk ${String(id)} is not a disk of this instance`);
      }
    }
    errors.throwIfAny();
    if (busy(inst)) throw busyError();
    inst.status = "rebooting";
    inst._queue.push({ status: "running", at: now() + dur("rebooting"), patch: { _activeInterfaces: [] } });
    settleAll(inst);
    return {};
  });

  /** A clone request, checked: the source, what of it to copy, and the target (one of the user's, or one to make). */
  interface CloneRequest {
    src: InstanceRecord;
    user: User;
    disks: DiskRecord[];
    configs: ConfigRecord[];
    target?: InstanceRecord;
    region: string;
    type?: NonNullable<ReturnType<typeof typeOf>>;
    label?: string;
    fields: Fields<typeof CLONE_FIELDS>;
  }

  /** Checks a clone request in the API's order; every refusal at once (400). */
  function checkClone(ctx: SignedInContext): CloneRequest {
    const src = instance(ctx, "read_only");
    const body = jsonObject(ctx);
    const user = ctx.user;
    requireAdd(user);
    if (src._clones.length >= 5) throw badRequest("More than five concurrent clones from one instance are not allowed");
    const errors = new FieldErrors();
    const srcCfgs = configsOf(src.id);
    if (src.has_user_data && !asObject(body.metadata)?.user_data) {
      errors.add("metadata.user_data", "This instance has user data: the clone needs metadata.user_data");
    }
    const picked = (list: unknown) => (id: number) => !Array.isArray(list) || list.includes(id);
    const disks = disksOf(src.id).filter((x) => picked(body.disks)(x.id));
    const configs = srcCfgs.filter((c) => picked(body.configs)(c.id));
    const size = disks.reduce((n, x) => n + x.size, 0);
    const region = typeof body.region === "string" ? body.region : src.region;
    const req: CloneRequest = { src, user, disks, configs, region, fields: readFields(body, CLONE_FIELDS, errors) };
    if (body.compute_id !== undefined) {
      const target = isInt(body.compute_id) ? d.instances.find((i) => i.id === body.compute_id && canSee(user, i.id, "read_write")) : undefined;
      if (!target) errors.add("compute_id", `Instance ${String(body.compute_id)} not found`);
      else {
        settleAll(target);
        if (busy(target)) errors.add("compute_id", "The target instance has running or queued actions");
        const free = (typeOf(target.type)?.disk ?? 0) - usedDisk(target.id);
        if (size > free) errors.add("compute_id", "The target instance does not have enough free disk space");
        req.target = target;
      }
    } else {
      if (!regionOf(region)) errors.add("region", `Region ${region} not found`);
      req.type = typeof body.type === "string" ? typeOf(body.type) : undefined;
      if (!req.type) errors.add("type", "type is required for a new target instance");
      else if (size > req.type.disk) errors.add("type", "The type is too small for the disks to clone");
      req.label = checkLabel(body.label, errors);
      const hasVlan = srcCfgs.some((c) => c.interfaces.some((i) => i.purpose === "vlan"));
      if (hasVlan && !regionOf(region)?.capabilities.includes("Vlans"))
        errors.add("region", `The instance has a VLAN interface and region ${region} has no VLAN support`);
    }
    errors.throwIfAny();
    return req;
  }

  /** A new instance to clone into: the source's record with its own id, label, region, type and addresses. */
  function newCloneTarget(req: CloneRequest, t: NonNullable<CloneRequest["type"]>): InstanceRecord {
    const { src, user, fields } = req;
    const id = store.nextId("instance");
    const target: InstanceRecord = {
      ...structuredClone(src),
      id,
      label: req.label ?? `compute${id}`,
      group: fields.group ?? src.group,
      region: req.region,
      type: t.id,
      specs: { disk: t.disk, gpus: t.gpus, memory: t.memory, transfer: t.transfer, vcpus: t.vcpus },
      created: stamp(),
      updated: stamp(),
      host_uuid: randomUUID(),
      ipv4: fields.private_ip === true ? [publicIp(store.nextId("ipv4")), privateIp(store.nextId("private_ip"))] : [publicIp(store.nextId("ipv4"))],
      ipv6: `2001:db8::${id.toString(16)}/128`,
      backups: { available: false, enabled: fields.backups_enabled === true, last_successful: null, schedule: { day: null, window: null } },
      tags: [...src.tags],
      _owner: user.username,
      _queue: [],
      _lastBootedConfig: null,
      _activeInterfaces: [],
      _clones: [],
    };
    d.instances.push(target);
    if (user.restricted) user.grants?.compute.push({ id, label: target.label, permissions: "read_write" });
    return target;
  }

  /** Copies the chosen disks (being made until the clone is done) and profiles (on the copies) into the target. */
  function copySource({ disks, configs }: CloneRequest, target: InstanceRecord): void {
    const diskMap = new Map<number, number>();
    for (const x of disks) diskMap.set(x.id, newDisk(target.id, x.label, x.size, x.filesystem, dur("cloning")).id);
    for (const c of configs) {
      const devices = Object.fromEntries(
        Object.entries(c.devices).map(([k, v]) => [k, v && v.disk_id !== null ? { disk_id: diskMap.get(v.disk_id) ?? null, volume_id: v.volume_id } : v]),
      );
      const interfaces = c.interfaces.map((i) => ({
        ...i,
        id: store.nextId("interface"),
        ipv4: i.ipv4 ? { vpc: i.ipv4.vpc, nat_1_1: i.ipv4.nat_1_1 ? "any" : null } : null,
      }));
      // The copy is the target's: a new id, the target's instance (the source's record carries both).
      const { id: _id, compute_id: _source, ...copy } = structuredClone(c);
      newConfig(target.id, { ...copy, devices, interfaces });
    }
  }

  router.add("POST", "/compute/instances/{computeId}/clone", { scope: rw, auth: "required" }, (ctx) => {
    const req = checkClone(ctx);
    const { src, user } = req;
    const done = now() + dur("cloning");
    // With no refusal, a new target's type was found.
    const target = req.target ?? (req.type ? newCloneTarget(req, req.type) : undefined);
    if (!target) throw badRequest("type is required for a new target instance", "type");
    copySource(req, target);
    const tgt = target;
    tgt.status = "cloning";
    tgt._queue.push({ status: "offline", at: done });
    src._clones.push(done);
    // An event of the source, the clone its secondary entity (recorded).
    instanceEvent("compute_clone", user.username, src, { finish: done, secondary: instanceEntity(tgt) });
    settleAll(tgt);
    return instanceView(tgt);
  });
}
