import { ipv4Span, readIpv4Range } from "../api/network";
import type { FieldErrors } from "./http";

/**
 * A VPC's subnets as the emulator checks a request against them (the rules themselves are api/network.ts's and
 * api/labels.ts's: compute-api.md "VPC and subnet").
 */

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

  /**
   * What the rules between subnets refuse in `s` (a subnet whose own rules passed) beside these siblings: a label
   * one of them has, a range that overlaps one of theirs, each with its field.
   */
  conflicts(s: { label: string; ipv4: string }): Array<{ field: "label" | "ipv4"; reason: string }> {
    const out: Array<{ field: "label" | "ipv4"; reason: string }> = [];
    if (this.hasLabel(s.label)) out.push({ field: "label", reason: "Label must be unique among the VPC's subnets" });
    const clash = this.clash(s.ipv4);
    if (clash) out.push({ field: "ipv4", reason: `ipv4 ${s.ipv4} overlaps ${clash.ipv4} of subnet ${clash.label}` });
    return out;
  }

  /** Adds the conflicts of `s` to a request's refusals, each under its field (`prefix` before it: `subnets[1].`). */
  refuse(s: { label: string; ipv4: string }, errors: FieldErrors, prefix = ""): void {
    for (const c of this.conflicts(s)) errors.add(`${prefix}${c.field}`, c.reason);
  }

  /** Takes a subnet in: its label always, its range when it is valid and clashes with none (the ranges stay apart). */
  add(s: { label: string; ipv4: string }): void {
    this.labels.add(s.label);
    if (!readIpv4Range(s.ipv4) || this.clash(s.ipv4)) return;
    const [first, last] = ipv4Span(s.ipv4);
    let at = this.spans.findIndex((x) => x.first > first);
    if (at < 0) at = this.spans.length;
    this.spans.splice(at, 0, { first, last, label: s.label, ipv4: s.ipv4 });
  }
}

/** An IPv4 address from its integer. */
export const intToIp = (v: number): string => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");

/** A subnet's gateway (its first address after the network's), prefix length and mask, as a VPC address shows them. */
export function subnetNetwork(cidr: string): { gateway: string; prefix: number; subnet_mask: string } {
  const [start] = ipv4Span(cidr);
  const prefix = Number(cidr.split("/")[1]);
  return { gateway: intToIp(start + 1), prefix, subnet_mask: intToIp(prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0) };
}

/** The first address of a subnet not in `used`, from its third on (the network's, then the gateway's), or undefined when it is full. */
export function freeAddress(cidr: string, used: ReadonlySet<string | null | undefined>): string | undefined {
  const [start, end] = ipv4Span(cidr);
  for (let n = start + 2; n < end; n++) if (!used.has(intToIp(n))) return intToIp(n);
  return undefined;
}
