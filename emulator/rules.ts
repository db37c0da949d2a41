import * as ipaddr from "ipaddr.js";

/**
 * The emulator's validation rules, written from the API spec (/work/shared/spec: compute-api.md,
 * databases-api.md, profile-api.md). Each function returns an error text, or `undefined` when the value is
 * fine; the route handlers put the text into the API's error envelope. Where the spec is silent, the choice
 * is the one recorded in docs/spec-gaps.md. The emulator has its own copy of these rules on purpose: it
 * plays the server, and must not move when the provider's preview-time checks change.
 */

// ---- lengths --------------------------------------------------------------------------------------

/**
 * A length bound. compute-api.md "Limits": "Instance label | 3..64 chars", "Config label | 1..48 chars",
 * "Disk label | 1..48 chars", "Snapshot label | 1..255 chars", "root_pass | 7..128 chars"; profile-api.md
 * "Limits": "Token label | 1..100 chars", "SSH key label | at most 64 chars". `min` 0 is "at most `max`".
 * The length is counted in UTF-16 code units (JavaScript's `length`).
 */
export function lengthError(value: string, min: number, max: number): string | undefined {
  const n = value.length;
  if (n >= min && n <= max) return undefined;
  if (min === 0) return `must be at most ${max} characters (got ${n})`;
  return `must be ${min} to ${max} characters (got ${n})`;
}

// ---- instance labels ------------------------------------------------------------------------------

/**
 * compute-api.md "Compute instance": "label | string, 3..64 chars"; the other constraints on instance
 * labels are "not shown". docs/spec-gaps.md fills them in: ASCII letters, digits, `-`, `_` and `.`,
 * starting and ending with a letter or digit, no two of `-`, `_`, `.` in a row.
 */
export function instanceLabelError(label: string): string | undefined {
  const len = lengthError(label, 3, 64);
  if (len) return len;
  const alnum = (ch: string) => /^[A-Za-z0-9]$/.test(ch);
  const allowed = /^[A-Za-z0-9._-]*$/.test(label);
  if (!allowed || !alnum(label[0]) || !alnum(label[label.length - 1])) {
    return "must use only ASCII letters, digits, '-', '_' and '.', and start and end with a letter or digit";
  }
  if (/[-_.]{2}/.test(label)) return "must not have two of '-', '_' or '.' in a row";
  return undefined;
}

// ---- root passwords -------------------------------------------------------------------------------

/** compute-api.md "Instances", rule 7: "an insufficient password strength returns the error text `Password does not meet strength requirement`". */
export const WEAK_PASSWORD = "Password does not meet strength requirement";

/**
 * compute-api.md "Instances", Create body: "root_pass | string 7..128". The strength rule itself is not
 * shown; docs/spec-gaps.md: at least three of lowercase letters, uppercase letters, digits, other characters.
 */
export function rootPassError(pass: string): string | undefined {
  const len = lengthError(pass, 7, 128);
  if (len) return len;
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/];
  const have = kinds.filter((re) => re.test(pass)).length;
  if (have >= 3) return undefined;
  return `${WEAK_PASSWORD} (use at least three of: lowercase letters, uppercase letters, digits, symbols)`;
}

// ---- SSH public keys ------------------------------------------------------------------------------

/**
 * profile-api.md "SSH key": "The list of accepted key formats: not shown." The key types the real service
 * takes (docs/spec-gaps.md "Accepted SSH key formats").
 */
export const SSH_KEY_TYPES = [
  "ssh-rsa",
  "ssh-dss",
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

/**
 * An OpenSSH public key line, as profile keys (`ssh_key`), `authorized_keys` and the profile's
 * `authorized_keys` take them: `<type> <base64 blob> [comment]`. The blob is an SSH wire-format key: a
 * 4-byte big-endian length, the type name again, then the key material (at least 16 bytes here).
 */
export function sshPublicKeyError(value: string): string | undefined {
  const words = value.trim().split(/\s+/);
  if (words.length < 2) return `must be an OpenSSH public key: "<type> <base64 key> [comment]", with type one of ${SSH_KEY_TYPES.join(", ")}`;
  const type = words[0];
  const blob = words[1];
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) return `key type "${type.slice(0, 40)}" is not supported; use one of ${SSH_KEY_TYPES.join(", ")}`;
  const base64 = /^[A-Za-z0-9+/]+={0,2}$/.test(blob) && blob.length % 4 === 0;
  if (!base64) return "the key data is not valid base64";
  const bytes = Buffer.from(blob, "base64");
  if (bytes.length < 4) return "the key data is too short";
  const nameLength = bytes.readUInt32BE(0);
  const name = bytes.subarray(4, 4 + nameLength).toString("latin1");
  if (nameLength !== type.length || name !== type) return `the key data does not hold a ${type} key`;
  if (bytes.length < 4 + nameLength + 16) return "the key data is too short";
  return undefined;
}

