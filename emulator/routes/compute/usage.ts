import { instanceActionsApi, type Statistics } from "../../../api/contract/instance-actions";
import { badRequest, paginate } from "../../http";
import { row, type ComputeContext } from "./context";
import type { InstanceRecord } from "./records";

/** What is read of an instance beside its record: its statistics and transfer (made-up but stable), its volumes and NodeBalancers (none here). */

/** Twelve two-hourly samples up to now, from a seed. */
const series = (c: ComputeContext, seed: number): Array<[number, number]> =>
  Array.from({ length: 12 }, (_, i) => [c.now() - (12 - i) * 7200_000, ((seed * 31 + i * 17) % 100) / 10]);

function stats(c: ComputeContext, inst: InstanceRecord): Statistics {
  const s = (n: number) => series(c, inst.id + n);
  return {
    cpu: s(0),
    io: { io: s(1), swap: s(2) },
    netv4: { in: s(3), out: s(4), private_in: s(5), private_out: s(6) },
    netv6: { in: s(7), out: s(8), private_in: s(9), private_out: s(10) },
    title: inst.label,
  };
}

/** compute-api.md: "month must not be in the future" (the year and month themselves are the contract's to check). */
function pastMonth(c: ComputeContext, { year, month }: { year: number; month: number }): void {
  const today = new Date(c.now());
  if (year * 12 + month > today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) throw badRequest("The month must not be in the future", "month");
}

export const USAGE_ROWS = [
  row(instanceActionsApi.nodebalancers, (c, req) => (c.instance(req), paginate([], req))),
  row(instanceActionsApi.volumes, (c, req) => (c.instance(req), paginate([], req))),
  row(instanceActionsApi.stats, (c, req) => stats(c, c.instance(req))),
  row(instanceActionsApi.statsOfMonth, (c, req) => {
    const inst = c.instance(req);
    pastMonth(c, req.params);
    return stats(c, inst);
  }),
  row(instanceActionsApi.transfer, (c, req) => {
    const inst = c.instance(req);
    return { billable: 0, quota: Math.round(c.typeOfInstance(inst).transfer / 1000), used: inst.id * 1_048_576 };
  }),
  row(instanceActionsApi.transferOfMonth, (c, req) => {
    const inst = c.instance(req);
    pastMonth(c, req.params);
    const bytesIn = inst.id * req.params.month * 1_000_000;
    const bytesOut = inst.id * req.params.month * 2_000_000;
    return { bytes_in: bytesIn, bytes_out: bytesOut, bytes_total: bytesIn + bytesOut };
  }),
];
