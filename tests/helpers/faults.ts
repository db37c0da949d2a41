import type { FaultKind } from "../../emulator/faults";
import type { Emulator, RequestLogEntry } from "../../emulator/server";

/**
 * Proof from the emulator's request log that a fault was injected into a request: the entries of `method`
 * requests whose path is `path` (a string: that exact path, `/v4` included; a regular expression: tested
 * against the logged path) and whose `fault` is `kind`. Fails unless there are `times` of them (at least
 * one when `times` is left out), naming the matching requests the log holds. A `lost` or `drop` entry has
 * status 0 (no answer was sent): checked too. Returns the entries.
 */
export function expectFaultFired(emu: Pick<Emulator, "log">, method: string, path: string | RegExp, kind: FaultKind, times?: number): RequestLogEntry[] {
  const samePath = (p: string) => (typeof path === "string" ? p === path : path.test(p));
  const seen = emu.log.filter((l) => l.method === method && samePath(l.path));
  const fired = seen.filter((l) => l.fault === kind);
  const what = `${method} ${String(path)} with fault "${kind}" ${times === undefined ? "at least once" : `${times} time(s)`}`;
  const ok = times === undefined ? fired.length > 0 : fired.length === times;
  expect([what, ok ? "fired" : `the log holds ${seen.length} such request(s): ${JSON.stringify(seen)}`]).toEqual([what, "fired"]);
  if (kind === "lost" || kind === "drop") expect([what, fired.map((l) => l.status)]).toEqual([what, fired.map(() => 0)]);
  return fired;
}

/** The faults the emulator's request log records, counted by kind. */
export function faultsInLog(emu: Pick<Emulator, "log">): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of emu.log) if (l.fault) counts[l.fault] = (counts[l.fault] ?? 0) + 1;
  return counts;
}
