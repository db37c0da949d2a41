import { createServer, type Server } from "node:http";
import { existsSync } from "node:fs";
import { Accounts } from "./accounts";
import { loadFixture, readFixture } from "./fixtures";
import { addAccountRoutes } from "./admin";
import type { RequestLogEntry } from "./request-log";
import type { Faults } from "./faults";
import { messageOf } from "./http";
import type { RateLimit } from "./rate-limit";
import { answerError, serve, type Serving } from "./serve";
import type { EmulatorOptions } from "./options";
import { apiFamilies, type EmulatorState } from "./routes";
import { newTokenValue, type Store } from "./state";
import type { Timing } from "./timing";

export type { EmulatorOptions } from "./options";

export type { RequestLogEntry } from "./request-log";

export interface Emulator {
  /** Base URL including `/v4`. */
  url: string;
  /** The emulator's root token (`--token`): the main account's, and the one that makes accounts. */
  token: string;
  /** Every account; the fields below are the main account's. */
  accounts: Accounts;
  store: Store<EmulatorState>;
  /** Change the speed of status transitions at run time (tests). */
  timing: Timing;
  faults: Faults;
  /** The request rate limit per token (none unless set): its limit and the 429s it answered. */
  rateLimit: RateLimit;
  /** The requests served, in order (tests read it to count calls): the last LOG_WINDOW, paths cut to LOG_PATH_CHARS. */
  log: RequestLogEntry[];
  close(): Promise<void>;
}

export { buildRouter } from "./accounts";
export { LOG_PATH_CHARS, LOG_WINDOW } from "./request-log";

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const now = opts.now ?? Date.now;
  const token = opts.token ?? newTokenValue();
  const timing: Timing = { speed: opts.speed ?? 0.01 };
  let origin = "";
  const setup = {
    families: apiFamilies(opts),
    now,
    timing,
    baseUrl: () => origin,
    faults: opts.faults,
    rateLimit: opts.rateLimit,
    windows: opts.windows,
    checkAnswers: opts.checkAnswers,
  };
  // A fixture is for an account that starts empty: not one kept from an earlier run.
  const fresh = !(opts.stateFile && existsSync(opts.stateFile));
  const accounts = new Accounts(setup, token, opts.stateFile);
  addAccountRoutes(accounts.main.admin, accounts, () => timing.speed);
  const main = accounts.main;
  if (opts.fixture !== undefined && fresh) {
    await loadFixture(main, readFixture(opts.fixture, main));
    main.store.save();
  }
  const serving: Serving = { accounts, main, now };
  const server: Server = createServer((req, res) => {
    // Whatever a request holds, its failure is its own answer: nothing it sends stops the emulator.
    try {
      serve(serving, req, res);
    } catch (err) {
      const status = answerError(req, res, err);
      main.record({ method: req.method ?? "", path: req.url ?? "", status, time: new Date(now()).toISOString(), ms: 0 });
    }
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("the emulator's server listens on no port");
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  origin = `http://${host}:${addr.port}`;
  return {
    url: `http://${host}:${addr.port}/v4`,
    token,
    accounts,
    store: main.store,
    timing,
    faults: main.faults,
    rateLimit: main.rateLimit,
    log: main.log,
    close: () =>
      new Promise<void>((resolve) => {
        try {
          accounts.saveAll();
        } catch (err) {
          // Every answered change is in the file already: only changes no request saw are lost.
          console.error("emulator:", messageOf(err));
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
