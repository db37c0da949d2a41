import * as ipaddr from "ipaddr.js";
import { isWeakPassword, WEAK_PASSWORD_TEXT } from "../api/passwords";

export { WEAK_PASSWORD_TEXT };

/**
 * The checks the emulator makes on request bodies, as the server does, written from the spec documents
 * (/work/shared/spec: compute-api.md, databases-api.md, profile-api.md). Each check answers the error text
 * the route puts into the API's error envelope, or `undefined` when the value is accepted. Where the spec is
 * silent, the choice is the one docs/spec-gaps.md records. None of this is shared with the provider: the
 * emulator judges the provider's own checks, so a mistake in one of them fails against this file.
 */

// ---- the "Limits" tables ----------------------------------------------------------------------------

/**
 * Character counts, `[least, most]`, one entry a row of the spec's "Limits" tables (or of a body table
 * where "Limits" has no row). A least of 0 is "at most". Counted in UTF-16 code units (JavaScript's `length`).
 */
export const LENGTH_LIMITS = {
  /** compute-api.md "Limits": "Instance label | 3..64 chars". */
  instanceLabel: [3, 64],
  /** compute-api.md "Limits": "Config label | 1..48 chars". */
  configLabel: [1, 48],
  /** compute-api.md "Limits": "Disk label | 1..48 chars". */
  diskLabel: [1, 48],
  /** compute-api.md "Limits": "Snapshot label | 1..255 chars". */
  snapshotLabel: [1, 255],
  /** compute-api.md "Limits": "VPC and subnet label | 1..64 chars". */
  vpcLabel: [1, 64],
  /** compute-api.md "Limits": "root_pass | 7..128 chars". */
  rootPass: [7, 128],
  /** compute-api.md "Interface": "label | string or null, 1..64 | ... used by `vlan`". */
  interfaceLabel: [1, 64],
  /** Not shown in compute-api.md: docs/spec-gaps.md "Image labels". */
  imageLabel: [1, 128],
  /** compute-api.md "Limits": "Image description | 1..65000 chars". */
  imageDescription: [1, 65000],
  /** databases-api.md "Limits": "Database label | 3..32 chars". */
  databaseLabel: [3, 32],
  /** profile-api.md "Limits": "Token label | 1..100 chars". */
  tokenLabel: [1, 100],
  /** profile-api.md "Limits": "SSH key label | at most 64 chars". */
  sshKeyLabel: [0, 64],
} as const satisfies Record<string, readonly [number, number]>;

export type LengthLimit = keyof typeof LENGTH_LIMITS;

/** The text for a value whose length is outside its row of `LENGTH_LIMITS`. */
export function checkLength(value: string, limit: LengthLimit): string | undefined {
  const [least, most] = LENGTH_LIMITS[limit];
  const got = `(got ${value.length})`;
  if (value.length > most) return least === 0 ? `must be at most ${most} characters ${got}` : `must be ${least} to ${most} characters ${got}`;
  return value.length < least ? `must be ${least} to ${most} characters ${got}` : undefined;
}

/**
 * Text a label (or a description, `multiline`) may hold: no control character (C0, DEL, C1; a description may
 * hold tabs and line breaks), no bidirectional control (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069: they
 * make a label read as another), no lone surrogate (not text). The spec gives labels' lengths, and for some
 * labels their characters (instance and VPC labels: letters, digits and a few marks); for the free-text labels
 * the emulator refuses what no real label holds (docs/spec-gaps.md), alike for every one of them.
 */
export function checkPrintable(value: string, multiline = false): string | undefined {
  // Unicode's control characters (\p{Cc}: C0, DEL, C1); a description keeps its tabs and line breaks.
  const controls = multiline ? value.replace(/[\t\n\r]/g, "") : value;
  if (/\p{Cc}/u.test(controls)) return "must not hold control characters";
  if (/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(value)) return "must not hold bidirectional text controls";
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) return "must be well-formed Unicode text (a lone surrogate is not)";
  return undefined;
}

/** A free-text label's (or description's) length, then its characters (`checkLength`, `checkPrintable`). */
export const checkText = (value: string, limit: LengthLimit, multiline = false): string | undefined =>
  checkLength(value, limit) ?? checkPrintable(value, multiline);

/**
 * compute-api.md "Instance": "tags | array of strings". The spec gives no length: 3 to 50 characters is the real
 * API's (the provider's check says so too). A tag is a free-text label: no control characters (`checkPrintable`).
 */
export function tagsError(tags: unknown): string | undefined {
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string" || t.length < 3 || t.length > 50)) return "Must be an array of tags of 3 to 50 characters";
  const bad = (tags as string[]).find((t) => checkPrintable(t));
  return bad === undefined ? undefined : `A tag ${checkPrintable(bad)}`;
}

