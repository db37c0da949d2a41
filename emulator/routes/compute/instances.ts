import { randomUUID } from "node:crypto";
import { DEFAULT_SWAP_SIZE, instancesApi, type Instance } from "../../../api/contract/instances";
import type { InstanceType } from "../../../api/contract/reference";
import { badRequest, FieldErrors, forbidden, paginate } from "../../http";
import type { Req } from "../../router";
import { eventEntity, settle, type User } from "../../state";
import { GONE, hash, specsOf } from "./base";
import { row, type ComputeContext } from "./context";
import type { BackupRecord, ConfigRecord, InstanceRecord } from "./records";

/** Instances (`/compute/instances`, `I`): list, create, view, update, delete. */

type CreateReq = Req<typeof instancesApi.create>;

/** A create body, checked against the account's state: what the instance is made of. */
interface CreateRequest {
  user: User;
  body: CreateReq["body"];
  region: string;
  type: InstanceType;
  image?: NonNullable<ReturnType<ComputeContext["checkImage"]>>;
  backup?: BackupRecord;
  interfaces: ReturnType<ComputeContext["buildInterfaces"]>;
  userData: string | null;
}

/** A backup to create from: one the user can see, successful and available, whose disks fit the type. */
function checkBackup(c: ComputeContext, id: number, user: User, type: InstanceType | undefined, errors: FieldErrors): BackupRecord | undefined {
  const backup = c.d.backups.find((b) => b.id === id);
  const owner = backup && c.d.instances.find((i) => i.id === backup.compute_id);
  if (!backup || !owner || !c.canSee(user, owner.id, "read_only")) return void errors.add("backup_id", `Backup ${id} not found`);
  settle(backup, c.now());
  if (backup.status !== "successful" || !backup.available) errors.add("backup_id", "Only successful backups that are not under maintenance can be restored");
  else if (type && backup.disks.reduce((n, x) => n + x.size, 0) > type.disk) errors.add("type", "The type is too small for the backup's disks");
  return backup;
}

/** Checks a create body against the account's state, in the API's order; every refusal at once (400), else what to make. */
function checkCreate(c: ComputeContext, { user, body }: CreateReq): CreateRequest {
  c.requireAdd(user);
  if (body.tags !== undefined && user.restricted) throw forbidden("Only unrestricted users can add tags");
  const errors = new FieldErrors();
  const region = c.regionOf(body.region);
  if (!region) errors.add("region", `Region ${body.region} not found`);
  const type = c.typeOf(body.type);
  if (!type) errors.add("type", `Type ${body.type} not found`);
  c.checkLabel(body.label, errors);
  const image = c.checkImage(body.image, errors, user.username);
  c.checkDeploy(body, errors, image?.id);
  const userData = c.checkMetadata(body.metadata, errors, region?.id, image);
  const swap = body.swap_size ?? DEFAULT_SWAP_SIZE;
  if (image && type && type.disk - swap < image.size)
    errors.add(
      "swap_size",
      `A swap disk of ${swap} MB leaves ${type.disk - swap} MB of type ${type.id}'s ${type.disk} MB: image ${image.id} needs ${image.size} MB`,
    );
  const backup = body.backup_id === undefined ? undefined : checkBackup(c, body.backup_id, user, type, errors);
  const interfaces = c.buildInterfaces(body.interfaces ?? [], errors, "interfaces", region?.id, []);
  errors.throwIfAny();
  // With no refusal, the region and the type were found.
  if (!region || !type) throw badRequest("region and type are required");
  return { user, body, region: region.id, type, image, backup, interfaces, userData };
}

/** The new instance's record, offline and empty. */
function newInstance(c: ComputeContext, req: CreateRequest): InstanceRecord {
  const { store, stamp } = c;
  const { body, type } = req;
  const id = store.nextId("instance");
  const ipN = store.nextId("ipv4");
  return {
    id,
    label: body.label ?? `compute${id}`,
    group: body.group ?? "",
    status: "offline",
    region: req.region,
    type: type.id,
    image: req.image?.id ?? null,
    created: stamp(),
    updated: stamp(),
    hypervisor: "kvm",
    host_uuid: randomUUID(),
    has_user_data: Boolean(req.userData),
    ipv4: body.private_ip === true ? [c.publicIp(ipN), c.privateIp(store.nextId("private_ip"))] : [c.publicIp(ipN)],
    ipv6: `2001:db8::${id.toString(16)}/128`,
    specs: specsOf(type),
    alerts: { cpu: 90 * type.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
    backups: { available: false, enabled: body.backups_enabled === true, last_successful: null, schedule: { day: null, window: null } },
    tags: body.tags ?? [],
    watchdog_enabled: true,
    _owner: req.user.username,
    _queue: [],
    _lastBootedConfig: null,
    _activeInterfaces: [],
    _rootPassHash: body.root_pass == null ? null : hash(body.root_pass),
    _clones: [],
    _userData: req.userData,
  };
}

/**
 * Deploys the image (or restores the backup) into the new instance: `provisioning` until its disks are made, then
 * `booting` until it runs (recorded: provisioning, booting, running), or `offline` with `booted: false`.
 */
function deploy(c: ComputeContext, inst: InstanceRecord, req: CreateRequest): ConfigRecord | undefined {
  const { image, backup, body } = req;
  const booted = body.booted !== false;
  let cfg: ConfigRecord | undefined;
  if (image) cfg = c.deployImage(inst, image, body.swap_size ?? DEFAULT_SWAP_SIZE, req.interfaces, c.dur("provisioning"));
  else if (backup) cfg = c.restoreInto(inst, backup, c.dur("provisioning"))[0];
  if (!cfg && !backup) return undefined;
  inst.status = "provisioning";
  const made = c.now() + c.dur("provisioning");
  if (!booted) {
    inst._queue.push({ status: "offline", at: made });
  } else {
    const patch = cfg ? { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) } : {};
    inst._queue.push({ status: "booting", at: made }, { status: "running", at: made + c.dur("booting"), patch });
  }
  if (backup) inst._rootPassHash = backup._source.rootPassHash;
  return cfg;
}

