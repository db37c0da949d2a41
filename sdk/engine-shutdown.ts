/**
 * Keeps the engine's own end out of a failed run's messages. When a resource fails (the API refuses a create,
 * say), the engine reports it, then stops the program; a registration still under way in the program
 * (its stack outputs, most often) is then refused with gRPC's `14 UNAVAILABLE` (or `1 CANCELLED`), and
 * `@pulumi/pulumi` logs that refusal as an error after the program ended (cmd/run's uncaught-error handler).
 * The engine is gone by then, so the log is printed to stderr instead, under the Stack: "failed to deliver log
 * message" and twenty lines of gRPC stack after the one error the run had (about one run in two here, on the
 * plugin SDK and the dynamic classes alike).
 *
 * The guard lets every error through but that one: a gRPC refusal that says the engine has gone, logged with no
 * resource. The run's exit code stays what it was (the handler counts the error before it logs it). Loaded by
 * `pulumi-compute` and by the plugin's Node.js SDK; it patches the copy of `@pulumi/pulumi` that runs the
 * program, once per process. (Python's SDK says the same thing its own way, "Resource monitor has terminated,
 * shutting down": the Python SDK's guard, sdk/engine_shutdown.py.)
 */

/** What gRPC says of a call the engine, gone, did not take: `14 UNAVAILABLE: ...` or `1 CANCELLED: ...`, as an error's message or stack. */
const ENGINE_GONE = /^(?:Error: )?(?:14 UNAVAILABLE|1 CANCELLED): /;

/** Whether a message logged as an error only says the engine has gone (so there is no one to tell). */
export const saysEngineGone = (message: unknown): boolean => typeof message === "string" && ENGINE_GONE.test(message);

const INSTALLED = Symbol.for("pulumi-compute.engineShutdown");

type Log = { error: (msg: string, resource?: unknown, ...rest: unknown[]) => Promise<void>; [INSTALLED]?: boolean };

/** Wraps `@pulumi/pulumi/log`'s `error` (the runtime's modules call it through the module object). */
export function installEngineShutdownGuard(log: Log = require("@pulumi/pulumi/log") as Log): void {
  if (log[INSTALLED]) return;
  const error = log.error;
  if (typeof error !== "function") return;
  try {
    log.error = (msg: string, resource?: unknown, ...rest: unknown[]) =>
      resource === undefined && saysEngineGone(msg) ? Promise.resolve() : error.call(log, msg, resource, ...rest);
    log[INSTALLED] = true;
  } catch {
    // A future SDK with a frozen module object: nothing to patch.
  }
}

installEngineShutdownGuard();
