/**
 * undici's `Agent` and `request`, and nothing else of undici. Its index.js loads all of undici (fetch, WebSocket,
 * cookies, caches, mocks, proxies), and its cookies module asks for `SubtleCrypto`, which loads Node's web
 * crypto and Node's own copy of undici: about 80 ms of a start here unbundled, and about 30 ms of the plugin
 * executable's (bench/results.md, section 8), in every provider process, for code the provider never runs. The
 * two modules taken are undici's own (the version package-lock.json pins); their types are undici's.
 * tests/unit/http.test.ts holds that loading this loads neither.
 */
import type * as undici from "undici";

// undici's modules by path: its index loads the rest.
const Agent = require("undici/lib/dispatcher/agent") as typeof undici.Agent;
const dispatchRequest = require("undici/lib/api/api-request") as (
  this: undici.Dispatcher,
  opts: undici.Dispatcher.RequestOptions,
) => Promise<undici.Dispatcher.ResponseData>;

export { Agent };
/** undici's Agent: a keep-alive connection pool per origin. */
type Agent = undici.Agent;
export type { Dispatcher } from "undici";

/** Options of a request: undici's, the dispatcher required (a pool of this process's). */
export type RequestOptions = Omit<undici.Dispatcher.RequestOptions, "origin" | "path" | "method"> & {
  method: undici.Dispatcher.HttpMethod;
  dispatcher: undici.Dispatcher;
};

/** `url` through `opts.dispatcher`, as undici's `request(url, opts)` sends it. */
export function request(url: URL, opts: RequestOptions): Promise<undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = opts;
  return dispatchRequest.call(dispatcher, { ...rest, origin: url.origin, path: `${url.pathname}${url.search}` });
}
