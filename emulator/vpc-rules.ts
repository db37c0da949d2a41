import * as ipaddr from "ipaddr.js";
import { checkLength } from "./rules";

/**
 * The emulator's checks of VPCs and subnets (compute-api.md "VPC and subnet"), beside emulator/rules.ts and
 * written the same way: from the spec, each answering the error text or `undefined`, shared with nothing in
 * the provider.
 */

/**
 * compute-api.md "VPC and subnet": "label (string 1..64)" for both, and "Labels: ASCII letters, digits and
 * hyphens; no two consecutive hyphens."
 */
export function checkVpcLabel(label: string): string | undefined {
  const length = checkLength(label, "vpcLabel");
  if (length) return length;
  if (/[^A-Za-z0-9-]/.test(label)) return "must include only ASCII letters, numbers, and dashes";
  return label.includes("--") ? "must not have two hyphens in a row" : undefined;
}

/** An IPv4 range as typed: its address, its prefix length, and its first and last address as integers. */
export interface Ipv4Range {
  address: ipaddr.IPv4;
  prefix: number;
  first: number;
  last: number;
}

/** Reads `a.b.c.d/n` (IPv4 only, each number as ipaddr.js reads it), or undefined. The range starts at the address as typed. */
export function readIpv4Range(cidr: string): Ipv4Range | undefined {
  if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(cidr) || !ipaddr.IPv4.isValidCIDR(cidr)) return undefined;
  const [address, prefix] = ipaddr.IPv4.parseCIDR(cidr);
  const first = address.toByteArray().reduce((sum, byte) => sum * 256 + byte, 0);
  return { address, prefix, first, last: first + 2 ** (32 - prefix) - 1 };
}

/** The first and last address of a valid IPv4 CIDR, as integers. */
export function ipv4Span(cidr: string): [number, number] {
  const range = readIpv4Range(cidr)!;
  return [range.first, range.last];
}

/** True when two valid IPv4 CIDRs share an address. */
export function ipv4SpansOverlap(one: string, other: string): boolean {
  const [oneFirst, oneLast] = ipv4Span(one);
  const [otherFirst, otherLast] = ipv4Span(other);
  return !(oneLast < otherFirst || otherLast < oneFirst);
}

/**
 * A VPC's subnets as a request checks a new one against them: their labels, and their ranges sorted by their
 * first address (they never overlap each other, so each range's last address is sorted too). A clash is found
 * by a binary search: a request with thousands of subnets costs n log n, not n squared (4,000 took 31 s).
 */
export class SubnetSiblings {
  private readonly labels = new Set<string>();
  private readonly spans: Array<{ first: number; last: number; label: string; ipv4: string }> = [];

  constructor(existing: ReadonlyArray<{ label: string; ipv4: string }> = []) {
    for (const s of existing) this.add(s);
  }

  hasLabel(label: string): boolean {
    return this.labels.has(label);
  }

  /** The sibling whose range shares an address with `ipv4` (a valid CIDR), if any. */
  clash(ipv4: string): { label: string; ipv4: string } | undefined {
    const [first, last] = ipv4Span(ipv4);
    // The last range that starts at or before `last`: every range before it ends before it starts, so it is the
    // only one that can reach into [first, last].
    let lo = 0;
    let hi = this.spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid].first <= last) lo = mid + 1;
      else hi = mid;
    }
    const before = this.spans[lo - 1];
    return before && before.last >= first ? before : undefined;
  }

  /** Takes a subnet in: its label always, its range when it is valid and clashes with none (the ranges stay apart). */
  add(s: { label: string; ipv4: string }): void {
    this.labels.add(s.label);
    if (typeof s.ipv4 !== "string" || !readIpv4Range(s.ipv4) || this.clash(s.ipv4)) return;
    const [first, last] = ipv4Span(s.ipv4);
    let at = this.spans.findIndex((x) => x.first > first);
    if (at < 0) at = this.spans.length;
    this.spans.splice(at, 0, { first, last, label: s.label, ipv4: s.ipv4 });
  }
}

/** RFC 1918's private ranges: a subnet lies inside one of them. */
const PRIVATE_SPANS = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map(ipv4Span);

/**
 * compute-api.md "VPCs": "Subnet `ipv4` rules: CIDR canonical form; within a private address space defined
 * in RFC 1918; prefix length 1 to 29; must not overlap 192.168.128.0/17; must not overlap another subnet of
 * the same VPC." Tried here in the order prefix, canonical form, RFC 1918, the reserved range; the last rule
 * needs the siblings (`SubnetSiblings`, in the VPC routes).
 */
export function checkSubnetIpv4(cidr: string): string | undefined {
  const range = readIpv4Range(cidr);
  if (!range) return "must be an IPv4 CIDR such as 10.0.1.0/24";
  if (range.prefix < 1 || range.prefix > 29) return `the prefix length must be 1 to 29 (got /${range.prefix})`;
  const network = ipaddr.IPv4.networkAddressFromCIDR(cidr).toString();
  if (network !== range.address.toString()) return `must be in canonical form: ${network}/${range.prefix}`;
  const isPrivate = PRIVATE_SPANS.some(([first, last]) => range.first >= first && range.last <= last);
  if (!isPrivate) return "must be inside a private range of RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)";
  return ipv4SpansOverlap(cidr, "192.168.128.0/17") ? "must not overlap 192.168.128.0/17 (reserved)" : undefined;
}