// ---- OAuth scopes ---------------------------------------------------------------------------------

/**
 * compute-api.md "Authentication" 2 names the groups `computes`, `images`, `vpc`, `ips`; databases-api.md
 * adds `databases`, profile-api.md `account`. The full list the emulator takes is in docs/spec-gaps.md
 * ("Scope groups"): anything else is refused.
 */
export const OAUTH_SCOPE_GROUPS = [
  "account",
  "child_account",
  "computes",
  "databases",
  "domains",
  "events",
  "firewall",
  "images",
  "ips",
  "lke",
  "longview",
  "maintenance",
  "monitor",
  "nodebalancers",
  "object_storage",
  "stackscripts",
  "volumes",
  "vpc",
] as const;

export type ScopeLevel = "read_only" | "read_write";

/**
 * compute-api.md "Authentication" 2: "OAuth tokens are limited by scopes of the form `<group>:read_only`
 * or `<group>:read_write`; `*` grants all. Several scopes are separated by a space." Parses such a string
 * into `all` (a `*` was given) and the level per group (`read_write` wins over `read_only`), or returns an
 * error text. Any run of whitespace separates scopes.
 */
export function parseScopes(scopes: string): { all: boolean; groups: Map<string, ScopeLevel> } | string {
  const items = scopes.trim().split(/\s+/).filter(Boolean);
  if (items.length === 0) return "must name at least one scope, or *";
  let all = false;
  const groups = new Map<string, ScopeLevel>();
  for (const item of items) {
    if (item === "*") {
      all = true;
      continue;
    }
    const m = /^([a-z_]+):(read_only|read_write)$/.exec(item);
    if (!m || !(OAUTH_SCOPE_GROUPS as readonly string[]).includes(m[1])) {
      return `"${item.slice(0, 60)}" is not a scope; use * or <group>:read_only|read_write with group one of ${OAUTH_SCOPE_GROUPS.join(", ")}`;
    }
    if (groups.get(m[1]) !== "read_write") groups.set(m[1], m[2] as ScopeLevel);
  }
  return { all, groups };
}

// ---- configuration profiles and interfaces --------------------------------------------------------

/** compute-api.md "Configuration profile": "devices | object | Keys `sda` to `sdh`". */
export const DEVICE_SLOTS = ["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"] as const;

/** The parts of an interface item that `interfacesError` looks at. */
export interface InterfaceInput {
  purpose?: unknown;
  primary?: unknown;
  subnet_id?: unknown;
  label?: unknown;
  ipam_address?: unknown;
}

/**
 * A list of interfaces (a profile's, or a create body's). compute-api.md "Limits": "Interfaces per
 * profile or create request | 1 to 3"; "Interface": "purpose | string enum | `public`, `vlan`, `vpc`",
 * "label | string or null, 1..64 | ... used by `vlan`", "primary | ... At most one per profile",
 * "subnet_id | ... VPC subnet to join (for `vpc`)". At most one `public` interface is the emulator's choice.
 * `allowEmpty`: a profile may have none ("An empty `interfaces` array yields a default `public` interface only").
 * The first problem found is returned, with the index of the item when it is about one item.
 */
export function interfacesError(list: InterfaceInput[], allowEmpty: boolean): { index?: number; field: string; reason: string } | undefined {
  if (list.length === 0 && !allowEmpty) return { field: "interfaces", reason: "must have 1 to 3 interfaces" };
  if (list.length > 3) return { field: "interfaces", reason: "must have at most 3 interfaces" };
  if (list.filter((i) => i.primary === true).length > 1) return { field: "interfaces", reason: "at most one interface can be primary" };
  const publics = list.filter((i) => i.purpose === "public").length;
  for (let index = 0; index < list.length; index++) {
    const i = list[index];
    if (i.purpose !== "public" && i.purpose !== "vlan" && i.purpose !== "vpc") return { index, field: "purpose", reason: "must be one of public, vlan, vpc" };
    if (i.purpose === "vpc" && (i.subnet_id === undefined || i.subnet_id === null))
      return { index, field: "subnet_id", reason: "a vpc interface needs a subnet_id" };
    if (i.purpose === "vlan" && (typeof i.label !== "string" || lengthError(i.label, 1, 64))) {
      return { index, field: "label", reason: "a vlan interface needs a label of 1 to 64 characters" };
    }
    if (i.purpose === "public" && publics > 1) return { index, field: "purpose", reason: "at most one public interface" };
  }
  return undefined;
}

