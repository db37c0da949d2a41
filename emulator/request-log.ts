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
/**
 * The window of an account made at run time (`POST /__emulator/accounts`): the last this many, so that 1,000 accounts'
 * logs hold at most about 2,000,000 entries (docs/emulator-team.md).
 */
export const ACCOUNT_LOG_WINDOW = 2_000;
export const LOG_PATH_CHARS = 256;
/** Bodies are kept for the last this many requests of the window only, each at most LOG_BODY_CHARS: at most about 400 KB an account. */
export const LOG_BODIES = 100;
/** An account made at run time keeps the bodies of its last this many requests (1,000 accounts: at most about 80 MB). */
export const ACCOUNT_LOG_BODIES = 20;
export const LOG_BODY_CHARS = 2048;

/**
 * A long path cut to LOG_PATH_CHARS, as a string of its own: a slice would keep the whole path alive (V8's
 * sliced strings point into their parent), so a window of 16 KB paths would hold 16 KB each, not 256 bytes.
 */
export const cut = (path: string): string => Buffer.from(`${path.slice(0, LOG_PATH_CHARS - 1)}…`, "utf8").toString("utf8");

/**
 * A key whose value is a secret: passwords (`root_pass`, `password`, `pwd`, `*_pw`), tokens, secrets (a two-factor
 * secret, its `scratch` code, `otp_code`, `tfa_code`), keys that grant access (`authorized_keys`, a private or API
 * key, in any spelling: `privateKey`, `x-api-key`), credentials, authorization, cookies and sessions, a user's
 * security answers (`answers`, a question's `response`), cloud-init `user_data` (which holds passwords), and an
 * upload's pre-signed URL.
 */
export const SECRET_KEY =
  /pass|pwd|(^|[_-])pw$|token|secret|credential|scratch|otp|tfa|private[ _-]?key|authorized_keys|api[ _-]?key|access[ _-]?key|authoriz|^auth$|bearer|cookie|session|^answers$|^response$|^user_data$|upload_to/i;

/** A request's path with the value of each query parameter named like a secret "[redacted]" (`?root_pass=...`). */
export function redactedPath(path: string): string {
  const at = path.indexOf("?");
  if (at < 0) return path;
  const query = path
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A name that does not decode is judged as it is.
      }
      return SECRET_KEY.test(name) ? `${pair.slice(0, eq)}=${encodeURIComponent(REDACTED)}` : pair;
    })
    .join("&");
  return `${path.slice(0, at)}?${query}`;
}

/** A value that is a secret whatever its key: a PEM private key. */
const SECRET_VALUE = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
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
    if (typeof v === "string") return str(SECRET_VALUE.test(v) ? REDACTED : v);
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

/** An entry as a log keeps it: the value of each query parameter named like a secret redacted, its path cut to LOG_PATH_CHARS. */
export function keptEntry(entry: RequestLogEntry): RequestLogEntry {
  const path = redactedPath(entry.path);
  return path.length > LOG_PATH_CHARS ? { ...entry, path: cut(path) } : path === entry.path ? entry : { ...entry, path };
}

/** The anonymous log's window: the last this many requests no account's token signed. */
export const ANONYMOUS_LOG_WINDOW = 1_000;

/**
 * The requests no account's token signed (none, or one no account holds; the emulator's public reads, a preflight,
 * a refused request): the emulator's own log of them (`GET /__emulator/log/anonymous`, the emulator's root token),
 * not the main account's, so that a stranger's requests (a scan, a client with a wrong token) cannot push the
 * operator's out of its log. The last ANONYMOUS_LOG_WINDOW (about 300 KB at most), without their bodies: what a
 * stranger sends is not kept.
 */
export class AnonymousLog {
  readonly entries: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    const { request: _request, response: _response, ...kept } = keptEntry(entry);
    this.entries.push(kept);
    if (this.entries.length > ANONYMOUS_LOG_WINDOW + ANONYMOUS_LOG_WINDOW / 10) this.entries.splice(0, this.entries.length - ANONYMOUS_LOG_WINDOW);
  }
}

/** Lets go of the bodies of the request that has just left the last `kept` (LOG_BODIES by default; the entry is kept). */
export function forgetOldBodies(log: RequestLogEntry[], kept = LOG_BODIES): void {
  const old = log[log.length - 1 - kept];
  if (old && (old.request !== undefined || old.response !== undefined)) {
    delete old.request;
    delete old.response;
  }
}
