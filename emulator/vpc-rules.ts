import { ipv4Span, readIpv4Range } from "../api/network";

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
