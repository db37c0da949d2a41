/**
 * What the real API says to browsers (CORS), as linodego's recordings at HEAD show it on every answer of
 * api.linode.com (2,769 of them): any origin, these methods, these request headers. Its successful answers (2,601)
 * also allow credentials and expose the scope headers; its errors (183, 4xx and 5xx) carry the first three only.
 * The emulator sends the same on every `/v4` answer, and answers a preflight (`OPTIONS`, never recorded) 204
 * with all five and no token needed (docs/spec-gaps.md).
 */
export const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "HEAD, GET, OPTIONS, POST, PUT, DELETE",
  "Access-Control-Allow-Headers": "Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter",
} as const;

/** What a successful answer adds (the recordings' 2xx). */
export const CORS_SUCCESS_HEADERS = {
  "Access-Control-Allow-Credentials": "true",
  "Access-Control-Expose-Headers": "X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status",
} as const;
