import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import type { Field, Props, ResourceSpec, TimeoutDefaults, TimeoutOp, TimeoutsRow } from "./table";

/**
 * The one timeouts facility: how long a resource that waits may wait, per operation. The defaults are in
 * each resource's definition (`timeouts`); the `timeouts` input, its validation at preview, its
 * documentation and the waits all come from there.
 */
export type { TimeoutDefaults, TimeoutOp };

/** What a timeouts value looks like, for messages and docs. */
export const DURATION_FORM = "a duration such as 90s, 15m or 1h30m";

/** Parses a duration like `90s`, `15m`, `1h30m` (hours, minutes, seconds, in that order) into ms. */
export function parseDuration(v: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(v.trim());
  if (!m || v.trim() === "") throw new Error(`"${v}" is not ${DURATION_FORM}`);
  return ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
}

const duration = z.string().refine((v) => {
  try {
    return parseDuration(v) > 0;
  } catch {
    return false;
  }
}, `must be ${DURATION_FORM}`);

/** The `timeouts` input of a resource that waits: validated at preview, documented from its defaults. */
export function timeoutsField(row: TimeoutsRow): Field {
  const ops = Object.keys(row.defaults) as TimeoutOp[];
  const shape = Object.fromEntries(ops.map((op) => [op, duration])) as Record<TimeoutOp, typeof duration>;
  const parts = ops.map((op) => `\`${op}\` (default ${row.defaults[op]}${row.covers?.[op] ? `: ${row.covers[op]}` : ""})`);
  return {
    name: "timeouts",
    kind: "input",
    control: true,
    schema: z.object(shape).partial().strict(),
    description: `How long to wait, each ${DURATION_FORM}: ${parts.join(", ")}.${row.note ? ` ${row.note}` : ""}`,
  };
}

/** The wait for an operation: the resource's `timeouts` input, else the default of its type. */
export function timeoutOf(spec: Pick<ResourceSpec, "type" | "timeouts">, props: Props, op: TimeoutOp): number {
  const given = (props.timeouts as TimeoutDefaults | undefined)?.[op];
  const dflt = spec.timeouts?.defaults[op];
  if (!dflt) throw new Error(`${spec.type} has no ${op} timeout`);
  return parseDuration(given ?? dflt);
}

/** The `customTimeouts` resource option of the operation under way (the plugin receives it; dynamic providers never do). */
const custom = new AsyncLocalStorage<number>();

/** Runs `fn` with the operation's `customTimeouts` value (ms; 0 or less: none given). */
export function withCustomTimeout<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return ms > 0 ? custom.run(ms, fn) : fn();
}

/** The wait of a resource with no `timeouts` of its own. */
const NO_DEFAULT_MS = 600_000;

/**
 * The wait budget of an operation: the `customTimeouts` resource option when given (plugin only), else the
 * resource's `timeouts` input, else the default of its type (10 minutes for a resource with none).
 */
export function budgetOf(spec: Pick<ResourceSpec, "type" | "timeouts">, props: Props, op: TimeoutOp): number {
  const given = custom.getStore();
  if (given !== undefined) return given;
  return spec.timeouts?.defaults[op] ? timeoutOf(spec, props, op) : NO_DEFAULT_MS;
}
