/**
 * Ctrl-C: the engine's Cancel (and SIGINT or SIGTERM reaching the provider's process) ends every wait of
 * the session at once. A request in flight is never cut (its answer may be what tells what was made); the
 * wait or pause after it fails instead, so an operation ends within moments with what it made: a create
 * whose POST was answered fails keeping the resource with its id (the stack records it), an update keeps
 * the resource as it is, a power cycle still sends the boot back. Nothing is sent twice, nothing is lost.
 *
 * These are the rules; their data (the reason, the waits, the operations under way) is the session's
 * `cancellation` (provider/session.ts), so a reset of the session resets it and two sessions at once do not
 * cancel each other.
 */
import { processSession, session, type Session } from "../session";

export class CancelledError extends Error {}

/** Cancels every wait of the session (the running code's by default), now and to come (the process ends with the run). */
export function cancel(reason: string, s: Session = session()): void {
  const c = s.cancellation;
  if (c.reason !== undefined) return;
  c.reason = reason;
  for (const wake of [...c.sleepers]) wake();
}

export const isCancelled = (): boolean => session().cancellation.reason !== undefined;

/**
 * A new run of the engine attaches to this session (the plugin's Attach): the Cancel the last run's engine
 * sent as it closed ends none of this run's waits. The rest of the session is kept (the settings are not
 * sent again), and so are the operations counted.
 */
export function beginRun(): void {
  session().cancellation.reason = undefined;
}

/** Fails when cancelled, naming what was under way. */
export function checkCancelled(what: string): void {
  const why = session().cancellation.reason;
  if (why !== undefined) throw new CancelledError(`cancelled (${why}) while ${what}`);
}

/** Waits `ms`, or less when the run is cancelled meanwhile; then fails if it is, naming what was waited for. */
export async function pause(ms: number, what: string): Promise<void> {
  checkCancelled(what);
  const { sleepers } = session().cancellation;
  await new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      sleepers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    sleepers.add(wake);
  });
  checkCancelled(what);
}

/** Runs an operation the engine asked for, counted: a signal lets the operations under way answer before the process ends. */
export async function counted<T>(op: () => Promise<T>): Promise<T> {
  const c = session().cancellation;
  c.underWay++;
  try {
    return await op();
  } finally {
    c.underWay--;
    // (Time for the answer to reach the engine first.)
    if (c.exitWhenIdle && c.underWay === 0) setTimeout(() => process.exit(0), 200);
  }
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** A signal of the process: it cancels the process's own session, which ends the process once idle. */
function onSignal(signal: NodeJS.Signals): void {
  const s = processSession();
  cancel(`${signal} received`, s);
  if (s.cancellation.underWay === 0) return endAs(signal);
  s.cancellation.exitWhenIdle = true;
}

/**
 * Ends the idle process as `signal` does without a listener: the listener taken off, the signal raised again, so
 * the system ends the process at once, as it ends the do-nothing plugin. (process.exit's teardown takes about 45 ms
 * here, and the engine waits for a plugin's end each time it closes one, twice per operation: bench/results.md.)
 * With another listener of the signal left in the process, or on Windows, it exits as before.
 */
function endAs(signal: NodeJS.Signals): void {
  for (const sig of SIGNALS) process.removeListener(sig, onSignal);
  // (Windows ends a process that signals itself with exit code 1: there, as before.)
  if (process.listenerCount(signal) > 0 || process.platform === "win32") process.exit(0);
  process.kill(process.pid, signal);
  // Not ended by then (a system whose signals do not end a process): as before.
  setTimeout(() => process.exit(0), 100).unref();
}

/**
 * SIGINT and SIGTERM reaching this provider process end it, as they would by default, but never in the
 * middle of an operation: the waits under way end at once, their operations answer the engine with what
 * they made, and then the process ends. (The engine closes its plugins with SIGINT; a terminal's Ctrl-C
 * reaches the whole process group.) The listener is the process's, not a session's: it is added once per
 * process (the process's own list of listeners says whether it is there), and acts on the process's session
 * of the moment.
 */
export function cancelOnSignals(): void {
  for (const signal of SIGNALS) {
    if (!process.listeners(signal).includes(onSignal)) process.on(signal, onSignal);
  }
}
