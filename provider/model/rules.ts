import { isIP } from "node:net";
import * as ipaddr from "ipaddr.js";
import { isWeakPassword, WEAK_PASSWORD_TEXT } from "../../api/passwords";

/**
 * Rules of the API spec that the provider applies at preview (check). Pure functions, no dependencies:
 * each returns an error text or `undefined`. The emulator, which judges the provider, has its own
 * (emulator/rules.ts), written from the spec: a wrong rule here fails against it.
 */

/** Key types the real service accepts (the spec does not list them: see docs/spec-gaps.md). */
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
 * Checks an OpenSSH public key line: `<type> <base64 blob> [comment]`, where the blob decodes and
 * starts with the same type name (as `ssh-keygen` writes it).
 */
export function sshPublicKeyError(value: string): string | undefined {
  const parts = value.trim().split(/\s+/);
  if (parts.length < 2) return `must be an OpenSSH public key: "<type> <base64 key> [comment]", with type one of ${SSH_KEY_TYPES.join(", ")}`;
  const [type, blob] = parts;
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) return `key type "${type.slice(0, 40)}" is not supported; use one of ${SSH_KEY_TYPES.join(", ")}`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob) || blob.length % 4 !== 0) return "the key data is not valid base64";
  const bytes = Buffer.from(blob, "base64");
  if (bytes.length < 4) return "the key data is too short";
  const len = bytes.readUInt32BE(0);
  if (len !== type.length || bytes.subarray(4, 4 + len).toString("latin1") !== type) return `the key data does not hold a ${type} key`;
  if (bytes.length < 4 + len + 16) return "the key data is too short";
  return undefined;
}

export function lengthError(value: string, min: number, max: number): string | undefined {
  if (value.length < min || value.length > max) {
    return min === 0 ? `must be at most ${max} characters (got ${value.length})` : `must be ${min} to ${max} characters (got ${value.length})`;
  }
  return undefined;
}

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

/** Parses a scopes string (`*` or space-separated `<group>:read_only|read_write`), or returns an error text. */
export function parseScopes(scopes: string): { all: boolean; groups: Map<string, "read_only" | "read_write"> } | string {
  const items = scopes.trim().split(/\s+/).filter(Boolean);
  if (items.length === 0) return "must name at least one scope, or *";
  const groups = new Map<string, "read_only" | "read_write">();
  let all = false;
  for (const item of items) {
    if (item === "*") {
      all = true;
      continue;
    }
    const m = /^([a-z_]+):(read_only|read_write)$/.exec(item);
    if (!m || !(OAUTH_SCOPE_GROUPS as readonly string[]).includes(m[1])) {
      return `"${item.slice(0, 60)}" is not a scope; use * or <group>:read_only|read_write with group one of ${OAUTH_SCOPE_GROUPS.join(", ")}`;
    }
    const level = m[2] as "read_only" | "read_write";
    if (groups.get(m[1]) !== "read_write") groups.set(m[1], level);
  }
  return { all, groups };
}

/**
 * Instance labels: 3..64 characters; ASCII letters, digits, `-`, `_` and `.`; starting and ending with a
 * letter or digit; no two `-`, `_` or `.` in a row (the spec gives only the length: docs/spec-gaps.md).
 */
export function instanceLabelError(label: string): string | undefined {
  const len = lengthError(label, 3, 64);
  if (len) return len;
  if (!/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(label)) {
    return "must use only ASCII letters, digits, '-', '_' and '.', and start and end with a letter or digit";
  }
  if (/[-_.]{2}/.test(label)) return "must not have two of '-', '_' or '.' in a row";
  return undefined;
}

/** The exact text the API gives for a weak root password (spec rule 7). */
export const WEAK_PASSWORD = WEAK_PASSWORD_TEXT;

