import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { NOT_FOUND, type AnyEndpoint, type Auth, type ParamsOf, type QueryOf, type BodyOf, type Scope } from "../api/contract/endpoint";
import { badRequest, fieldErrors, HttpError, isJsonObject, notFound } from "./http";
import type { TokenRecord, User } from "./state";

/**
 * The emulator's router: a route is a row of the contract (api/contract) and a handler typed by it. The router
 * parses what a request carries with the row's schemas before its handler runs: a path parameter that names
 * nothing is a 404, a query or body the schemas refuse a 400 listing each field with the API's text (the first
 * issue of each field, in the schema's order), a body that is not a JSON object a 400. The handler gets typed
 * values and answers the row's answer type; with `checkAnswers` (the tests' emulators), an answer the row's
 * schema refuses is a 500 naming the field, so that no view can drift from the contract unseen.
 */

/** What a request carries, before its row's schemas read it. */
export interface RequestContext {
  method: string;
  path: string;
  /** The path parameters as the path gave them (decoded). */
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  rawBody: Buffer;
  headers: IncomingMessage["headers"];
  /** Set by the auth layer for routes that need it (and for optional-auth routes when a token was given). */
  user?: User;
  token?: TokenRecord;
}

/** Signed in: the user and token the auth layer set (`required` routes), else perhaps none. */
type Caller<U extends Auth> = U extends "required" ? { user: User; token: TokenRecord } : { user?: User; token?: TokenRecord };

/** What a row's handler gets: its parameters, query and body parsed by the row's schemas, and the caller. */
export type Req<E extends AnyEndpoint> = {
  method: string;
  path: string;
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  rawBody: Buffer;
  headers: IncomingMessage["headers"];
} & Caller<E["auth"]>;

/** A handler returns this to answer 204 with no body. */
export const NO_CONTENT = Symbol("no content");

/** What a row's handler answers: its answer schema's input (the value sent as JSON), or no content. */
export type Answer<E extends AnyEndpoint> = z.input<E["answer"]> | typeof NO_CONTENT;

export type Handler<E extends AnyEndpoint, C> = (c: C, req: Req<E>) => Answer<E> | Promise<Answer<E>>;

/** A row: an endpoint of the contract and its handler, given the family's context `C` when the router is built. */
export interface Row<C> {
  readonly endpoint: AnyEndpoint;
  // A method: its parameter is compared both ways, so that a handler of one endpoint's Req is a row of any.
  handle(c: C, req: Req<AnyEndpoint>): unknown;
}

/** `row(API.sshKeys.get, (c, req) => ...)`: a row of a family whose handlers get its context `C`. */
export const rowsOf =
  <C>() =>
  <E extends AnyEndpoint>(endpoint: E, handle: Handler<E, C>): Row<C> => ({ endpoint, handle });

export interface Route {
  endpoint: AnyEndpoint;
  method: string;
  pattern: string;
  regex: RegExp;
  keys: string[];
  scope: Scope | null;
  auth: Auth;
  /** The response status when the handler returns normally. */
  status?: number;
  /** How deep its body may nest (a fixture's document nests deeper than a request of the API: emulator/json.ts). */
  bodyDepth?: number;
  run(ctx: RequestContext): Promise<unknown>;
}

/** A value a row's schema reads, or the 400 listing what it refuses. */
function read<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new HttpError(400, fieldErrors(r.error.issues));
  return r.data;
}

/** Minimal router: `{name}` matches one segment, `{name*}` the rest of the path (image ids contain `/`). */
export class Router {
  readonly routes: Route[] = [];

  constructor(private readonly opts: { checkAnswers?: boolean } = {}) {}

  /** Serves rows, their handlers given `context`, in the order given (the first row whose path matches wins). */
  serve<C>(rows: readonly Row<C>[], context: C, opts: { bodyDepth?: number } = {}): void {
    for (const r of rows) this.serveOne(r.endpoint, (req) => r.handle(context, req), opts.bodyDepth);
  }

  private serveOne(endpoint: AnyEndpoint, handle: (req: Req<AnyEndpoint>) => unknown, bodyDepth?: number): void {
    const check = this.opts.checkAnswers === true;
    const run = async (ctx: RequestContext): Promise<unknown> => {
      const answer = await handle(requestOf(endpoint, ctx));
      if (check && answer !== NO_CONTENT) checkAnswer(endpoint, answer);
      return answer;
    };
    const { method, path: pattern, scope, auth } = endpoint;
    this.routes.push({ endpoint, method, pattern, ...compile(pattern), scope, auth, status: endpoint.status, bodyDepth, run });
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

/** A path pattern's regular expression and parameter names. */
function compile(pattern: string): { regex: RegExp; keys: string[] } {
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
  return { regex: new RegExp(`^${source}/?$`), keys };
}

/** The request as the row's handler reads it: parameters (404 when one names nothing), query and body parsed. */
function requestOf(endpoint: AnyEndpoint, ctx: RequestContext): Req<AnyEndpoint> {
  const params = endpoint.params.safeParse(ctx.params);
  if (!params.success) {
    if (params.error.issues.some((i) => i.message === NOT_FOUND)) throw notFound();
    throw new HttpError(400, fieldErrors(params.error.issues));
  }
  const query = read(endpoint.query, Object.fromEntries(ctx.query));
  if (!isJsonObject(ctx.body)) throw badRequest("Request body must be a JSON object");
  const body = read(endpoint.body, ctx.body);
  const { method, path, rawBody, headers, user, token } = ctx;
  return { method, path, params: params.data, query, body, rawBody, headers, user, token };
}

/** The answer a row's schema refuses: a 500 naming the endpoint and the field (the tests' emulators check every answer). */
function checkAnswer(endpoint: AnyEndpoint, answer: unknown): void {
  const r = endpoint.answer.safeParse(answer);
  if (r.success) return;
  const [first] = fieldErrors(r.error.issues);
  const reason = `The emulator's answer to ${endpoint.method} ${endpoint.path} is not the contract's: ${first.field ? `${first.field}: ` : ""}${first.reason}`;
  console.error(`emulator: ${reason}`);
  throw new HttpError(500, [{ reason }]);
}

/** A path parameter decoded; a malformed percent-escape (`%E0%A4%A`) is a 400, as no route can take it. */
function decodePathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest("The path holds a malformed percent-escape");
  }
}
