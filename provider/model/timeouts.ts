import { z } from "zod";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Props, ResourceSpec, TimeoutDefaults, TimeoutOp } from "./table";
import { DURATION_FORM, parseDuration, timeoutsField } from "./table";

/**
 * The one timeouts facility: how long a resource that waits may wait, per operation. The defaults are in
 * each resource's definition (`timeouts`); the `timeouts` input, its validation at preview, its
 * documentation and the waits all come from there.
 */
export type { TimeoutDefaults, TimeoutOp };
export { DURATION_FORM, parseDuration, timeoutsField };

/** The wait for an operation: the resource's `timeouts` input, else the default of its type. */
export function timeoutOf(spec: Pick<ResourceSpec, "type" | "timeouts">, props: Props, op: TimeoutOp): number {
  const timeouts = z.object({ create: z.string(), update: z.string(), delete: z.string() }).partial().safeParse(props.timeouts);
  const given = timeouts.success ? timeouts.data[op] : undefined;
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
