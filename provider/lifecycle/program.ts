import { session } from "../session";

/**
 * What this program declares across resources (the session's `declared`, provider/session.ts), recorded as
 * the engine checks and diffs its resources, and the rules that hold across them: refused at preview
 * instead of by the API halfway through an `up`. Keyed by the resource's name in the program, which a
 * replacement keeps.
 */
const declared = () => session().declared;

/**
 * An instance has one snapshot slot: what else of this program takes it, if anything (`who`: "InstanceSnapshot
 * before", or "Instance web (snapshotBeforeChange)").
 */
export function claimSnapshotSlot(computeId: string, name: string): string | undefined {
  const slots = declared().snapshotSlots;
  const holder = slots.get(computeId);
  if (holder !== undefined && holder !== name) return holder;
  slots.set(computeId, name);
  return undefined;
}

/** The snapshot resources of this program on a database, this one included (the API keeps at most 3). */
export function declareDatabaseSnapshot(databaseId: string, name: string): string[] {
  const all = declared().databaseSnapshots;
  const names = all.get(databaseId) ?? new Set<string>();
  names.add(name);
  all.set(databaseId, names);
  return [...names];
}

/** An Instance's planned backup service (its diff sees it before the update that enables it is made). */
export function planBackups(computeId: string, enabled: boolean): void {
  declared().plannedBackups.set(computeId, enabled);
}
export const plannedBackupsOf = (computeId: string): boolean | undefined => declared().plannedBackups.get(computeId);

/** An Instance's `snapshotBeforeChange` (its diff records it before its disks' steps run). */
export function planSnapshotBeforeChange(computeId: string, on: boolean): void {
  declared().preChangeSnapshots.set(computeId, on);
}
export const snapshotBeforeChangeOf = (computeId: string): boolean => declared().preChangeSnapshots.get(computeId) === true;

/** The subnets this program declares in a VPC, by resource name (a preview refuses two overlapping ranges). */
export function subnetsOf(vpcId: string): Map<string, { label: string; ipv4: string }> {
  const all = declared().subnets;
  let siblings = all.get(vpcId);
  if (!siblings) all.set(vpcId, (siblings = new Map<string, { label: string; ipv4: string }>()));
  return siblings;
}

/*
 * Who manages the interfaces of a configuration profile. A profile is always registered before the
 * Interface resources that point to it, so the session sees both sides within one `pulumi preview` or `up`.
 *
 * The rule (docs/resources/interface.md): a profile's interfaces are managed either as a list (a Config's
 * `interfaces`, or an Instance's `interfaces` on its boot profile) or one by one (Interface resources),
 * never both.
 */
const profileKey = (computeId: unknown, configId: unknown) => `${String(computeId)}/${String(configId)}`;

export function claimAsList(computeId: unknown, configId: unknown, by: string): void {
  const k = profileKey(computeId, configId);
  const other = declared().interfacesOneByOne.get(k);
  if (other)
    throw new Error(
      `configuration profile ${String(configId)} of instance ${String(computeId)} has its interfaces managed one by one (${other}): remove those Interface resources or leave out ${by}'s interfaces`,
    );
  declared().interfacesAsList.set(k, by);
}

export function claimOneByOne(computeId: unknown, configId: unknown, by: string): void {
  const k = profileKey(computeId, configId);
  const other = declared().interfacesAsList.get(k);
  if (other)
    throw new Error(
      `configuration profile ${String(configId)} of instance ${String(computeId)} has its interfaces managed as a list by ${other}: declare this interface there instead of as an Interface resource`,
    );
  declared().interfacesOneByOne.set(k, by);
}
