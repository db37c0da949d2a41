/**
 * A request rate limit (`--rate-limit N`, or PUT /__emulator/rate-limit): N requests per second per token,
 * with a burst of N (at least 1). A token bucket per bearer token, however its header spells it (`bearer T` and
 * `Bearer  T` share T's: emulator/serve.ts keys it; requests without one share a bucket per address),
 * holding at most N and refilled at N per second; a request that finds less than one in its bucket is
 * answered 429 `Too many requests` with `Retry-After`: the whole seconds until one request fits (at least
 * 1). Every API request (/v4) counts; a refused one takes no place.
 *
 * The spec shows no rate limit ("Request rate limits: not shown"); this is the emulator's choice,
 * recorded in docs/spec-gaps.md. Real time, not the emulator's clock (tests move that one).
 */
export class RateLimit {
  private perSecond: number | undefined;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweptAt = 0;
  /** 429s answered since the limit was set. */
  limited = 0;

  constructor(perSecond?: number) {
    this.set(perSecond);
  }

  /** Sets (or, with undefined, lifts) the limit; every bucket starts full. */
  set(perSecond: number | undefined): void {
    if (perSecond !== undefined && !(Number.isFinite(perSecond) && perSecond > 0)) {
      throw new Error(`the rate limit must be a number of requests per second above 0, got ${String(perSecond)}`);
    }
    this.perSecond = perSecond;
    this.buckets.clear();
    this.limited = 0;
  }

  /** Requests per second per token, if limited. */
  get limit(): number | undefined {
    return this.perSecond;
  }

  /** Takes a place for one request of `key`: undefined when it fits, else the seconds to wait (Retry-After). */
  take(key: string): number | undefined {
    const rate = this.perSecond;
    if (rate === undefined) return undefined;
    const now = Date.now();
    this.sweep(now);
    // A bucket holds at least one request: a rate under one a second (0.5: one every 2 s) lets requests through.
    const burst = Math.max(1, rate);
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    this.limited++;
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
  }

  /** Buckets held (tests: the map stays bounded). */
  get held(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    if (this.buckets.size <= SWEEP_ABOVE || now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at >= 1000) this.buckets.delete(key);
    }
  }
}

/** Buckets held before idle ones are swept. */
export const SWEEP_ABOVE = 1024;
