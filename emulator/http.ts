import type { IncomingMessage, ServerResponse } from "node:http";
import { applyFilter, FilterError, parseFilter } from "./filter";
import { jsonDepth, MAX_JSON_DEPTH } from "./json";
import { z } from "zod";
import { pageQuery } from "../api/contract/common";

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

/** An error's message (a thrown value that is not an Error: its text). */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A system error's code (`ENOSPC`...), if it has one. */
export const codeOf = (e: unknown): string | undefined => {
  const r = z.object({ code: z.string() }).safeParse(e);
  return r.success ? r.data.code : undefined;
};

/** A JSON object: not null, not a list. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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
  // A body declared larger than the limit is refused at once, not read first.
  if (Number(req.headers["content-length"]) > limit) throw new HttpError(413, [{ reason: `Request body larger than ${limit} bytes` }], { Connection: "close" });
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    // The rest of the body is not read: the answer closes the connection (emulator/server.ts), which cannot go on.
    if (size > limit) throw new HttpError(413, [{ reason: `Request body larger than ${limit} bytes` }], { Connection: "close" });
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON request body: 415 when it is not declared as JSON, 400 when it does not parse. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined, maxDepth = MAX_JSON_DEPTH): unknown {
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
  if (jsonDepth(body, maxDepth) > maxDepth) throw new HttpError(400, [{ reason: `Request body is nested deeper than ${maxDepth} levels` }]);
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

/** A list's query as the contract reads it (api/contract/common.ts `pageQuery`). */
export type PageQuery = z.output<typeof pageQuery>;

/** A list's envelope. */
export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

/**
 * Applies the `X-Filter` header (emulator/filter.ts: which records, their order; a bad header is a 400 on
 * `X-Filter`) and slices what is left into the API's envelope, by the list's `page` and `page_size` (read by the
 * contract's `pageQuery`: a row's query, or the raw query of a route that is not a row).
 */
export function paginate<T>(all: T[], { query, headers }: { query: URLSearchParams | PageQuery; headers: IncomingMessage["headers"] }): Page<T> {
  const q = query instanceof URLSearchParams ? pageQuery.safeParse(Object.fromEntries(query)) : { success: true as const, data: query };
  if (!q.success) throw new HttpError(400, fieldErrors(q.error.issues));
  const { page, page_size: pageSize } = q.data;
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

/** A field's place as the API names it: `interfaces[0].purpose`, `alerts.cpu`. */
export const fieldPath = (path: readonly PropertyKey[]): string =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");

/** The API's error items for a schema's issues: the first of each field, in order (`prefix` before each field). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], prefix = ""): ErrorItem[] {
  const seen = new Set<string>();
  const items: ErrorItem[] = [];
  for (const issue of issues) {
    // An object's unknown keys, said as zod says them: each under its own name (a schema's own text is kept where it put it).
    const unknownKeys = issue.code === "unrecognized_keys" && issue.message.startsWith("Unrecognized key");
    const places = unknownKeys ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const place of places) {
      const field = prefix + fieldPath(place);
      if (seen.has(field)) continue;
      seen.add(field);
      const reason = unknownKeys ? "Unknown field" : issue.message;
      items.push(field ? { field, reason } : { reason });
    }
  }
  return items;
}
