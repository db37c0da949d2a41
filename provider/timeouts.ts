import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import type { Field } from "./resource";

/**
 * The one timeouts facility: how long each resource that waits may wait, per operation. The defaults
 * live here only; the `timeouts` input of every such resource, its validation at preview, its
 * documentation and the waits all come from this table.
 */
export type TimeoutOp = "create" | "update" | "delete";
export type TimeoutDefaults = Partial<Record<TimeoutOp, string>>;

export const DEFAULT_TIMEOUTS: Record<string, TimeoutDefaults> = {
  Instance: { create: "15m", update: "60m", delete: "10m" },
  Disk: { create: "10m", update: "30m", delete: "10m" },
  Config: { create: "15m", update: "15m", delete: "15m" },
  Image: { create: "30m" },
  MysqlDatabase: { create: "60m", update: "30m", delete: "20m" },
  PostgresDatabase: { create: "60m", update: "30m", delete: "20m" },
};

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

/** Words for the operations a timeout covers, per resource, for the docs. */
const WHAT: Record<string, Partial<Record<TimeoutOp, string>>> = {
  Config: { create: "a boot or reboot at create", update: "a boot, reboot or shutdown at update", delete: "the shutdown before a booted profile is deleted" },
};

/** The `timeouts` input of a resource type: validated at preview, documented from the defaults above. */
export function timeoutsField(type: string, note = ""): Field {
  const defaults = DEFAULT_TIMEOUTS[type];
  if (!defaults) throw new Error(`no default timeouts for ${type}`);
  const ops = Object.keys(defaults) as TimeoutOp[];
  const shape = Object.fromEntries(ops.map((op) => [op, duration])) as Record<TimeoutOp, typeof duration>;
  const parts = ops.map((op) => `\`${op}\` (default ${defaults[op]}${WHAT[type]?.[op] ? `: ${WHAT[type][op]}` : ""})`);
  return {
    name: "timeouts",
    kind: "input",
    control: true,
    schema: z.object(shape).partial().strict(),
    description: `How long to wait, each ${DURATION_FORM}: ${parts.join(", ")}.${note ? ` ${note}` : ""}`,
  };
}

/** The wait for an operation: the resource's `timeouts` input, else the default of its type. */
export function timeoutOf(type: string, props: Record<string, unknown>, op: TimeoutOp): number {
  const given = (props.timeouts as TimeoutDefaults | undefined)?.[op];
  const dflt = DEFAULT_TIMEOUTS[type]?.[op];
  if (!dflt) throw new Error(`${type} has no ${op} timeout`);
  return parseDuration(given ?? dflt);
}

/** The `customTimeouts` resource option of the operation under way (the plugin receives it; dynamic providers never do). */
const custom = new AsyncLocalStorage<number>();

/** Runs `fn` with the operation's `customTimeouts` value (ms; 0 or less: none given). */
export function withCustomTimeout<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return ms > 0 ? custom.run(ms, fn) : fn();
}

/**
 * The wait budget of an operation: the `customTimeouts` resource option when given (plugin only), else the
 * resource's `timeouts` input, else the default of its type (10 minutes for a resource with none).
 */
export function budgetOf(type: string, props: Record<string, unknown>, op: TimeoutOp): number {
  const given = custom.getStore();
  if (given !== undefined) return given;
  return DEFAULT_TIMEOUTS[type]?.[op] ? timeoutOf(type, props, op) : 600_000;
}
