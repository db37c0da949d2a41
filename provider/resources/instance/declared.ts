import { perSession } from "../../session";

/**
 * What an Instance of this program declares that its children read at preview, recorded as the engine checks
 * and diffs them (refused at preview instead of by the API halfway through an \`up\`): its one snapshot slot,
 * its planned backup service, its \`snapshotBeforeChange\`. Keyed by the instance's id.
 */

/** An instance's one snapshot slot: who of this program takes it. */
const snapshotSlots = perSession(() => new Map<string, string>());
/** An Instance's planned backup service (its diff sees it before the update that enables it). */
const plannedBackups = perSession(() => new Map<string, boolean>());
/** An Instance's \`snapshotBeforeChange\`, for its disks' steps. */
const preChangeSnapshots = perSession(() => new Map<string, boolean>());

/**
 * An instance has one snapshot slot: what else of this program takes it, if anything (\`name\`: "InstanceSnapshot
 * before", or "Instance web (snapshotBeforeChange)").
 */
export function claimSnapshotSlot(computeId: string, name: string): string | undefined {
  const slots = snapshotSlots();
  const holder = slots.get(computeId);
  if (holder !== undefined && holder !== name) return holder;
  slots.set(computeId, name);
  return undefined;
}

/** An Instance's planned backup service (its diff sees it before the update that enables it is made). */
export function planBackups(computeId: string, enabled: boolean): void {
  plannedBackups().set(computeId, enabled);
}
export const plannedBackupsOf = (computeId: string): boolean | undefined => plannedBackups().get(computeId);

/** An Instance's \`snapshotBeforeChange\` (its diff records it before its disks' steps run). */
export function planSnapshotBeforeChange(computeId: string, on: boolean): void {
  preChangeSnapshots().set(computeId, on);
}
export const snapshotBeforeChangeOf = (computeId: string): boolean => preChangeSnapshots().get(computeId) === true;
