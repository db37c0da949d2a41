import { randomUUID } from "node:crypto";
import { instanceActionsApi } from "../../../api/contract/instance-actions";
import type { Instance } from "../../../api/contract/instances";
import type { InstanceType } from "../../../api/contract/reference";
import { badRequest, FieldErrors } from "../../http";
import type { Req } from "../../router";
import { type User } from "../../state";
import { copyOf } from "../../store";
import { specsOf, type TakenAddresses } from "./base";
import { row, type ComputeContext } from "./context";
import type { ConfigRecord, DiskRecord, InstanceRecord } from "./records";

/** An instance's clone (compute-api.md "Clone body", rule 4): to a new instance, or into an existing one. */

type CloneReq = Req<typeof instanceActionsApi.clone>;

/** A clone request, checked: the source, what of it to copy, and the target (one of the user's, or one to make). */
interface CloneRequest {
  src: InstanceRecord;
  user: User;
  body: CloneReq["body"];
  disks: DiskRecord[];
  configs: ConfigRecord[];
  region: string;
  target?: InstanceRecord;
  type?: InstanceType;
}

/** An existing target: the user's to change, at rest, with the room the disks need. */
function checkTarget(c: ComputeContext, req: CloneRequest, id: number, size: number, errors: FieldErrors): void {
  const target = c.d.instances.find((i) => i.id === id && c.canSee(req.user, i.id, "read_write"));
  if (!target) return errors.add("compute_id", `Instance ${id} not found`);
  c.settleAll(target);
  if (c.busy(target)) errors.add("compute_id", "The target instance has running or queued actions");
  if (size > c.typeOfInstance(target).disk - c.usedDisk(target.id)) errors.add("compute_id", "The target instance does not have enough free disk space");
  req.target = target;
}

/** A new target: a region (the source's unless given), a type with room for the disks, a label; no VLAN to a region without them. */
function checkNewTarget(c: ComputeContext, req: CloneRequest, size: number, errors: FieldErrors): void {
  const region = c.regionOf(req.region);
  if (!region) errors.add("region", `Region ${req.region} not found`);
  req.type = req.body.type === undefined ? undefined : c.typeOf(req.body.type);
  if (!req.type) errors.add("type", "type is required for a new target instance");
  else if (size > req.type.disk) errors.add("type", "The type is too small for the disks to clone");
  c.checkLabel(req.body.label, errors);
  const hasVlan = c.configsOf(req.src.id).some((x) => x.interfaces.some((i) => i.purpose === "vlan"));
  if (hasVlan && !region?.capabilities.includes("Vlans"))
    errors.add("region", `The instance has a VLAN interface and region ${req.region} has no VLAN support`);
}

/** Checks a clone request in the API's order; every refusal at once (400). */
function checkClone(c: ComputeContext, r: CloneReq): CloneRequest {
  const src = c.instance(r, "read_only");
  const { user, body } = r;
  c.requireAdd(user);
  if (src._clones.length >= 5) throw badRequest("More than five concurrent clones from one instance are not allowed");
  const errors = new FieldErrors();
  if (src.has_user_data && !body.metadata?.user_data) errors.add("metadata.user_data", "This instance has user data: the clone needs metadata.user_data");
  const picked = (list: number[] | undefined) => (id: number) => list === undefined || list.includes(id);
  const disks = c.disksOf(src.id).filter((x) => picked(body.disks)(x.id));
  const configs = c.configsOf(src.id).filter((x) => picked(body.configs)(x.id));
  const req: CloneRequest = { src, user, body, disks, configs, region: body.region ?? src.region };
  const size = disks.reduce((n, x) => n + x.size, 0);
  if (body.compute_id !== undefined) checkTarget(c, req, body.compute_id, size, errors);
  else checkNewTarget(c, req, size, errors);
  errors.throwIfAny();
  return req;
}

/** A new instance to clone into: the source's record with its own id, label, region, type and addresses. */
function newCloneTarget(c: ComputeContext, req: CloneRequest, t: InstanceType): InstanceRecord {
  const { src, user, body } = req;
  const { store, stamp } = c;
  const id = store.nextId("instance");
  const ipv4 = [c.publicIp(store.nextId("ipv4"))];
  if (body.private_ip === true) ipv4.push(c.privateIp(store.nextId("private_ip")));
  const target: InstanceRecord = {
    ...copyOf(src),
    id,
    label: body.label ?? `compute${id}`,
    group: body.group ?? src.group,
    region: req.region,
    type: t.id,
    specs: specsOf(t),
    created: stamp(),
    updated: stamp(),
    host_uuid: randomUUID(),
    ipv4,
    ipv6: `2001:db8::${id.toString(16)}/128`,
    backups: { available: false, enabled: body.backups_enabled === true, last_successful: null, schedule: { day: null, window: null } },
    tags: [...src.tags],
    _owner: user.username,
    _queue: [],
    _lastBootedConfig: null,
    _activeInterfaces: [],
    _clones: [],
  };
  c.d.instances.push(target);
  if (user.restricted) user.grants?.compute.push({ id, label: target.label, permissions: "read_write" });
  return target;
}

/** Copies the chosen disks (being made until the clone is done) and profiles (on the copies) into the target. */
function copySource(c: ComputeContext, { disks, configs }: CloneRequest, target: InstanceRecord): void {
  const copies = new Map<number, number>();
  for (const x of disks) copies.set(x.id, c.newDisk(target.id, x.label, x.size, x.filesystem, c.dur("cloning")).id);
  const taken: TakenAddresses = [];
  for (const cfg of configs) {
    // Rule 4: a 1:1 NAT becomes `any`; a VPC address, the source's own, becomes another of its subnet (network.ts).
    const interfaces = c.copyInterfaces(cfg.interfaces, target.region, taken, (nat) => (nat ? "any" : null));
    // The copy is the target's: a new id, the target's instance (the source's record carries both).
    const { id: _id, compute_id: _source, ...copy } = copyOf(cfg);
    c.newConfig(target, { ...copy, devices: c.copiedDevices(cfg.devices, copies), interfaces });
  }
}

function clone(c: ComputeContext, r: CloneReq): Instance {
  const req = checkClone(c, r);
  const done = c.now() + c.dur("cloning");
  // With no refusal, a new target's type was found.
  const target = req.target ?? (req.type ? newCloneTarget(c, req, req.type) : undefined);
  if (!target) throw badRequest("type is required for a new target instance", "type");
  copySource(c, req, target);
  target.status = "cloning";
  target._queue.push({ status: "offline", at: done });
  req.src._clones.push(done);
  // An event of the source, the clone its secondary entity (recorded).
  c.instanceEvent("compute_clone", req.user.username, req.src, { finish: done, secondary: c.instanceEntity(target) });
  c.settleAll(target);
  return c.instanceView(target);
}

export const CLONE_ROWS = [row(instanceActionsApi.clone, clone)];
