import { AsyncLocalStorage } from "node:async_hooks";
import type { Agent } from "./transport/http";
import { RateBudget } from "./transport/rate-budget";
import { ListReads } from "./transport/read-batch";
import { ProgramContext } from "./program";

/**
 * What one provider process holds across the operations it runs, in one object with one reset: the engine
 * runs every resource of a program in one process (the dynamic provider's, or the plugin's), calling check,
 * diff, create, update and delete one after another, and these records tie those calls together. Nothing
 * here is serialized into the stack. The modules that use a record hold its rules; this holds the data.
 *
 * A process has one session of its own; code run with {@link inSession} has another (two provider tests at
 * once in one process, each with its settings, its cancellation and its connections). Held outside any
 * session, because they belong to the process: its signal listener (lifecycle/cancel.ts), which cancels the
 * process's own session, and the dynamic provider's patches of other libraries
 * (lifecycle/dynamic-provider-patch.ts).
 */

/** Provider settings: `compute:token` / `compute:apiUrl` (through configure), else the environment's. */
export interface Settings {
  token?: string;
  apiUrl?: string;
}

/** A create-first replacement under way (lifecycle/replacements.ts): the old resource, the pinned label both want. */
export interface PendingReplacement {
  type: string;
  oldId: string;
  /** The pinned label both want. */
  label: string;
  newId?: string;
  /** The label the new resource has until the old one is gone. */
  temp?: string;
}

/** The request budget and the list reads of one API and token, shared by every client of the process. */
export interface PerApi {
  budget: RateBudget;
  reads: ListReads;
}

/** The cancellation of a session's operations (the rules: lifecycle/cancel.ts). */
export class Cancellation {
  /** Why the session's waits end: unset until it is cancelled. */
  reason?: string;
  /** The waits under way, each woken at once by a cancel. */
  readonly sleepers = new Set<() => void>();
  /** The operations of the engine under way (`counted`). */
  underWay = 0;
  /** A signal came while operations were under way: the process ends once they have answered. */
  exitWhenIdle = false;
}

export class Session {
  /** What configure() set. */
  settings: Settings = {};
  /** The keep-alive connection pool of every client of the session (transport/client.ts makes it). */
  connections?: Agent;
  readonly cancellation = new Cancellation();
  /** The pinned labels existing data-holding resources hold (lifecycle/replacements.ts), by type and name. */
  readonly heldLabels = new Map<string, string>();
  /** Create-first replacements under way, by type and old id. */
  readonly replacements = new Map<string, PendingReplacement>();
  /** What the program declares across its resources, as the engine checks and diffs them. */
  readonly program = new ProgramContext();
  /**
   * The URNs the engine checked in this process. A Diff of one it did not check is a refresh's: the engine asks
   * what an `up` would change from what it read back, with no program (resource-methods.ts).
   */
  readonly checked = new Set<string>();
  private readonly apis = new Map<string, PerApi>();

  /** The budget and list reads of an API (its base URL) and token in this process. */
  perApi(baseUrl: string, token: string): PerApi {
    const key = `${baseUrl}\n${token}`;
    let p = this.apis.get(key);
    if (!p) this.apis.set(key, (p = { budget: new RateBudget(), reads: new ListReads() }));
    return p;
  }
}

let own = new Session();
const running = new AsyncLocalStorage<Session>();

/** The session of the code running: the one {@link inSession} gives it, else the process's own. */
export const session = (): Session => running.getStore() ?? own;

/** The process's own session, whatever the code running (what a signal of the process cancels). */
export const processSession = (): Session => own;

/** Runs `fn` (and everything it starts, awaited or not) in the session given. */
export function inSession<T>(s: Session, fn: () => T): T {
  return running.run(s, fn);
}

/**
 * A new session for the process, as a new provider process would have (tests): no settings, nothing
 * declared, no cancellation pending, no operation counted, new connections (the old pool closes once its
 * requests have ended). A session run with {@link inSession} is not touched.
 */
export function resetSession(): void {
  const old = own;
  own = new Session();
  old.connections?.close().catch(() => undefined);
}
