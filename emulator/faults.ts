/**
 * Fault injection: per route pattern, with a seeded random rate, the emulator answers 429 (with
 * Retry-After), 500, 502 or 503, drops the connection, answers slowly, or loses the answer after the
 * request took effect (the client sees a connection reset). Deterministic for a given seed and order
 * of requests.
 */
export const FAULT_KINDS = ["429", "500", "502", "503", "drop", "slow", "lost"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** A regular expression matched against `METHOD /path` (for example `^POST /v4/compute/`). */
  match: string;
  /** Probability of a fault for a matching request, 0..1. */
  rate: number;
  /** The kinds to choose from, evenly. */
  kinds: FaultKind[];
  /** Inject at most this many times (then the rule no longer matches). */
  limit?: number;
}

export interface FaultConfig {
  seed: number;
  rules: FaultRule[];
  /** Delay of a `slow` answer. */
  slowMs?: number;
  /** Retry-After (seconds) of a 429. */
  retryAfterSeconds?: number;
}

/** mulberry32: a small seeded PRNG, enough for reproducible fault patterns. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A configuration's rules, compiled, once every part of it is what it must be (it may come from a request's body). */
function checkedRules(config: FaultConfig): Array<FaultRule & { re: RegExp; used: number }> {
  const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  if (!isNumber(config.seed)) throw new Error("seed must be a number");
  if (!Array.isArray(config.rules)) throw new Error("rules must be a list of rules");
  for (const k of ["slowMs", "retryAfterSeconds"] as const)
    if (config[k] !== undefined && !(isNumber(config[k]) && config[k] >= 0)) throw new Error(`${k} must be a number, 0 or more`);
  return config.rules.map((r: FaultRule, i) => {
    if (typeof r !== "object" || r === null) throw new Error(`rules[${i}] must be an object`);
    if (!(isNumber(r.rate) && r.rate >= 0 && r.rate <= 1)) throw new Error(`fault rate must be 0..1, got ${String(r.rate)}`);
    if (!Array.isArray(r.kinds) || !r.kinds.length) throw new Error("a fault rule needs at least one kind");
    for (const k of r.kinds)
      if (!(FAULT_KINDS as readonly string[]).includes(k)) throw new Error(`unknown fault kind "${String(k)}"; use ${FAULT_KINDS.join(", ")}`);
    if (r.limit !== undefined && !(isNumber(r.limit) && r.limit >= 0)) throw new Error(`rules[${i}].limit must be a number, 0 or more`);
    if (typeof r.match !== "string") throw new Error(`rules[${i}].match must be a regular expression`);
    let re: RegExp;
    try {
      re = new RegExp(r.match);
    } catch {
      throw new Error(`rules[${i}].match is not a regular expression`);
    }
    return { ...r, re, used: 0 };
  });
}

export class Faults {
  private rand: () => number = () => 1;
  private compiled: Array<FaultRule & { re: RegExp; used: number }> = [];
  config: FaultConfig | undefined;
  /** Faults injected so far, by kind. */
  counts: Record<string, number> = {};

  /** Takes a configuration (or none), checked whole before anything changes: a bad one throws, naming what is wrong. */
  set(config: FaultConfig | undefined): void {
    const compiled = config ? checkedRules(config) : [];
    this.config = config;
    this.counts = {};
    this.compiled = compiled;
    if (config) this.rand = prng(config.seed);
  }

  /** The fault for this request, if any. */
  pick(method: string, path: string): FaultKind | undefined {
    const key = `${method} ${path}`;
    for (const r of this.compiled) {
      if (!r.re.test(key) || (r.limit !== undefined && r.used >= r.limit)) continue;
      if (this.rand() >= r.rate) return undefined;
      r.used++;
      const kind = r.kinds[Math.floor(this.rand() * r.kinds.length)];
      this.counts[kind] = (this.counts[kind] ?? 0) + 1;
      return kind;
    }
    return undefined;
  }
}

/**
 * Parses the `--faults` option: `seed=N,rate=R[,kinds=429+500+drop][,match=REGEX][,slow=MS][,retryAfter=S]`
 * (one rule; `match` last, as it may hold commas). Default kinds: all; default match: every /v4 request.
 */
export function parseFaultSpec(spec: string): FaultConfig {
  const i = spec.indexOf("match=");
  const head = i >= 0 ? spec.slice(0, i) : spec;
  const match = i >= 0 ? spec.slice(i + "match=".length) : "^[A-Z]+ /v4/";
  const kv = Object.fromEntries(
    head
      .split(",")
      .filter(Boolean)
      .map((p) => p.split("=") as [string, string]),
  );
  for (const k of Object.keys(kv)) if (!["seed", "rate", "kinds", "slow", "retryAfter"].includes(k)) throw new Error(`unknown --faults key "${k}"`);
  const rate = Number(kv.rate);
  if (kv.rate === undefined || Number.isNaN(rate)) throw new Error("--faults needs rate=R (0..1)");
  return {
    seed: kv.seed !== undefined ? Number(kv.seed) : 1,
    rules: [{ match, rate, kinds: (kv.kinds ? kv.kinds.split("+") : [...FAULT_KINDS]) as FaultKind[] }],
    slowMs: kv.slow !== undefined ? Number(kv.slow) : undefined,
    retryAfterSeconds: kv.retryAfter !== undefined ? Number(kv.retryAfter) : undefined,
  };
}
