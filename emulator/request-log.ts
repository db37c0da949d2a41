/**
 * The request log each account keeps (`GET /__emulator/log`, the page's "Recent requests"): bounded, so that it
 * does not grow with traffic. Each entry says when the request arrived, how long its answer took, and, for the
 * last LOG_BODIES requests, the bodies both ways as JSON text with every secret replaced by "[redacted]", each cut
 * to LOG_BODY_CHARS.
 */

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The HTTP status sent, or 0 when no answer was (a dropped connection or a lost answer). */
  status: number;
  /** The fault injected into this request, if any. */
  fault?: string;
  /** When the request arrived (ISO 8601, the emulator's clock). */
  time: string;
  /** Milliseconds from its arrival to its answer (a tenth of a millisecond at most). */
  ms: number;
  /** The request's body as JSON text, secrets redacted, cut to LOG_BODY_CHARS (`[N bytes, not JSON]` when it did not parse); none when it had none. */
  request?: string;
  /** The answer's body the same way; none for a 204, a HEAD or a request no answer was sent to. */
  response?: string;
}

/** The request log's window: the last this many requests (`GET /__emulator/log`), each path cut to `LOG_PATH_CHARS`. */
export const LOG_WINDOW = 50_000;
export const LOG_PATH_CHARS = 256;
/** Bodies are kept for the last this many requests of the window only, each at most LOG_BODY_CHARS: at most about 400 KB an account. */
export const LOG_BODIES = 100;
export const LOG_BODY_CHARS = 2048;

/**
 * A long path cut to LOG_PATH_CHARS, as a string of its own: a slice would keep the whole path alive (V8's
 * sliced strings point into their parent), so a window of 16 KB paths would hold 16 KB each, not 256 bytes.
 */
export const cut = (path: string): string => Buffer.from(`${path.slice(0, LOG_PATH_CHARS - 1)}…`, "utf8").toString("utf8");

/**
 * A key whose value is a secret: passwords (`root_pass`, `password`), tokens, secrets (a two-factor secret, its
 * `scratch` code, `otp_code`), keys that grant access (`authorized_keys`, a private or API key), credentials.
 */
export const SECRET_KEY = /pass|token|secret|credential|scratch|otp|private_key|authorized_keys|api_?key|access_?key/i;
export const REDACTED = "[redacted]";

/**
 * A body as the log keeps it: JSON text, every value under a secret's key (at any depth) "[redacted]", cut to
 * `limit` characters (ending in "…"). Written as it is walked, and no further than the limit, so that logging a
 * large answer (a list, the log itself) costs no more than logging a small one.
 */
export function logBody(value: unknown, limit = LOG_BODY_CHARS): string {
  let out = "";
  const full = () => out.length > limit;
  const put = (text: string) => {
    out += text.length > limit + 1 - out.length ? text.slice(0, limit + 1 - out.length) : text;
  };
  const str = (s: string) => put(JSON.stringify(s.length > limit ? s.slice(0, limit) : s));
  const walk = (v: unknown): void => {
    if (full()) return;
    if (typeof v === "string") return str(v);
    if (v === null || typeof v === "number" || typeof v === "boolean") return put(JSON.stringify(v));
    if (Array.isArray(v)) {
      put("[");
      v.every((item, i) => {
        if (i > 0) put(",");
        walk(item === undefined ? null : item);
        return !full();
      });
      return put("]");
    }
    if (typeof v === "object") {
      put("{");
      let first = true;
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined) continue;
        if (!first) put(",");
        first = false;
        str(k);
        put(":");
        walk(SECRET_KEY.test(k) && item !== null ? REDACTED : item);
        if (full()) break;
      }
      return put("}");
    }
    put("null");
  };
  walk(value);
  // A string of its own (not a slice of the text walked), as `cut` above.
  return full() ? Buffer.from(`${out.slice(0, limit - 1)}…`, "utf8").toString("utf8") : out;
}

/** A request body as the log keeps it: JSON read and redacted, or only its size when it is not JSON. */
export const requestBodyOf = (raw: Buffer, parsed: unknown): string | undefined =>
  raw.length === 0 ? undefined : parsed === undefined ? `[${raw.length} bytes, not JSON]` : logBody(parsed);

/** Lets go of the bodies of the request that has just left the last LOG_BODIES (the entry is kept). */
export function forgetOldBodies(log: RequestLogEntry[]): void {
  const old = log[log.length - 1 - LOG_BODIES];
  if (old && (old.request !== undefined || old.response !== undefined)) {
    delete old.request;
    delete old.response;
  }
}
