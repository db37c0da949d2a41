import pRetry from "p-retry";
import { z } from "zod";
import { fillPath, type AnswerOf, type AnyEndpoint, type BodyIn, type PathArgs, type PathParamNames } from "../../api/contract/endpoint";
import type { ItemOf } from "../../api/contract/common";
import { BUSY_TEXT } from "../../api/contract/instances";
import { pause } from "../lifecycle/cancel";
import { Agent, request, type Dispatcher } from "./http";
import { session } from "../session";
import { RateBudget } from "./rate-budget";
import { ListReads } from "./read-batch";

export interface ApiErrorItem {
  reason: string;
  field?: string;
}

/** An error answer of the API: the HTTP status and the API's field/reason pairs. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiErrorItem[],
    readonly method: string,
    readonly path: string,
    readonly retryAfterMs?: number,
  ) {
    super(`${method} ${path} failed: HTTP ${status}: ${ApiError.describe(errors)}`);
    this.name = "ApiError";
  }
  /** Attempts made, set once the client gives up retrying. */
  attempts = 1;
  static describe(errors: ApiErrorItem[]): string {
    if (!errors.length) return "no reason given";
    return errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join("; ");
  }
  /** The API's reasons, for messages that name the operation themselves. */
  get reasons(): string {
    return ApiError.describe(this.errors);
  }
}

/** What undici's and Node's network error codes mean, for messages a user reads. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "name lookup failed",
  ETIMEDOUT: "timed out",
  EPIPE: "connection closed",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CONNECT_TIMEOUT: "connect timed out",
  UND_ERR_HEADERS_TIMEOUT: "no answer in time",
  UND_ERR_BODY_TIMEOUT: "answer cut off (timed out)",
  UND_ERR_CLOSED: "connection closed",
};

/**
 * The request never got an answer (refused, reset, timed out). `sent` is false only when it surely never
 * reached the server. `attempts` and `elapsedMs` are set once the client gives up retrying.
 */
export class NetworkError extends Error {
  attempts = 1;
  elapsedMs = 0;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly code: string,
    readonly sent: boolean,
  ) {
    super(`${method} ${path} failed: ${code}`);
    this.name = "NetworkError";
  }
  /** "connection reset (ECONNRESET)". */
  get what(): string {
    const meaning = NETWORK_CODES[this.code];
    return meaning ? `${meaning} (${this.code})` : this.code;
  }
  /** "connection reset (ECONNRESET), 11 attempts over 42.1 s". */
  get summary(): string {
    return `${this.what}, ${this.attempts} attempt${this.attempts === 1 ? "" : "s"} over ${(this.elapsedMs / 1000).toFixed(1)} s`;
  }
}

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** Give up retrying once this much time has passed since the first attempt. */
  maxTimeMs: number;
  /** First backoff; doubles each attempt, with jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one is capped. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 10, maxTimeMs: 120_000, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export interface ClientOptions {
  baseUrl: string;
  token: string;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** Per-request timeout. */
  timeoutMs?: number;
  /**
   * The request budget and list reads this client shares with the other clients of its API and token (the
   * provider's session, provider/session.ts); without it, the client has its own.
   */
  shared?: (baseUrl: string, token: string) => { budget: RateBudget; reads: ListReads };
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number>;
  /**
   * A request that may be sent again after an unclear failure (GET, PUT, DELETE, and actions whose repeat is
   * harmless). A create is not: it is retried only when the server surely did not act on it (429, or a
   * connection that was never made); any other failure is an {@link LostAnswerError} for the caller to
   * resolve (look for what it may have made) rather than a blind repeat.
   */
  idempotent?: boolean;
  /** HTTP statuses that are an answer, not an error (for example 404 on a read). */
  accept?: number[];
  /** Headers beyond the client's own (a list's `X-Filter`). */
  headers?: Record<string, string>;
}

/** A create whose outcome is unknown: the server may or may not have made the resource. */
export class LostAnswerError extends Error {
  constructor(readonly original: Error) {
    super(
      `the create request may or may not have taken effect: ${original instanceof NetworkError ? `${original.method} ${original.path}: ${original.summary}` : original.message}`,
      { cause: original },
    );
    this.name = "LostAnswerError";
  }
}

/**
 * What a call of a contract's row sends: the path's parameters (each a number or a string), the body as its schema
 * takes it. A row with no parameters takes none.
 */
export type CallArgs<E extends AnyEndpoint> = ([PathParamNames<E["path"]>] extends [never] ? { params?: PathArgs<E> } : { params: PathArgs<E> }) & {
  body?: BodyIn<E>;
  /** Headers beyond the client's own (a list's `X-Filter`). */
  headers?: Record<string, string>;
  /** See RequestOptions: a create is not, unless it says so. */
  idempotent?: boolean;
};

export interface ListEnvelope<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

