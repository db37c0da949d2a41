import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { authenticate, requireScope } from "./auth";
import { Faults, type FaultConfig } from "./faults";
import { HttpError, NO_CONTENT, Router, badRequest, jsonObject, parseJsonBody, readBody, requestTarget, sendJson, type RequestContext } from "./http";
import { familyCollections, Services, type ApiFamily, type FamilyContext } from "./family";
import { RECEIVE_UPLOAD } from "./lookups";
import { RateLimit } from "./rate-limit";
import type { EmulatorOptions } from "./options";
import { apiFamilies, type EmulatorState } from "./routes";
import { emptyGrants, newTokenValue, newUser, StateNotSaved, Store, apiTime } from "./state";
import type { Timing } from "./timing";

export type { EmulatorOptions } from "./options";

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The HTTP status sent, or 0 when no answer was (a dropped connection or a lost answer). */
  status: number;
  /** The fault injected into this request, if any. */
  fault?: string;
}

export interface Emulator {
  /** Base URL including `/v4`. */
  url: string;
  token: string;
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
/** The request log's window: the last this many requests (`GET /__emulator/log`), each path cut to `LOG_PATH_CHARS`. */
export const LOG_WINDOW = 50_000;
export const LOG_PATH_CHARS = 256;

/**
 * A long path cut to LOG_PATH_CHARS, as a string of its own: a slice would keep the whole path alive (V8's
 * sliced strings point into their parent), so a window of 16 KB paths would hold 16 KB each, not 256 bytes.
 */
const cut = (path: string): string => Buffer.from(`${path.slice(0, LOG_PATH_CHARS - 1)}…`, "utf8").toString("utf8");

/** The API's router: every family's routes, in the list's order, and the services they offer each other. */
export function buildRouter(families: readonly ApiFamily[], ctx: Omit<FamilyContext, "router" | "services">): { router: Router; services: Services } {
  const router = new Router();
  const services = new Services();
  for (const family of families) family.register({ ...ctx, router, services });
  return { router, services };
}

/**
 * Admin endpoints for tests and demos, outside the API (`/__emulator/...`), open only to the root token:
 * create users (restricted or not) with tokens, read the request log, reset the log.
 */
function adminRoutes(store: Store, log: RequestLogEntry[], now: () => number, faults: Faults, rateLimit: RateLimit): Router {
  const router = new Router();
  router.add("PUT", "/rate-limit", { scope: null, auth: "required" }, (ctx) => {
    const perSecond = jsonObject(ctx).perSecond;
    try {
      rateLimit.set(perSecond === null || perSecond === undefined ? undefined : Number(perSecond));
    } catch (e) {
      throw badRequest((e as Error).message, "perSecond");
    }
    return { perSecond: rateLimit.limit ?? null, limited: rateLimit.limited };
  });
  router.add("GET", "/rate-limit", { scope: null, auth: "required" }, () => ({ perSecond: rateLimit.limit ?? null, limited: rateLimit.limited }));
  router.add("PUT", "/faults", { scope: null, auth: "required" }, (ctx) => {
    try {
      faults.set(jsonObject(ctx) as unknown as FaultConfig);
    } catch (e) {
      throw badRequest((e as Error).message, "faults");
    }
    return { config: faults.config };
  });
  router.add("DELETE", "/faults", { scope: null, auth: "required" }, () => {
    faults.set(undefined);
    return {};
  });
  router.add("GET", "/faults", { scope: null, auth: "required" }, () => ({ config: faults.config ?? null, counts: faults.counts }));
  router.add("POST", "/users", { scope: null, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx) as { username?: unknown; restricted?: unknown; scopes?: unknown; global?: unknown };
    if (typeof body.username !== "string" || !/^[a-z][a-z0-9_-]{2,31}$/.test(body.username))
      throw badRequest("username must be 3..32 lowercase letters, digits, _ or -", "username");
    if (body.restricted !== undefined && typeof body.restricted !== "boolean") throw badRequest("Must be a boolean", "restricted");
    if (body.scopes !== undefined && typeof body.scopes !== "string") throw badRequest("Must be a string of scopes, or *", "scopes");
    const global = body.global ?? {};
    if (
      typeof global !== "object" ||
      global === null ||
      Array.isArray(global) ||
      Object.values(global).some((v) => typeof v !== "boolean" && typeof v !== "string")
    )
      throw badRequest("Must be an object of global grants", "global");
    if (store.user(body.username)) throw badRequest("username already exists", "username");
    const user = newUser(body.username, store.nextId("user"), body.restricted ?? false);
    if (user.restricted) user.grants = emptyGrants(global);
    store.data.users.push(user);
    const token = {
      id: store.nextId("token"),
      label: `${body.username} token`,
      scopes: body.scopes ?? "*",
      created: apiTime(now()),
      expiry: null,
      token: newTokenValue(),
      username: user.username,
    };
    store.data.tokens.push(token);
    return { username: user.username, token: token.token };
  });
  router.add("GET", "/log", { scope: null, auth: "required" }, () => log);
  router.add("DELETE", "/log", { scope: null, auth: "required" }, () => {
    log.length = 0;
    return {};
  });
  return router;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const now = opts.now ?? Date.now;
  const token = opts.token ?? newTokenValue();
  const families = apiFamilies(opts);
  const store = new Store<EmulatorState>(opts.stateFile, token, now, familyCollections(families));
  const timing: Timing = { speed: opts.speed ?? 0.01 };
  let origin = "";
  const { router: api, services } = buildRouter(families, { store, now, timing, baseUrl: () => origin });
  const receiveUpload = services.use(RECEIVE_UPLOAD);
  const log: RequestLogEntry[] = [];
  const logWindow = opts.windows?.log ?? LOG_WINDOW;
  if (opts.windows?.events !== undefined) store.eventsKept = opts.windows.events;
  /** Notes a request in the log: its path cut to LOG_PATH_CHARS, the oldest tenth let go once past the window. */
  const record = (entry: RequestLogEntry): void => {
    log.push(entry.path.length > LOG_PATH_CHARS ? { ...entry, path: cut(entry.path) } : entry);
    if (log.length > logWindow + logWindow / 10) log.splice(0, log.length - logWindow);
  };
  const faults = new Faults();
  faults.set(opts.faults);
  const rateLimit = new RateLimit(opts.rateLimit);
  const admin = adminRoutes(store, log, now, faults, rateLimit);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const url = requestTarget(req.url);
    const method = (req.method ?? "GET").toUpperCase();
    let router: Router;
    let path: string;
    // The upload URL an image upload hands out: a pre-signed URL, so no token (and no JSON).
    const upload = /^\/upload\/([0-9a-f]+)$/.exec(url.pathname);
    if (upload && method === "PUT") {
      await receiveUpload()(upload[1], req);
      store.save();
      sendJson(res, 200, {});
      return 200;
    }
    if (url.pathname.startsWith("/v4/") || url.pathname === "/v4") {
      router = api;
      path = url.pathname.slice(3) || "/";
    } else if (url.pathname.startsWith("/__emulator/")) {
      router = admin;
      path = url.pathname.slice("/__emulator".length);
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
        if (router === admin && who.token.token !== token) throw new HttpError(403, [{ reason: "Only the emulator's root token may use /__emulator" }]);
        requireScope(who.token, route.scope);
      }
    }
    if (route.raw) {
      ctx.rawBody = await readBody(req, Number.MAX_SAFE_INTEGER);
    } else {
      ctx.rawBody = await readBody(req, MAX_JSON_BODY);
      ctx.body = method === "GET" || method === "DELETE" ? {} : parseJsonBody(ctx.rawBody, req.headers["content-type"]);
    }
    const result = await route.handler(ctx);
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
    const method = req.method ?? "";
    const path = req.url ?? "";
    const pathname = requestTarget(path).pathname;
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
    const run = fault === "slow" ? sleep(faults.config?.slowMs ?? 300).then(() => handle(req, res)) : handle(req, res);
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
      record({ method: req.method ?? "", path: req.url ?? "", status: answerError(req, res, err) });
    }
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  origin = `http://${host}:${addr.port}`;
  return {
    url: `http://${host}:${addr.port}/v4`,
    token,
    store,
    timing,
    faults,
    rateLimit,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        try {
          store.save();
        } catch (err) {
          // Every answered change is in the file already: only changes no request saw are lost.
          console.error("emulator:", (err as Error).message);
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
