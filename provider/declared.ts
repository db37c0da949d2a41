/**
 * What this program declares, recorded as the engine checks and diffs its resources: one provider process
 * runs them all (the dynamic provider's, or the plugin's), so rules that hold across resources are refused
 * at preview instead of by the API halfway through an `up`. Keyed by the resource's name in the program,
 * which a replacement keeps.
 */
const snapshotSlots = new Map<string, string>();
const databaseSnapshots = new Map<string, Set<string>>();
const plannedBackups = new Map<string, boolean>();
const preChangeSnapshots = new Map<string, boolean>();

/**
 * An instance has one snapshot slot: what else of this program takes it, if anything (`who`: "InstanceSnapshot
 * before", or "Instance web (snapshotBeforeChange)").
 */
export function claimSnapshotSlot(computeId: string, name: string): string | undefined {
  const holder = snapshotSlots.get(computeId);
  if (holder !== undefined && holder !== name) return holder;
  snapshotSlots.set(computeId, name);
  return undefined;
}

/** The snapshot resources of this program on a database, this one included (the API keeps at most 3). */
export function declareDatabaseSnapshot(databaseId: string, name: string): string[] {
  const names = databaseSnapshots.get(databaseId) ?? new Set<string>();
  names.add(name);
  databaseSnapshots.set(databaseId, names);
  return [...names];
}

/** An Instance's planned backup service (its diff sees it before the update that enables it is made). */
export function planBackups(computeId: string, enabled: boolean): void {
  plannedBackups.set(computeId, enabled);
}
export const plannedBackupsOf = (computeId: string): boolean | undefined => plannedBackups.get(computeId);

/** An Instance's `snapshotBeforeChange` (its diff records it before its disks' steps run). */
export function planSnapshotBeforeChange(computeId: string, on: boolean): void {
  preChangeSnapshots.set(computeId, on);
}
export const snapshotBeforeChangeOf = (computeId: string): boolean => preChangeSnapshots.get(computeId) === true;

/** For tests. */
export function resetDeclared(): void {
  preChangeSnapshots.clear();
  snapshotSlots.clear();
  databaseSnapshots.clear();
  plannedBackups.clear();
}
