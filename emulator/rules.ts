import { INTERFACE_LIST_TEXTS, INTERFACE_PURPOSES, MAX_INTERFACES } from "../api/interfaces";
import { z } from "zod";
import { checkLength, checkPrintable, LENGTH_LIMITS } from "../api/text";
import type { FieldErrors } from "./http";

/**
 * The emulator's checks of request bodies that are its own way of answering (where an error points, which
 * rule is tried first). The API's facts (limits, patterns, texts) are in api/, which the provider reads too:
 * api/text.ts (lengths, free text), api/labels.ts, api/passwords.ts, api/ssh-keys.ts, api/scopes.ts,
 * api/network.ts, api/interfaces.ts. Where the spec is silent, the choice is docs/spec-gaps.md's.
 */

/**
 * compute-api.md "Instance": "tags | array of strings". The spec gives no length: 3 to 50 characters is the real
 * API's. A tag is a free-text label: no control characters. A list refused adds its text to `errors`.
 */
export function readTags(tags: unknown, errors: FieldErrors): string[] | undefined {
  if (tags === undefined) return undefined;
  const list = z.array(z.string()).safeParse(tags);
  if (!list.success || list.data.some((t) => checkLength(t, "tag") !== undefined))
    return void errors.add("tags", `Must be an array of tags of ${LENGTH_LIMITS.tag[0]} to ${LENGTH_LIMITS.tag[1]} characters`);
  const bad = list.data.find((t) => checkPrintable(t));
  if (bad !== undefined) return void errors.add("tags", `A tag ${checkPrintable(bad)}`);
  return list.data;
}

// ---- interfaces ---------------------------------------------------------------------------------------

/** The parts of an interface item that `checkInterfaces` looks at. */
export interface InterfaceItem {
  purpose?: unknown;
  primary?: unknown;
  subnet_id?: unknown;
  label?: unknown;
  ipam_address?: unknown;
}

/** A refusal of an interface list: the field, with the index of the item when it is about one item (the whole item: no field). */
export interface InterfaceRefusal {
  index?: number;
  field: string;
  reason: string;
}

/** Where a refusal of the list at `base` (`interfaces`) points: the list, an item (`interfaces[0]`) or an item's field. */
export const refusedAt = (base: string, e: InterfaceRefusal): string =>
  e.index === undefined ? base : e.field ? `${base}[${e.index}].${e.field}` : `${base}[${e.index}]`;

/**
 * The rules on the whole list, in the order they are tried. compute-api.md "Limits": "Interfaces per profile
 * or create request | 1 to 3" (a profile may have none: "An empty `interfaces` array yields a default
 * `public` interface only"); "Interface": "primary | ... At most one per profile".
 */
const LIST_RULES: Array<{ refuses: (list: InterfaceItem[], allowEmpty: boolean) => boolean; reason: string }> = [
  { refuses: (list, allowEmpty) => list.length === 0 && !allowEmpty, reason: INTERFACE_LIST_TEXTS.none },
  { refuses: (list) => list.length > MAX_INTERFACES, reason: INTERFACE_LIST_TEXTS.tooMany },
  { refuses: (list) => list.filter((item) => item.primary === true).length > 1, reason: INTERFACE_LIST_TEXTS.twoPrimary },
];

/**
 * The rules on each item, in the order they are tried. compute-api.md "Interface": "purpose | string enum |
 * `public`, `vlan`, `vpc`", "label | string or null, 1..64 | ... used by `vlan`", "subnet_id | ... VPC subnet
 * to join (for `vpc`)". At most one `public` interface is the emulator's choice.
 */
const ITEM_RULES: Array<{ field: string; refuses: (item: InterfaceItem, list: InterfaceItem[]) => boolean; reason: string }> = [
  {
    field: "purpose",
    refuses: (item) => !(INTERFACE_PURPOSES as readonly unknown[]).includes(item.purpose),
    reason: `must be one of ${INTERFACE_PURPOSES.join(", ")}`,
  },
  { field: "subnet_id", refuses: (item) => item.purpose === "vpc" && item.subnet_id == null, reason: "a vpc interface needs a subnet_id" },
  {
    field: "label",
    refuses: (item) => item.purpose === "vlan" && (typeof item.label !== "string" || checkLength(item.label, "interfaceLabel") !== undefined),
    reason: "a vlan interface needs a label of 1 to 64 characters",
  },
  {
    field: "purpose",
    refuses: (item, list) => item.purpose === "public" && list.filter((other) => other.purpose === "public").length > 1,
    reason: INTERFACE_LIST_TEXTS.twoPublic,
  },
];

/** A list of interfaces (a profile's, or a create body's): the first rule of `LIST_RULES` or `ITEM_RULES` it breaks. */
export function checkInterfaces(list: readonly unknown[], allowEmpty: boolean): InterfaceRefusal | undefined {
  // An item that is not an object (`[null]`) is not an interface: the rules below read its fields.
  const items = z.array(z.looseObject({})).safeParse(list);
  if (!items.success) return { index: list.findIndex((item) => !z.looseObject({}).safeParse(item).success), field: "", reason: "Must be an interface object" };
  const broken = LIST_RULES.find((rule) => rule.refuses(items.data, allowEmpty));
  if (broken) return { field: "interfaces", reason: broken.reason };
  for (let index = 0; index < items.data.length; index++) {
    const rule = ITEM_RULES.find((r) => r.refuses(items.data[index], items.data));
    if (rule) return { index, field: rule.field, reason: rule.reason };
  }
  return undefined;
}