/** The keep-alive connection pool of the running session, shared by every client of it (connections are per origin inside it). */
function connections(): Agent {
  const s = session();
  s.connections ??= new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 16 });
  return s.connections;
}

/**
 * The API's 400 while the instance has running or queued actions ("Compute busy.": one disk made at a time, a
 * resize while another is under way): refused, nothing done, and accepted once they finish.
 */
export const isBusy = (err: unknown): boolean => err instanceof ApiError && err.status === 400 && err.errors.some((e) => e.reason === BUSY_TEXT);

function isTransient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (err instanceof ApiError) return err.status === 408 || err.status === 429 || err.status >= 500 || isBusy(err);
  return false;
}

/** True when a failed create surely had no effect, so sending it again cannot make a duplicate. */
function surelyNotApplied(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 429 || isBusy(err);
  if (err instanceof NetworkError) return !err.sent;
  return false;
}

/** The API's error envelope: `{"errors": [{"reason", "field"}]}`. */
const errorEnvelope = z.object({ errors: z.array(z.object({ reason: z.string(), field: z.string().optional() })) });

/** A system error's code (`ECONNRESET`, `UND_ERR_SOCKET`), if it has one. */
const codeOf = (err: unknown): string | undefined => {
  const r = z.object({ code: z.string() }).safeParse(err);
  return r.success ? r.data.code : undefined;
};

