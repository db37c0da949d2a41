/**
 * Keeps secret outputs out of the engine's event stream. `@pulumi/pulumi` logs the raw answer of its
 * RegisterResource, ReadResource, Invoke, Call and RegisterResourceOutputs calls at debug level
 * (`RegisterResource RPC finished: …; err: null, resp: <the protobuf message as a comma list>`). That answer
 * holds every output in plain text, secrets too (a secret travels as a struct with its value beside the
 * secret signature). The engine passes debug messages on as events, which the plain display hides but
 * `pulumi up --json` prints, `--event-log` writes and a Pulumi Cloud backend keeps: a database's password
 * reached a pipeline's log. (Pulumi 3.259.0; the program's language does not matter for the engine, this
 * SDK's does: the Node.js SDK is the one that logs its answers.)
 *
 * The guard drops the `resp:` part of those messages (a protobuf dump no one reads) and keeps the rest,
 * error included. Loaded by `pulumi-compute` and by the plugin's Node.js SDK, first; it patches the copy of
 * `@pulumi/pulumi` that registers this package's resources, once per process.
 */

/** The `, resp: …` part of a message of the SDK's RPC answers, and everything after it. */
const ANSWER = /(\bRPC finished: [\s\S]*?), resp: [\s\S]*$/;

/** The message as the guard lets it through: an RPC answer's dump is cut, anything else is unchanged. */
export function withoutAnswer(message: string): string {
  return typeof message === "string" ? message.replace(ANSWER, "$1, resp: [left out: it holds outputs in plain text]") : message;
}

const INSTALLED = Symbol.for("pulumi-compute.debugRedaction");

type Log = { debug: (msg: string, ...rest: unknown[]) => Promise<void>; [INSTALLED]?: boolean };

/** Wraps `@pulumi/pulumi/log`'s `debug` (the SDK's modules call it through the module object). */
export function installDebugRedaction(log: Log = require("@pulumi/pulumi/log") as Log): void {
  if (log[INSTALLED]) return;
  const debug = log.debug;
  if (typeof debug !== "function") return;
  try {
    log.debug = (msg: string, ...rest: unknown[]) => debug.call(log, withoutAnswer(msg), ...rest);
    log[INSTALLED] = true;
  } catch {
    // A future SDK with a frozen module object: nothing to patch, its messages are its own.
  }
}

installDebugRedaction();
