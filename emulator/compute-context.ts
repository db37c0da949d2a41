import { createHash } from "node:crypto";
import { catalog } from "./catalog";
import { FieldErrors, badRequest, forbidden, notFound, type RequestContext } from "./http";
import type { FamilyContext } from "./family";
import { FIND_IMAGE, SUBNETS } from "./lookups";
import { computeState, type BackupRecord, type ConfigRecord, type DiskRecord, type InstanceRecord, type InterfaceRecord } from "./routes/compute-records";
import { profileState } from "./routes/profile";
import { DEVICE_SLOTS, WEAK_PASSWORD, interfacesError, ipamAddressError, rootPassError, sshPublicKeyError } from "./rules";
import { apiTime, settle, view, type User } from "./state";
import { BASE_MS, scaled } from "./timing";

/**
 * What the compute route modules (instances, actions, backups, configs, disks) share: the store and the
 * compute collections in it, the clock and speed, the services of other families (subnets, images), and the
 * helpers that find, check, build and show records. Made once per emulator by `createComputeContext`. It
 * holds no request state: what one request needs (for example the VPC addresses it has handed out so far) is
 * a local of its handler, passed as an argument.
 */
export type ComputeContext = ReturnType<typeof createComputeContext>;

export type Body = Record<string, unknown>;

/** VPC addresses handed out in the current request, not yet saved in any profile (a handler's local). */
export type TakenAddresses = string[];

export const ro = { group: "computes", level: "read_only" } as const;
export const rw = { group: "computes", level: "read_write" } as const;

/** The status a record reaches when its delete has finished: it is then removed. */
export const GONE = "__gone";

export const hash = (s: string) => createHash("sha256").update(s).digest("hex");
export const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
export const busyError = () => badRequest("The instance has running or queued actions: wait for them to finish");

