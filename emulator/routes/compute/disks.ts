import { busyError, isInt, ro, rw } from "./base";
import type { ComputeContext } from "./context";
import { oneOf, readFields, readText } from "../../body";
import { FieldErrors, jsonObject, badRequest, notFound, paginate } from "../../http";
import { type RequestContext, type Router } from "../../router";
import { checkText } from "../../../api/text";
import { WEAK_PASSWORD_TEXT, rootPasswordError } from "../../../api/passwords";
import { apiTime, settle } from "../../state";
import type { InstanceRecord } from "./records";

/** Instance disks (`I/disks...`): list, create, view, update, resize, password reset, delete. */
export function registerDiskRoutes(router: Router, compute: ComputeContext): void {
  const { d, now, dur, stamp, typeOf, instance, disksOf, configsOf, busy, running, usedDisk, diskView, newDisk } = compute;
  const { checkImage, checkRootPass, checkKeys, checkScript, diskEntity, instanceEvent, instanceNote } = compute;

  const disk = (ctx: RequestContext, inst: InstanceRecord) => {
    const x = disksOf(inst.id).find((y) => String(y.id) === ctx.params.diskId);
    if (!x) throw notFound();
    return x;
  };
  const inBootedConfig = (inst: InstanceRecord, diskId: number) => {
    const cfg = configsOf(inst.id).find((c) => c.id === inst._lastBootedConfig);
    return running(inst) && Boolean(cfg && Object.values(cfg.devices).some((v) => v?.disk_id === diskId));
  };

  /** A disk's label: its length and characters as the API rules them. */
  const readDiskLabel = (value: unknown, errors: FieldErrors) => readText(value, "label", (v) => checkText(v, "diskLabel"), errors);

  router.add("GET", "/compute/instances/{computeId}/disks", { scope: ro, auth: "required" }, (ctx) => paginate(disksOf(instance(ctx).id).map(diskView), ctx));
  router.add("POST", "/compute/instances/{computeId}/disks", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    if (!isInt(body.size) || body.size < 1) errors.add("size", "size is required: a whole number of MB");
    const img = checkImage(body, errors, ctx.user.username);
    if (body.label === undefined && !body.image) errors.add("label", "label is required for an empty disk");
    const label = body.label === undefined ? undefined : readDiskLabel(body.label, errors);
    const { filesystem = "ext4" } = readFields(body, { filesystem: oneOf(["raw", "swap", "ext3", "ext4", "initrd"]).optional() }, errors);
    checkRootPass(body, errors, Boolean(img));
    checkKeys(body, errors);
    checkScript(body, errors, img?.id);
    if (img && isInt(body.size) && body.size < img.size) errors.add("size", `Image ${img.id} needs a disk of at least ${img.size} MB`);
    const free = typeOf(inst.type)!.disk - usedDisk(inst.id);
    if (isInt(body.size) && body.size > free) errors.add("size", `Only ${free} MB of the type's disk allowance is free`);
    errors.throwIfAny();
    // One disk is made at a time: the real API answered "Linode busy." (renamed) to a disk create while another
    // disk of the instance was still `not ready` (recorded, until it was ready).
    if (disksOf(inst.id).some((x) => x.status === "not ready")) throw busyError();
    // With no refusal, the size was read, and a disk without a label has an image.
    if (!isInt(body.size) || (label === undefined && !img)) throw badRequest("size is required: a whole number of MB", "size");
    const x = newDisk(inst.id, label ?? `${img?.label ?? ""} Disk`, body.size, filesystem, dur("disk"));
    // An event of the instance, the disk its secondary entity (recorded), finished when the disk is ready.
    instanceEvent("disk_create", ctx.user.username, inst, { finish: now() + dur("disk"), secondary: diskEntity(x) });
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
      const errors = new FieldErrors();
      const label = readDiskLabel(body.label, errors);
      errors.throwIfAny();
      if (label !== undefined) x.label = label;
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
    instanceEvent("disk_resize", ctx.user.username, inst, { finish: now() + dur("disk"), secondary: diskEntity(x) });
    return {};
  });
  router.add("POST", "/compute/instances/{computeId}/disks/{diskId}/password", { scope: rw, auth: "required" }, (ctx) => {
    const inst = instance(ctx, "read_write");
    disk(ctx, inst);
    const errors = new FieldErrors();
    // The real API names the new password `password` here (recorded: the Go client's per-disk reset), where the
    // instance's reset (compute-api.md) says `root_pass`.
    const password = jsonObject(ctx).password;
    if (typeof password !== "string") errors.add("password", "password is required: a string of 7 to 128 characters");
    else {
      const e = rootPasswordError(password);
      if (e) errors.add("password", e.startsWith(WEAK_PASSWORD_TEXT) ? WEAK_PASSWORD_TEXT : `password ${e}`);
    }
    errors.throwIfAny();
    if (inst.status !== "offline" || busy(inst)) throw badRequest("The instance must be shut down to reset a disk's root password");
    instanceNote("password_reset", ctx.user.username, inst, { secondary: diskEntity(disk(ctx, inst)) });
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
    instanceNote("disk_delete", ctx.user.username, inst, { secondary: diskEntity(x) });
    return {};
  });
}
