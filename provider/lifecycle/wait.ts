import { pause } from "./cancel";
import type { ApiClient } from "../transport/client";

export interface WaitOptions<T> {
  client: ApiClient;
  path: string;
  /** What is awaited, for messages: "instance 12 to be running". */
  what: string;
  done(rec: T): boolean;
  /** A state that will never reach `done` (for example a failed build): stop with this message. */
  failed?(rec: T): string | undefined;
  timeoutMs: number;
  /** The resource may be gone while waiting for it to go (a delete). */
  goneIsDone?: boolean;
  /** Polling: the interval is a tenth of the time waited so far, kept between firstMs and maxMs. */
  firstMs?: number;
  maxMs?: number;
  /** Progress lines (stderr, which Pulumi shows as info lines). */
  progressEveryMs?: number;
  describe?(rec: T): string;
}

export class WaitTimeout extends Error {}

/**
 * Polls until `done`. The interval is a tenth of the time already waited (at least `firstMs`, 200 ms: 5 a second, at
 * most `maxMs`): a change is noticed within about 10% of the wait, so a few seconds' wait costs a few
 * polls a second and is noticed within a few hundred ms, while a half-hour wait (a database) polls
 * every `maxMs`. Prints a progress line on stderr every `progressEveryMs`.
 */
export async function waitFor<T>(o: WaitOptions<T>): Promise<T | undefined> {
  const start = Date.now();
  const first = o.firstMs ?? 200;
  const max = o.maxMs ?? 2000;
  let lastProgress = start;
  for (;;) {
    const rec = await o.client.get<T>(o.path, true);
    if (rec === undefined) {
      if (o.goneIsDone) return undefined;
      throw new Error(`${o.what}: it no longer exists`);
    }
    if (o.done(rec)) return rec;
    const failure = o.failed?.(rec);
    if (failure) throw new Error(`${o.what}: ${failure}`);
    const elapsed = Date.now() - start;
    if (elapsed >= o.timeoutMs) {
      throw new WaitTimeout(`timed out after ${Math.round(elapsed / 1000)}s waiting for ${o.what}${o.describe ? ` (${o.describe(rec)})` : ""}`);
    }
    if (Date.now() - lastProgress >= (o.progressEveryMs ?? 10_000)) {
      lastProgress = Date.now();
      process.stderr.write(`pulumi-compute: waiting for ${o.what}${o.describe ? ` (${o.describe(rec)})` : ""}, ${Math.round(elapsed / 1000)}s\n`);
    }
    const interval = Math.min(max, Math.max(first, elapsed / 10));
    await pause(Math.min(interval, Math.max(0, o.timeoutMs - elapsed)), `waiting for ${o.what}`);
  }
}
