/**
 * One request budget per API and token in a provider process, shared by every resource the process serves
 * (the plugin's, or the dynamic provider's): 64 resources in parallel queue for the API's rate limit
 * instead of each collecting 429s.
 *
 * The API says nothing of its limit until it answers 429 (the spec shows none), so the budget learns it:
 * - until the first 429 nothing waits;
 * - a 429 pauses every request of the budget for its `Retry-After` (the API refills meanwhile);
 * - a 429 that comes while many requests are under way (8 or more: a rate limit, not a passing refusal)
 *   teaches a rate: at the first, the answers the API accepted in the last second; at a later one, those
 *   accepted since the previous over the time between (the API had nothing left at both, so what it
 *   accepted between is what it gave). Requests then start evenly spaced at 95% of it. One lesson lowers
 *   the rate by 30% at most, so that a 429 for another reason cannot bring it to a crawl;
 * - after 5 s without a 429, while requests wait, the rate creeps up (5% a second): a limit learnt low, or
 *   raised since, is found again, and the next 429 teaches it anew.
 * The time a request waits here is not time spent retrying (the client's retry budget leaves it out).
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Requests under way (waiting or sent) for a 429 to teach a rate. */
const SATURATED = 8;
/** 429s within this time of the one that taught the rate are the same wave. */
const SAME_WAVE_MS = 1000;
const HEADROOM = 0.95;
const MOST_DECREASE = 0.7;
const QUIET_BEFORE_PROBING_MS = 5000;
const PROBE_STEP = 1.05;

export class RateBudget {
  /** Requests per second this budget starts; unbounded until a rate limit is learnt. */
  rate = Number.POSITIVE_INFINITY;
  /** 429s answered to this budget's requests. */
  limitedCount = 0;
  private next = 0;
  private pausedUntil = 0;
  private lastLesson = 0;
  private lastLimited = 0;
  private acceptedSince = 0;
  private readonly recent: number[] = [];
  private lastProbe = 0;
  private waiting = 0;
  private underWay = 0;

  /** Waits for a request's turn (call `done` once it has its answer or failed); returns how long it waited (ms). */
  async take(): Promise<number> {
    const began = Date.now();
    this.underWay++;
    this.waiting++;
    try {
      for (;;) {
        const now = Date.now();
        const start = Math.max(now, this.next, this.pausedUntil);
        if (Number.isFinite(this.rate)) this.next = start + 1000 / this.rate;
        if (start <= now) return now - began;
        await sleep(start - now);
        // A 429 that came meanwhile moved the pause on: take a new turn after it.
        if (this.pausedUntil <= Date.now()) return Date.now() - began;
      }
    } finally {
      this.waiting--;
    }
  }

  /** The request has its answer (`status`), or failed without one (undefined). */
  done(status: number | undefined, retryAfterMs?: number): void {
    this.underWay--;
    if (status === 429) this.limited(retryAfterMs);
    else if (status !== undefined) this.accepted();
  }

  private accepted(): void {
    const now = Date.now();
    this.acceptedSince++;
    this.recent.push(now);
    while (this.recent.length && this.recent[0] < now - 1000) this.recent.shift();
    if (Number.isFinite(this.rate) && this.waiting > 0 && now - this.lastLimited > QUIET_BEFORE_PROBING_MS && now - this.lastProbe >= 1000) {
      this.rate *= PROBE_STEP;
      this.lastProbe = now;
    }
  }

  private limited(retryAfterMs: number | undefined): void {
    const now = Date.now();
    this.limitedCount++;
    this.lastLimited = now;
    this.pausedUntil = Math.max(this.pausedUntil, now + (retryAfterMs ?? 1000));
    // Only a 429 among many requests teaches, and once per wave.
    if (this.underWay + 1 < SATURATED || (this.lastLesson !== 0 && now - this.lastLesson < SAME_WAVE_MS)) return;
    const perSecond = this.lastLesson === 0 ? this.recent.length : (this.acceptedSince * 1000) / (now - this.lastLesson);
    if (perSecond > 0) {
      const floor = Number.isFinite(this.rate) ? this.rate * MOST_DECREASE : 0;
      this.rate = Math.max(0.5, floor, perSecond * HEADROOM);
    }
    this.lastLesson = now;
    this.lastProbe = now;
    this.acceptedSince = 0;
  }
}
