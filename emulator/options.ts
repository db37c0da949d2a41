import type { Quotas } from "./db/quota";
import type { FaultConfig } from "./faults";
import type { ImageOptions } from "./routes/images";

/** How to start the emulator (`startEmulator`); the list of API families reads its family options. */
export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /**
   * The bearer token the emulator accepts with every scope (the main account's root token): one an earlier start
   * gave its state (`stateFile`, `database`) is revoked. When omitted, the one the state has; random for a new one.
   */
  token?: string;
  /**
   * Keep the state in this SQLite database (made when missing; a JSON state file of an earlier release is moved into
   * it), and load it at start.
   */
  stateFile?: string;
  /**
   * Keep the state in this PostgreSQL database (`postgres://user:password@host:port/db`), made when empty: several
   * emulators may serve one database at once (docs/emulator-team.md).
   */
  database?: string;
  /**
   * What each account may hold: records (but events), their bytes as JSON, users; a change past one is refused 403
   * naming it (emulator/db/quota.ts: 20,000 records, 16 MiB, 100 users by default).
   */
  quotas?: Partial<Quotas>;

  /** The clock, for tests that move time on. */
  now?: () => number;
  /**
   * Multiplies how long status changes take (provisioning, booting, resizing...). 1 is the real API's durations
   * (emulator/timing.ts); the default, `TEST_SPEED` (about 0.001), makes them near-instant for tests (still one
   * poll or more).
   */
  speed?: number;
  /** Image uploads: size limit and the window for the data (tests shorten them). */
  images?: ImageOptions;
  /** Faults to inject from the start (also settable at run time: PUT /__emulator/faults). */
  faults?: FaultConfig;
  /**
   * Requests per second per token, with a burst of as many; beyond it, 429 with Retry-After (also settable at
   * run time: PUT /__emulator/rate-limit). None by default.
   */
  rateLimit?: number;
  /**
   * What the emulator keeps of its traffic: the request log's last `log` requests (50,000 by default) and the
   * last `events` events (10,000). The soak (scripts/bench/soak.ts) shrinks them to show the plateau sooner.
   */
  windows?: { log?: number; events?: number };
  /**
   * A fixture document (emulator/fixtures.ts, docs/fixtures.md) loaded into the main account when it starts
   * empty (no state file yet, or none): `--fixture FILE`.
   */
  fixture?: unknown;
  /** What the server holds open (`--max-connections`, `--idle-timeout`): `CONNECTION_DEFAULTS` for what is left out. */
  connections?: ConnectionOptions;
  /**
   * Check every answer against its row's answer schema (api/contract): one the contract refuses is a 500 naming
   * the field. The tests' emulators check (tests/helpers/emulator.ts).
   */
  checkAnswers?: boolean;
}

/**
 * The connections the emulator holds: at most `max` at once (a new one beyond it is closed as it comes, until one
 * closes); one with no request in flight is closed after `idleMs`, whether it never sent a request's headers
 * (or sends them too slowly) or is kept alive after an answer; a request's body must have arrived within
 * `requestMs` of its start. So idle or slow connections cannot hold the emulator's place from other clients for
 * longer than `idleMs`.
 */
export interface ConnectionOptions {
  max?: number;
  idleMs?: number;
  requestMs?: number;
}

/** The defaults: 1,000 connections, idle ones closed after 10 s, a request's body within 300 s (Node's default). */
export const CONNECTION_DEFAULTS = { max: 1000, idleMs: 10_000, requestMs: 300_000 } as const;
