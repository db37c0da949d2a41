/**
 * Replacements of data-holding resources (instances, databases) whose label the program pins. Labels are
 * unique in the API, so the new resource cannot take the label while the old one holds it; deleting the
 * old one first would lose it, and its data, if the create then failed. So the replacement is made first
 * under a temporary label and given the pinned label as soon as the old one is deleted.
 *
 * The engine calls diff (which sees the replacement), then create (the new resource), then delete (the
 * old one), all in one provider process: this process-wide record ties the three together.
 */
export interface PendingReplacement {
  type: string;
  oldId: string;
  /** The pinned label both want. */
  label: string;
  newId?: string;
  /** The label the new resource has until the old one is gone. */
  temp?: string;
}

const pending = new Map<string, PendingReplacement>();
const key = (type: string, oldId: string) => `${type}/${oldId}`;

/** diff: the resource `oldId` will be replaced by one that wants the same pinned label. */
export function expectReplacement(type: string, oldId: string, label: string): void {
  pending.set(key(type, oldId), { type, oldId, label });
}

/** create: the replacement waiting for this label, if any. */
export function replacementFor(type: string, label: unknown): PendingReplacement | undefined {
  for (const p of pending.values()) if (p.type === type && p.label === label && p.newId === undefined) return p;
  return undefined;
}

/** delete: the replacement of `oldId` (taken out of the record), if one was made. */
export function takeReplacement(type: string, oldId: string): PendingReplacement | undefined {
  const p = pending.get(key(type, oldId));
  pending.delete(key(type, oldId));
  return p;
}

/** For tests. */
export function resetReplacements(): void {
  pending.clear();
}