/**
 * The create's events as recorded: `scheduled` at first (today's API: the first poll right after a create reads
 * it so), then `started`; the image its secondary entity; and when it boots, a boot event of the profile,
 * scheduled until the create's part is done, started while the instance is `booting`.
 */
function createEvents(c: ComputeContext, inst: InstanceRecord, req: CreateRequest, cfg: ConfigRecord | undefined): void {
  const { image: img, user } = req;
  const image = img ? eventEntity("image", img.id, img.label, `/images/${img.id}`) : null;
  const rests = inst._queue.at(-1)?.at ?? c.now();
  const booting = req.body.booted !== false && cfg && inst._queue.length;
  const createDone = booting ? Math.max(c.now(), rests - c.dur("booting")) : rests;
  const start = Math.min(c.now() + c.dur("scheduled"), createDone);
  c.instanceEvent("compute_create", user.username, inst, { start, finish: createDone, secondary: image });
  if (booting) c.instanceEvent("compute_boot", user.username, inst, { start: createDone, finish: rests, secondary: c.configEntity(cfg) });
}

function createInstance(c: ComputeContext, r: CreateReq): Instance {
  const req = checkCreate(c, r);
  const inst = newInstance(c, req);
  c.d.instances.push(inst);
  if (req.user.restricted) req.user.grants?.compute.push({ id: inst.id, label: inst.label, permissions: "read_write" });
  createEvents(c, inst, req, deploy(c, inst, req));
  // Answered with its first status (provisioning), as the real API answers a create, even when nothing takes time
  // (speed 0): the next read finds what is due.
  return c.instanceView(inst);
}

function updateInstance(c: ComputeContext, req: Req<typeof instancesApi.update>): Instance {
  const inst = c.instance(req, "read_write");
  const { body } = req;
  if (body.tags !== undefined && req.user.restricted) throw forbidden("Only unrestricted users can add or modify tags");
  const errors = new FieldErrors();
  c.checkLabel(body.label, errors, inst.id);
  errors.throwIfAny();
  const { alerts, backups, ...fields } = body;
  Object.assign(inst, fields, { updated: c.stamp() });
  if (alerts) inst.alerts = { ...inst.alerts, ...alerts };
  if (backups?.schedule) inst.backups = { ...inst.backups, schedule: { ...inst.backups.schedule, ...backups.schedule } };
  c.instanceNote("compute_update", req.user.username, inst);
  return c.instanceView(inst);
}

function deleteInstance(c: ComputeContext, req: Req<typeof instancesApi.delete>) {
  const inst = c.instance(req, "read_write");
  if (inst.status === "cloning" || inst.status === "restoring" || inst._clones.length > 0) {
    throw badRequest("An instance cannot be deleted while it is cloning or restoring from a backup; wait for that to finish");
  }
  if (inst.status === "deleting") return {};
  // deleting -> gone: the instance, then its disks, profiles and backups, are removed when it ends.
  inst.status = "deleting";
  inst._queue = [{ status: GONE, at: c.now() + c.dur("deleting") }];
  for (const x of c.disksOf(inst.id)) {
    x.status = "deleting";
    x._queue = [];
  }
  c.instanceEvent("compute_delete", req.user.username, inst);
  c.purge();
  return {};
}

export const INSTANCE_ROWS = [
  row(instancesApi.list, (c, req) => {
    c.purge();
    return paginate(c.d.instances.filter((i) => c.canSee(req.user, i.id, "read_only")).map(c.instanceView), req);
  }),
  row(instancesApi.create, createInstance),
  row(instancesApi.get, (c, req) => c.instanceView(c.instance(req))),
  row(instancesApi.update, updateInstance),
  row(instancesApi.delete, deleteInstance),
];
