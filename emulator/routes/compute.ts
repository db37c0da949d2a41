import { createHash, randomUUID } from "node:crypto";
import {
  DEVICE_SLOTS,
  WEAK_PASSWORD,
  instanceLabelError,
  interfacesError,
  lengthError,
  rootPassError,
  sshPublicKeyError,
} from "../../provider/rules";
import { FieldErrors, jsonObject, badRequest, forbidden, notFound, paginate, type RequestContext, type Router } from "../http";
import {
  apiTime,
  settle,
  view,
  type BackupRecord,
  type ConfigRecord,
  type DiskRecord,
  type InstanceRecord,
  type InterfaceRecord,
  type Store,
  type User,
} from "../state";
import { catalog } from "./reference";

/** How long each transition lasts at speed 1 (ms); `--speed` multiplies them. */
export const BASE_MS = {
  provisioning: 8000,
  booting: 3000,
  rebooting: 4000,
  shutting_down: 3000,
  rebuilding: 8000,
  migrating: 10000,
  cloning: 8000,
  restoring: 8000,
  disk: 3000,
  snapshot: 10000,
  deleting: 2000,
};

/** The status a record reaches when its delete has finished: it is then removed. */
const GONE = "__gone";

export interface Timing {
  speed: number;
}

/** What other route groups (VPCs) tell the compute routes about subnets. */
export interface SubnetLookup {
  (id: number): { vpc_id: number; region: string; ipv4: string } | undefined;
  /** A free address in the subnet (not in `taken`), or undefined when it is full. */
  allocate?(id: number, taken?: string[]): string | undefined;
}

const ro = { group: "computes", level: "read_only" } as const;
const rw = { group: "computes", level: "read_write" } as const;
type Body = Record<string, unknown>;

const hash = (s: string) => createHash("sha256").update(s).digest("hex");
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const busyError = () => badRequest("The instance has running or queued actions: wait for them to finish");

/** Finds an image a user may deploy (public, or their own private one). */
export type ImageFinder = (id: string, username: string | undefined) => { id: string; label: string; capabilities: string[]; size: number; status: string } | undefined;

