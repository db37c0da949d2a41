/**
 * What this program declares, recorded as the engine checks and diffs its resources: one provider process
 * runs them all (the dynamic provider's, or the plugin's), so rules that hold across resources are refused
 * at preview instead of by the API halfway through an `up`. Keyed by the resource's name in the program,
 * which a replacement keeps.
 */
const snapshotSlots = new Map<string, string>();
const databaseSnapshots = new Map<string, Set<string>>();
const plannedBackups = new Map<string, boolean>();

/** An instance has one snapshot slot: the other InstanceSnapshot of this program that holds it, if any. */
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

/** For tests. */
export function resetDeclared(): void {
  snapshotSlots.clear();
  databaseSnapshots.clear();
  plannedBackups.clear();
}
