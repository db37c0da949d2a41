import { isIP, isIPv4 } from "node:net";
import * as ipaddr from "ipaddr.js";

/** Addresses and ranges as the API takes them: subnets' IPv4 ranges, database allow lists, VLAN interfaces' addresses. */

/** An IPv4 range as typed: its address, its prefix length, and its first and last address as integers. */
export interface Ipv4Range {
  address: ipaddr.IPv4;
  prefix: number;
  first: number;
  last: number;
}

/** Reads `a.b.c.d/n` (IPv4 only, four dotted numbers), or undefined. The range starts at the address as typed. */
export function readIpv4Range(cidr: string): Ipv4Range | undefined {
  if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(cidr) || !ipaddr.IPv4.isValidCIDR(cidr)) return undefined;
  const [address, prefix] = ipaddr.IPv4.parseCIDR(cidr);
  const first = address.toByteArray().reduce((sum, byte) => sum * 256 + byte, 0);
  return { address, prefix, first, last: first + 2 ** (32 - prefix) - 1 };
}

/** The first and last address of a valid IPv4 CIDR, as integers. */
export function ipv4Span(cidr: string): [number, number] {
  const range = readIpv4Range(cidr);
  if (!range) throw new Error(`not an IPv4 CIDR: ${cidr}`);
  return [range.first, range.last];
}

/** True when two valid IPv4 CIDRs share an address. */
export function ipv4SpansOverlap(one: string, other: string): boolean {
  const [oneFirst, oneLast] = ipv4Span(one);
  const [otherFirst, otherLast] = ipv4Span(other);
  return oneFirst <= otherLast && otherFirst <= oneLast;
}

/** RFC 1918's private ranges: a subnet lies inside one of them. */
const PRIVATE_SPANS = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map(ipv4Span);

/**
 * compute-api.md: an instance's private IPv4 addresses (`private_ip`) are in 192.168.128.0/17, which a VPC's
 * subnet "must not overlap".
 */
export const COMPUTE_PRIVATE_RANGE = "192.168.128.0/17";

/**
 * compute-api.md "VPCs": "Subnet `ipv4` rules: CIDR canonical form; within a private address space defined in
 * RFC 1918; prefix length 1 to 29; must not overlap 192.168.128.0/17; must not overlap another subnet of the
 * same VPC." Tried in the order prefix, canonical form, RFC 1918, the reserved range; the last rule needs the
 * VPC's other subnets (`ipv4SpansOverlap`).
 */
export function subnetIpv4Error(cidr: string): string | undefined {
  const range = readIpv4Range(cidr);
  if (!range) return "must be an IPv4 CIDR such as 10.0.1.0/24";
  if (range.prefix < 1 || range.prefix > 29) return `the prefix length must be 1 to 29 (got /${range.prefix})`;
  const network = ipaddr.IPv4.networkAddressFromCIDR(cidr).toString();
  if (network !== range.address.toString()) return `must be in canonical form: ${network}/${range.prefix}`;
  const isPrivate = PRIVATE_SPANS.some(([first, last]) => range.first >= first && range.last <= last);
  if (!isPrivate) return "must be inside a private range of RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)";
  return ipv4SpansOverlap(cidr, COMPUTE_PRIVATE_RANGE) ? `must not overlap ${COMPUTE_PRIVATE_RANGE} (reserved)` : undefined;
}

/**
 * databases-api.md "Database instance": "allow_list | array of strings | Each item an IP address or CIDR range":
 * IPv4 (four dotted numbers) or IPv6, with a prefix length for a range.
 */
export function addressOrRangeError(entry: string): string | undefined {
  const address = (a: string) => isIP(a) !== 0;
  if (entry.includes("/")) return ipaddr.isValidCIDR(entry) && address(entry.split("/")[0]) ? undefined : `"${entry.slice(0, 60)}" is not a valid CIDR range`;
  return address(entry) ? undefined : `"${entry.slice(0, 60)}" is not a valid IP address`;
}

/** compute-api.md "Interface": "ipv4 | object | `vpc` (IPv4 address inside the subnet)": four dotted numbers 0..255, no leading zeros. */
export function ipv4AddressError(value: string): string | undefined {
  return isIPv4(value) ? undefined : "must be an IPv4 address, for example 10.0.0.2";
}

/**
 * compute-api.md "Interface": "ipam_address | string or null (ip/netmask CIDR) | Used by `vlan`": an IPv4 address
 * (four dotted numbers, each 0 to 255) and a netmask of 0 to 32 bits.
 */
export function ipamAddressError(value: unknown): string | undefined {
  const m = typeof value === "string" ? /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(value) : null;
  return m && isIPv4(m[1]) && Number(m[2]) <= 32 ? undefined : "Must be an IPv4 address with a netmask, for example 10.0.0.1/24";
}

/**
 * compute-api.md "Interface": "`nat_1_1` (public address mapped 1:1, or the value `any`, or null)": an IPv4 address
 * or `any`.
 */
export const natError = (value: string): string | undefined =>
  value === "any" || isIPv4(value) ? undefined : "must be an IPv4 address or any (the API picks one)";

/** compute-api.md "Interface": "ip_ranges | ... IPv4 CIDR VPC subnet ranges routed to this interface": each `a.b.c.d/n`, n 0 to 32. */
export const ipRangeError = (value: string): string | undefined =>
  readIpv4Range(value) ? undefined : `"${value.slice(0, 60)}" is not an IPv4 CIDR range such as 10.0.1.16/28`;
