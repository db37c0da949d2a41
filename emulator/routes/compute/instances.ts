import { randomUUID } from "node:crypto";
import { GONE, hash, isInt, ro, rw } from "./base";
import type { ComputeContext } from "./context";
import { FieldErrors, jsonObject, badRequest, forbidden, paginate } from "../../http";
import { type SignedInContext, type Router } from "../../router";
import { readTags } from "../../rules";
import { asObject, oneOf, optionalBoolean, readFields, type Fields } from "../../body";
import { z } from "zod";
import { eventEntity, settle, type User } from "../../state";
import type { BackupRecord, ConfigRecord, InstanceRecord } from "./records";

const SWAP_TEXT = "Must be a whole number of MB, 0 or more";
const GROUP_TEXT = "Must be a string of at most 50 characters";

/** The fields of a create body read as they are given (the deploy's are checked by computeChecks). */
const CREATE_FIELDS = {
  backups_enabled: optionalBoolean,
  booted: optionalBoolean,
  private_ip: optionalBoolean,
  swap_size: z.number({ error: SWAP_TEXT }).int(SWAP_TEXT).min(0, SWAP_TEXT).optional(),
  firewall_id: z.number({ error: "Must be an integer" }).int("Must be an integer").nullable().optional(),
  group: z.string({ error: GROUP_TEXT }).max(50, GROUP_TEXT).optional(),
};

const ALERT_TEXT = "Must be a whole number, 0 or more";
const alert = z.number({ error: ALERT_TEXT }).int(ALERT_TEXT).min(0, ALERT_TEXT).optional();
/** An instance's alerts (`PUT`): thresholds, the transfer quota a percentage. */
const ALERT_FIELDS = {
  cpu: alert,
  io: alert,
  network_in: alert,
  network_out: alert,
  transfer_quota: z.number({ error: ALERT_TEXT }).int(ALERT_TEXT).min(0, ALERT_TEXT).max(100, "Must be a percentage, 0 to 100").optional(),
};

/** A backup schedule (`PUT`'s `backups.schedule`): a day and a two-hour window, or `Scheduling` (the API picks). */
const SCHEDULE_FIELDS = {
  day: oneOf(["Scheduling", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]).optional(),
  window: oneOf(["Scheduling", "W0", "W2", "W4", "W6", "W8", "W10", "W12", "W14", "W16", "W18", "W20", "W22"]).optional(),
};

