import { randomUUID } from "node:crypto";
import { GONE, hash, isInt, ro, rw, type TakenAddresses } from "./base";
import type { ComputeContext } from "./context";
import { FieldErrors, jsonObject, badRequest, forbidden, paginate, type RequestContext, type Router } from "../../http";
import { tagsError } from "../../rules";
import { instanceLabelError } from "../../../api/labels";
import { eventEntity, settle } from "../../state";
import type { BackupRecord, ConfigRecord, InstanceRecord } from "./records";

/** Instances (`/compute/instances`, `I`): list, create, view, update, delete; and their statistics, transfer, volumes, NodeBalancers. */
export function registerInstanceRoutes(router: Router, compute: ComputeContext): void {
  const { store, d, now, dur, stamp, typeOf, regionOf, canSee, requireAdd, purge, instance, settleAll, disksOf, instanceView, publicIp, privateIp } = compute;
  const { checkImage, checkRootPass, checkKeys, checkScript, checkMetadata, buildInterfaces, deployImage, restoreInto } = compute;
  const { instanceEvent, instanceNote, configEntity } = compute;

  router.add("GET", "/compute/instances", { scope: ro, auth: "required" }, (ctx) => {
    purge();
    return paginate(d.instances.filter((i) => canSee(ctx.user!, i.id, "read_only")).map(instanceView), ctx);
  });

  router.add("POST", "/compute/instances", { scope: rw, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx);
    const user = ctx.user!;
    requireAdd(user);
    if (body.tags !== undefined && user.restricted) throw forbidden("Only unrestricted users can add tags");
    const errors = new FieldErrors();
    const region = typeof body.region === "string" ? regionOf(body.region) : undefined;
    if (body.region === undefined) errors.add("region", "region is required");
    else if (!region) errors.add("region", `Region ${String(body.region)} not found`);
    const type = typeof body.type === "string" ? typeOf(body.type) : undefined;
    if (body.type === undefined) errors.add("type", "type is required");
    else if (!type) errors.add("type", `Type ${String(body.type)} not found`);
    if (body.label !== undefined) {
      const e = typeof body.label === "string" ? instanceLabelError(body.label) : "must be a string";
      if (e) errors.add("label", `Label ${e}`);
      else if (d.instances.some((i) => i.label === body.label)) errors.add("label", "Label must be unique among your instances");
    }
    const img = checkImage(body, errors, ctx.user!.username);
    const deploys = Boolean(img) || body.script_id !== undefined;
    if (body.backup_id !== undefined && img) errors.add("backup_id", "Give either image or backup_id, not both");
    checkRootPass(body, errors, deploys);
    checkKeys(body, errors);
    checkScript(body, errors, img?.id);
    const userData = checkMetadata(body, errors, region?.id, img);
    let backup: BackupRecord | undefined;
    if (body.backup_id !== undefined) {
      backup = isInt(body.backup_id) ? d.backups.find((b) => b.id === body.backup_id) : undefined;
      const owner = backup && d.instances.find((i) => i.id === backup!.compute_id);
      if (!backup || !owner || !canSee(user, owner.id, "read_only")) errors.add("backup_id", `Backup ${String(body.backup_id)} not found`);
      else {
        settle(backup, now());
        if (backup.status !== "successful" || !backup.available)
          errors.add("backup_id", "Only successful backups that are not under maintenance can be restored");
        else if (type && backup.disks.reduce((n, x) => n + x.size, 0) > type.disk) errors.add("type", "The type is too small for the backup's disks");
      }
    }
    for (const k of ["backups_enabled", "booted", "private_ip"] as const)
      if (body[k] !== undefined && typeof body[k] !== "boolean") errors.add(k, "Must be a boolean");
    if (body.swap_size !== undefined && (!isInt(body.swap_size) || body.swap_size < 0)) errors.add("swap_size", "Must be a whole number of MB, 0 or more");
    if (body.firewall_id !== undefined && body.firewall_id !== null && !isInt(body.firewall_id)) errors.add("firewall_id", "Must be an integer");
    if (body.group !== undefined && (typeof body.group !== "string" || body.group.length > 50))
      errors.add("group", "Must be a string of at most 50 characters");
    if (body.tags !== undefined && tagsError(body.tags)) {
      errors.add("tags", tagsError(body.tags)!);
    }
    if (body.interfaces !== undefined && Array.isArray(body.interfaces) && body.interfaces.length === 0)
      errors.add("interfaces", "must have 1 to 3 interfaces");
    const taken: TakenAddresses = [];
    const interfaces = buildInterfaces(body.interfaces, errors, "interfaces", false, region?.id, taken);
    if (body.interfaces !== undefined && !img && body.backup_id === undefined && body.script_id === undefined) {
      errors.add("interfaces", "Interfaces need an image or a backup to deploy: an empty instance has no configuration profile to hold them");
    }
    errors.throwIfAny();

    const id = store.nextId("instance");
    const swap = (body.swap_size as number | undefined) ?? 512;
    const booted = body.booted !== false;
    const ipN = store.nextId("ipv4");
    const inst: InstanceRecord = {
      id,
      label: (body.label as string | undefined) ?? `compute${id}`,
      group: (body.group as string | undefined) ?? "",
      status: "offline",
      region: region!.id,
      type: type!.id,
      image: img?.id ?? null,
      created: stamp(),
      updated: stamp(),
      hypervisor: "kvm",
      host_uuid: randomUUID(),
      has_user_data: Boolean(userData),
      ipv4: body.private_ip === true ? [publicIp(ipN), privateIp(store.nextId("private_ip"))] : [publicIp(ipN)],
      ipv6: `2001:db8::${id.toString(16)}/128`,
      specs: { disk: type!.disk, gpus: type!.gpus, memory: type!.memory, transfer: type!.transfer, vcpus: type!.vcpus },
      alerts: { cpu: 90 * type!.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
      backups: { available: false, enabled: body.backups_enabled === true, last_successful: null, schedule: { day: null, window: null } },
      tags: (body.tags as string[] | undefined) ?? [],
      watchdog_enabled: true,
      _owner: user.username,
      _queue: [],
      _lastBootedConfig: null,
      _activeInterfaces: [],
      _rootPassHash: typeof body.root_pass === "string" ? hash(body.root_pass) : null,
      _clones: [],
      _userData: userData ?? null,
    };
    d.instances.push(inst);
    if (user.restricted) user.grants!.compute.push({ id, label: inst.label, permissions: "read_write" });

    let cfg: ConfigRecord | undefined;
    if (img) cfg = deployImage(inst, img, swap, interfaces, dur("provisioning"));
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
    // As recorded: the create's event (the image its secondary entity), and when it boots, a boot event of the
    // profile, scheduled until the create's part is done (the last `booting` share of the provisioning here).
    const image = img ? eventEntity("image", img.id, img.label, `/images/${img.id}`) : null;
    const rests = inst._queue.at(-1)?.at ?? now();
    if (booted && cfg && inst._queue.length) {
      const createDone = Math.max(now(), rests - dur("booting"));
      instanceEvent("compute_create", user.username, inst, { finish: createDone, secondary: image });
      instanceEvent("compute_boot", user.username, inst, { start: createDone, finish: rests, secondary: configEntity(cfg) });
    } else instanceEvent("compute_create", user.username, inst, { finish: rests, secondary: image });
    settleAll(inst);
    return instanceView(inst);
  });

  router.add("GET", "/compute/instances/{computeId}", { scope: ro, auth: "required" }, (ctx) => instanceView(instance(ctx)));

  router.add("PUT", "/compute/instances/{computeId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const next: Partial<InstanceRecord> = {};
    if (body.label !== undefined) {
      const e = typeof body.label === "string" ? instanceLabelError(body.label) : "must be a string";
      if (e) errors.add("label", `Label ${e}`);
      else if (d.instances.some((i) => i.label === body.label && i.id !== inst.id)) errors.add("label", "Label must be unique among your instances");
      else next.label = body.label as string;
    }
    if (body.group !== undefined) {
      if (typeof body.group !== "string" || body.group.length > 50) errors.add("group", "Must be a string of at most 50 characters");
      else next.group = body.group;
    }
    if (body.tags !== undefined) {
      if (ctx.user!.restricted) throw forbidden("Only unrestricted users can add or modify tags");
      if (tagsError(body.tags)) errors.add("tags", tagsError(body.tags)!);
      else next.tags = body.tags as string[];
    }
    if (body.watchdog_enabled !== undefined) {
      if (typeof body.watchdog_enabled !== "boolean") errors.add("watchdog_enabled", "Must be a boolean");
      else next.watchdog_enabled = body.watchdog_enabled;
    }
    if (body.alerts !== undefined) {
      const a = body.alerts as Record<string, unknown>;
      const keys = ["cpu", "io", "network_in", "network_out", "transfer_quota"] as const;
      if (typeof a !== "object" || a === null) errors.add("alerts", "Must be an object");
      else {
        for (const [k, v] of Object.entries(a)) {
          if (!(keys as readonly string[]).includes(k)) errors.add(`alerts.${k}`, "Unknown alert");
          else if (!isInt(v) || v < 0) errors.add(`alerts.${k}`, "Must be a whole number, 0 or more");
          else if (k === "transfer_quota" && v > 100) errors.add(`alerts.${k}`, "Must be a percentage, 0 to 100");
        }
        next.alerts = { ...inst.alerts, ...(a as Partial<InstanceRecord["alerts"]>) };
      }
    }
    if (body.backups !== undefined && (typeof body.backups !== "object" || body.backups === null || Array.isArray(body.backups)))
      errors.add("backups", "Must be an object: { schedule: { day, window } }");
    else if (body.backups !== undefined) {
      const given = (body.backups as { schedule?: unknown }).schedule;
      const sched = (typeof given === "object" && given !== null ? given : {}) as { day?: unknown; window?: unknown };
      const days = ["Scheduling", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
      const windows = ["Scheduling", ...Array.from({ length: 12 }, (_, i) => `W${i * 2}`)];
      if (sched.day !== undefined && !days.includes(sched.day as string)) errors.add("backups.schedule.day", `Must be one of ${days.join(", ")}`);
      if (sched.window !== undefined && !windows.includes(sched.window as string))
        errors.add("backups.schedule.window", `Must be one of ${windows.join(", ")}`);
      const schedule = {
        day: (sched.day as string | undefined) ?? inst.backups.schedule.day,
        window: (sched.window as string | undefined) ?? inst.backups.schedule.window,
      };
      next.backups = { ...inst.backups, schedule };
    }
    errors.throwIfAny();
    Object.assign(inst, next, { updated: stamp() });
    instanceNote("compute_update", ctx.user!.username, inst);
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
    instanceEvent("compute_delete", ctx.user!.username, inst);
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
  const monthArgs = (ctx: RequestContext, yearRange?: [number, number]) => {
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
