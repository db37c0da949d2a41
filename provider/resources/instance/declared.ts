import type { ProgramContext } from "../../program";

/**
 * What an Instance of this program declares that its children read at preview, recorded as the engine checks
 * and diffs them (refused at preview instead of by the API halfway through an `up`): its one snapshot slot,
 * its planned backup service, its `snapshotBeforeChange`. Kept in the program's context (provider/program.ts),
 * which the hooks receive; keyed by the instance's id.
 */

/**
 * An instance has one snapshot slot: what else of this program takes it, if anything (`name`: "InstanceSnapshot
 * before", or "Instance web (snapshotBeforeChange)").
 */
export function claimSnapshotSlot(program: ProgramContext, computeId: string, name: string): string | undefined {
  const slots = program.snapshotSlots;
  const holder = slots.get(computeId);
  if (holder !== undefined && holder !== name) return holder;
  slots.set(computeId, name);
  return undefined;
}

/** An Instance's planned backup service (its diff sees it before the update that enables it is made). */
export function planBackups(program: ProgramContext, computeId: string, enabled: boolean): void {
  program.plannedBackups.set(computeId, enabled);
}
export const plannedBackupsOf = (program: ProgramContext, computeId: string): boolean | undefined => program.plannedBackups.get(computeId);

/** An Instance's `snapshotBeforeChange` (its diff records it before its disks' steps run). */
export function planSnapshotBeforeChange(program: ProgramContext, computeId: string, on: boolean): void {
  program.preChangeSnapshots.set(computeId, on);
}
export const snapshotBeforeChangeOf = (program: ProgramContext, computeId: string): boolean => program.preChangeSnapshots.get(computeId) === true;
