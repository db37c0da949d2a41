import { AUTONAMED, HELD_LABEL, REPLACEMENT_LABEL } from "../model/marks";
import { ApiError, type ApiClient } from "../transport/client";
import { messageOf } from "./errors";
import type { DiffOutcome } from "../model/check";
import { autoName } from "../model/naming";
import { containsUnknown, labelField, type Props, type ResourceSpec } from "../model/table";
import { session, type PendingReplacement } from "../session";

/**
 * The replacement protocol of data-holding resources (instances, databases) whose label the program pins.
 * Labels are unique in the API, so the new resource cannot take the label while the old one holds it;
 * deleting the old one first would lose it, and its data, if the create then failed. So the replacement is
 * made first under a temporary label and given the pinned label as soon as the old one is deleted.
 *
 * The engine calls diff (which sees the replacement), then create (the new resource), then delete (the
 * old one), all in one provider process: its session's record (provider/session.ts) ties the three together.
 */
const pending = () => session().replacements;
const key = (type: string, oldId: string) => `${type}/${oldId}`;

/** diff: the resource `oldId` will be replaced by one that wants the same pinned label. */
export function expectReplacement(type: string, oldId: string, label: string): void {
  pending().set(key(type, oldId), { type, oldId, label });
}

/** create: the replacement waiting for this label, if any. */
export function replacementFor(type: string, label: unknown): PendingReplacement | undefined {
  for (const p of pending().values()) if (p.type === type && p.label === label && p.newId === undefined) return p;
  return undefined;
}

/** delete: the replacement of `oldId` (taken out of the record), if one was made. */
export function takeReplacement(type: string, oldId: string): PendingReplacement | undefined {
  const p = pending().get(key(type, oldId));
  pending().delete(key(type, oldId));
  return p;
}

/** Whether a resource is replaced this way (a data-holding resource whose label the API keeps unique). */
export const renamesOnReplace = (spec: ResourceSpec): boolean => Boolean(spec.holdsData && spec.uniqueLabel);

/** diff: a data-holding resource whose pinned unique label the replacement keeps: remember it. */
export function noteReplacement(spec: ResourceSpec, id: string, d: DiffOutcome, news: Props): void {
  const label = news.label;
  if (!renamesOnReplace(spec) || !d.replaces.length || news[AUTONAMED] === true || d.changed.includes(labelField(spec))) return;
  if (typeof label === "string" && !containsUnknown(label)) expectReplacement(spec.type, id, label);
}

const held = () => session().heldLabels;

/** check: marks the inputs of an existing resource, or of its replacement, with the pinned label it holds. */
export function markHeldLabel(spec: ResourceSpec, name: unknown, olds: Props, inputs: Props, existing: boolean): void {
  const field = labelField(spec);
  const label = inputs[field];
  if (!renamesOnReplace(spec) || typeof label !== "string" || inputs[AUTONAMED] === true) return;
  const key = `${spec.type}/${String(name)}`;
  if (existing) {
    if (olds[field] !== label) return;
    held().set(key, label);
    inputs[HELD_LABEL] = label;
  } else if (held().get(key) === label) {
    inputs[HELD_LABEL] = label;
  }
}

/**
 * create: the replacement this create makes, if any: the one the diff saw, else (a replacement the engine
 * forced) the resource of the collection that holds the pinned label the checked inputs say was held.
 */
async function pendingFor(c: ApiClient, spec: ResourceSpec, inputs: Props): Promise<PendingReplacement | undefined> {
  const field = labelField(spec);
  const seen = replacementFor(spec.type, inputs[field]);
  if (seen || inputs[HELD_LABEL] === undefined || inputs[HELD_LABEL] !== inputs[field]) return seen;
  const holder = (await c.list<{ id: number | string; label?: string }>(spec.collectionPath(inputs))).find((r) => r.label === inputs[field]);
  if (!holder) return undefined;
  expectReplacement(spec.type, String(holder.id), String(inputs[field]));
  return replacementFor(spec.type, inputs[field]);
}

/**
 * create: the label to create with. While the resource this one replaces still holds the pinned label,
 * a temporary one (`<label>-<suffix>`); the old one's delete then renames this one (finishReplacement).
 */
export async function replacementLabel(c: ApiClient, spec: ResourceSpec, inputs: Props): Promise<{ temp: string; done(newId: string): void } | undefined> {
  const p = await pendingFor(c, spec, inputs);
  if (!p || !spec.autoName) return undefined;
  const old = await c.get<{ label?: string }>(spec.itemPath(p.oldId, inputs), true);
  if (!old || old.label !== p.label) return undefined;
  const temp = autoName(spec.autoName, p.label);
  return {
    temp,
    done: (newId) => {
      p.newId = newId;
      p.temp = temp;
    },
  };
}

/** delete: once the old resource is gone, the replacement made under a temporary label takes the pinned one. */
export async function finishReplacement(c: ApiClient, spec: ResourceSpec, oldId: string, props: Props): Promise<void> {
  const p = takeReplacement(spec.type, oldId);
  if (!p?.newId) return;
  try {
    await c.request("PUT", spec.itemPath(p.newId, props), { body: { label: p.label } });
  } catch (err) {
    const why = err instanceof ApiError ? err.reasons : messageOf(err);
    throw new Error(
      `the old ${spec.noun} ${oldId} is deleted, but its replacement ${p.newId} could not take the label "${p.label}" (it is "${p.temp}"): ${why}. Run pulumi up again to rename it`,
    );
  }
}

/** diff: a resource made under a temporary label that has not taken its pinned label yet is due a rename. */
export async function renameDue(c: ApiClient, spec: ResourceSpec, id: string, olds: Props, news: Props): Promise<boolean> {
  if (olds[REPLACEMENT_LABEL] === undefined || typeof news.label !== "string") return false;
  const api = await c.get<{ label?: string }>(spec.itemPath(id, olds), true);
  return Boolean(api && api.label !== news.label);
}
