/**
 * The patches of other libraries that the dynamic provider's process needs, each with its reason, installed
 * once by the dynamic provider's entry point (provider/index.ts) in Pulumi's dynamic provider process only.
 * tests/unit/dynamic-provider-patch.test.ts fails once upstream no longer needs one (or once it can no
 * longer apply): then it goes.
 */
import { processSession } from "../session";
import { cancel } from "./cancel";

/** Where @grpc/grpc-js keeps its Server class. */
export const GRPC_SERVER_FILE = /[\\/]@grpc[\\/]grpc-js[\\/]build[\\/]src[\\/]server\.js$/;
export const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";

interface GrpcServerPrototype {
  _retrieveHandler?: (this: unknown, path: string) => unknown;
  __computeCancel?: boolean;
}

/**
 * Wraps a grpc-js Server's lookup of each call's handler (by path, the private `_retrieveHandler`) so that
 * the engine's Cancel cancels the process's session, then goes on as before. Once per prototype; false
 * when the prototype has no such lookup.
 */
export function hookCancel(proto: GrpcServerPrototype): boolean {
  const original = proto._retrieveHandler;
  if (typeof original !== "function") return false;
  if (proto.__computeCancel) return true;
  proto.__computeCancel = true;
  proto._retrieveHandler = function (path: string) {
    if (path === CANCEL_PATH) cancel("the engine's Cancel: Ctrl-C", processSession());
    return original.call(this, path);
  };
  return true;
}

/**
 * Why: Pulumi's dynamic provider server (@pulumi/pulumi/cmd/dynamic-provider) answers the engine's Cancel
 * and does nothing, so the waits of the operations under way would go on after Ctrl-C. Its gRPC server
 * (@grpc/grpc-js, loaded before this module) is found in the module cache and hooked (`hookCancel`).
 * Without such a server (another grpc-js), only SIGINT and SIGTERM reach the waits.
 */
export function cancelOnEngineCancel(): boolean {
  let hooked = false;
  for (const [file, mod] of Object.entries(require.cache)) {
    if (!GRPC_SERVER_FILE.test(file)) continue;
    const proto = (mod?.exports as { Server?: { prototype: GrpcServerPrototype } } | undefined)?.Server?.prototype;
    if (proto && hookCancel(proto)) hooked = true;
  }
  return hooked;
}

/**
 * The stack a failure of ours carries once reported (`reportOnce`): the console drops the server's line that
 * ends with it. Zero-width characters, so that a line printed by some other console reads as the message alone.
 */
export const REPORTED_MARK = "\u200b\u200cpulumi-compute\u200c\u200b";

/**
 * A failure of ours is reported once, by the engine: its stack becomes the mark (the original stack is printed
 * when PULUMI_COMPUTE_DEBUG is set).
 */
export function reportOnce(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  if (process.env.PULUMI_COMPUTE_DEBUG) console.error(err.stack);
  err.stack = REPORTED_MARK;
  return err;
}

const QUIET = Symbol.for("pulumi-compute.reportedStacks");

/**
 * Why: the dynamic provider server prints every failure of check, diff, read and delete with its stack
 * (`console.error(\`${e}: ${e.stack}\`)`) before the engine shows its message: the message twice, and a
 * stack trace of ours under the Stack row. The console's `error` drops a line that ends with the mark of a
 * failure already reported, and passes every other. Once per console.
 */
export function dropReportedStacks(target: { error: (...args: unknown[]) => void } = console): void {
  const marked = target as { [QUIET]?: boolean };
  if (marked[QUIET]) return;
  marked[QUIET] = true;
  const error = target.error.bind(target);
  target.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && args[0].endsWith(REPORTED_MARK)) return;
    error(...args);
  };
}
