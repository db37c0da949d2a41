import type { IncomingMessage, ServerResponse } from "node:http";
import { applyFilter, FilterError, parseFilter } from "./filter";
import { jsonDepth, MAX_JSON_DEPTH } from "./json";

/** One item of the API's error envelope: `{"errors":[{"reason": ..., "field": ...}]}`. */
export interface ErrorItem {
  reason: string;
  field?: string;
}

/** Thrown by route handlers; turned into the error envelope with the given HTTP status. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly errors: ErrorItem[],
    public readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join("; "));
  }
}

export const badRequest = (reason: string, field?: string) => new HttpError(400, [{ reason, ...(field ? { field } : {}) }]);
export const notFound = () => new HttpError(404, [{ reason: "Not found" }]);
export const forbidden = (reason = "Unauthorized") => new HttpError(403, [{ reason }]);

/** Collects field errors so that a request with several bad fields reports all of them at once. */
export class FieldErrors {
  private readonly items: ErrorItem[] = [];
  add(field: string, reason: string): void {
    this.items.push({ field, reason });
  }
  throwIfAny(): void {
    if (this.items.length) throw new HttpError(400, this.items);
  }
}

/** The request body as a JSON object (400 otherwise). */
export function jsonObject(ctx: RequestContext): Record<string, unknown> {
  if (!isJsonObject(ctx.body)) throw badRequest("Request body must be a JSON object");
  return ctx.body;
}

/** A JSON object: not null, not a list. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Scope a route needs: a group (`account`, `computes`, ...) and a level, or `null` for none. */
export type Scope = { group: string; level: "read_only" | "read_write" } | null;

export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  rawBody: Buffer;
  headers: IncomingMessage["headers"];
  /** Set by the auth layer for routes that need it (and for optional-auth routes when a token was given). */
  user?: import("./state").User;
  token?: import("./state").TokenRecord;
}

/** The context of a route that needs a token: the auth layer has set its user and token. */
export interface SignedInContext extends RequestContext {
  user: import("./state").User;
  token: import("./state").TokenRecord;
}

export type Handler = (ctx: RequestContext) => unknown; // a value, or a Promise of one

/** A route's options: its scope, whether it needs a token, its status, whether its body is raw. */
type RouteOptions<A extends Route["auth"]> = Omit<Route, "method" | "pattern" | "regex" | "keys" | "handler" | "auth"> & { auth: A };

/** The context a route's handler gets: signed in when the route needs a token. */
type ContextFor<A extends Route["auth"]> = A extends "required" ? SignedInContext : RequestContext;

/** A signed-in context: the user and token the auth layer set (a route that needs a token is refused without). */
function signedIn(ctx: RequestContext): SignedInContext {
  const { user, token } = ctx;
  if (!user || !token) throw new HttpError(401, [{ reason: "Invalid Token" }]);
  return Object.assign(ctx, { user, token });
}

export interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  keys: string[];
  scope: Scope;
  /** `optional`: a token is used when given (public images); `none`: never looked at. */
  auth: "required" | "optional" | "none";
  /** The response status when the handler returns normally. */
  status?: number;
  /** Route takes a raw body (image upload) rather than JSON. */
  raw?: boolean;
  handler: Handler;
}

/** Minimal router: `{name}` matches one segment, `{name*}` the rest of the path (image ids contain `/`). */
export class Router {
  readonly routes: Route[] = [];

  add<A extends Route["auth"]>(method: string, pattern: string, opts: RouteOptions<A>, handle: (ctx: ContextFor<A>) => unknown): void {
    // ContextFor<A> is SignedInContext exactly when the route needs a token, which `signedIn` makes sure of.
    const handler: Handler = opts.auth === "required" ? (ctx) => (handle as (c: SignedInContext) => unknown)(signedIn(ctx)) : (handle as Handler);
    const keys: string[] = [];
    const source = pattern
      .split("/")
      .map((seg) => {
        const m = /^\{(\w+)(\*?)\}$/.exec(seg);
        if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        keys.push(m[1]);
        return m[2] ? "(.+?)" : "([^/]+)";
      })
      .join("/");
    this.routes.push({ method, pattern, regex: new RegExp(`^${source}/?$`), keys, handler, ...opts });
  }