export function registerComputeRoutes(router: Router, store: Store, now: () => number, timing: Timing, subnet: SubnetLookup, findImage: ImageFinder): void {
  const d = store.data;
  const dur = (k: keyof typeof BASE_MS) => Math.round(BASE_MS[k] * timing.speed);
  const stamp = () => apiTime(now());
  const typeOf = (id: string) => catalog.types.find((t) => t.id === id);
  const regionOf = (id: string) => catalog.regions.find((r) => r.id === id);

  // ---- access -------------------------------------------------------------------------------------
  const canSee = (u: User, id: number, level: "read_only" | "read_write") => {
    if (!u.restricted) return true;
    const g = u.grants?.compute.find((x) => x.id === id);
    return level === "read_only" ? Boolean(g?.permissions) : g?.permissions === "read_write";
  };
  const requireAdd = (u: User) => {
    if (u.restricted && !u.grants?.global.add_computes) throw forbidden("You do not have permission to add compute instances: the add_computes grant is needed");
  };
  /** Removes what finished deleting (an instance with its disks, profiles and backups). */
  const purge = () => {
    for (const i of d.instances) settle(i, now());
    const gone = new Set(d.instances.filter((i) => i.status === GONE).map((i) => i.id));
    if (!gone.size) return;
    d.instances = d.instances.filter((i) => !gone.has(i.id));
    d.disks = d.disks.filter((x) => !gone.has(x.compute_id));
    d.configs = d.configs.filter((x) => !gone.has(x.compute_id));
    d.backups = d.backups.filter((x) => !gone.has(x.compute_id));
    for (const u of d.users) if (u.grants) u.grants.compute = u.grants.compute.filter((g) => !gone.has(g.id));
  };
  const instance = (ctx: RequestContext, level: "read_only" | "read_write" = "read_only"): InstanceRecord => {
    purge();
    const inst = d.instances.find((i) => String(i.id) === ctx.params.computeId);
    if (!inst || !canSee(ctx.user!, inst.id, "read_only")) throw notFound();
    if (!canSee(ctx.user!, inst.id, level)) throw forbidden("You have only read access to this instance");
    settleAll(inst);
    return inst;
  };
  const disksOf = (id: number) => d.disks.filter((x) => x.compute_id === id).map((x) => settle(x, now()));
  const configsOf = (id: number) => d.configs.filter((x) => x.compute_id === id);
  const settleAll = (inst: InstanceRecord) => {
    settle(inst, now());
    for (const x of d.disks) if (x.compute_id === inst.id) settle(x, now());
    inst._clones = inst._clones.filter((t) => t > now());
  };
  const busy = (inst: InstanceRecord) => inst._queue.length > 0;
  const running = (inst: InstanceRecord) => inst.status === "running";

  const instanceView = (inst: InstanceRecord) => view(inst);
  const ifaceActive = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) =>
    running(inst) && inst._lastBootedConfig === cfg.id && inst._activeInterfaces.includes(i.id);
  const ifaceView = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) => ({ ...i, active: ifaceActive(inst, cfg, i) });
  const configView = (inst: InstanceRecord, cfg: ConfigRecord) => ({ ...view(cfg), interfaces: cfg.interfaces.map((i) => ifaceView(inst, cfg, i)) });
  const diskView = (x: DiskRecord) => view(x);

  // ---- addresses ----------------------------------------------------------------------------------
  const publicIp = (n: number) => `203.0.${113 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;
  const privateIp = (n: number) => `192.168.${128 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;

  // ---- shared validation --------------------------------------------------------------------------
  const checkKeys = (body: Body, errors: FieldErrors) => {
    if (body.authorized_keys !== undefined) {
      if (!Array.isArray(body.authorized_keys)) errors.add("authorized_keys", "Must be an array of SSH public keys");
      else body.authorized_keys.forEach((k, i) => {
        const e = typeof k === "string" ? sshPublicKeyError(k) : "must be a string";
        if (e) errors.add(`authorized_keys[${i}]`, e);
      });
    }
    if (body.authorized_users !== undefined) {
      if (!Array.isArray(body.authorized_users)) errors.add("authorized_users", "Must be an array of usernames");
      else for (const name of body.authorized_users) {
        if (typeof name !== "string" || !store.user(name)) errors.add("authorized_users", `User ${String(name)} does not exist`);
        else if (!d.sshkeys.some((k) => k.username === name)) errors.add("authorized_users", `User ${name} has no SSH key in their profile`);
      }
    }
  };
  const checkRootPass = (body: Body, errors: FieldErrors, needed: boolean) => {
    if (body.root_pass === undefined || body.root_pass === null) {
      if (needed) errors.add("root_pass", "root_pass is required when deploying from an image or a script");
      return;
    }
    if (typeof body.root_pass !== "string") return errors.add("root_pass", "Must be a string of 7 to 128 characters");
    const e = rootPassError(body.root_pass);
    if (e) errors.add("root_pass", e.startsWith(WEAK_PASSWORD) ? WEAK_PASSWORD : `root_pass ${e}`);
  };
  const checkImage = (body: Body, errors: FieldErrors, username: string) => {
    if (body.image === undefined || body.image === null) return undefined;
    const img = typeof body.image === "string" ? findImage(body.image, username) : undefined;
    if (!img) return void errors.add("image", `Image ${String(body.image)} not found`);
    if (img.status !== "available") return void errors.add("image", "Only available images can be deployed");
    return img;
  };
  const checkScript = (body: Body, errors: FieldErrors, image: string | undefined) => {
    if (body.script_id === undefined || body.script_id === null) return;
    const s = isInt(body.script_id) ? catalog.scripts.find((x) => x.id === body.script_id) : undefined;
    if (!s) return errors.add("script_id", `Deployment script ${String(body.script_id)} not found`);
    if (!image || !s.images.includes(image)) errors.add("script_id", `The deployment script needs one of these images: ${s.images.join(", ")}`);
    let data: Record<string, unknown> = {};
    if (body.script_data !== undefined) {
      if (typeof body.script_data !== "object" || body.script_data === null || Array.isArray(body.script_data)) return errors.add("script_data", "Must be a JSON object");
      if (JSON.stringify(body.script_data).length > 65535) return errors.add("script_data", "Must be at most 65535 characters");
      data = body.script_data as Record<string, unknown>;
    }
    for (const f of s.user_defined_fields) if (f.default === undefined && data[f.name] === undefined) errors.add("script_data", `The deployment script needs a value for ${f.name}`);
  };
  const checkMetadata = (body: Body, errors: FieldErrors, region: string | undefined, img: { capabilities: string[] } | undefined) => {
    if (body.metadata === undefined || body.metadata === null) return null;
    const md = body.metadata as { user_data?: unknown };
    if (typeof md !== "object" || (md.user_data !== undefined && typeof md.user_data !== "string")) return void errors.add("metadata.user_data", "Must be a base64-encoded string");
    if (md.user_data === undefined) return null;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(md.user_data as string)) errors.add("metadata.user_data", "Must be base64-encoded");
    if (!img || !img.capabilities.includes("cloud-init")) errors.add("metadata.user_data", "User data needs an image with the cloud-init capability");
    const r = region ? regionOf(region) : undefined;
    if (r && !r.capabilities.includes("Metadata")) errors.add("metadata.user_data", `Region ${r.id} does not have the Metadata capability`);
    return md.user_data as string;
  };
  const buildInterfaces = (list: unknown, errors: FieldErrors, field: string, allowEmpty: boolean, region: string | undefined): InterfaceRecord[] => {
    taken = [];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) {
      errors.add(field, "Must be an array of interfaces");
      return [];
    }
    const e = interfacesError(list as never[], allowEmpty);
    if (e) {
      errors.add(e.index === undefined ? field : `${field}[${e.index}].${e.field}`, e.reason);
      return [];
    }
    return (list as Body[]).map((i, index) => ifaceRecord(i, errors, `${field}[${index}]`, region));
  };
  /** Addresses handed out in the current request, not yet saved in any profile. */
  let taken: string[] = [];
  const ifaceRecord = (i: Body, errors: FieldErrors, field: string, region: string | undefined, keepId?: number): InterfaceRecord => {
    let vpc_id: number | null = null;
    let ipv4: InterfaceRecord["ipv4"] = null;
    const id = keepId ?? store.nextId("interface");
    if (i.purpose === "vpc") {
      const s = isInt(i.subnet_id) ? subnet(i.subnet_id) : undefined;
      if (!s) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} not found`);
      else if (region && s.region !== region) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} is in region ${s.region}, not ${region}`);
      else {
        vpc_id = s.vpc_id;
        const req = (i.ipv4 ?? {}) as { vpc?: unknown; nat_1_1?: unknown };
        const address = typeof req.vpc === "string" ? req.vpc : subnet.allocate?.(i.subnet_id as number, taken);
        if (!address) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} has no free address`);
        else taken.push(address);
        ipv4 = { vpc: address ?? null, nat_1_1: req.nat_1_1 === "any" ? "any" : typeof req.nat_1_1 === "string" ? req.nat_1_1 : null };
      }
    }
    if (i.ipam_address !== undefined && i.ipam_address !== null && (typeof i.ipam_address !== "string" || !/^\d+\.\d+\.\d+\.\d+\/\d+$/.test(i.ipam_address))) {
      errors.add(`${field}.ipam_address`, "Must be an IPv4 address with a netmask, for example 10.0.0.1/24");
    }
    return {
      id,
      purpose: i.purpose as InterfaceRecord["purpose"],
      label: i.purpose === "vlan" ? (i.label as string) : null,
      ipam_address: i.purpose === "vlan" ? ((i.ipam_address as string | undefined) ?? null) : null,
      primary: i.primary === true,
      subnet_id: i.purpose === "vpc" ? (i.subnet_id as number) : null,
      vpc_id,
      ipv4,
      ip_ranges: i.purpose === "vpc" && Array.isArray(i.ip_ranges) ? (i.ip_ranges as string[]) : i.purpose === "vpc" ? [] : null,
    };
  };

  const helpersDefault = () => ({ updatedb_disabled: true, distro: true, modules_dep: true, network: true, devtmpfs_automount: true });
  const newDisk = (computeId: number, label: string, size: number, filesystem: DiskRecord["filesystem"], readyIn: number): DiskRecord => {
    const disk: DiskRecord = { id: store.nextId("disk"), compute_id: computeId, label, size, filesystem, status: readyIn > 0 ? "not ready" : "ready", created: stamp(), updated: stamp(), _queue: [] };
    if (readyIn > 0) disk._queue.push({ status: "ready", at: now() + readyIn });
    d.disks.push(disk);
    return disk;
  };
  const newConfig = (computeId: number, fields: Partial<ConfigRecord> & { label: string }): ConfigRecord => {
    const inst = d.instances.find((i) => i.id === computeId)!;
    const cfg: ConfigRecord = {
      id: store.nextId("config"),
      compute_id: computeId,
      comments: null,
      devices: Object.fromEntries(DEVICE_SLOTS.map((s) => [s, null])),
      helpers: helpersDefault(),
      interfaces: [],
      kernel: "compute/latest-64bit",
      memory_limit: typeOf(inst.type)?.memory ?? 0,
      root_device: "/dev/sda",
      run_level: "default",
      virt_mode: "paravirt",
      created: stamp(),
      updated: stamp(),
      ...fields,
    };
    d.configs.push(cfg);
    return cfg;
  };
  /** The two disks and the profile of an image (or script) deploy. */
  const deployImage = (inst: InstanceRecord, img: { label: string }, swap: number, interfaces: InterfaceRecord[], readyIn: number) => {
    const type = typeOf(inst.type)!;
    const main = newDisk(inst.id, `${img.label} Disk`, type.disk - swap, "ext4", readyIn);
    const devices: ConfigRecord["devices"] = Object.fromEntries(DEVICE_SLOTS.map((s) => [s, null]));
    devices.sda = { disk_id: main.id, volume_id: null };
    if (swap > 0) devices.sdb = { disk_id: newDisk(inst.id, `${swap} MB Swap Image`, swap, "swap", readyIn).id, volume_id: null };
    return newConfig(inst.id, { label: `My ${img.label} Disk Profile`, devices, interfaces });
  };
  const usedDisk = (id: number) => disksOf(id).reduce((n, x) => n + x.size, 0);

  // ---- instances ----------------------------------------------------------------------------------
  router.add("GET", "/compute/instances", { scope: ro, auth: "required" }, (ctx) => {
    purge();
    return paginate(d.instances.filter((i) => canSee(ctx.user!, i.id, "read_only")).map(instanceView), ctx.query);
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
        if (backup.status !== "successful" || !backup.available) errors.add("backup_id", "Only successful backups that are not under maintenance can be restored");
        else if (type && backup.disks.reduce((n, x) => n + x.size, 0) > type.disk) errors.add("type", "The type is too small for the backup's disks");
      }
    }
    for (const k of ["backups_enabled", "booted", "private_ip"] as const) if (body[k] !== undefined && typeof body[k] !== "boolean") errors.add(k, "Must be a boolean");
    if (body.swap_size !== undefined && (!isInt(body.swap_size) || body.swap_size < 0)) errors.add("swap_size", "Must be a whole number of MB, 0 or more");
    if (body.firewall_id !== undefined && body.firewall_id !== null && !isInt(body.firewall_id)) errors.add("firewall_id", "Must be an integer");
    if (body.group !== undefined && (typeof body.group !== "string" || body.group.length > 50)) errors.add("group", "Must be a string of at most 50 characters");
    if (body.tags !== undefined && (!Array.isArray(body.tags) || body.tags.some((t) => typeof t !== "string" || t.length < 3 || t.length > 50))) errors.add("tags", "Must be an array of tags of 3 to 50 characters");
    if (body.interfaces !== undefined && Array.isArray(body.interfaces) && body.interfaces.length === 0) errors.add("interfaces", "must have 1 to 3 interfaces");
    const interfaces = buildInterfaces(body.interfaces, errors, "interfaces", false, region?.id);
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
    store.event("compute_create", user.username, { id, type: "compute", label: inst.label });
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
      if (!Array.isArray(body.tags) || body.tags.some((t) => typeof t !== "string" || t.length < 3 || t.length > 50)) errors.add("tags", "Must be an array of tags of 3 to 50 characters");
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
    if (body.backups !== undefined) {
      const sched = (body.backups as { schedule?: { day?: unknown; window?: unknown } }).schedule ?? {};
      const days = ["Scheduling", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
      const windows = ["Scheduling", ...Array.from({ length: 12 }, (_, i) => `W${i * 2}`)];
      if (sched.day !== undefined && !days.includes(sched.day as string)) errors.add("backups.schedule.day", `Must be one of ${days.join(", ")}`);
      if (sched.window !== undefined && !windows.includes(sched.window as string)) errors.add("backups.schedule.window", `Must be one of ${windows.join(", ")}`);
      next.backups = { ...inst.backups, schedule: { day: (sched.day as string | undefined) ?? inst.backups.schedule.day, window: (sched.window as string | undefined) ?? inst.backups.schedule.window } };
    }
    errors.throwIfAny();
    Object.assign(inst, next, { updated: stamp() });
    store.event("compute_update", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    store.event("compute_delete", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    purge();
    return {};
  });

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
    if (busy(inst)) throw busyError();
    if (running(inst)) return {}; // already running: nothing to do (a repeated boot is harmless)
    bootInto(inst, pickConfig(inst, body.config_id, false), "booting", dur("booting"));
    store.event("compute_boot", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/reboot", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (busy(inst)) throw busyError();
    bootInto(inst, pickConfig(inst, body.config_id, true), "rebooting", dur("rebooting"));
    store.event("compute_reboot", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/shutdown", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    if (busy(inst)) throw busyError();
    if (inst.status === "offline") return {};
    inst.status = "shutting_down";
    inst._queue.push({ status: "offline", at: now() + dur("shutting_down"), patch: { _activeInterfaces: [] } });
    settleAll(inst);
    store.event("compute_shutdown", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    inst._queue.push({ status: back, at, patch: { type: to.id, specs: { disk: to.disk, gpus: to.gpus, memory: to.memory, transfer: to.transfer, vcpus: to.vcpus } } });
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
    if (typeof body.type !== "string") errors.add("type", "type is required");
    if (body.allow_auto_disk_resize !== undefined && typeof body.allow_auto_disk_resize !== "boolean") errors.add("allow_auto_disk_resize", "Must be a boolean");
    if (body.migration_type !== undefined && body.migration_type !== "warm" && body.migration_type !== "cold") errors.add("migration_type", "Must be warm or cold");
    errors.throwIfAny();
    if (busy(inst)) throw busyError();
    migrate(inst, body.type as string, body.allow_auto_disk_resize !== false, "type");
    store.event("compute_resize", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/mutate", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (busy(inst)) throw busyError();
    const successor = typeOf(inst.type)?.successor;
    if (!successor) throw badRequest(`Type ${inst.type} has no upgrade available`);
    migrate(inst, successor, body.allow_auto_disk_resize !== false, "type");
    store.event("compute_mutate", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/rebuild", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    if (body.image === undefined) errors.add("image", "image is required");
    const img = checkImage(body, errors, ctx.user!.username);
    checkRootPass(body, errors, true);
    checkKeys(body, errors);
    checkScript(body, errors, img?.id);
    const userData = checkMetadata(body, errors, inst.region, img);
    if (body.booted !== undefined && typeof body.booted !== "boolean") errors.add("booted", "Must be a boolean");
    if (body.type !== undefined && (typeof body.type !== "string" || !typeOf(body.type))) errors.add("type", `Type ${String(body.type)} not found`);
    errors.throwIfAny();
    if (busy(inst)) throw busyError();
    const keepIfaces = configsOf(inst.id).find((c) => c.id === inst._lastBootedConfig)?.interfaces ?? configsOf(inst.id)[0]?.interfaces ?? [];
    d.disks = d.disks.filter((x) => x.compute_id !== inst.id);
    d.configs = d.configs.filter((x) => x.compute_id !== inst.id);
    if (typeof body.type === "string" && body.type !== inst.type) {
      const to = typeOf(body.type)!;
      Object.assign(inst, { type: to.id, specs: { disk: to.disk, gpus: to.gpus, memory: to.memory, transfer: to.transfer, vcpus: to.vcpus } });
    }
    const ms = dur("rebuilding") + (body.type && body.type !== inst.type ? dur("migrating") : 0);
    const cfg = deployImage(inst, img!, 512, keepIfaces, ms);
    Object.assign(inst, { image: img!.id, status: "rebuilding", _rootPassHash: hash(body.root_pass as string), _activeInterfaces: [], has_user_data: Boolean(userData) || inst.has_user_data, updated: stamp() });
    const booted = body.booted !== false;
    inst._queue.push({ status: booted ? "running" : "offline", at: now() + ms, patch: booted ? { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) } : { _lastBootedConfig: null } });
    settleAll(inst);
    store.event("compute_rebuild", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return instanceView(inst);
  });

  router.add("POST", "/compute/instances/{computeId}/password", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    checkRootPass(body, errors, true);
    errors.throwIfAny();
    if (inst.status !== "offline" || busy(inst)) throw badRequest("The instance must be shut down to reset the root password");
    const data = disksOf(inst.id).filter((x) => x.filesystem !== "swap");
    if (data.length === 0) throw badRequest("The instance has no disk to set a password on");
    if (data.length > 1) throw badRequest("The instance has several non-swap disks: use the per-disk password reset");
    inst._rootPassHash = hash(body.root_pass as string);
    store.event("password_reset", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/rescue", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const devices = (body.devices ?? {}) as Record<string, unknown>;
    if (typeof devices !== "object") throw badRequest("Must be an object of devices", "devices");
    const errors = new FieldErrors();
    for (const [slot, dev] of Object.entries(devices)) {
      if (slot === "sdh") errors.add("devices.sdh", "Device sdh is reserved in rescue mode");
      else if (!(DEVICE_SLOTS as readonly string[]).includes(slot)) errors.add(`devices.${slot}`, "Unknown device slot; use sda to sdg");
      else if (dev !== null && typeof dev === "object") {
        const id = (dev as { disk_id?: unknown }).disk_id;
        if (id !== null && id !== undefined && !disksOf(inst.id).some((x) => x.id === id)) errors.add(`devices.${slot}.disk_id`, `Disk ${String(id)} is not a disk of this instance`);
      }
    }
    errors.throwIfAny();
    if (busy(inst)) throw busyError();
    inst.status = "rebooting";
    inst._queue.push({ status: "running", at: now() + dur("rebooting"), patch: { _activeInterfaces: [] } });
    settleAll(inst);
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/clone", { scope: rw, auth: "required" }, (ctx) => {
    const src = instance(ctx, "read_only");
    const body = jsonObject(ctx);
    const user = ctx.user!;
    requireAdd(user);
    if (src._clones.length >= 5) throw badRequest("More than five concurrent clones from one instance are not allowed");
    const errors = new FieldErrors();
    const srcCfgs = configsOf(src.id);
    if (src.has_user_data && !(body.metadata as { user_data?: unknown } | undefined)?.user_data) errors.add("metadata.user_data", "This instance has user data: the clone needs metadata.user_data");
    const pickDisks = Array.isArray(body.disks) ? disksOf(src.id).filter((x) => (body.disks as unknown[]).includes(x.id)) : disksOf(src.id);
    const pickCfgs = Array.isArray(body.configs) ? srcCfgs.filter((c) => (body.configs as unknown[]).includes(c.id)) : srcCfgs;
    let target: InstanceRecord | undefined;
    const region = (body.region as string | undefined) ?? src.region;
    if (body.compute_id !== undefined) {
      target = isInt(body.compute_id) ? d.instances.find((i) => i.id === body.compute_id && canSee(user, i.id, "read_write")) : undefined;
      if (!target) errors.add("compute_id", `Instance ${String(body.compute_id)} not found`);
      else {
        settleAll(target);
        if (busy(target)) errors.add("compute_id", "The target instance has running or queued actions");
        const free = typeOf(target.type)!.disk - usedDisk(target.id);
        if (pickDisks.reduce((n, x) => n + x.size, 0) > free) errors.add("compute_id", "The target instance does not have enough free disk space");
      }
    } else {
      if (!regionOf(region)) errors.add("region", `Region ${region} not found`);
      const t = typeOf((body.type as string | undefined) ?? "");
      if (!t) errors.add("type", "type is required for a new target instance");
      else if (pickDisks.reduce((n, x) => n + x.size, 0) > t.disk) errors.add("type", "The type is too small for the disks to clone");
      if (body.label !== undefined) {
        const e = typeof body.label === "string" ? instanceLabelError(body.label) : "must be a string";
        if (e) errors.add("label", `Label ${e}`);
        else if (d.instances.some((i) => i.label === body.label)) errors.add("label", "Label must be unique among your instances");
      }
      const hasVlan = srcCfgs.some((c) => c.interfaces.some((i) => i.purpose === "vlan"));
      if (hasVlan && !regionOf(region)?.capabilities.includes("Vlans")) errors.add("region", `The instance has a VLAN interface and region ${region} has no VLAN support`);
    }
    errors.throwIfAny();
    const done = now() + dur("cloning");
    if (!target) {
      const t = typeOf(body.type as string)!;
      const id = store.nextId("instance");
      target = {
        ...structuredClone(src),
        id,
        label: (body.label as string | undefined) ?? `compute${id}`,
        group: (body.group as string | undefined) ?? src.group,
        region,
        type: t.id,
        specs: { disk: t.disk, gpus: t.gpus, memory: t.memory, transfer: t.transfer, vcpus: t.vcpus },
        created: stamp(),
        updated: stamp(),
        host_uuid: randomUUID(),
        ipv4: body.private_ip === true ? [publicIp(store.nextId("ipv4")), privateIp(store.nextId("private_ip"))] : [publicIp(store.nextId("ipv4"))],
        ipv6: `2001:db8::${id.toString(16)}/128`,
        backups: { available: false, enabled: body.backups_enabled === true, last_successful: null, schedule: { day: null, window: null } },
        tags: [...src.tags],
        _owner: user.username,
        _queue: [],
        _lastBootedConfig: null,
        _activeInterfaces: [],
        _clones: [],
      };
      d.instances.push(target);
      if (user.restricted) user.grants!.compute.push({ id, label: target.label, permissions: "read_write" });
    }
    const tgt = target;
    const diskMap = new Map<number, number>();
    for (const x of pickDisks) diskMap.set(x.id, newDisk(tgt.id, x.label, x.size, x.filesystem, dur("cloning")).id);
    for (const c of pickCfgs) {
      const devices = Object.fromEntries(Object.entries(c.devices).map(([k, v]) => [k, v && v.disk_id !== null ? { disk_id: diskMap.get(v.disk_id) ?? null, volume_id: v.volume_id } : v]));
      const interfaces = c.interfaces.map((i) => ({ ...i, id: store.nextId("interface"), ipv4: i.ipv4 ? { vpc: i.ipv4.vpc, nat_1_1: i.ipv4.nat_1_1 ? "any" : null } : null }));
      newConfig(tgt.id, { ...structuredClone(view(c) as unknown as ConfigRecord), devices, interfaces });
    }
    tgt.status = "cloning";
    tgt._queue.push({ status: "offline", at: done });
    src._clones.push(done);
    store.event("compute_clone", user.username, { id: src.id, type: "compute", label: src.label });
    settleAll(tgt);
    return instanceView(tgt);
  });

  // ---- backups ------------------------------------------------------------------------------------
  const backupsOf = (id: number) => d.backups.filter((b) => b.compute_id === id).map((b) => settle(b, now()));
  const backupView = (b: BackupRecord) => view(b);
  const snapshotOf = (inst: InstanceRecord, label: string | null, type: BackupRecord["type"]): BackupRecord => {
    const disks = disksOf(inst.id);
    const cfgs = configsOf(inst.id);
    const at = now();
    return {
      id: store.nextId("backup"),
      compute_id: inst.id,
      label,
      type,
      status: "pending",
      available: true,
      configs: cfgs.map((c) => c.label),
      disks: disks.map((x) => ({ label: x.label, size: x.size, filesystem: x.filesystem })),
      created: apiTime(at),
      finished: null,
      updated: apiTime(at),
      region: inst.region,
      _queue: [
        { status: "running", at: at + Math.round(dur("snapshot") / 3) },
        { status: "successful", at: at + dur("snapshot"), patch: { finished: apiTime(at + dur("snapshot")) } },
      ],
      _source: {
        disks: disks.map((x) => ({ srcId: x.id, label: x.label, size: x.size, filesystem: x.filesystem })),
        configs: cfgs.map(({ id: _i, compute_id: _c, ...rest }) => structuredClone(rest)),
        type: inst.type,
        rootPassHash: inst._rootPassHash,
      },
    };
  };
  /** Recreates a backup's disks and configs on an instance (device slots follow the disks); returns the new configs. */
  function restoreInto(inst: InstanceRecord, b: BackupRecord, readyIn: number): ConfigRecord[] {
    const map = new Map<number, number>();
    for (const x of b._source.disks) map.set(x.srcId, newDisk(inst.id, x.label, x.size, x.filesystem, readyIn).id);
    return b._source.configs.map((c) => {
      const devices = Object.fromEntries(
        Object.entries(c.devices).map(([slot, v]) => [slot, v && v.disk_id !== null ? { disk_id: map.get(v.disk_id) ?? null, volume_id: null } : null]),
      );
      return newConfig(inst.id, { ...structuredClone(c), devices, interfaces: c.interfaces.map((i) => ({ ...i, id: store.nextId("interface") })) });
    });
  }

  router.add("GET", "/compute/instances/{computeId}/backups", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    const all = backupsOf(inst.id);
    const snaps = all.filter((b) => b.type === "snapshot");
    const current = snaps.filter((b) => b.status === "successful").pop() ?? null;
    const inProgress = snaps.find((b) => b.status === "pending" || b.status === "running") ?? null;
    return {
      automatic: all.filter((b) => b.type === "auto").map(backupView),
      snapshot: { current: current && backupView(current), in_progress: inProgress && backupView(inProgress) },
    };
  });

  router.add("POST", "/compute/instances/{computeId}/backups", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    if (typeof body.label !== "string") throw badRequest("label is required", "label");
    const e = lengthError(body.label, 1, 255);
    if (e) throw badRequest(`Label ${e}`, "label");
    if (!inst.backups.enabled) throw badRequest("The backup service is not enabled on this instance");
    if (backupsOf(inst.id).some((b) => b.status === "pending" || b.status === "running")) throw badRequest("A backup is already in progress");
    // A new snapshot replaces the existing one.
    d.backups = d.backups.filter((b) => !(b.compute_id === inst.id && b.type === "snapshot"));
    const snap = snapshotOf(inst, body.label, "snapshot");
    d.backups.push(snap);
    store.event("backups_snapshot", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return backupView(snap);
  });

  router.add("POST", "/compute/instances/{computeId}/backups/enable", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    inst.backups = { ...inst.backups, enabled: true, available: true };
    store.event("backups_enable", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  router.add("POST", "/compute/instances/{computeId}/backups/cancel", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    inst.backups = { ...inst.backups, enabled: false, available: false, last_successful: null };
    d.backups = d.backups.filter((b) => b.compute_id !== inst.id);
    store.event("backups_cancel", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  const backup = (ctx: RequestContext, inst: InstanceRecord) => {
    const b = backupsOf(inst.id).find((x) => String(x.id) === ctx.params.backupId);
    if (!b) throw notFound();
    return b;
  };
  router.add("GET", "/compute/instances/{computeId}/backups/{backupId}", { scope: ro, auth: "required" }, (ctx) => backupView(backup(ctx, instance(ctx))));

  router.add("POST", "/compute/instances/{computeId}/backups/{backupId}/restore", { scope: rw, auth: "required" }, (ctx) => {
    const src = instance(ctx, "read_only");
    const b = backup(ctx, src);
    const body = jsonObject(ctx);
    if (!isInt(body.compute_id)) throw badRequest("compute_id is required", "compute_id");
    const target = d.instances.find((i) => i.id === body.compute_id && canSee(ctx.user!, i.id, "read_write"));
    if (!target) throw badRequest(`Instance ${body.compute_id} not found`, "compute_id");
    settleAll(target);
    if (target.region !== b.region) throw badRequest("A backup cannot be restored to an instance in another region", "compute_id");
    if (b.status !== "successful" || !b.available) throw badRequest("Only successful backups that are not under maintenance can be restored");
    if (backupsOf(target.id).some((x) => x.status === "pending" || x.status === "running")) throw badRequest("The target instance is creating a backup", "compute_id");
    if (busy(target)) throw busyError();
    const need = b.disks.reduce((n, x) => n + x.size, 0);
    if (body.overwrite === true) {
      d.disks = d.disks.filter((x) => x.compute_id !== target.id);
      d.configs = d.configs.filter((x) => x.compute_id !== target.id);
    } else if (need > typeOf(target.type)!.disk - usedDisk(target.id)) {
      throw badRequest(`Insufficient space on the target instance: the backup needs ${need} MB; restore with overwrite true or free disk space`, "overwrite");
    }
    restoreInto(target, b, dur("restoring"));
    target.status = "restoring";
    target._activeInterfaces = [];
    target._queue.push({ status: "offline", at: now() + dur("restoring") });
    if (body.overwrite === true) target._rootPassHash = b._source.rootPassHash;
    settleAll(target);
    store.event("backups_restore", ctx.user!.username, { id: target.id, type: "compute", label: target.label });
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
    if (!/^\d+$/.test(ctx.params.year) || (yearRange && (year < yearRange[0] || year > yearRange[1]))) errors.add("year", yearRange ? `Must be an integer from ${yearRange[0]} to ${yearRange[1]}` : "Must be an integer");
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
  router.add("GET", "/compute/instances/{computeId}/volumes", { scope: ro, auth: "required" }, (ctx) => (instance(ctx), paginate([], ctx.query)));
  router.add("GET", "/compute/instances/{computeId}/nodebalancers", { scope: ro, auth: "required" }, (ctx) => (instance(ctx), paginate([], ctx.query)));

  // ---- configs and interfaces ---------------------------------------------------------------------
  const config = (ctx: RequestContext, inst: InstanceRecord) => {
    const c = configsOf(inst.id).find((x) => String(x.id) === ctx.params.configId);
    if (!c) throw notFound();
    return c;
  };
  /** Validates profile fields (all optional here; create checks label and devices are present). */
  const configFields = (inst: InstanceRecord, body: Body, errors: FieldErrors, existing?: ConfigRecord): Partial<ConfigRecord> => {
    const out: Partial<ConfigRecord> = {};
    if (body.label !== undefined) {
      const e = typeof body.label === "string" ? lengthError(body.label, 1, 48) : "must be a string";
      if (e) errors.add("label", `Label ${e}`);
      else out.label = body.label as string;
    }
    if (body.comments !== undefined) {
      if (body.comments !== null && typeof body.comments !== "string") errors.add("comments", "Must be a string or null");
      else out.comments = body.comments as string | null;
    }
    if (body.devices !== undefined) {
      if (typeof body.devices !== "object" || body.devices === null || Array.isArray(body.devices)) errors.add("devices", "Must be an object keyed sda to sdh");
      else {
        const devices: ConfigRecord["devices"] = Object.fromEntries(DEVICE_SLOTS.map((s) => [s, null]));
        for (const [slot, dev] of Object.entries(body.devices as Body)) {
          if (!(DEVICE_SLOTS as readonly string[]).includes(slot)) {
            errors.add(`devices.${slot}`, "Unknown device slot; use sda to sdh");
            continue;
          }
          if (dev === null) continue;
          const v = dev as { disk_id?: unknown; volume_id?: unknown };
          const diskId = v.disk_id ?? null;
          if (diskId !== null && (!isInt(diskId) || !disksOf(inst.id).some((x) => x.id === diskId))) errors.add(`devices.${slot}.disk_id`, `Disk ${String(diskId)} is not a disk of this instance`);
          if (v.volume_id !== undefined && v.volume_id !== null) errors.add(`devices.${slot}.volume_id`, `Volume ${String(v.volume_id)} not found`);
          devices[slot] = { disk_id: diskId as number | null, volume_id: null };
        }
        out.devices = devices;
      }
    }
    if (body.helpers !== undefined) {
      const h = body.helpers as Body;
      const keys = ["updatedb_disabled", "distro", "modules_dep", "network", "devtmpfs_automount"];
      if (typeof h !== "object" || h === null) errors.add("helpers", "Must be an object of booleans");
      else {
        for (const [k, v] of Object.entries(h)) if (!keys.includes(k) || typeof v !== "boolean") errors.add(`helpers.${k}`, keys.includes(k) ? "Must be a boolean" : "Unknown helper");
        out.helpers = { ...(existing?.helpers ?? helpersDefault()), ...(h as Partial<ConfigRecord["helpers"]>) };
      }
    }
    if (body.kernel !== undefined) {
      if (typeof body.kernel !== "string" || !catalog.kernels.some((k) => k.id === body.kernel)) errors.add("kernel", `Kernel ${String(body.kernel)} not found`);
      else out.kernel = body.kernel;
    }
    if (body.memory_limit !== undefined) {
      const max = typeOf(inst.type)!.memory;
      if (!isInt(body.memory_limit) || body.memory_limit < 0 || body.memory_limit > max) errors.add("memory_limit", `Must be a whole number of MB from 0 to ${max}`);
      else out.memory_limit = body.memory_limit === 0 ? max : body.memory_limit;
    }
    if (body.root_device !== undefined) {
      if (typeof body.root_device !== "string" || !/^\/dev\/[a-z0-9/]+$/.test(body.root_device)) errors.add("root_device", "Must be a device path, for example /dev/sda");
      else out.root_device = body.root_device;
    }
    if (body.run_level !== undefined) {
      if (!["default", "single", "binbash"].includes(body.run_level as string)) errors.add("run_level", "Must be one of default, single, binbash");
      else out.run_level = body.run_level as ConfigRecord["run_level"];
    }
    if (body.virt_mode !== undefined) {
      if (!["paravirt", "fullvirt"].includes(body.virt_mode as string)) errors.add("virt_mode", "Must be one of paravirt, fullvirt");
      else out.virt_mode = body.virt_mode as ConfigRecord["virt_mode"];
    }
    if (body.interfaces !== undefined) {
      const list = body.interfaces;
      if (!Array.isArray(list)) errors.add("interfaces", "Must be an array of interfaces");
      else {
        const e = interfacesError(list as never[], true);
        if (e) errors.add(e.index === undefined ? "interfaces" : `interfaces[${e.index}].${e.field}`, e.reason);
        else {
          // Updating the interfaces redefines all of them (rule 5); an item that repeats an existing id keeps it.
          taken = [];
          out.interfaces = (list as Body[]).map((i, index) => {
            const old = existing?.interfaces.find((x) => x.id === i.id);
            return ifaceRecord(i, errors, `interfaces[${index}]`, inst.region, old?.id);
          });
        }
      }
    }
    return out;
  };

  router.add("GET", "/compute/instances/{computeId}/configs", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    return paginate(configsOf(inst.id).map((c) => configView(inst, c)), ctx.query);
  });
  router.add("POST", "/compute/instances/{computeId}/configs", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    if (body.label === undefined) errors.add("label", "label is required");
    if (body.devices === undefined) errors.add("devices", "devices is required");
    const fields = configFields(inst, body, errors);
    errors.throwIfAny();
    const cfg = newConfig(inst.id, { ...fields, label: fields.label! });
    store.event("compute_config_create", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    const fields = configFields(inst, jsonObject(ctx), errors, cfg);
    errors.throwIfAny();
    Object.assign(cfg, fields, { updated: stamp() });
    store.event("compute_config_update", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    store.event("compute_config_delete", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    const e = interfacesError([...cfg.interfaces.map((i) => ({ ...i, primary: body.primary === true ? false : i.primary })), body as never], true);
    if (e) throw badRequest(e.reason, e.index === undefined ? "interfaces" : e.field);
    const errors = new FieldErrors();
    taken = [];
    const rec = ifaceRecord(body, errors, "interface", inst.region);
    errors.throwIfAny();
    if (rec.primary) for (const i of cfg.interfaces) i.primary = false;
    cfg.interfaces.push(rec);
    store.event("compute_config_update", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return ifaceView(inst, cfg, rec);
  });
  router.add("POST", "/compute/instances/{computeId}/configs/{configId}/interfaces/order", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const cfg = config(ctx, inst);
    const ids = jsonObject(ctx).ids;
    const have = cfg.interfaces.map((i) => i.id).sort();
    if (!Array.isArray(ids) || ids.length !== have.length || [...ids].sort().some((x, i) => x !== have[i])) {
      throw badRequest("ids must list every interface of the profile exactly once", "ids");
    }
    cfg.interfaces = (ids as number[]).map((id) => cfg.interfaces.find((i) => i.id === id)!);
    store.event("compute_config_update", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    if (body.subnet_id !== undefined && body.subnet_id !== i.subnet_id) throw badRequest("subnet_id cannot be changed: add a new vpc interface to join another subnet", "subnet_id");
    if (i.purpose === "public") {
      const extra = Object.keys(body).filter((k) => !["primary", "purpose"].includes(k));
      if (extra.length) throw badRequest("Only primary can be updated on a public interface", extra[0]);
    }
    if (body.primary !== undefined && typeof body.primary !== "boolean") throw badRequest("Must be a boolean", "primary");
    if (body.primary === true) for (const x of cfg.interfaces) x.primary = false;
    if (body.primary !== undefined) i.primary = body.primary as boolean;
    if (i.purpose === "vpc") {
      if (body.ipv4 !== undefined) {
        const v = body.ipv4 as { vpc?: unknown; nat_1_1?: unknown };
        i.ipv4 = { vpc: typeof v.vpc === "string" ? v.vpc : i.ipv4!.vpc, nat_1_1: v.nat_1_1 === undefined ? i.ipv4!.nat_1_1 : (v.nat_1_1 as string | null) };
      }
      if (body.ip_ranges !== undefined) {
        if (!Array.isArray(body.ip_ranges) || body.ip_ranges.some((r) => typeof r !== "string")) throw badRequest("Must be an array of IPv4 CIDR ranges", "ip_ranges");
        i.ip_ranges = body.ip_ranges as string[];
      }
    }
    store.event("compute_config_update", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
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
    store.event("compute_config_update", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });

  // ---- disks --------------------------------------------------------------------------------------
  const disk = (ctx: RequestContext, inst: InstanceRecord) => {
    const x = disksOf(inst.id).find((y) => String(y.id) === ctx.params.diskId);
    if (!x) throw notFound();
    return x;
  };
  const inBootedConfig = (inst: InstanceRecord, diskId: number) => {
    const cfg = configsOf(inst.id).find((c) => c.id === inst._lastBootedConfig);
    return running(inst) && Boolean(cfg && Object.values(cfg.devices).some((v) => v?.disk_id === diskId));
  };
  router.add("GET", "/compute/instances/{computeId}/disks", { scope: ro, auth: "required" }, (ctx) => paginate(disksOf(instance(ctx).id).map(diskView), ctx.query));
  router.add("POST", "/compute/instances/{computeId}/disks", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    if (!isInt(body.size) || body.size < 1) errors.add("size", "size is required: a whole number of MB");
    const img = checkImage(body, errors, ctx.user!.username);
    if (body.label === undefined && !body.image) errors.add("label", "label is required for an empty disk");
    if (body.label !== undefined) {
      const e = typeof body.label === "string" ? lengthError(body.label, 1, 48) : "must be a string";
      if (e) errors.add("label", `Label ${e}`);
    }
    const fsList = ["raw", "swap", "ext3", "ext4", "initrd"];
    if (body.filesystem !== undefined && !fsList.includes(body.filesystem as string)) errors.add("filesystem", `Must be one of ${fsList.join(", ")}`);
    checkRootPass(body, errors, Boolean(img));
    checkKeys(body, errors);
    checkScript(body, errors, img?.id);
    if (img && isInt(body.size) && body.size < img.size) errors.add("size", `Image ${img.id} needs a disk of at least ${img.size} MB`);
    const free = typeOf(inst.type)!.disk - usedDisk(inst.id);
    if (isInt(body.size) && body.size > free) errors.add("size", `Only ${free} MB of the type's disk allowance is free`);
    errors.throwIfAny();
    const x = newDisk(inst.id, (body.label as string | undefined) ?? `${img!.label} Disk`, body.size as number, (body.filesystem as DiskRecord["filesystem"] | undefined) ?? "ext4", dur("disk"));
    store.event("disk_create", ctx.user!.username, { id: x.id, type: "disk", label: x.label });
    return diskView(x);
  });
  router.add("GET", "/compute/instances/{computeId}/disks/{diskId}", { scope: ro, auth: "required" }, (ctx) => {
    const inst = instance(ctx);
    return diskView(disk(ctx, inst));
  });
  router.add("PUT", "/compute/instances/{computeId}/disks/{diskId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const x = disk(ctx, inst);
    const body = jsonObject(ctx);
    if (body.label !== undefined) {
      const e = typeof body.label === "string" ? lengthError(body.label, 1, 48) : "must be a string";
      if (e) throw badRequest(`Label ${e}`, "label");
      x.label = body.label as string;
      x.updated = stamp();
    }
    return diskView(x);
  });
  router.add("POST", "/compute/instances/{computeId}/disks/{diskId}/resize", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const x = disk(ctx, inst);
    const body = jsonObject(ctx);
    if (!isInt(body.size) || body.size < 1) throw badRequest("size is required: a whole number of MB", "size");
    if (inst.status !== "offline" || busy(inst)) throw badRequest("The instance must be shut down to resize a disk");
    if (x.status !== "ready") throw badRequest("The disk is not ready");
    const free = typeOf(inst.type)!.disk - usedDisk(inst.id) + x.size;
    if (body.size > free) throw badRequest(`Only ${free} MB of the type's disk allowance is available for this disk`, "size");
    x.status = "not ready";
    x._queue.push({ status: "ready", at: now() + dur("disk"), patch: { size: body.size, updated: apiTime(now() + dur("disk")) } });
    settle(x, now());
    store.event("disk_resize", ctx.user!.username, { id: x.id, type: "disk", label: x.label });
    return {};
  });
  router.add("POST", "/compute/instances/{computeId}/disks/{diskId}/password", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    disk(ctx, inst);
    const errors = new FieldErrors();
    checkRootPass(jsonObject(ctx), errors, true);
    errors.throwIfAny();
    if (inst.status !== "offline" || busy(inst)) throw badRequest("The instance must be shut down to reset a disk's root password");
    store.event("password_reset", ctx.user!.username, { id: inst.id, type: "compute", label: inst.label });
    return {};
  });
  router.add("DELETE", "/compute/instances/{computeId}/disks/{diskId}", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const x = disk(ctx, inst);
    if (inBootedConfig(inst, x.id)) {
      throw badRequest("The disk is in use by the running instance's profile: shut the instance down first");
    }
    d.disks = d.disks.filter((y) => y !== x);
    for (const c of configsOf(inst.id)) for (const [slot, v] of Object.entries(c.devices)) if (v?.disk_id === x.id) c.devices[slot] = null;
    store.event("disk_delete", ctx.user!.username, { id: x.id, type: "disk", label: x.label });
    return {};
  });
}