export class ApiClient {
  private readonly base: URL;
  private readonly retry: RetryPolicy;
  /** The request budget of this API and token, shared by the clients of the session (rate-budget.ts). */
  readonly budget: RateBudget;
  /** Reads served from a collection's list during a large refresh (read-batch.ts), of this API and token. */
  readonly reads: ListReads;
  constructor(private readonly opts: ClientOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, "") + "/");
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    const shared = opts.shared?.(this.baseUrl, opts.token) ?? { budget: new RateBudget(), reads: new ListReads() };
    this.budget = shared.budget;
    this.reads = shared.reads;
  }

  get baseUrl(): string {
    return this.base.toString().replace(/\/$/, "");
  }

  /** Sends one request (with the retry policy) and returns the parsed JSON body (undefined for 204). */
  async request<T = unknown>(method: string, path: string, ro: RequestOptions = {}): Promise<{ status: number; body: T }> {
    const idempotent = ro.idempotent ?? method !== "POST";
    // A write: no read is served from a list fetched before it ended (read-batch.ts).
    const writes = method !== "GET";
    if (writes) this.reads.written();
    const started = Date.now();
    let attempts = 0;
    // Time spent in the rate budget's queue is not time spent retrying.
    let queued = 0;
    const attempt = async () => {
      attempts++;
      queued += await this.budget.take();
      let answered: { status?: number; retryAfterMs?: number } = {};
      try {
        const r = await this.once(method, path, ro);
        answered = { status: r.status };
        return r;
      } catch (err) {
        if (err instanceof ApiError) answered = { status: err.status, retryAfterMs: err.retryAfterMs };
        throw err;
      } finally {
        this.budget.done(answered.status, answered.retryAfterMs);
      }
    };
    try {
      const r = await pRetry(attempt, {
        retries: this.retry.retries,
        // Delays are ours (Retry-After or backoff, below), so p-retry itself waits nothing.
        minTimeout: 0,
        maxTimeout: 0,
        randomize: false,
        // Throwing here ends the retries with that error: not retriable, no attempts left, or no time left.
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          const retriable = idempotent ? isTransient(error) : surelyNotApplied(error);
          if (!retriable || retriesLeft <= 0) throw error;
          // (A 429 also paused the whole budget for its Retry-After: every request of the process waits.)
          const delay =
            error instanceof ApiError && error.status === 429
              ? (error.retryAfterMs ?? 1000)
              : Math.min(this.retry.baseDelayMs * 2 ** (attemptNumber - 1), this.retry.maxDelayMs) * (0.5 + Math.random() / 2);
          if (Date.now() + delay - started - queued > this.retry.maxTimeMs) throw error;
          await pause(delay, `retrying ${method} ${path}`);
        },
      });
      // The one place an answer takes a type: the API's answer is its contract's (api/contract: the emulator is held to
      // it on every answer of the tests, and the real API's recorded answers are read by it).
      return { status: r.status, body: r.body as T };
    } catch (err) {
      if (err instanceof NetworkError) Object.assign(err, { attempts, elapsedMs: Date.now() - started });
      if (err instanceof ApiError) err.attempts = attempts;
      if (!idempotent && !surelyNotApplied(err) && (err instanceof NetworkError || (err instanceof ApiError && err.status >= 500))) {
        throw new LostAnswerError(err);
      }
      throw err;
    } finally {
      if (writes) this.reads.written();
    }
  }

  private async once(method: string, path: string, ro: RequestOptions): Promise<{ status: number; body: unknown }> {
    const url = new URL(path.replace(/^\//, ""), this.base);
    for (const [k, v] of Object.entries(ro.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...ro.headers, accept: "application/json", "user-agent": this.opts.userAgent ?? "pulumi-compute" };
    // Reference data and public images need no token: send none rather than an empty one.
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | undefined;
    if (ro.body !== undefined) {
      body = JSON.stringify(ro.body);
      headers["content-type"] = "application/json";
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: method,
        headers,
        body,
        dispatcher: connections(),
        headersTimeout: this.opts.timeoutMs ?? 60_000,
        bodyTimeout: this.opts.timeoutMs ?? 60_000,
      });
    } catch (err) {
      const code = codeOf(err) ?? (err instanceof Error ? err.name : "network error");
      // A refused or unresolvable connection never carried the request.
      const sent = !["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"].includes(code);
      throw new NetworkError(method, url.pathname, code, sent);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new NetworkError(method, url.pathname, codeOf(err) ?? "body read failed", true);
    }
    if (res.statusCode === 204) return { status: 204, body: undefined };
    let parsed: unknown = undefined;
    if (text.length) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (res.statusCode >= 400 && !(ro.accept ?? []).includes(res.statusCode)) {
      const envelope = errorEnvelope.safeParse(parsed);
      const errors = envelope.success ? envelope.data.errors : [{ reason: text.slice(0, 200) || `HTTP ${res.statusCode}` }];
      const ra = res.headers["retry-after"];
      const retryAfterMs = typeof ra === "string" && /^\d+$/.test(ra) ? Math.min(Number(ra) * 1000, this.retry.maxRetryAfterMs) : undefined;
      throw new ApiError(res.statusCode, errors, method, url.pathname, retryAfterMs);
    }
    return { status: res.statusCode, body: parsed };
  }

  /** The record at `path`; with `accept404`, undefined when it is not found. */
  async get<T>(path: string): Promise<T>;
  async get<T>(path: string, accept404: boolean): Promise<T | undefined>;
  async get<T>(path: string, accept404 = false): Promise<T | undefined> {
    const r = await this.request<T>("GET", path, { accept: accept404 ? [404] : [] });
    return r.status === 404 ? undefined : r.body;
  }

  /**
   * Calls a row of the contract (api/contract): its path filled with `params`, its body typed by its schema, its
   * answer typed as its answer schema says (the emulator is held to that schema on every answer of the tests, and
   * the real API's recorded answers are read by it: tests/integration/cassette-replay.test.ts).
   */
  async call<E extends AnyEndpoint>(e: E, args: CallArgs<E>): Promise<AnswerOf<E>> {
    const r = await this.request<AnswerOf<E>>(e.method, fillPath(e, args.params ?? {}), {
      body: args.body,
      headers: args.headers,
      idempotent: args.idempotent,
    });
    return r.body;
  }

  /** A row's answer, or undefined when the API answers 404 (a read of what may be gone). */
  async find<E extends AnyEndpoint>(e: E, args: CallArgs<E>): Promise<AnswerOf<E> | undefined> {
    const r = await this.request<AnswerOf<E>>(e.method, fillPath(e, args.params ?? {}), { body: args.body, headers: args.headers, accept: [404] });
    return r.status === 404 ? undefined : r.body;
  }

  /** Every item of a list row's pages (see `list`), typed as its envelope's items. */
  async all<E extends AnyEndpoint>(e: E, args: CallArgs<E>, opts: { maxPages?: number; filter?: object } = {}): Promise<ItemOf<AnswerOf<E>>[]> {
    return this.list<ItemOf<AnswerOf<E>>>(fillPath(e, args.params ?? {}), opts.maxPages, opts.filter);
  }

  /**
   * Reads every page of a list (page size 500, the largest the API allows), or the first `maxPages`; with
   * `filter`, only the records it keeps, in its order (the API's `X-Filter` header, sent with each page).
   */
  async list<T>(path: string, maxPages = Infinity, filter?: object): Promise<T[]> {
    const out: T[] = [];
    // A header is sent as Latin-1: every other character goes as a JSON escape (`\u65e5`), the same value.
    const headers = filter
      ? { "x-filter": JSON.stringify(filter).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) }
      : undefined;
    for (let page = 1; ; page++) {
      const r = await this.request<ListEnvelope<T>>("GET", path, { query: { page, page_size: 500 }, headers });
      // Not a list as the API pages it (no `data` list, no number of `pages`): refused, never read page after page.
      const { data, pages } = (r.body ?? {}) as Partial<ListEnvelope<T>>;
      if (!Array.isArray(data) || typeof pages !== "number" || !Number.isFinite(pages))
        throw new Error(
          `GET ${path}: not a list of the API (an answer with a \`data\` list and its number of \`pages\`): ${JSON.stringify(r.body)?.slice(0, 120)}`,
        );
      out.push(...data);
      if (page >= pages || page >= maxPages) return out;
    }
  }
}
