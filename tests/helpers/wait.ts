/**
 * Waits for a condition instead of sleeping a fixed time: polls `predicate` every `intervalMs` (15 ms by
 * default) until it returns true, and fails after `timeoutMs` (5 s by default) with a message naming what
 * was awaited (`what`, or the predicate's source). An error thrown by the predicate ends the wait at once.
 */
export async function waitUntil(
  predicate: () => boolean | Promise<boolean>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const intervalMs = opts.intervalMs ?? 15;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() >= deadline) {
      throw new Error(`waitUntil: timed out after ${timeoutMs} ms waiting for ${opts.what ?? predicate.toString()}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
