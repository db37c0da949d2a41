/**
 * The emulator's memory does not grow with traffic (issue 45): the soak of scripts/bench/soak.ts (15 KB paths,
 * a new Authorization header per request, VPC creates and deletes with their events, X-Filter reads, bodies that
 * do not parse), sampled here with small windows (a log of 1,000 requests, 500 events) so that the level comes
 * within 20,000 requests: the heap after a full collection is the same at the end as a quarter of the way in.
 * `npm run bench -- --only soak` runs it at the default windows over 200,000 requests (bench/results.md).
 * Memory, not time: nothing here is timed.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { SoakResult } from "../../scripts/bench/soak";

test("20,000 requests of the traffic that used to grow it: the heap levels off, and what it keeps stays within its windows", () => {
  const out = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      join(__dirname, "../../dist/scripts/bench/soak.js"),
      "--requests",
      "20000",
      "--samples",
      "4",
      "--log-window",
      "1000",
      "--events-window",
      "500",
    ],
    { encoding: "utf8", timeout: 120_000 },
  );
  const result = JSON.parse(out) as SoakResult;
  expect(Object.keys(result.statuses).filter((s) => Number(s) >= 500)).toEqual([]);
  const [, quarter, , , end] = result.samples;
  expect(end.requests).toBe(20_000);
  // Unbounded (a log without a window, or one holding each 15 KB path whole), the heap grows by 3.7 MB from here
  // to the end (36 MB when, besides, each cut path kept its whole 15 KB path alive); bounded, by less than half a
  // megabyte.
  expect(end.heapUsed - quarter.heapUsed).toBeLessThan(2 * 1024 * 1024);
  expect(end.logEntries).toBeLessThanOrEqual(1100);
  expect(end.events).toBeLessThanOrEqual(550);
}, 120_000);
