import { READ_ONLY_INSTANCE_TEXT } from "../../../api/contract/instances";
import { forbidden, notFound } from "../../http";
import { settle, type User } from "../../state";
import { GONE, type ComputeBase } from "./base";
import type { InstanceRecord } from "./records";

/** Whether the instance has running or queued actions. */
export const busy = (inst: InstanceRecord) => inst._queue.length > 0;
export const running = (inst: InstanceRecord) => inst.status === "running";

/** What names an instance in a request: the path's `{computeId}`, and who asks. */
export interface InstanceRequest {
  params: { computeId: number };
  user: User;
}

/**
 * Finding the compute records a request names, as its user may see them: the grants, the instance of the
 * path, its disks and profiles, brought up to date (statuses settled, finished deletes removed).
 */
export function computeAccess({ store, d, now }: ComputeBase) {
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
  const instance = ({ params, user }: InstanceRequest, level: "read_only" | "read_write" = "read_only"): InstanceRecord => {
    purge();
    const inst = d.instances.find((i) => i.id === params.computeId);
    if (!inst || !canSee(user, inst.id, "read_only")) throw notFound();
    if (!canSee(user, inst.id, level)) throw forbidden(READ_ONLY_INSTANCE_TEXT);
    settleAll(inst);
    return inst;
  };
  const disksOf = (id: number) => d.disks.filter((x) => x.compute_id === id).map((x) => settle(x, now()));
  const configsOf = (id: number) => d.configs.filter((x) => x.compute_id === id);
  const backupsOf = (id: number) => d.backups.filter((b) => b.compute_id === id).map((b) => settle(b, now()));
  const usedDisk = (id: number) => disksOf(id).reduce((n, x) => n + x.size, 0);
  /** The instance's profile `configId`, or 404. */
  const configOf = (inst: InstanceRecord, configId: number) => {
    const c = configsOf(inst.id).find((x) => x.id === configId);
    if (!c) throw notFound();
    return c;
  };
  /** The instance's disk `diskId`, or 404. */
  const diskOf = (inst: InstanceRecord, diskId: number) => {
    const x = disksOf(inst.id).find((y) => y.id === diskId);
    if (!x) throw notFound();
    return x;
  };
  /** The instance's backup `backupId`, or 404. */
  const backupOf = (inst: InstanceRecord, backupId: number) => {
    const b = backupsOf(inst.id).find((x) => x.id === backupId);
    if (!b) throw notFound();
    return b;
  };
  return { canSee, requireAdd, purge, instance, settleAll, disksOf, configsOf, backupsOf, configOf, diskOf, backupOf, busy, running, usedDisk };
}
