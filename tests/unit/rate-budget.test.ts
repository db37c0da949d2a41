/**
 * The provider's request budget per API and token (provider/transport/rate-budget.ts), on a fake clock: what a 429
 * teaches, and what it does not.
 */
import { RateBudget } from "../../provider/transport/rate-budget";

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

/** `n` requests taken at once, answered with `status` (and a Retry-After of 1 s for a 429). */
async function wave(b: RateBudget, n: number, status: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => b.take()));
  for (let i = 0; i < n; i++) b.done(status, status === 429 ? 1000 : undefined);
}

test("a 429 while few requests are under way pauses every request for its Retry-After, and teaches no rate", async () => {
  const b = new RateBudget();
  await wave(b, 3, 200);
  await b.take();
  b.done(429, 1000);
  expect(b.rate).toBe(Number.POSITIVE_INFINITY);
  let started = false;
  const next = b.take().then(() => (started = true));
  await jest.advanceTimersByTimeAsync(999);
  expect(started).toBe(false);
  await jest.advanceTimersByTimeAsync(1);
  await next;
  expect(started).toBe(true);
});

test("a wave of 429s among many requests teaches the rate the API gave in the last second, less 5%", async () => {
  const b = new RateBudget();
  // 64 at once: the API takes 20 and refuses 44.
  const taken = await Promise.all(Array.from({ length: 64 }, () => b.take()));
  expect(taken.every((w) => w === 0)).toBe(true);
  for (let i = 0; i < 20; i++) b.done(200);
  for (let i = 0; i < 44; i++) b.done(429, 1000);
  expect(b.rate).toBeCloseTo(19, 5);
  expect(b.limitedCount).toBe(44);
  // After the pause, requests start evenly spaced at that rate.
  const starts: number[] = [];
  const all = Array.from({ length: 5 }, () => b.take().then(() => starts.push(Date.now())));
  await jest.advanceTimersByTimeAsync(2000);
  await Promise.all(all);
  const gaps = starts.slice(1).map((t, i) => t - starts[i]);
  expect(starts[0]).toBeGreaterThanOrEqual(1_000_000 + 1000);
  expect(gaps.every((g) => Math.abs(g - 1000 / 19) <= 1)).toBe(true);
});

test("a later lesson lowers the rate by 30% at most", async () => {
  const b = new RateBudget();
  await Promise.all(Array.from({ length: 30 }, () => b.take()));
  for (let i = 0; i < 20; i++) b.done(200);
  for (let i = 0; i < 10; i++) b.done(429, 1000);
  expect(b.rate).toBeCloseTo(19, 5);
  // Ten seconds later, among many requests again, a 429 after only 2 accepted answers.
  jest.advanceTimersByTime(10_000);
  const pending = Array.from({ length: 12 }, () => b.take());
  await jest.advanceTimersByTimeAsync(1000);
  await Promise.all(pending);
  b.done(200);
  b.done(200);
  b.done(429, 1000);
  expect(b.rate).toBeCloseTo(19 * 0.7, 5);
});