/** Root passwords: 7..128 characters, and strong enough by the API's own score (api/passwords.ts). */
export function rootPassError(pass: string): string | undefined {
  return lengthError(pass, 7, 128) ?? (isWeakPassword(pass) ? WEAK_PASSWORD : undefined);
}

/** Names of the config device slots, `sda` to `sdh`. */
export const DEVICE_SLOTS = ["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"] as const;

/** An id input: the API's integer id, given as a number or as the string Pulumi ids are. */
export const ID_PATTERN = /^\d+$/;

/** VPC and subnet labels: 1..64 ASCII letters, digits and hyphens, no two hyphens in a row. */
export function vpcLabelError(label: string): string | undefined {
  const len = lengthError(label, 1, 64);
  if (len) return len;
  if (!/^[A-Za-z0-9-]+$/.test(label)) return "must use only ASCII letters, digits and hyphens";
  if (label.includes("--")) return "must not have two hyphens in a row";
  return undefined;
}

const RFC1918 = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map((c) => ipaddr.parseCIDR(c));

/** Parses `a.b.c.d/n` (IPv4 only) or returns undefined. */
export function parseIpv4Cidr(cidr: string): [ipaddr.IPv4, number] | undefined {
  if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(cidr) || !ipaddr.isValidCIDR(cidr)) return undefined;
  const [addr, prefix] = ipaddr.parseCIDR(cidr);
  return addr.kind() === "ipv4" && prefix <= 32 ? [addr as ipaddr.IPv4, prefix] : undefined;
}

const toInt = (a: ipaddr.IPv4) => a.octets.reduce((n, o) => n * 256 + o, 0);
/** The first and last address of a CIDR, as integers. */
export function cidrBounds(cidr: string): [number, number] {
  const [addr, prefix] = parseIpv4Cidr(cidr)!;
  const start = toInt(addr);
  return [start, start + 2 ** (32 - prefix) - 1];
}
export function cidrsOverlap(a: string, b: string): boolean {
  const [a0, a1] = cidrBounds(a);
  const [b0, b1] = cidrBounds(b);
  return a0 <= b1 && b0 <= a1;
}
const within = (inner: string, outer: [ipaddr.IPv4 | ipaddr.IPv6, number]) => {
  const [i0, i1] = cidrBounds(inner);
  const [o0, o1] = cidrBounds(`${outer[0].toString()}/${outer[1]}`);
  return i0 >= o0 && i1 <= o1;
};

/** Subnet `ipv4` rules: canonical CIDR, inside RFC 1918, prefix 1..29, clear of 192.168.128.0/17. */
export function subnetIpv4Error(cidr: string): string | undefined {
  const parsed = parseIpv4Cidr(cidr);
  if (!parsed) return "must be an IPv4 CIDR such as 10.0.1.0/24";
  const [addr, prefix] = parsed;
  if (prefix < 1 || prefix > 29) return `the prefix length must be 1 to 29 (got /${prefix})`;
  const network = ipaddr.IPv4.networkAddressFromCIDR(cidr).toString();
  if (network !== addr.toString()) return `must be in canonical form: ${network}/${prefix}`;
  if (!RFC1918.some((r) => within(cidr, r))) return "must be inside a private range of RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)";
  if (cidrsOverlap(cidr, "192.168.128.0/17")) return "must not overlap 192.168.128.0/17 (reserved)";
  return undefined;
}

/** An IP address or CIDR range (IPv4 or IPv6), as database allow lists take. */
export function ipOrCidrError(v: string): string | undefined {
  // Four dotted parts for IPv4 (ipaddr also takes the classful "1.2.3", which no API reads as an address).
  const address = (a: string) => isIP(a) !== 0;
  if (v.includes("/")) return ipaddr.isValidCIDR(v) && address(v.split("/")[0]) ? undefined : `"${v.slice(0, 60)}" is not a valid CIDR range`;
  return address(v) ? undefined : `"${v.slice(0, 60)}" is not a valid IP address`;
}
