/** The request log each account keeps (`GET /__emulator/log`, the page's "Recent requests"): bounded, so that it does not grow with traffic. */

export interface RequestLogEntry {
  method: string;
  path: string;
  /** The HTTP status sent, or 0 when no answer was (a dropped connection or a lost answer). */
  status: number;
  /** The fault injected into this request, if any. */
  fault?: string;
}

/** The request log's window: the last this many requests (`GET /__emulator/log`), each path cut to `LOG_PATH_CHARS`. */
export const LOG_WINDOW = 50_000;
export const LOG_PATH_CHARS = 256;

/**
 * A long path cut to LOG_PATH_CHARS, as a string of its own: a slice would keep the whole path alive (V8's
 * sliced strings point into their parent), so a window of 16 KB paths would hold 16 KB each, not 256 bytes.
 */
export const cut = (path: string): string => Buffer.from(`${path.slice(0, LOG_PATH_CHARS - 1)}…`, "utf8").toString("utf8");
