import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Account, Accounts } from "./accounts";
import { authenticate, requireScope, signedInNow } from "./auth";
import { CORS_HEADERS, CORS_SUCCESS_HEADERS } from "./cors";
import { codeOf, HttpError, messageOf, parseJsonBody, readBody, requestTarget, sendJson } from "./http";
import { RECEIVE_UPLOAD } from "./lookups";
import { PAGE_HEADERS, PAGE_HTML } from "./page";
import { logBody, requestBodyOf, type RequestLogEntry } from "./request-log";
import { NO_CONTENT, type RequestContext, type Route, type Router } from "./router";
import { AccountGone, StateNotSaved } from "./store";
import { EMULATOR_VERSION } from "./version";

/**
 * How the emulator serves one request (emulator/server.ts starts the server): the health check before anything;
 * the account it is for, the rate limit and the faults first, then the upload URL, the page, or a route of the
 * account's API (`/v4`) or of its own endpoints (`/__emulator`), with its token and scope checked; an error is its
 * own answer. Every `/v4` answer carries the real API's CORS headers (emulator/cors.ts), and a HEAD is a GET
 * answered without its body.
 */

/** What serving a request needs: the accounts, the main one, the clock. */
export interface Serving {
  accounts: Accounts;
  main: Account;
  now: () => number;
}

const MAX_JSON_BODY = 1024 * 1024;

/** `GET /__emulator/health`: no token, no account, no log; what a load balancer or a CI job's wait asks. */
export const HEALTH_PATH = "/__emulator/health";
const HEALTH = { status: "ok", version: EMULATOR_VERSION };

/** What the log keeps of a request's bodies (emulator/request-log.ts), noted as it is served. */
interface Bodies {
  request?: string;
  response?: string;
}

