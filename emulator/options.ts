import type { FaultConfig } from "./faults";
import type { ImageOptions } from "./routes/images";

/** How to start the emulator (`startEmulator`); the list of API families reads its family options. */
export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The bearer token the emulator accepts with every scope (the account owner's). Random when omitted. */
  token?: string;
  /**
   * Keep the state in this SQLite database (made when missing; a JSON state file of an earlier release is moved into
   * it), and load it at start.
   */
  stateFile?: string;

  /** The clock, for tests that move time on. */
  now?: () => number;
  /**
   * Multiplies how long status changes take (provisioning, booting, resizing...). 1 is seconds, like a
   * demo; the default 0.01 makes them near-instant for tests (still one poll or more).
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
  /**
   * Check every answer against its row's answer schema (api/contract): one the contract refuses is a 500 naming
   * the field. The tests' emulators check (tests/helpers/emulator.ts).
   */
  checkAnswers?: boolean;
}
