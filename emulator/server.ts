import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import { Accounts } from "./accounts";
import { MemoryBackend } from "./db/backend";
import { openPostgres } from "./db/postgres";
import { openStateFile } from "./db/state-file";
import { loadFixture, readFixture } from "./fixtures";
import { addAccountRoutes } from "./admin";
import type { RequestLogEntry } from "./request-log";
import type { Faults } from "./faults";
import { messageOf, sendJson } from "./http";
import type { RateLimit } from "./rate-limit";
import { answerError, serve, type Serving } from "./serve";
import { CONNECTION_DEFAULTS, type EmulatorOptions } from "./options";
import { apiFamilies, type EmulatorState } from "./routes";
import { newTokenValue } from "./state";
import { type Store } from "./store";
import { TEST_SPEED, type Timing } from "./timing";

export type { ConnectionOptions, EmulatorOptions } from "./options";

export type { RequestLogEntry } from "./request-log";

export interface Emulator {
  /** Base URL including `/v4`. */
  url: string;
  /**
   * The emulator's root token (`--token`; when none is given, the one its main account has, or a random one): the
   * main account's, and the one that makes accounts.
   */
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
  const timing: Timing = { speed: opts.speed ?? TEST_SPEED };
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
    quotas: opts.quotas,
  };
  if (opts.database && opts.stateFile) throw new Error("--state and --database name two stores: give one");
  const backend = opts.database
    ? await openPostgres(opts.database)
    : opts.stateFile
      ? await openStateFile(opts.stateFile, opts.token ?? newTokenValue(), now, setup.families)
      : new MemoryBackend();
  // A fixture is for a main account that starts empty (not one kept from an earlier run): made with it, or not at all.
  const { fixture } = opts;
  let accounts: Accounts;
  try {
    accounts = await Accounts.open(setup, opts.token, backend, fixture === undefined ? undefined : (main) => loadFixture(main, readFixture(fixture, main)));
  } catch (err) {
    await backend.close();
    throw err;
  }
  addAccountRoutes(accounts.main.admin, accounts, () => timing.speed);
  const main = accounts.main;
  const serving: Serving = { accounts, main, now };
  const given = opts.connections ?? {};
  const [max, idleMs, requestMs] = [
    given.max ?? CONNECTION_DEFAULTS.max,
    given.idleMs ?? CONNECTION_DEFAULTS.idleMs,
    given.requestMs ?? CONNECTION_DEFAULTS.requestMs,
  ];
  if (!(Number.isInteger(max) && max >= 1)) throw new Error(`the connection cap must be a whole number, 1 or more, got ${String(max)}`);
  if (!(idleMs > 0 && requestMs > 0)) throw new Error("the idle and request timeouts must be above 0");
  const limits = {
    // A connection that never sends a request's headers, or sends them slowly, is closed (408) after idleMs; Node
    // checks every connectionsCheckingInterval, a fraction of it.
    headersTimeout: idleMs,
    requestTimeout: Math.max(requestMs, idleMs),
    keepAliveTimeout: idleMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(idleMs / 4))),
  };
  // The requests each connection has in flight: a connection idle with none is closed (below).
  const inFlight = new WeakMap<Socket, number>();
  // Each connection's last request: while its body is still coming, the wait is the client's, and idleMs bounds it.
  const receiving = new WeakMap<Socket, IncomingMessage>();
  // The connections beyond the cap, each answered 503 at its first request and closed.
  const overCap = new WeakSet<Socket>();
  const server: Server = createServer(limits, (req, res) => {
    const socket = req.socket;
    if (overCap.has(socket)) {
      res.shouldKeepAlive = false;
      const reason = `Too many connections: the emulator holds at most ${max} at once (--max-connections); idle ones close after ${idleMs / 1000} s`;
      sendJson(res, 503, { errors: [{ reason }] }, { "Retry-After": String(Math.ceil(idleMs / 1000)) });
      return;
    }
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    receiving.set(socket, req);
    res.once("close", () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
    // Answered before its body was all read (a 401, a 413): the connection is closed, not kept reading what the
    // client still sends (a body sent a byte at a time would hold it for as long as it lasts).
    res.once("finish", () => {
      if (!req.complete) socket.destroy();
    });
    // Whatever a request holds, its failure is its own answer: nothing it sends stops the emulator.
    try {
      serve(serving, req, res);
    } catch (err) {
      const status = answerError(req, res, err);
      // Before its account was known: the anonymous log's.
      accounts.anonymous.record({ method: req.method ?? "", path: req.url ?? "", status, time: new Date(now()).toISOString(), ms: 0 });
    }
  });
  // Beyond the cap, a connection's first request is answered 503 (saying why) and the connection closed; one that
  // sends none is closed after at most a second. Beyond twice the cap, Node closes a new connection unanswered.
  let open = 0;
  server.on("connection", (socket: Socket) => {
    open++;
    socket.once("close", () => open--);
    if (open <= max) return;
    overCap.add(socket);
    socket.setTimeout(Math.min(idleMs, 1000));
  });
  server.maxConnections = 2 * max;
  // A connection silent for idleMs (one that never sent a byte too, which headersTimeout does not see; one whose
  // request's body stops coming) is closed, unless a request of it is being answered (a long import, its body all
  // read): its answer restarts the wait.
  server.timeout = idleMs;
  server.on("timeout", (socket: Socket) => {
    if (!inFlight.get(socket) || receiving.get(socket)?.complete === false) socket.destroy();
  });

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
    token: main.token,
    accounts,
    store: main.store,
    timing,
    faults: main.faults,
    rateLimit: main.rateLimit,
    log: main.log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        // Every answered change is committed already.
        server.close(() => {
          accounts.close().then(resolve, (err: unknown) => {
            console.error("emulator:", messageOf(err));
            resolve();
          });
        });
      }),
  };
}
