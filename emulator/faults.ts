import { RE2JS } from "re2js";
import { z } from "zod";

/**
 * Fault injection: per route pattern, with a seeded random rate, the emulator answers 429 (with
 * Retry-After), 500, 502 or 503, drops the connection, answers slowly, or loses the answer after the
 * request took effect (the client sees a connection reset). Deterministic for a given seed and order
 * of requests.
 */
export const FAULT_KINDS = ["429", "500", "502", "503", "drop", "slow", "lost"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const number = (message: string) => z.number({ error: message }).refine(Number.isFinite, message);
const nonNegative = (name: string) => number(`${name} must be a number, 0 or more`).refine((n) => n >= 0, `${name} must be a number, 0 or more`);

/** The longest `match` a rule may have, in characters. */
export const MAX_MATCH_LENGTH = 512;
/**
 * The most steps the rules' patterns may compile to between them. Each request is tested against every rule, in
 * time linear in its path (RE2: no backtracking) times the steps: at most this many per character of the path.
 */
export const MAX_MATCH_STEPS = 1000;
/** The most rules a configuration may hold. */
export const MAX_FAULT_RULES = 100;
/**
 * The longest a `slow` answer is held, in ms: a minute (a longer one overflowed Node's timer, and held a connection
 * of the emulator's shared cap as long as asked).
 */
export const MAX_SLOW_MS = 60_000;

/**
 * A rule's pattern, compiled by RE2 (re2js), which runs in time linear in the text (no backtracking): a tenant's
 * pattern such as `(a+)+b` cannot stall the emulator. RE2 has no backreferences nor lookaround: such a pattern is
 * refused, with RE2's reason.
 */
function compile(match: string): RE2JS | string {
  try {
    return RE2JS.compile(match);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The steps (RE2 program instructions) of a compiled pattern: what each character of a path costs to test. */
function stepsOf(re: RE2JS): number {
  const prog: unknown = re.re2Input.prog;
  const inst: unknown = typeof prog === "object" && prog !== null && "inst" in prog ? prog.inst : undefined;
  // re2js keeps its program's instructions in `prog.inst`; one it no longer keeps there counts as too many.
  return Array.isArray(inst) ? inst.length : Infinity;
}

const matchText = z
  .string({ error: "match must be a regular expression" })
  .max(MAX_MATCH_LENGTH, `match must be at most ${MAX_MATCH_LENGTH} characters`)
  .superRefine((m, ctx) => {
    const re = compile(m);
    if (typeof re === "string") {
      ctx.addIssue({
        code: "custom",
        message: `match is not a regular expression that runs in linear time (RE2's syntax: no backreferences nor lookaround): ${re}`,
      });
    } else if (stepsOf(re) > MAX_MATCH_STEPS) {
      ctx.addIssue({
        code: "custom",
        message: `match is too complex: it compiles to ${stepsOf(re)} steps, at most ${MAX_MATCH_STEPS} (a repeat such as {100} counts each)`,
      });
    }
  });

/** A rule: which requests (`match`, a regular expression on `METHOD /path`, e.g. `^POST /v4/compute/`), how often (`rate`, 0..1), which kinds (evenly), at most how many times (`limit`). */
export const faultRule = z
  .object({
    match: matchText,
    rate: number("fault rate must be a number from 0 to 1").refine((r) => r >= 0 && r <= 1, "fault rate must be a number from 0 to 1"),
    kinds: z
      .array(z.string({ error: "a fault kind is a string" }), { error: "kinds must be a list of fault kinds" })
      .min(1, "a fault rule needs at least one kind")
      .pipe(z.array(z.enum(FAULT_KINDS, { error: (issue) => `unknown fault kind "${String(issue.input)}"; use ${FAULT_KINDS.join(", ")}` }))),
    limit: nonNegative("limit").optional(),
  })
  .strict();
export type FaultRule = z.output<typeof faultRule>;

/** A fault configuration: the seed of its randomness, its rules, how slow a `slow` answer is, a 429's Retry-After (seconds). */
export const faultConfig = z
  .object({
    seed: number("seed must be a whole number from 0 to 4294967295").refine(
      (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff,
      "seed must be a whole number from 0 to 4294967295",
    ),
    rules: z
      .array(faultRule, { error: "rules must be a list of rules" })
      .max(MAX_FAULT_RULES, `at most ${MAX_FAULT_RULES} rules`)
      .superRefine((rules, ctx) => {
        // Every rule is tried on every request: their steps together are the cost of one request's path.
        let total = 0;
        for (const [i, rule] of rules.entries()) {
          const re = compile(rule.match);
          total += typeof re === "string" ? 0 : stepsOf(re);
          if (total > MAX_MATCH_STEPS) {
            ctx.addIssue({
              code: "custom",
              path: [i, "match"],
              message: `the rules' patterns compile to more than ${MAX_MATCH_STEPS} steps together (each is tried on every request)`,
            });
            return;
          }
        }
      }),
    slowMs: nonNegative("slowMs")
      .refine((n) => n <= MAX_SLOW_MS, `slowMs must be at most ${MAX_SLOW_MS} (a minute)`)
      .optional(),
    // Retry-After is a whole number of seconds (RFC 9110): a fraction or 1e308 is no header a client reads.
    retryAfterSeconds: number("retryAfterSeconds must be a whole number of seconds from 0 to 3600")
      .refine((n) => Number.isInteger(n) && n >= 0 && n <= 3600, "retryAfterSeconds must be a whole number of seconds from 0 to 3600")
      .optional(),
  })
  .strict();
export type FaultConfig = z.output<typeof faultConfig>;

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
function checkedRules(given: unknown): { config: FaultConfig; compiled: Array<FaultRule & { re: RE2JS; used: number }> } {
  const r = faultConfig.safeParse(given);
  if (!r.success) {
    const issue = r.error.issues[0];
    const at = issue.path.length > 1 ? `${issue.path.map(String).join(".")}: ` : "";
    throw new Error(`${at}${issue.message}`);
  }
  return { config: r.data, compiled: r.data.rules.map((rule) => ({ ...rule, re: RE2JS.compile(rule.match), used: 0 })) };
}

export class Faults {
  private rand: () => number = () => 1;
  private compiled: Array<FaultRule & { re: RE2JS; used: number }> = [];
  config: FaultConfig | undefined;
  /** Faults injected so far, by kind. */
  counts: Record<string, number> = {};

  /** Takes a configuration (or none), checked whole before anything changes: a bad one throws, naming what is wrong. */
  set(given: unknown): void {
    const checked = given === undefined ? undefined : checkedRules(given);
    this.config = checked?.config;
    this.counts = {};
    this.compiled = checked?.compiled ?? [];
    if (checked) this.rand = prng(checked.config.seed);
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
      .map((p) => {
        const [key, ...value] = p.split("=");
        return [key, value.length ? value.join("=") : undefined];
      }),
  );
  for (const k of Object.keys(kv)) if (!["seed", "rate", "kinds", "slow", "retryAfter"].includes(k)) throw new Error(`unknown --faults key "${k}"`);
  const rate = Number(kv.rate);
  if (kv.rate === undefined || Number.isNaN(rate)) throw new Error("--faults needs rate=R (0..1)");
  return checkedRules({
    seed: kv.seed !== undefined ? Number(kv.seed) : 1,
    rules: [{ match, rate, kinds: kv.kinds ? kv.kinds.split("+") : [...FAULT_KINDS] }],
    slowMs: kv.slow !== undefined ? Number(kv.slow) : undefined,
    retryAfterSeconds: kv.retryAfter !== undefined ? Number(kv.retryAfter) : undefined,
  }).config;
}