/** Instances (`/compute/instances`, `I`): list, create, view, update, delete; and their statistics, transfer, volumes, NodeBalancers. */
export function registerInstanceRoutes(router: Router, compute: ComputeContext): void {
  const { store, d, now, dur, stamp, typeOf, regionOf, canSee, requireAdd, purge, instance, settleAll, disksOf, instanceView, publicIp, privateIp } = compute;
  const { checkImage, checkRootPass, checkKeys, checkScript, checkMetadata, checkLabel, buildInterfaces, deployImage, restoreInto } = compute;
  const { instanceEvent, instanceNote, configEntity } = compute;

  router.add("GET", "/compute/instances", { scope: ro, auth: "required" }, (ctx) => {
    purge();
    return paginate(d.instances.filter((i) => canSee(ctx.user, i.id, "read_only")).map(instanceView), ctx);
  });

  /** A create body, checked: what the instance is made of. */
  interface CreateRequest {
    user: User;
    region: NonNullable<ReturnType<typeof regionOf>>;
    type: NonNullable<ReturnType<typeof typeOf>>;
    label?: string;
    image?: NonNullable<ReturnType<typeof checkImage>>;
    backup?: BackupRecord;
    fields: Fields<typeof CREATE_FIELDS>;
    tags?: string[];
    interfaces: ReturnType<typeof buildInterfaces>;
    userData: string | null | undefined;
    rootPass?: string;
  }

  /** Checks a create body in the API's order; every refusal at once (400), else what to make. */
  function checkCreate(ctx: SignedInContext): CreateRequest {
    const body = jsonObject(ctx);
    const user = ctx.user;
    requireAdd(user);
    if (body.tags !== undefined && user.restricted) throw forbidden("Only unrestricted users can add tags");
    const errors = new FieldErrors();
    const region = typeof body.region === "string" ? regionOf(body.region) : undefined;
    if (body.region === undefined) errors.add("region", "region is required");
    else if (!region) errors.add("region", `Region ${String(body.region)} not found`);
    const type = typeof body.type === "string" ? typeOf(body.type) : undefined;
    if (body.type === undefined) errors.add("type", "type is required");
    else if (!type) errors.add("type", `Type ${String(body.type)} not found`);
    const label = checkLabel(body.label, errors);
    const image = checkImage(body, errors, user.username);
    const deploys = Boolean(image) || body.script_id !== undefined;
    if (body.backup_id !== undefined && image) errors.add("backup_id", "Give either image or backup_id, not both");
    checkRootPass(body, errors, deploys);
    checkKeys(body, errors);
    checkScript(body, errors, image?.id);
    const userData = checkMetadata(body, errors, region?.id, image);
    const backup = body.backup_id === undefined ? undefined : checkBackup(body.backup_id, user, type, errors);
    const fields = readFields(body, CREATE_FIELDS, errors);
    const tags = readTags(body.tags, errors);
    if (Array.isArray(body.interfaces) && body.interfaces.length === 0) errors.add("interfaces", "must have 1 to 3 interfaces");
    const interfaces = buildInterfaces(body.interfaces, errors, "interfaces", false, region?.id, []);
    if (body.interfaces !== undefined && !image && body.backup_id === undefined && body.script_id === undefined) {
      errors.add("interfaces", "Interfaces need an image or a backup to deploy: an empty instance has no configuration profile to hold them");
    }
    errors.throwIfAny();
    // With no refusal, the region and the type were found.
    if (!region || !type) throw badRequest("region and type are required");
    const rootPass = typeof body.root_pass === "string" ? body.root_pass : undefined;
    return { user, region, type, label, image, backup, fields, tags, interfaces, userData, rootPass };
  }

  /** A backup to create from: one the user can see, successful and available, whose disks fit the type. */
  function checkBackup(id: unknown, user: User, type: CreateRequest["type"] | undefined, errors: FieldErrors): BackupRecord | undefined {
    const backup = isInt(id) ? d.backups.find((b) => b.id === id) : undefined;
    const owner = backup && d.instances.find((i) => i.id === backup.compute_id);
    if (!backup || !owner || !canSee(user, owner.id, "read_only")) return void errors.add("backup_id", `Backup ${String(id)} not found`);
    settle(backup, now());
    if (backup.status !== "successful" || !backup.available) errors.add("backup_id", "Only successful backups that are not under maintenance can be restored");
    else if (type && backup.disks.reduce((n, x) => n + x.size, 0) > type.disk) errors.add("type", "The type is too small for the backup's disks");
    return backup;
  }

  /** The new instance's record, offline and empty. */
  function newInstance(req: CreateRequest): InstanceRecord {
    const { user, type, fields } = req;
    const id = store.nextId("instance");
    const ipN = store.nextId("ipv4");
    return {
      id,
      label: req.label ?? `compute${id}`,
      group: fields.group ?? "",
      status: "offline",
      region: req.region.id,
      type: type.id,
      image: req.image?.id ?? null,
      created: stamp(),
      updated: stamp(),
      hypervisor: "kvm",
      host_uuid: randomUUID(),
      has_user_data: Boolean(req.userData),
      ipv4: fields.private_ip === true ? [publicIp(ipN), privateIp(store.nextId("private_ip"))] : [publicIp(ipN)],
      ipv6: `2001:db8::${id.toString(16)}/128`,
      specs: { disk: type.disk, gpus: type.gpus, memory: type.memory, transfer: type.transfer, vcpus: type.vcpus },
      alerts: { cpu: 90 * type.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
      backups: { available: false, enabled: fields.backups_enabled === true, last_successful: null, schedule: { day: null, window: null } },
      tags: req.tags ?? [],
      watchdog_enabled: true,
      _owner: user.username,
      _queue: [],
      _lastBootedConfig: null,
      _activeInterfaces: [],
      _rootPassHash: req.rootPass === undefined ? null : hash(req.rootPass),
      _clones: [],
      _userData: req.userData ?? null,
    };
  }

  /**
   * Deploys the image (or restores the backup) into the new instance, provisioning until it boots (or stays
   * offline), with the create's events as recorded: the image its secondary entity, and when it boots, a boot
   * event of the profile, scheduled until the create's part is done (the last `booting` share here).
   */
  function provision(inst: InstanceRecord, req: CreateRequest): void {
    const { image: img, backup, user } = req;
    const booted = req.fields.booted !== false;
    let cfg: ConfigRecord | undefined;
    if (img) cfg = deployImage(inst, img, req.fields.swap_size ?? 512, req.interfaces, dur("provisioning"));
    else if (backup) cfg = restoreInto(inst, backup, dur("provisioning"))[0];
    if (cfg || backup) {
      inst.status = "provisioning";
      inst._queue.push({
        status: booted ? "running" : "offline",
        at: now() + dur("provisioning"),
        patch: booted && cfg ? { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) } : {},
      });
      if (backup) inst._rootPassHash = backup._source.rootPassHash;
    }
    const image = img ? eventEntity("image", img.id, img.label, `/images/${img.id}`) : null;
    const rests = inst._queue.at(-1)?.at ?? now();
    if (booted && cfg && inst._queue.length) {
      const createDone = Math.max(now(), rests - dur("booting"));
      instanceEvent("compute_create", user.username, inst, { finish: createDone, secondary: image });
      instanceEvent("compute_boot", user.username, inst, { start: createDone, finish: rests, secondary: configEntity(cfg) });
    } else instanceEvent("compute_create", user.username, inst, { finish: rests, secondary: image });
  }

  router.add("POST", "/compute/instances", { scope: rw, auth: "required" }, (ctx) => {
    const req = checkCreate(ctx);
    const inst = newInstance(req);
    d.instances.push(inst);
    if (req.user.restricted) req.user.grants?.compute.push({ id: inst.id, label: inst.label, permissions: "read_write" });
    provision(inst, req);
    settleAll(inst);
    return instanceView(inst);
  });

  router.add("GET", "/compute/instances/{computeId}", { scope: ro, auth: "required" }, (ctx) => instanceView(instance(ctx)));

  router.add("PUT", "/compute/instances/{computeId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const next: Partial<InstanceRecord> = {};
    const label = checkLabel(body.label, errors, inst.id);
    if (label !== undefined) next.label = label;
    Object.assign(next, readFields(body, { group: CREATE_FIELDS.group }, errors));
    if (body.tags !== undefined) {
      if (ctx.user.restricted) throw forbidden("Only unrestricted users can add or modify tags");
      const tags = readTags(body.tags, errors);
      if (tags) next.tags = tags;
    }
    Object.assign(next, readFields(body, { watchdog_enabled: optionalBoolean }, errors));
    if (body.alerts !== undefined) {
      const alerts = asObject(body.alerts);
      if (!alerts) errors.add("alerts", "Must be an object");
      else {
        for (const k of Object.keys(alerts)) if (!Object.hasOwn(ALERT_FIELDS, k)) errors.add(`alerts.${k}`, "Unknown alert");
        next.alerts = { ...inst.alerts, ...readFields(alerts, ALERT_FIELDS, errors, "alerts.") };
      }
    }
    if (body.backups !== undefined) {
      const backups = asObject(body.backups);
      if (!backups) errors.add("backups", "Must be an object: { schedule: { day, window } }");
      else {
        const given = readFields(asObject(backups.schedule) ?? {}, SCHEDULE_FIELDS, errors, "backups.schedule.");
        next.backups = { ...inst.backups, schedule: { ...inst.backups.schedule, ...given } };
      }
    }
    errors.throwIfAny();
    Object.assign(inst, next, { updated: stamp() });
    instanceNote("compute_update", ctx.user.username, inst);
    return instanceView(inst);
  });

  router.add("DELETE", "/compute/instances/{computeId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    if (inst.status === "cloning" || inst.status === "restoring" || inst._clones.length > 0) {
      throw badRequest("An instance cannot be deleted while it is cloning or restoring from a backup; wait for that to finish");
    }
    if (inst.status === "deleting") return {};
    // deleting -> gone: the instance, then its disks, profiles and backups, are removed when it ends.
    inst.status = "deleting";
    inst._queue = [{ status: GONE, at: now() + dur("deleting") }];
    for (const x of disksOf(inst.id)) Object.assign(x, { status: "deleting", _queue: [] });
    instanceEvent("compute_delete", ctx.user.username, inst);
    purge();
    return {};
  });

  // ---- stats, transfer, volumes, nodebalancers ------------------------------------------------------
  const series = (seed: number) => Array.from({ length: 12 }, (_, i) => [now() - (12 - i) * 7200_000, ((seed * 31 + i * 17) % 100) / 10]);
  const stats = (inst: InstanceRecord) => ({
    cpu: series(inst.id),
    io: { io: series(inst.id + 1), swap: series(inst.id + 2) },
    netv4: { in: series(inst.id + 3), out: series(inst.id + 4), private_in: series(inst.id + 5), private_out: series(inst.id + 6) },
    netv6: { in: series(inst.id + 7), out: series(inst.id + 8), private_in: series(inst.id + 9), private_out: series(inst.id + 10) },
    title: inst.label,
  });
  const monthArgs = (ctx: SignedInContext, yearRange?: [number, number]) => {
    const errors = new FieldErrors();
    const year = Number(ctx.params.year);
    const month = Number(ctx.params.month);
    if (!/^\d+$/.test(ctx.params.year) || (yearRange && (year < yearRange[0] || year > yearRange[1]))) {
      errors.add("year", yearRange ? `Must be an integer from ${yearRange[0]} to ${yearRange[1]}` : "Must be an integer");
    }
    if (!/^\d+$/.test(ctx.params.month) || month < 1 || month > 12) errors.add("month", "Must be an integer from 1 to 12");
    errors.throwIfAny();
    const today = new Date(now());
    if (year * 12 + month > today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) throw badRequest("The month must not be in the future", "month");
    return { year, month };
  };
  router.add("GET", "/compute/instances/{computeId}/stats", { scope: ro, auth: "required" }, (ctx) => stats(instance(ctx)));
  router.add("GET", "/compute/instances/{computeId}/stats/{year}/{month}", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    monthArgs(ctx);
    return stats(inst);
  });
  router.add("GET", "/compute/instances/{computeId}/transfer", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    return { billable: 0, quota: Math.round(typeOf(inst.type)!.transfer / 1000), used: inst.id * 1_048_576 };
  });
  router.add("GET", "/compute/instances/{computeId}/transfer/{year}/{month}", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    const { month } = monthArgs(ctx, [2000, 2037]);
    const bytesIn = inst.id * month * 1_000_000;
    const bytesOut = inst.id * month * 2_000_000;
    return { bytes_in: bytesIn, bytes_out: bytesOut, bytes_total: bytesIn + bytesOut };
  });
  router.add("GET", "/compute/instances/{computeId}/volumes", { scope: ro, auth: "required" }, (ctx) => (instance(ctx), paginate([], ctx)));
  router.add("GET", "/compute/instances/{computeId}/nodebalancers", { scope: ro, auth: "required" }, (ctx) => (instance(ctx), paginate([], ctx)));
}
