import { eventEntity, type EventEntity, type EventTiming } from "../../state";
import type { ComputeBase } from "./base";
import type { ConfigRecord, DiskRecord, InstanceRecord } from "./records";

/**
 * The compute family's events, as the real API records them (linodego's cassettes, renamed: `linode_*` is
 * `compute_*`, an entity of type `linode` is `compute`): an instance's operation is an event of the instance,
 * `started` until the instance comes to rest (`scheduled` before, when queued behind another), then `finished`;
 * a profile's create and changes are `notification`s; a disk's operations are events of the disk.
 */
export function computeEvents({ store, now }: ComputeBase) {
  const instanceEntity = (inst: InstanceRecord): EventEntity => eventEntity("compute", inst.id, inst.label, `/compute/instances/${inst.id}`);
  const configEntity = (cfg: ConfigRecord): EventEntity =>
    eventEntity("compute_config", cfg.id, cfg.label, `/compute/instances/${cfg.compute_id}/configs/${cfg.id}`);
  const diskEntity = (disk: DiskRecord): EventEntity => eventEntity("disk", disk.id, disk.label, `/compute/instances/${disk.compute_id}/disks/${disk.id}`);
  /** When an instance comes to rest: its last queued status change (now, when nothing is queued). */
  const restsAt = (inst: InstanceRecord): number => Math.max(now(), ...inst._queue.map((step) => step.at));
  /** An event of an instance's operation, finished when the instance rests (or as `timing` says). */
  const instanceEvent = (action: string, username: string, inst: InstanceRecord, timing: EventTiming = {}) =>
    store.event(action, username, instanceEntity(inst), { finish: restsAt(inst), ...timing });
  /** A change of the instance that is done when answered (an update, a password reset): finished at once. */
  const instanceNote = (action: string, username: string, inst: InstanceRecord, timing: EventTiming = {}) =>
    store.event(action, username, instanceEntity(inst), timing);
  return { instanceEntity, configEntity, diskEntity, restsAt, instanceEvent, instanceNote };
}
