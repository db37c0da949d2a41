import { randomUUID } from "node:crypto";
import { instanceActionsApi } from "../../../api/contract/instance-actions";
import { DEFAULT_SWAP_SIZE, type Instance } from "../../../api/contract/instances";
import { badRequest, FieldErrors } from "../../http";
import type { Req } from "../../router";
import { apiTime } from "../../state";
import { busyError, hash, specsOf } from "./base";
import { row, type ComputeContext } from "./context";
import type { InstanceRecord } from "./records";

/** What changes an instance's type or disks: resize, mutate, rebuild, and the root password's reset (compute-api.md rules 5 to 7). */

/** Moves the instance to another type (resize, mutate): rule 6; growing to a larger type grows the one data disk (with at most a swap disk beside it). */
function migrate(c: ComputeContext, inst: InstanceRecord, newTypeId: string, autoDisk: boolean): void {
  const from = c.typeOfInstance(inst);
  const to = c.typeOf(newTypeId);
  if (!to) throw badRequest(`Type ${newTypeId} not found`, "type");
  if (to.id === inst.type) throw badRequest(`The instance is already of type ${to.id}`, "type");
  const disks = c.disksOf(inst.id);
  const used = disks.reduce((n, x) => n + x.size, 0);
  if (used > to.disk)
    throw badRequest(`The instance's disks use ${used} MB, more than the ${to.disk} MB of type ${to.id}: delete or shrink disks first`, "type");
  const at = c.now() + c.dur("migrating");
  const back = inst.status === "offline" ? "offline" : "running";
  inst.status = "migrating";
  // A resize migrates the instance to another host (compute-api.md, rebuild rule 5), which changes the record.
  inst._queue.push({ status: back, at, patch: { type: to.id, specs: specsOf(to), host_uuid: randomUUID(), updated: apiTime(at) } });
  const data = disks.filter((x) => x.filesystem !== "swap");
  if (autoDisk && to.disk > from.disk && data.length === 1 && disks.length <= 2) {
    const grow = data[0];
    grow.status = "not ready";
    grow._queue.push({ status: "ready", at, patch: { size: to.disk - (used - grow.size), updated: apiTime(at) } });
  }
}

function resize(c: ComputeContext, req: Req<typeof instanceActionsApi.resize>) {
  const inst = c.instance(req, "read_write");
  if (c.busy(inst)) throw busyError();
  migrate(c, inst, req.body.type, req.body.allow_auto_disk_resize !== false);
  c.instanceEvent("compute_resize", req.user.username, inst);
  return {};
}

/** An upgrade to the type's successor (the catalogue's). */
function mutate(c: ComputeContext, req: Req<typeof instanceActionsApi.mutate>) {
  const inst = c.instance(req, "read_write");
  if (c.busy(inst)) throw busyError();
  const successor = c.typeOfInstance(inst).successor;
  if (!successor) throw badRequest(`Type ${inst.type} has no upgrade available`);
  migrate(c, inst, successor, req.body.allow_auto_disk_resize !== false);
  c.instanceEvent("compute_mutate", req.user.username, inst);
  return {};
}

/** Rule 5: a rebuild deletes every disk and profile, then deploys the image (keeping the interfaces of the profile it booted); `type` also resizes it. */
function rebuild(c: ComputeContext, req: Req<typeof instanceActionsApi.rebuild>): Instance {
  const inst = c.instance(req, "read_write");
  const { body } = req;
  const errors = new FieldErrors();
  const img = c.checkImage(body.image, errors, req.user.username);
  c.checkDeploy(body, errors, img?.id);
  const userData = c.checkMetadata(body.metadata, errors, inst.region, img);
  const newType = body.type === undefined ? undefined : c.typeOf(body.type);
  if (body.type !== undefined && !newType) errors.add("type", `Type ${body.type} not found`);
  errors.throwIfAny();
  if (!img) throw badRequest("image is required", "image");
  if (c.busy(inst)) throw busyError();
  const cfgs = c.configsOf(inst.id);
  const keepIfaces = (cfgs.find((x) => x.id === inst._lastBootedConfig) ?? cfgs[0])?.interfaces ?? [];
  c.d.disks = c.d.disks.filter((x) => x.compute_id !== inst.id);
  c.d.configs = c.d.configs.filter((x) => x.compute_id !== inst.id);
  const ms = c.dur("rebuilding");
  if (newType) {
    inst.type = newType.id;
    inst.specs = specsOf(newType);
  }
  const cfg = c.deployImage(inst, img, DEFAULT_SWAP_SIZE, keepIfaces, ms);
  inst.image = img.id;
  inst.status = "rebuilding";
  inst._rootPassHash = hash(body.root_pass);
  inst._activeInterfaces = [];
  inst.has_user_data = Boolean(userData) || inst.has_user_data;
  inst.updated = c.stamp();
  const booted = body.booted !== false;
  inst._queue.push({
    status: booted ? "running" : "offline",
    at: c.now() + ms,
    patch: booted ? { _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) } : { _lastBootedConfig: null },
  });
  c.settleAll(inst);
  c.instanceEvent("compute_rebuild", req.user.username, inst);
  return c.instanceView(inst);
}

/** Rule 7: the instance shut down, one non-swap disk (several: the per-disk reset); a `password_reset` event. */
function resetPassword(c: ComputeContext, req: Req<typeof instanceActionsApi.password>) {
  const inst = c.instance(req, "read_write");
  if (inst.status !== "offline" || c.busy(inst)) throw badRequest("The instance must be shut down to reset the root password");
  const data = c.disksOf(inst.id).filter((x) => x.filesystem !== "swap");
  if (data.length === 0) throw badRequest("The instance has no disk to set a password on");
  if (data.length > 1) throw badRequest("The instance has several non-swap disks: use the per-disk password reset");
  inst._rootPassHash = hash(req.body.root_pass);
  c.instanceNote("password_reset", req.user.username, inst);
  return {};
}

export const MIGRATE_ROWS = [
  row(instanceActionsApi.resize, resize),
  row(instanceActionsApi.mutate, mutate),
  row(instanceActionsApi.rebuild, rebuild),
  row(instanceActionsApi.password, resetPassword),
];
