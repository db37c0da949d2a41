import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { Accounts, type Account } from "./accounts";
import { loadFixture, readFixture } from "./fixtures";
import { PAGE_HEADERS, PAGE_HTML } from "./page";
import { addAccountRoutes } from "./admin";
import type { RequestLogEntry } from "./request-log";
import { authenticate, requireScope } from "./auth";
import type { Faults } from "./faults";
import { HttpError, messageOf, parseJsonBody, readBody, requestTarget, sendJson } from "./http";
import { NO_CONTENT, type RequestContext, type Router } from "./router";
import { RECEIVE_UPLOAD } from "./lookups";
import type { RateLimit } from "./rate-limit";
import type { EmulatorOptions } from "./options";
import { apiFamilies, type EmulatorState } from "./routes";
import { newTokenValue, StateNotSaved, type Store } from "./state";
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

const MAX_JSON_BODY = 1024 * 1024;
export { buildRouter } from "./accounts";
export { LOG_PATH_CHARS, LOG_WINDOW } from "./request-log";

/** The bearer value of an Authorization header, if it has one. */
const bearer = (header: string | undefined): string | undefined => (header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined);

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
  /** The account a request is for: its token's, else the main account (which refuses an unknown token as before). */
  const accountOf = (req: IncomingMessage): Account => {
    const value = bearer(req.headers.authorization);
    return (value !== undefined && accounts.forToken(value)) || main;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, account: Account): Promise<number> => {
    const { store } = account;
    const url = requestTarget(req.url);
    const method = (req.method ?? "GET").toUpperCase();
    let router: Router;
    let path: string;
    // The upload URL an image upload hands out: a pre-signed URL, so no token (and no JSON).
    const upload = /^\/upload\/([0-9a-f]+)$/.exec(url.pathname);
    if (upload && method === "PUT") {
      // The URL says which upload, not which account: each account's receiver answers 404 before reading the data.
      for (const [i, holder] of accounts.list().entries()) {
        try {
          await holder.services.use(RECEIVE_UPLOAD)()(upload[1], req);
        } catch (err) {
          if (err instanceof HttpError && err.status === 404 && i < accounts.list().length - 1) continue;
          throw err;
        }
        holder.store.save();
        sendJson(res, 200, {});
        return 200;
      }
    }
    // The emulator's page (emulator/page.ts): open to all, as it shows nothing until given a token.
    if (url.pathname === "/" && (method === "GET" || method === "HEAD")) {
      res.writeHead(200, { ...PAGE_HEADERS, "Content-Length": Buffer.byteLength(PAGE_HTML) });
      res.end(method === "HEAD" ? undefined : PAGE_HTML);
      return 200;
    }
    if (url.pathname.startsWith("/v4/") || url.pathname === "/v4") {
      router = account.api;
      path = url.pathname.slice(3) || "/";
    } else if (url.pathname.startsWith("/__emulator/")) {
      router = account.admin;
      path = url.pathname.slice("/__emulator".length);
      if (account !== main && /^\/accounts(\/|$)/.test(path)) {
        throw new HttpError(403, [{ reason: "Only the emulator's root token (--token) makes, lists and deletes accounts" }]);
      }
    } else {
      throw new HttpError(404, [{ reason: "Not found: API paths start with /v4" }]);
    }
    const { route, params } = router.match(method, path);
    const ctx: RequestContext = { method, path, params, query: url.query, body: undefined, rawBody: Buffer.alloc(0), headers: req.headers };
    if (route.auth !== "none") {
      const who = authenticate(store, req.headers.authorization, route.auth, now());
      if (who) {
        ctx.user = who.user;
        ctx.token = who.token;
        if (router === account.admin && who.token.token !== account.token) {
          throw new HttpError(403, [{ reason: "Only the account's root token may use /__emulator (for the main account, the emulator's --token)" }]);
        }
        requireScope(who.token, route.scope);
      }
    }
    ctx.rawBody = await readBody(req, MAX_JSON_BODY);
    ctx.body = method === "GET" || method === "DELETE" ? {} : parseJsonBody(ctx.rawBody, req.headers["content-type"]);
    const result = await route.run(ctx);
    if (method !== "GET") store.save();
    if (result === NO_CONTENT) {
      sendJson(res, 204, undefined);
      return 204;
    }
    const status = route.status ?? 200;
    sendJson(res, status, result);
    return status;
  };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** An error's answer; one that says the connection cannot go on (a 413's unread body) closes it once sent. */
  const answerError = (req: IncomingMessage, res: ServerResponse, err: unknown): number => {
    const e =
      err instanceof HttpError
        ? err
        : err instanceof StateNotSaved
          ? new HttpError(503, [{ reason: `The emulator could not save this change (${err.code}); nothing was changed` }])
          : new HttpError(500, [{ reason: "Internal error in the emulator" }]);
    if (err instanceof StateNotSaved) console.error("emulator:", err.message);
    else if (!(err instanceof HttpError)) console.error("emulator: internal error:", err);
    if (res.headersSent) res.destroy();
    else {
      const socket = req.socket ?? res.socket;
      if (e.headers.Connection === "close") res.shouldKeepAlive = false;
      sendJson(res, e.status, { errors: e.errors }, e.headers);
      if (e.headers.Connection === "close") res.on("finish", () => socket?.destroy());
    }
    return e.status;
  };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const account = accountOf(req);
    const { faults, rateLimit } = account;
    const method = req.method ?? "";
    const path = req.url ?? "";
    const pathname = requestTarget(path).pathname;
    // The page and its polls are not the traffic the page shows (they would fill the log once a second).
    const ownPage = method === "GET" && (pathname === "/" || /^\/__emulator\/(accounts\/\d+\/)?overview$/.test(pathname));
    const record = (entry: RequestLogEntry) => ownPage || account.record(entry);
    // The rate limit first: a refused request has no effect, and takes no place in the bucket.
    if (pathname.startsWith("/v4/")) {
      const auth = req.headers.authorization;
      const wait = rateLimit.take(typeof auth === "string" && auth ? auth : `anonymous ${req.socket.remoteAddress ?? ""}`);
      if (wait !== undefined) {
        record({ method, path, status: 429 });
        sendJson(res, 429, { errors: [{ reason: "Too many requests" }] }, { "Retry-After": String(wait) });
        return;
      }
    }
    const fault = faults.pick(method, pathname);
    const entry = (status: number): RequestLogEntry => ({ method, path, status, ...(fault ? { fault } : {}) });
    // Faults that act before the request is handled: it has no effect.
    if (fault === "429" || fault === "500" || fault === "502" || fault === "503") {
      const status = Number(fault);
      const headers: Record<string, string> = fault === "429" ? { "Retry-After": String(faults.config?.retryAfterSeconds ?? 1) } : {};
      record(entry(status));
      sendJson(res, status, { errors: [{ reason: status === 429 ? "Too many requests" : "Injected server error" }] }, headers);
      return;
    }
    if (fault === "drop") {
      record(entry(0));
      req.socket.destroy();
      return;
    }
    // "lost": the request takes effect, then the answer is thrown away with the connection.
    if (fault === "lost") {
      res.writeHead = () => res;
      res.end = (() => {
        req.socket.destroy();
        return res;
      }) as never;
    }
    const run = fault === "slow" ? sleep(faults.config?.slowMs ?? 300).then(() => handle(req, res, account)) : handle(req, res, account);
    run
      .then((status) => record(entry(fault === "lost" ? 0 : status)))
      .catch((err: unknown) => {
        const status = answerError(req, res, err);
        record(entry(fault === "lost" ? 0 : status));
      });
  };
  const server: Server = createServer((req, res) => {
    // Whatever a request holds, its failure is its own answer: nothing it sends stops the emulator.
    try {
      serve(req, res);
    } catch (err) {
      main.record({ method: req.method ?? "", path: req.url ?? "", status: answerError(req, res, err) });
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