/**
 * compute-api.md "Interface": "ipam_address | string or null (ip/netmask CIDR) | Used by `vlan`." Checked
 * for shape only: four dot-separated numbers, a slash and a number.
 */
export function ipamAddressError(value: unknown): string | undefined {
  if (typeof value === "string" && /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(value)) return undefined;
  return "Must be an IPv4 address with a netmask, for example 10.0.0.1/24";
}

// ---- VPCs and subnets -----------------------------------------------------------------------------

/**
 * compute-api.md "VPC and subnet": "label (string 1..64)" for both, and "Labels: ASCII letters, digits and
 * hyphens; no two consecutive hyphens."
 */
export function vpcLabelError(label: string): string | undefined {
  const len = lengthError(label, 1, 64);
  if (len) return len;
  if (!/^[A-Za-z0-9-]+$/.test(label)) return "must include only ASCII letters, numbers, and dashes";
  if (label.includes("--")) return "must not have two hyphens in a row";
  return undefined;
}

/** Parses `a.b.c.d/n` (IPv4 only, as ipaddr.js reads it) into the address and the prefix length, or undefined. */
export function parseIpv4Cidr(cidr: string): [ipaddr.IPv4, number] | undefined {
  if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(cidr)) return undefined;
  if (!ipaddr.isValidCIDR(cidr)) return undefined;
  const [addr, prefix] = ipaddr.parseCIDR(cidr);
  if (addr.kind() !== "ipv4" || prefix > 32) return undefined;
  return [addr as ipaddr.IPv4, prefix];
}

const ipv4ToInt = (a: ipaddr.IPv4) => a.octets.reduce((n, octet) => n * 256 + octet, 0);

/** The first and last address of a valid IPv4 CIDR, as integers. */
export function cidrBounds(cidr: string): [number, number] {
  const [addr, prefix] = parseIpv4Cidr(cidr)!;
  const first = ipv4ToInt(addr);
  return [first, first + 2 ** (32 - prefix) - 1];
}

/** True when two valid IPv4 CIDRs share an address. */
export function cidrsOverlap(a: string, b: string): boolean {
  const [a0, a1] = cidrBounds(a);
  const [b0, b1] = cidrBounds(b);
  return a0 <= b1 && b0 <= a1;
}

/** RFC 1918's private ranges. */
const PRIVATE_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"];
/** The range subnets must stay clear of. */
const RESERVED_RANGE = "192.168.128.0/17";

const inside = (inner: string, outer: string) => {
  const [i0, i1] = cidrBounds(inner);
  const [o0, o1] = cidrBounds(outer);
  return i0 >= o0 && i1 <= o1;
};

/**
 * compute-api.md "VPCs": "Subnet `ipv4` rules: CIDR canonical form; within a private address space defined
 * in RFC 1918; prefix length 1 to 29; must not overlap 192.168.128.0/17; must not overlap another subnet of
 * the same VPC." (The last one needs the siblings: `cidrsOverlap`, in the VPC routes.)
 */
export function subnetIpv4Error(cidr: string): string | undefined {
  const parsed = parseIpv4Cidr(cidr);
  if (!parsed) return "must be an IPv4 CIDR such as 10.0.1.0/24";
  const [addr, prefix] = parsed;
  if (prefix < 1 || prefix > 29) return `the prefix length must be 1 to 29 (got /${prefix})`;
  const network = ipaddr.IPv4.networkAddressFromCIDR(cidr).toString();
  if (network !== addr.toString()) return `must be in canonical form: ${network}/${prefix}`;
  if (!PRIVATE_RANGES.some((range) => inside(cidr, range))) return "must be inside a private range of RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)";
  if (cidrsOverlap(cidr, RESERVED_RANGE)) return "must not overlap 192.168.128.0/17 (reserved)";
  return undefined;
}

// ---- database allow lists -------------------------------------------------------------------------

/**
 * databases-api.md "Database instance": "allow_list | array of strings | Each item an IP address or CIDR
 * range". IPv4 or IPv6, as ipaddr.js parses them.
 */
export function ipOrCidrError(value: string): string | undefined {
  const shown = value.slice(0, 60);
  if (value.includes("/")) return ipaddr.isValidCIDR(value) ? undefined : `"${shown}" is not a valid CIDR range`;
  return ipaddr.isValid(value) ? undefined : `"${shown}" is not a valid IP address`;
}