  /** Finds the route; a path known under another method gives 405, a parameter with a bad percent-escape 400. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } {
    let pathKnown = false;
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      pathKnown = true;
      if (route.method !== method) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => (params[k] = decodePathSegment(m[i + 1])));
      return { route, params };
    }
    if (pathKnown) throw new HttpError(405, [{ reason: `Method ${method} not allowed for ${path}` }]);
    throw notFound();
  }
}

/** A path parameter decoded; a malformed percent-escape (`%E0%A4%A`) is a 400, as no route can take it. */
function decodePathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest("The path holds a malformed percent-escape");
  }
}

/**
 * Where a request goes: its path and query, from the request line's target. An origin-form target
 * (`/v4/regions?page=2`) is taken as it is (`//x:99999/` is a path no route has: a 404); an absolute-form one
 * (`http://host/v4/...`) goes through the URL parser; anything else, or a URL the parser refuses, is a 400.
 */
export function requestTarget(target: string | undefined): { pathname: string; query: URLSearchParams } {
  const raw = target ?? "/";
  if (raw.startsWith("/")) {
    const q = raw.indexOf("?");
    return { pathname: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)) };
  }
  if (/^https?:\/\//i.test(raw)) {
    try {
      const url = new URL(raw);
      return { pathname: url.pathname, query: url.searchParams };
    } catch {
      // below
    }
  }
  throw badRequest("The request line's target is not a path the emulator can read");
}

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // The rest of the body is not read: the answer closes the connection (emulator/server.ts), which cannot go on.
    if (size > limit) throw new HttpError(413, [{ reason: `Request body larger than ${limit} bytes` }], { Connection: "close" });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON request body: 415 when it is not declared as JSON, 400 when it does not parse. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return {};
  if (!contentType || !/^application\/json\b/i.test(contentType)) {
    throw new HttpError(415, [{ reason: "Content-Type must be application/json" }]);
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new HttpError(400, [{ reason: "Request body is not valid JSON" }]);
  }
  // What the emulator keeps must be what it can write back and save: a value too deep to walk is refused here.
  if (jsonDepth(body) > MAX_JSON_DEPTH) throw new HttpError(400, [{ reason: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  return body;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A handler returns this to answer 204 with no body. */
export const NO_CONTENT = Symbol("no content");

export const PAGE_SIZE = { min: 25, max: 500, default: 100 };

/**
 * Validates `page` and `page_size`, applies the `X-Filter` header (emulator/filter.ts: which records, their
 * order; a bad header is a 400 on `X-Filter`), and slices what is left into the API's envelope.
 */
export function paginate<T>(
  all: T[],
  { query, headers }: Pick<RequestContext, "query" | "headers">,
): { data: T[]; page: number; pages: number; results: number } {
  const errors = new FieldErrors();
  const page = intParam(query, "page", 1, errors, 1, Number.MAX_SAFE_INTEGER);
  const pageSize = intParam(query, "page_size", PAGE_SIZE.default, errors, PAGE_SIZE.min, PAGE_SIZE.max);
  errors.throwIfAny();
  let items = all;
  try {
    const filter = parseFilter(headers, all);
    if (filter) items = applyFilter(all, filter);
  } catch (e) {
    throw e instanceof FilterError ? badRequest(e.message, "X-Filter") : e;
  }
  const pages = Math.max(1, Math.ceil(items.length / pageSize));
  return { data: items.slice((page - 1) * pageSize, page * pageSize), page, pages, results: items.length };
}

function intParam(q: URLSearchParams, name: string, dflt: number, errors: FieldErrors, min: number, max: number): number {
  const raw = q.get(name);
  if (raw === null) return dflt;
  if (!/^\d+$/.test(raw)) {
    errors.add(name, `Must be an integer from ${min} to ${max}`);
    return dflt;
  }
  const n = Number(raw);
  if (n < min || n > max) errors.add(name, `Must be an integer from ${min} to ${max}`);
  return n;
}
