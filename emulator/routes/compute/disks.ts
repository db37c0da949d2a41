import { DEFAULT_FILESYSTEM, disksApi, type Disk } from "../../../api/contract/disks";
import { DEVICE_SLOTS } from "../../../api/interfaces";
import { badRequest, FieldErrors, paginate } from "../../http";
import type { Req } from "../../router";
import { apiTime, settle } from "../../state";
import { busyError } from "./base";
import { row, type ComputeContext } from "./context";
import { diskLabelFrom } from "./provisioning";
import type { InstanceRecord } from "./records";

/** Instance disks (`I/disks...`): list, create, view, and the real API's update, resize and password reset; delete. */

/** Whether the disk is in the profile the running instance booted with. */
function inBootedConfig(c: ComputeContext, inst: InstanceRecord, diskId: number): boolean {
  const cfg = c.configsOf(inst.id).find((x) => x.id === inst._lastBootedConfig);
  return c.running(inst) && Boolean(cfg && Object.values(cfg.devices).some((v) => v?.disk_id === diskId));
}

/** What a disk create needs of the account: its image, users and script, and room in the type's allowance. */
function checkCreate(c: ComputeContext, inst: InstanceRecord, req: Req<typeof disksApi.create>) {
  const { body } = req;
  const errors = new FieldErrors();
  const img = c.checkImage(body.image, errors, req.user.username);
  c.checkDeploy(body, errors, img?.id);
  if (img && body.size < img.size) errors.add("size", `Image ${img.id} needs a disk of at least ${img.size} MB`);
  const free = c.typeOfInstance(inst).disk - c.usedDisk(inst.id);
  if (body.size > free) errors.add("size", `Only ${free} MB of the type's disk allowance is free`);
  errors.throwIfAny();
  return img;
}

function createDisk(c: ComputeContext, req: Req<typeof disksApi.create>): Disk {
  const inst = c.instance(req, "read_write");
  const img = checkCreate(c, inst, req);
  // One disk is made at a time: the real API answered "Linode busy." (renamed) to a disk create while another
  // disk of the instance was still `not ready` (recorded, until it was ready).
  if (c.disksOf(inst.id).some((x) => x.status === "not ready")) throw busyError();
  const { label, size, filesystem = DEFAULT_FILESYSTEM } = req.body;
  // Without a label the contract asks for an image: the disk is named after it.
  const x = c.newDisk(inst.id, label ?? diskLabelFrom(img?.label ?? ""), size, filesystem, c.dur("disk"));
  // An event of the instance, the disk its secondary entity (recorded), finished when the disk is ready.
  c.instanceEvent("disk_create", req.user.username, inst, { finish: c.now() + c.dur("disk"), secondary: c.diskEntity(x) });
  return c.diskView(x);
}

function updateDisk(c: ComputeContext, req: Req<typeof disksApi.update>): Disk {
  const inst = c.instance(req, "read_write");
  const x = c.diskOf(inst, req.params.diskId);
  if (req.body.label !== undefined) {
    x.label = req.body.label;
    x.updated = c.stamp();
  }
  return c.diskView(x);
}

function resizeDisk(c: ComputeContext, req: Req<typeof disksApi.resize>) {
  const inst = c.instance(req, "read_write");
  const x = c.diskOf(inst, req.params.diskId);
  const { size } = req.body;
  if (inst.status !== "offline" || c.busy(inst)) throw badRequest("The instance must be shut down to resize a disk");
  if (x.status !== "ready") throw badRequest("The disk is not ready");
  const free = c.typeOfInstance(inst).disk - c.usedDisk(inst.id) + x.size;
  if (size > free) throw badRequest(`Only ${free} MB of the type's disk allowance is available for this disk`, "size");
  const at = c.now() + c.dur("disk");
  x.status = "not ready";
  x._queue.push({ status: "ready", at, patch: { size, updated: apiTime(at) } });
  settle(x, c.now());
  c.instanceEvent("disk_resize", req.user.username, inst, { finish: at, secondary: c.diskEntity(x) });
  return {};
}

/** The per-disk password reset: the real API's field is `password` (recorded), where the instance's reset says `root_pass`. */
function resetDiskPassword(c: ComputeContext, req: Req<typeof disksApi.password>) {
  const inst = c.instance(req, "read_write");
  const x = c.diskOf(inst, req.params.diskId);
  if (inst.status !== "offline" || c.busy(inst)) throw badRequest("The instance must be shut down to reset a disk's root password");
  c.instanceNote("password_reset", req.user.username, inst, { secondary: c.diskEntity(x) });
  return {};
}

function deleteDisk(c: ComputeContext, req: Req<typeof disksApi.delete>) {
  const inst = c.instance(req, "read_write");
  const x = c.diskOf(inst, req.params.diskId);
  if (inBootedConfig(c, inst, x.id)) throw badRequest("The disk is in use by the running instance's profile: shut the instance down first");
  c.d.disks = c.d.disks.filter((y) => y !== x);
  // A deleted disk is cleared from every profile's devices.
  for (const cfg of c.configsOf(inst.id)) for (const slot of DEVICE_SLOTS) if (cfg.devices[slot]?.disk_id === x.id) cfg.devices[slot] = null;
  c.instanceNote("disk_delete", req.user.username, inst, { secondary: c.diskEntity(x) });
  return {};
}

export const DISK_ROWS = [
  row(disksApi.list, (c, req) => paginate(c.disksOf(c.instance(req).id).map(c.diskView), req)),
  row(disksApi.create, createDisk),
  row(disksApi.get, (c, req) => {
    const inst = c.instance(req);
    return c.diskView(c.diskOf(inst, req.params.diskId));
  }),
  row(disksApi.update, updateDisk),
  row(disksApi.resize, resizeDisk),
  row(disksApi.password, resetDiskPassword),
  row(disksApi.delete, deleteDisk),
];