export function createComputeContext({ store, now, timing, services }: FamilyContext) {
  const d = computeState(store);
  const profile = profileState(store);
  const subnet = services.use(SUBNETS);
  const findImage = services.use(FIND_IMAGE);
  const dur = (k: keyof typeof BASE_MS) => scaled(BASE_MS[k], timing);
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
    if (u.restricted && !u.grants?.global.add_computes)
      throw forbidden("You do not have permission to add compute instances: the add_computes grant is needed");
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
    for (const u of store.data.users) if (u.grants) u.grants.compute = u.grants.compute.filter((g) => !gone.has(g.id));
  };
  const settleAll = (inst: InstanceRecord) => {
    settle(inst, now());
    for (const x of d.disks) if (x.compute_id === inst.id) settle(x, now());
    inst._clones = inst._clones.filter((t) => t > now());
  };
  /** The instance of the path (`{computeId}`): 404 when the user cannot see it, 403 when they may only read it. */
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
  const busy = (inst: InstanceRecord) => inst._queue.length > 0;
  const running = (inst: InstanceRecord) => inst.status === "running";
  const usedDisk = (id: number) => disksOf(id).reduce((n, x) => n + x.size, 0);

  // ---- views --------------------------------------------------------------------------------------
  // What the real API answers beyond the spec's tables, where the spec is silent (the recorded answers in
  // tests/fixtures/real-answers; tests/integration/real-answers-emulator.test.ts holds the emulator to them).
  // The catalogue's regions are all core sites without disk encryption; the emulator has no placement
  // groups, Kubernetes clusters or GPUs; its profiles carry their interfaces (the legacy generation of
  // interfaces); `compute/power_off_on` is the API's default maintenance policy.
  /** An instance as the API shows it. */
  const instanceView = (inst: InstanceRecord) => ({
    ...view(inst),
    specs: { ...inst.specs, accelerated_devices: 0 },
    site_type: "core",
    placement_group: null,
    lke_cluster_id: null,
    disk_encryption: "disabled",
    capabilities: [] as string[],
    interface_generation: "legacy_config",
    maintenance_policy: "compute/power_off_on",
  });
  const ifaceActive = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) =>
    running(inst) && inst._lastBootedConfig === cfg.id && inst._activeInterfaces.includes(i.id);
  /** An interface: its record, `active`, and no IPv6 (`ipv6` null: the emulator has no IPv6 in VPCs). */
  const ifaceView = (inst: InstanceRecord, cfg: ConfigRecord, i: InterfaceRecord) => ({ ...i, active: ifaceActive(inst, cfg, i), ipv6: null });
  /**
   * A profile: the record without `compute_id` (the instance is in the path; the real API never answers
   * it), `initrd` null (no initrd disk is ever set), its interfaces as shown.
   */
  const configView = (inst: InstanceRecord, cfg: ConfigRecord) => {
    const { compute_id: _instance, ...rest } = view(cfg);
    return { ...rest, initrd: null, interfaces: cfg.interfaces.map((i) => ifaceView(inst, cfg, i)) };
  };
  /** A disk: the record without `compute_id` (as the real API), and the instance's `disk_encryption`. */
  const diskView = (x: DiskRecord) => {
    const { compute_id: _instance, ...rest } = view(x);
    return { ...rest, disk_encryption: "disabled" };
  };

  // ---- addresses ----------------------------------------------------------------------------------
  const publicIp = (n: number) => `203.0.${113 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;
  const privateIp = (n: number) => `192.168.${128 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;

  // ---- shared validation --------------------------------------------------------------------------
  const checkKeys = (body: Body, errors: FieldErrors) => {
    if (body.authorized_keys !== undefined) {
      if (!Array.isArray(body.authorized_keys)) errors.add("authorized_keys", "Must be an array of SSH public keys");
      else {
        body.authorized_keys.forEach((k, i) => {
          const e = typeof k === "string" ? sshPublicKeyError(k) : "must be a string";
          if (e) errors.add(`authorized_keys[${i}]`, e);
        });
      }
    }
    if (body.authorized_users !== undefined) {
      if (!Array.isArray(body.authorized_users)) errors.add("authorized_users", "Must be an array of usernames");
      else {
        for (const name of body.authorized_users) {
          if (typeof name !== "string" || !store.user(name)) errors.add("authorized_users", `User ${String(name)} does not exist`);
          else if (!profile.sshkeys.some((k) => k.username === name)) errors.add("authorized_users", `User ${name} has no SSH key in their profile`);
        }
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
    const img = typeof body.image === "string" ? findImage()(body.image, username) : undefined;
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
      if (typeof body.script_data !== "object" || body.script_data === null || Array.isArray(body.script_data))
        return errors.add("script_data", "Must be a JSON object");
      if (JSON.stringify(body.script_data).length > 65535) return errors.add("script_data", "Must be at most 65535 characters");
      data = body.script_data as Record<string, unknown>;
    }
    for (const f of s.user_defined_fields)
      if (f.default === undefined && data[f.name] === undefined) errors.add("script_data", `The deployment script needs a value for ${f.name}`);
  };
  const checkMetadata = (body: Body, errors: FieldErrors, region: string | undefined, img: { capabilities: string[] } | undefined) => {
    if (body.metadata === undefined || body.metadata === null) return null;
    const md = body.metadata as { user_data?: unknown };
    if (typeof md !== "object" || (md.user_data !== undefined && typeof md.user_data !== "string"))
      return void errors.add("metadata.user_data", "Must be a base64-encoded string");
    if (md.user_data === undefined) return null;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(md.user_data)) errors.add("metadata.user_data", "Must be base64-encoded");
    if (!img || !img.capabilities.includes("cloud-init")) errors.add("metadata.user_data", "User data needs an image with the cloud-init capability");
    const r = region ? regionOf(region) : undefined;
    if (r && !r.capabilities.includes("Metadata")) errors.add("metadata.user_data", `Region ${r.id} does not have the Metadata capability`);
    return md.user_data;
  };

  // ---- interfaces ---------------------------------------------------------------------------------
  /** One interface record from a request item; a vpc interface without an address gets one not in `taken` (then added to it). */
  const ifaceRecord = (i: Body, errors: FieldErrors, field: string, region: string | undefined, taken: TakenAddresses, keepId?: number): InterfaceRecord => {
    let vpc_id: number | null = null;
    let ipv4: InterfaceRecord["ipv4"] = null;
    const id = keepId ?? store.nextId("interface");
    if (i.purpose === "vpc") {
      const s = isInt(i.subnet_id) ? subnet()(i.subnet_id) : undefined;
      if (!s) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} not found`);
      else if (region && s.region !== region) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} is in region ${s.region}, not ${region}`);
      else {
        vpc_id = s.vpc_id;
        const req = (i.ipv4 ?? {}) as { vpc?: unknown; nat_1_1?: unknown };
        const address = typeof req.vpc === "string" ? req.vpc : subnet().allocate?.(i.subnet_id as number, taken);
        if (!address) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} has no free address`);
        else taken.push(address);
        ipv4 = { vpc: address ?? null, nat_1_1: req.nat_1_1 === "any" ? "any" : typeof req.nat_1_1 === "string" ? req.nat_1_1 : null };
      }
    }
    const ipamError = i.ipam_address === undefined || i.ipam_address === null ? undefined : ipamAddressError(i.ipam_address);
    if (ipamError) errors.add(`${field}.ipam_address`, ipamError);
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
  /** The interfaces of a create body (`allowEmpty` false) or a profile: checked as a list, then each built. */
  const buildInterfaces = (
    list: unknown,
    errors: FieldErrors,
    field: string,
    allowEmpty: boolean,
    region: string | undefined,
    taken: TakenAddresses,
  ): InterfaceRecord[] => {
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
    return (list as Body[]).map((i, index) => ifaceRecord(i, errors, `${field}[${index}]`, region, taken));
  };

  // ---- disks and profiles -------------------------------------------------------------------------
  const helpersDefault = () => ({ updatedb_disabled: true, distro: true, modules_dep: true, network: true, devtmpfs_automount: true });
  const newDisk = (computeId: number, label: string, size: number, filesystem: DiskRecord["filesystem"], readyIn: number): DiskRecord => {
    const status = readyIn > 0 ? "not ready" : "ready";
    const disk: DiskRecord = {
      id: store.nextId("disk"),
      compute_id: computeId,
      label,
      size,
      filesystem,
      status,
      created: stamp(),
      updated: stamp(),
      _queue: [],
    };
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
  /** Recreates a backup's disks and configs on an instance (device slots follow the disks); returns the new configs. */
  const restoreInto = (inst: InstanceRecord, b: BackupRecord, readyIn: number): ConfigRecord[] => {
    const map = new Map<number, number>();
    for (const x of b._source.disks) map.set(x.srcId, newDisk(inst.id, x.label, x.size, x.filesystem, readyIn).id);
    return b._source.configs.map((c) => {
      const devices = Object.fromEntries(
        Object.entries(c.devices).map(([slot, v]) => [slot, v && v.disk_id !== null ? { disk_id: map.get(v.disk_id) ?? null, volume_id: null } : null]),
      );
      return newConfig(inst.id, { ...structuredClone(c), devices, interfaces: c.interfaces.map((i) => ({ ...i, id: store.nextId("interface") })) });
    });
  };

  return {
    store,
    d,
    now,
    timing,
    dur,
    stamp,
    typeOf,
    regionOf,
    canSee,
    requireAdd,
    purge,
    instance,
    settleAll,
    disksOf,
    configsOf,
    busy,
    running,
    usedDisk,
    instanceView,
    ifaceActive,
    ifaceView,
    configView,
    diskView,
    publicIp,
    privateIp,
    checkKeys,
    checkRootPass,
    checkImage,
    checkScript,
    checkMetadata,
    ifaceRecord,
    buildInterfaces,
    helpersDefault,
    newDisk,
    newConfig,
    deployImage,
    restoreInto,
  };
}