// ---- instances ----------------------------------------------------------------------------------------

const isAsciiLetterOrDigit = (ch: string | undefined) => ch !== undefined && ((ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9"));
const isLabelSeparator = (ch: string | undefined) => ch === "-" || ch === "_" || ch === ".";

/**
 * compute-api.md "Compute instance": "label | string, 3..64 chars"; what else a label may hold is "not
 * shown", and docs/spec-gaps.md fills it in: ASCII letters, digits, `-`, `_` and `.`, starting and ending
 * with a letter or digit, never two of `-`, `_`, `.` side by side. The label is read one character at a time.
 */
export function checkInstanceLabel(label: string): string | undefined {
  const length = checkLength(label, "instanceLabel");
  if (length) return length;
  const chars = Array.from(label);
  const foreign = chars.some((ch) => !isAsciiLetterOrDigit(ch) && !isLabelSeparator(ch));
  if (foreign || !isAsciiLetterOrDigit(chars[0]) || !isAsciiLetterOrDigit(chars[chars.length - 1])) {
    return "must use only ASCII letters, digits, '-', '_' and '.', and start and end with a letter or digit";
  }
  const doubled = chars.some((ch, at) => at > 0 && isLabelSeparator(ch) && isLabelSeparator(chars[at - 1]));
  return doubled ? "must not have two of '-', '_' or '.' in a row" : undefined;
}

/**
 * compute-api.md "Instances", Create body: "root_pass | string 7..128", and strong enough by the API's own
 * score (api/passwords.ts: the API's fact, read by the provider too). A weak password's text is
 * `WEAK_PASSWORD_TEXT` alone, as the spec gives it.
 */
export function checkRootPassword(pass: string): string | undefined {
  return checkLength(pass, "rootPass") ?? (isWeakPassword(pass) ? WEAK_PASSWORD_TEXT : undefined);
}

/** compute-api.md "Configuration profile": "devices | object | Keys `sda` to `sdh`". */
export const CONFIG_DEVICE_SLOTS: readonly string[] = Array.from("abcdefgh", (letter) => `sd${letter}`);

// ---- SSH public keys ----------------------------------------------------------------------------------

/**
 * profile-api.md "SSH key": "The list of accepted key formats: not shown." The types the real service takes
 * (docs/spec-gaps.md "Accepted SSH key formats"), in the order the error text names them.
 */
export const SSH_KEY_FORMATS: readonly string[] = [
  ...["rsa", "dss", "ed25519"].map((algorithm) => `ssh-${algorithm}`),
  ...["nistp256", "nistp384", "nistp521"].map((curve) => `ecdsa-sha2-${curve}`),
  ...["ssh-ed25519", "ecdsa-sha2-nistp256"].map((security) => `sk-${security}@openssh.com`),
];

/** Bytes of key material an SSH key blob holds after its type name, at least. */
const LEAST_KEY_MATERIAL = 16;

/**
 * An OpenSSH public key line, as profile keys (`ssh_key`), `authorized_keys` and the profile's
 * `authorized_keys` take them: `<type> <base64 blob> [comment]`. The blob is in SSH wire format: the type
 * name as a string (a 4-byte big-endian length, then its bytes), then the key material.
 */
export function checkSshKey(line: string): string | undefined {
  const formats = SSH_KEY_FORMATS.join(", ");
  const [type, data] = line.trim().split(/\s+/);
  if (data === undefined) return `must be an OpenSSH public key: "<type> <base64 key> [comment]", with type one of ${formats}`;
  if (!SSH_KEY_FORMATS.includes(type)) return `key type "${type.slice(0, 40)}" is not supported; use one of ${formats}`;
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return "the key data is not valid base64";
  const blob = Buffer.from(data, "base64");
  if (blob.length < 4) return "the key data is too short";
  const nameEnd = 4 + blob.readUInt32BE(0);
  if (nameEnd !== 4 + type.length || blob.toString("latin1", 4, nameEnd) !== type) return `the key data does not hold a ${type} key`;
  return blob.length - nameEnd < LEAST_KEY_MATERIAL ? "the key data is too short" : undefined;
}

// ---- OAuth scopes -------------------------------------------------------------------------------------

/**
 * The scope groups a token may name. compute-api.md "Authentication" 2 names `computes`, `images`, `vpc`,
 * `ips`; databases-api.md adds `databases`, profile-api.md `account`; the others are the real service's
 * (docs/spec-gaps.md "Scope groups"). Sorted, as the error text lists them.
 */
export const SCOPE_GROUPS: readonly string[] = [
  ...["computes", "images", "vpc", "ips", "databases", "account"],
  ..."child_account domains events firewall lke longview maintenance monitor nodebalancers object_storage stackscripts volumes".split(" "),
].sort();

export type ScopeLevel = "read_only" | "read_write";

/** What a scopes string grants: everything (`*`), or a level per group. */
export interface ScopeGrant {
  all: boolean;
  groups: Map<string, ScopeLevel>;
}

/**
 * compute-api.md "Authentication" 2: "OAuth tokens are limited by scopes of the form `<group>:read_only`
 * or `<group>:read_write`; `*` grants all. Several scopes are separated by a space." Reads such a string
 * (any run of whitespace separates), `read_write` winning over `read_only` for a group named twice, or
 * answers the error text for the first word that is not a scope.
 */
export function readScopes(text: string): ScopeGrant | string {
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (words.length === 0) return "must name at least one scope, or *";
  const grant: ScopeGrant = { all: false, groups: new Map() };
  for (const word of words) {
    if (word === "*") {
      grant.all = true;
      continue;
    }
    const [group, level, ...rest] = word.split(":");
    if (rest.length > 0 || !SCOPE_GROUPS.includes(group) || (level !== "read_only" && level !== "read_write")) {
      return `"${word.slice(0, 60)}" is not a scope; use * or <group>:read_only|read_write with group one of ${SCOPE_GROUPS.join(", ")}`;
    }
    if (level === "read_write" || !grant.groups.has(group)) grant.groups.set(group, level);
  }
  return grant;
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
  { refuses: (list, allowEmpty) => list.length === 0 && !allowEmpty, reason: "must have 1 to 3 interfaces" },
  { refuses: (list) => list.length > 3, reason: "must have at most 3 interfaces" },
  { refuses: (list) => list.filter((item) => item.primary === true).length > 1, reason: "at most one interface can be primary" },
];

/**
 * The rules on each item, in the order they are tried. compute-api.md "Interface": "purpose | string enum |
 * `public`, `vlan`, `vpc`", "label | string or null, 1..64 | ... used by `vlan`", "subnet_id | ... VPC subnet
 * to join (for `vpc`)". At most one `public` interface is the emulator's choice.
 */
const ITEM_RULES: Array<{ field: string; refuses: (item: InterfaceItem, list: InterfaceItem[]) => boolean; reason: string }> = [
  { field: "purpose", refuses: (item) => !["public", "vlan", "vpc"].includes(item.purpose as string), reason: "must be one of public, vlan, vpc" },
  { field: "subnet_id", refuses: (item) => item.purpose === "vpc" && item.subnet_id == null, reason: "a vpc interface needs a subnet_id" },
  {
    field: "label",
    refuses: (item) => item.purpose === "vlan" && (typeof item.label !== "string" || checkLength(item.label, "interfaceLabel") !== undefined),
    reason: "a vlan interface needs a label of 1 to 64 characters",
  },
  {
    field: "purpose",
    refuses: (item, list) => item.purpose === "public" && list.filter((other) => other.purpose === "public").length > 1,
    reason: "at most one public interface",
  },
];

/** A list of interfaces (a profile's, or a create body's): the first rule of `LIST_RULES` or `ITEM_RULES` it breaks. */
export function checkInterfaces(list: InterfaceItem[], allowEmpty: boolean): InterfaceRefusal | undefined {
  // An item that is not an object (`[null]`) is not an interface: the rules below read its fields.
  const notItem = list.findIndex((item) => typeof item !== "object" || item === null || Array.isArray(item));
  if (notItem >= 0) return { index: notItem, field: "", reason: "Must be an interface object" };
  const broken = LIST_RULES.find((rule) => rule.refuses(list, allowEmpty));
  if (broken) return { field: "interfaces", reason: broken.reason };
  for (let index = 0; index < list.length; index++) {
    const rule = ITEM_RULES.find((r) => r.refuses(list[index], list));
    if (rule) return { index, field: rule.field, reason: rule.reason };
  }
  return undefined;
}

/**
 * compute-api.md "Interface": "ipam_address | string or null (ip/netmask CIDR) | Used by `vlan`." Checked
 * for shape only: four dot-separated numbers, a slash and a number.
 */
export function checkIpamAddress(value: unknown): string | undefined {
  const shaped = typeof value === "string" && /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(value);
  return shaped ? undefined : "Must be an IPv4 address with a netmask, for example 10.0.0.1/24";
}

// ---- database allow lists -----------------------------------------------------------------------------

/**
 * databases-api.md "Database instance": "allow_list | array of strings | Each item an IP address or CIDR
 * range". IPv4 or IPv6, as ipaddr.js parses them (old IPv4 forms too: docs/spec-gaps.md, the known leniencies).
 */
export function checkAllowListEntry(entry: string): string | undefined {
  const isRange = entry.includes("/");
  const valid = isRange ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
  if (valid) return undefined;
  return `"${entry.slice(0, 60)}" is not a valid ${isRange ? "CIDR range" : "IP address"}`;
}