/** The bearer value of an Authorization header, if it has one. */
const bearer = (header: string | undefined): string | undefined => (header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The upload URL an image upload hands out (a pre-signed URL: no token, no JSON). The URL says which upload, not
 * which account: each account's receiver answers 404 before reading the data.
 */
async function receiveUpload({ accounts, main }: Serving, id: string, req: IncomingMessage, res: ServerResponse): Promise<number> {
  // Found by its URL (an index: the cost does not depend on how many accounts there are); the main account's
  // receiver answers an unknown one's 404.
  const holder = (await accounts.findUpload(id)) ?? main;
  await holder.services.use(RECEIVE_UPLOAD)()(id, req);
  sendJson(res, 200, {});
  return 200;
}

/** Which router a path is for, and the path within it: the API's (`/v4`) or the account's own endpoints (`/__emulator`). */
function routerOf({ main }: Serving, account: Account, pathname: string): { router: Router; path: string } {
  if (pathname.startsWith("/v4/") || pathname === "/v4") return { router: account.api, path: pathname.slice(3) || "/" };
  if (!pathname.startsWith("/__emulator/")) throw new HttpError(404, [{ reason: "Not found: API paths start with /v4" }]);
  const path = pathname.slice("/__emulator".length);
  if (account !== main && /^\/accounts(\/|$)/.test(path)) {
    throw new HttpError(403, [{ reason: "Only the emulator's root token (--token) makes, lists and deletes accounts" }]);
  }
  return { router: account.admin, path };
}

/** The caller of a route that looks at tokens: its user and token set on the context, its scope checked. */
function signIn({ now }: Serving, account: Account, router: Router, route: Route, req: IncomingMessage, ctx: RequestContext): void {
  if (route.auth === "none") return;
  const who = authenticate(account.store, req.headers.authorization, route.auth, now());
  if (!who) return;
  ctx.user = who.user;
  ctx.token = who.token;
  if (router === account.admin && who.token.token !== account.token) {
    throw new HttpError(403, [{ reason: "Only the account's root token may use /__emulator (for the main account, the emulator's --token)" }]);
  }
  requireScope(who.token, route.scope);
}

/** A request, answered: the status it was answered with (its bodies noted in `bodies`). */
async function handle(serving: Serving, req: IncomingMessage, res: ServerResponse, account: Account, bodies: Bodies): Promise<number> {
  const url = requestTarget(req.url);
  // A HEAD is served as the GET it stands for; Node sends its answer's headers (Content-Length included) without the body.
  const head = (req.method ?? "").toUpperCase() === "HEAD";
  const method = head ? "GET" : (req.method ?? "GET").toUpperCase();
  const upload = UPLOAD_PATH.exec(url.pathname);
  if (upload && method === "PUT") return receiveUpload(serving, upload[1], req, res);
  // The emulator's page (emulator/page.ts): open to all, as it shows nothing until given a token.
  if (url.pathname === "/" && method === "GET") {
    res.writeHead(200, { ...PAGE_HEADERS, "Content-Length": Buffer.byteLength(PAGE_HTML) });
    res.end(head ? undefined : PAGE_HTML);
    return 200;
  }
  const { router, path } = routerOf(serving, account, url.pathname);
  const { route, params } = router.match(method, path);
  // In a shared database, what other emulators committed to the account first (its tokens too).
  try {
    await account.store.refresh();
  } catch (err) {
    if (err instanceof AccountGone) serving.accounts.forget(account);
    throw err;
  }
  const ctx: RequestContext = { method, path, params, query: url.query, body: undefined, rawBody: Buffer.alloc(0), headers: req.headers };
  signIn(serving, account, router, route, req, ctx);
  ctx.rawBody = await readBody(req, MAX_JSON_BODY);
  const withBody = method !== "GET" && method !== "DELETE";
  if (withBody) bodies.request = requestBodyOf(ctx.rawBody, undefined);
  ctx.body = withBody ? parseJsonBody(ctx.rawBody, req.headers["content-type"], route.bodyDepth) : {};
  if (withBody) bodies.request = requestBodyOf(ctx.rawBody, ctx.body);
  // A change is one transaction, answered once committed; a read reads what was last committed (one that makes a
  // record on first sight, a user's first sign-in, is a transaction too: emulator/store.ts `read`).
  const result =
    method === "GET"
      ? await account.store.read(
          () => route.run(ctx),
          () => route.run(signedInNow(account.store, ctx)),
        )
      : await account.store.write(() => route.run(signedInNow(account.store, ctx)));
  const status = result === NO_CONTENT ? 204 : (route.status ?? 200);
  if (result !== NO_CONTENT && !head) bodies.response = logBody(result);
  sendJson(res, status, result === NO_CONTENT ? undefined : result, router === account.api ? CORS_SUCCESS_HEADERS : {});
  return status;
}

/** An error's answer (its body noted in `bodies`); one that says the connection cannot go on (a 413's unread body) closes it once sent. */
export function answerError(req: IncomingMessage, res: ServerResponse, err: unknown, bodies: Bodies = {}): number {
  // A body cut off by its client (an upload's data stopped mid-stream, the connection closed) is the client's doing:
  // a 400 in the log (its answer cannot reach anyone), not the emulator's error.
  const cutOff = !req.complete && codeOf(err) === "ECONNRESET";
  const e =
    err instanceof HttpError
      ? err
      : err instanceof StateNotSaved
        ? new HttpError(503, [
            {
              reason:
                err.action === "write"
                  ? `The emulator could not save this change (${err.code}); nothing was changed`
                  : `The emulator could not reach its database (${err.code}); try again`,
            },
          ])
        : cutOff
          ? new HttpError(400, [{ reason: "The request's body was cut off before its end (the client closed the connection)" }])
          : new HttpError(500, [{ reason: "Internal error in the emulator" }]);
  if (err instanceof StateNotSaved) console.error("emulator:", err.message);
  else if (!(err instanceof HttpError) && !cutOff) console.error("emulator: internal error:", err);
  if (res.headersSent) res.destroy();
  else {
    const socket = req.socket ?? res.socket;
    if (e.headers.Connection === "close") res.shouldKeepAlive = false;
    bodies.response = logBody({ errors: e.errors });
    sendJson(res, e.status, { errors: e.errors }, e.headers);
    if (e.headers.Connection === "close") res.on("finish", () => socket?.destroy());
  }
  return e.status;
}

/**
 * A request's path through the emulator: its account; the rate limit first (a refused request has no effect, and
 * takes no place in the bucket); then the faults, on the API only (some act before the request is handled: it has no effect; "lost"
 * lets it take effect and throws the answer away with the connection); then the request itself. Each is logged
 * with when it arrived, how long it took and its bodies, but the page and its polls (which would fill the log once
 * a second) and the health check. A preflight of the API (`OPTIONS /v4/...`) is answered before the rate limit
 * and the faults, with no token: a browser sends none with it.
 */
export function serve(serving: Serving, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const method = req.method ?? "";
  const path = req.url ?? "";
  const pathname = requestTarget(path).pathname;
  if (pathname === HEALTH_PATH && (method === "GET" || method === "HEAD")) {
    // With a database of its own (PostgreSQL), healthy only while it answers: a balancer stops sending traffic.
    const ping = serving.accounts.backend.ping?.();
    if (!ping) sendJson(res, 200, HEALTH, { "Cache-Control": "no-store" });
    else {
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 2 s")), 2000).unref());
      Promise.race([ping, late]).then(
        () => sendJson(res, 200, HEALTH, { "Cache-Control": "no-store" }),
        (err: unknown) =>
          sendJson(
            res,
            503,
            { status: "unavailable", version: EMULATOR_VERSION, reason: `the database does not answer (${messageOf(err)})` },
            { "Cache-Control": "no-store" },
          ),
      );
    }
    return;
  }
  const api = pathname === "/v4" || pathname.startsWith("/v4/");
  if (api) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
  // The account by this process's index of tokens (an upload's data: of upload URLs); in a shared database, one
  // another emulator made is looked up.
  const { accounts } = serving;
  const value = bearer(req.headers.authorization);
  const upload = method === "PUT" ? UPLOAD_PATH.exec(pathname)?.[1] : undefined;
  const held = upload !== undefined ? accounts.forUpload(upload) : value === undefined ? undefined : accounts.forToken(value);
  const seen: Arrival = { started, method, path, pathname, api };
  const find = upload !== undefined ? () => accounts.findUpload(upload) : value !== undefined ? () => accounts.findToken(value) : undefined;
  if (held || !find || !accounts.shared) {
    serveFor(serving, held, req, res, seen);
    return;
  }
  find().then(
    (found) => serveFor(serving, found, req, res, seen),
    (err: unknown) => answerError(req, res, err),
  );
}

/** The path of an upload URL, its token in it. */
const UPLOAD_PATH = /^\/upload\/([0-9a-f]+)$/;

/** What `serve` read of a request as it arrived: when, its method, its target and path, whether it is the API's. */
interface Arrival {
  started: number;
  method: string;
  path: string;
  pathname: string;
  api: boolean;
}

/**
 * A request served by the account its token (or upload URL) is of (serve): its rate limit, its faults, its routes,
 * its log. One no account's token signed is served by the main account's, and logged in the anonymous log.
 */
function serveFor(
  serving: Serving,
  found: Account | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  { started, method, path, pathname, api }: Arrival,
): void {
  const account = found ?? serving.main;
  const log = found ?? serving.accounts.anonymous;
  const { faults, rateLimit } = account;
  const time = new Date(serving.now()).toISOString();
  const ownPage = method === "GET" && (pathname === "/" || /^\/__emulator\/(accounts\/\d+\/)?overview$/.test(pathname));
  const bodies: Bodies = {};
  const logged = (entry: Omit<RequestLogEntry, "time" | "ms">): RequestLogEntry => ({
    ...entry,
    time,
    ms: Math.round((performance.now() - started) * 10) / 10,
    ...bodies,
  });
  const record = (entry: Omit<RequestLogEntry, "time" | "ms">) => ownPage || log.record(logged(entry));
  if (api && method === "OPTIONS") {
    record({ method, path, status: 204 });
    res.writeHead(204, CORS_SUCCESS_HEADERS);
    res.end();
    return;
  }
  if (pathname.startsWith("/v4/")) {
    // By the token itself, however its header is spelt (`bearer T`, `Bearer  T`); without one, by the address.
    const token = bearer(req.headers.authorization);
    const wait = rateLimit.take(token !== undefined ? `token ${token}` : `address ${req.socket.remoteAddress ?? ""}`);
    if (wait !== undefined) {
      const body = { errors: [{ reason: "Too many requests" }] };
      bodies.response = logBody(body);
      record({ method, path, status: 429 });
      sendJson(res, 429, body, { "Retry-After": String(wait) });
      return;
    }
  }
  // Faults are injected on the API only: a rule matching every path leaves the account's own endpoints (to clear
  // it) and the upload URL (which carries no token: the main account's faults would reach every account's) alone.
  const fault = api ? faults.pick(method, pathname) : undefined;
  const entry = (status: number) => ({ method, path, status, ...(fault ? { fault } : {}) });
  if (fault === "429" || fault === "500" || fault === "502" || fault === "503") {
    const status = Number(fault);
    const headers: Record<string, string> = fault === "429" ? { "Retry-After": String(faults.config?.retryAfterSeconds ?? 1) } : {};
    const body = { errors: [{ reason: status === 429 ? "Too many requests" : "Injected server error" }] };
    bodies.response = logBody(body);
    record(entry(status));
    sendJson(res, status, body, headers);
    return;
  }
  if (fault === "drop") {
    record(entry(0));
    req.socket.destroy();
    return;
  }
  if (fault === "lost") {
    res.writeHead = () => res;
    res.end = (() => {
      req.socket.destroy();
      return res;
    }) as never;
  }
  // An upload's data streams for as long as it takes: it waits for no turn, and holds none.
  const answer = () =>
    /^\/upload\//.test(pathname) ? handle(serving, req, res, account, bodies) : account.inTurn(() => handle(serving, req, res, account, bodies));
  const run = fault === "slow" ? sleep(faults.config?.slowMs ?? 300).then(answer) : answer();
  const lost = () => {
    delete bodies.response;
    return 0;
  };
  run
    .then((status) => record(entry(fault === "lost" ? lost() : status)))
    .catch((err: unknown) => record(entry(fault === "lost" ? lost() : answerError(req, res, err, bodies))));
}
