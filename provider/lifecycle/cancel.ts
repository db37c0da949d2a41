/**
 * Ctrl-C: the engine's Cancel (and SIGINT or SIGTERM reaching the provider's process) ends every wait of
 * the process at once. A request in flight is never cut (its answer may be what tells what was made); the
 * wait or pause after it fails instead, so an operation ends within moments with what it made: a create
 * whose POST was answered fails keeping the resource with its id (the stack records it), an update keeps
 * the resource as it is, a power cycle still sends the boot back. Nothing is sent twice, nothing is lost.
 */

export class CancelledError extends Error {}

let why: string | undefined;
const sleepers = new Set<() => void>();

/** Cancels every wait of this process, now and to come (the process ends with the run). */
export function cancel(reason: string): void {
  if (why !== undefined) return;
  why = reason;
  for (const wake of [...sleepers]) wake();
}

export const isCancelled = (): boolean => why !== undefined;

/** For tests: the process goes on as if nothing had been cancelled. */
export function resetCancel(): void {
  why = undefined;
}

/** Fails when cancelled, naming what was under way. */
export function checkCancelled(what: string): void {
  if (why !== undefined) throw new CancelledError(`cancelled (${why}) while ${what}`);
}

/** Waits `ms`, or less when the run is cancelled meanwhile; then fails if it is, naming what was waited for. */
export async function pause(ms: number, what: string): Promise<void> {
  checkCancelled(what);
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

let listening = false;
let underWay = 0;
let exitWhenIdle = false;

/** Runs an operation the engine asked for, counted: a signal lets the operations under way answer before the process ends. */
export async function counted<T>(op: () => Promise<T>): Promise<T> {
  underWay++;
  try {
    return await op();
  } finally {
    underWay--;
    // (Time for the answer to reach the engine first.)
    if (exitWhenIdle && underWay === 0) setTimeout(() => process.exit(0), 200);
  }
}

/**
 * SIGINT and SIGTERM reaching this provider process end it, as they would by default, but never in the
 * middle of an operation: the waits under way end at once, their operations answer the engine with what
 * they made, and then the process ends. (The engine closes its plugins with SIGINT; a terminal's Ctrl-C
 * reaches the whole process group.)
 */
export function cancelOnSignals(): void {
  if (listening) return;
  listening = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      cancel(`${signal} received`);
      if (underWay === 0) process.exit(0);
      exitWhenIdle = true;
    });
  }
}

interface GrpcServerPrototype {
  _retrieveHandler?: (this: unknown, path: string) => unknown;
  __computeCancel?: boolean;
}

/**
 * The dynamic classes: Pulumi's dynamic provider server answers the engine's Cancel and does nothing. Its
 * gRPC server (@grpc/grpc-js, loaded before this module) looks up each call's handler by path; that lookup
 * is wrapped so that a Cancel call cancels this process's waits too, then goes on as before. Without such a
 * server (another grpc-js), only SIGINT and SIGTERM reach the waits.
 */
export function cancelOnEngineCancel(): boolean {
  let hooked = false;
  for (const [file, mod] of Object.entries(require.cache)) {
    if (!/[\\/]@grpc[\\/]grpc-js[\\/]build[\\/]src[\\/]server\.js$/.test(file)) continue;
    const proto = (mod?.exports as { Server?: { prototype: GrpcServerPrototype } } | undefined)?.Server?.prototype;
    const original = proto?._retrieveHandler;
    if (!proto || typeof original !== "function") continue;
    hooked = true;
    if (proto.__computeCancel) continue;
    proto.__computeCancel = true;
    proto._retrieveHandler = function (path: string) {
      if (path === "/pulumirpc.ResourceProvider/Cancel") cancel("the engine's Cancel: Ctrl-C");
      return original.call(this, path);
    };
  }
  return hooked;
}
