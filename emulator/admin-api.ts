import { z } from "zod";
import { empty, endpoint } from "../api/contract/endpoint";
import { pageQuery } from "../api/contract/common";
import { globalGrants, tokenScopes } from "../api/contract/profile";
import { faultConfig } from "./faults";

/**
 * The emulator's own endpoints, outside the API (`/__emulator/...`), as rows of the same kind as the API's
 * (api/contract): each body read by its schema before its handler (emulator/admin.ts). Open only to an account's
 * root token (the account endpoints to the emulator's: emulator/server.ts).
 */

const source = "emulator";
const auth = "required";

const USERNAME_TEXT = "username must be 3..32 lowercase letters, digits, _ or -";
const LABEL_TEXT = "Must be 1 to 64 letters, digits, spaces, '_', '.' or '-', starting with a letter or digit";

const PER_SECOND_TEXT = "Must be a number of requests per second above 0, or null (no limit)";

/** `PUT /__emulator/rate-limit`: requests per second per token, or none (`null`). */
const rateLimitBody = z.strictObject({ perSecond: z.number({ error: PER_SECOND_TEXT }).positive(PER_SECOND_TEXT).nullable() });
const rateLimitAnswer = z.strictObject({ perSecond: z.number().nullable(), limited: z.number() });

/** A restricted user's global grants, as profile-api.md "Grants" names them (`account_access`: `read_only`, `read_write` or none). */
const globalGrantsBody = globalGrants.partial().extend({ account_access: z.enum(["read_only", "read_write"]).nullable().optional() });

/**
 * `POST /__emulator/users`: a user of the account, restricted or not (a restricted one with the global grants given),
 * with a token of the scopes given (every one by default).
 */
const userBody = z
  .strictObject({
    username: z.string({ error: USERNAME_TEXT }).regex(/^[a-z][a-z0-9_-]{2,31}$/, USERNAME_TEXT),
    restricted: z.boolean({ error: "Must be a boolean" }).optional(),
    scopes: tokenScopes.optional(),
    global: globalGrantsBody.optional(),
  })
  .refine((b) => b.global === undefined || b.restricted === true, {
    message: "Global grants are a restricted user's: give restricted: true",
    path: ["global"],
  });

/** `POST /__emulator/accounts`: a name, and a fixture to start from (checked by emulator/fixtures.ts). */
const accountBody = z.strictObject({
  label: z
    .string({ error: "Must be a string" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, LABEL_TEXT)
    .optional(),
  fixture: z.record(z.string(), z.unknown(), { error: "Must be a fixture document (a JSON object)" }).optional(),
});

/** An account as the admin endpoints show it: its number, name, when it was made, its token (to its makers only). */
/** What loading a fixture did (emulator/fixtures.ts `FixtureLoaded`). */
export const fixtureLoaded = z.strictObject({
  records: z.number(),
  requests: z.number(),
  renumbered: z.record(z.string(), z.record(z.string(), z.number())).optional(),
});
export const accountView = z.strictObject({ id: z.number(), label: z.string(), created: z.string(), token: z.string().optional() });

/** A fixture document as the import reads it (emulator/fixtures.ts `readFixture` checks it whole, version first). */
const fixtureBody = z.record(z.string(), z.unknown());

/**
 * Which page of each type the overview shows (`?instances=2&images=3`, each 1 by default): the API's own pages of
 * its lists at their largest size (emulator/overview.ts).
 */
export const overviewQuery = z.object({
  instances: pageQuery.shape.page,
  disks: pageQuery.shape.page,
  vpcs: pageQuery.shape.page,
  images: pageQuery.shape.page,
  databases: pageQuery.shape.page,
  sshkeys: pageQuery.shape.page,
});

const counts = z.strictObject({ records: z.number(), bytes: z.number(), users: z.number() });
/** What an account holds, as its quotas count it (emulator/db/quota.ts), and the quotas. */
const usageAnswer = counts.extend({ quotas: counts });

/** What an account's admin endpoints answer that is a document of its own (its overview, its log, its export). */
const document = z.unknown();

/** An account's admin endpoints: its faults and rate limit, users with tokens, fixtures, its overview and request log. */
export const adminApi = {
  setRateLimit: endpoint({
    method: "PUT",
    path: "/rate-limit",
    source,
    scope: null,
    auth,
    summary: "Set or lift the rate limit",
    body: rateLimitBody,
    answer: rateLimitAnswer,
  }),
  rateLimit: endpoint({ method: "GET", path: "/rate-limit", source, scope: null, auth, summary: "The rate limit", answer: rateLimitAnswer }),
  setFaults: endpoint({ method: "PUT", path: "/faults", source, scope: null, auth, summary: "Inject faults", body: faultConfig, answer: document }),
  clearFaults: endpoint({ method: "DELETE", path: "/faults", source, scope: null, auth, summary: "Stop injecting faults", answer: empty }),
  faults: endpoint({ method: "GET", path: "/faults", source, scope: null, auth, summary: "The faults and their counts", answer: document }),
  addUser: endpoint({
    method: "POST",
    path: "/users",
    source,
    scope: null,
    auth,
    summary: "Add a user with a token",
    body: userBody,
    answer: z.strictObject({ username: z.string(), token: z.string() }),
  }),
  export: endpoint({ method: "GET", path: "/export", source, scope: null, auth, summary: "The account as a fixture", answer: document }),
  import: endpoint({
    method: "POST",
    path: "/import",
    source,
    scope: null,
    auth,
    summary: "Load a fixture",
    body: fixtureBody,
    answer: z.strictObject({ loaded: fixtureLoaded }),
  }),
  overview: endpoint({
    method: "GET",
    path: "/overview",
    source,
    scope: null,
    auth,
    summary: "What the emulator's page shows",
    query: overviewQuery,
    answer: document,
  }),
  reset: endpoint({
    method: "POST",
    path: "/reset",
    source,
    scope: null,
    auth,
    summary: "Empty the account: every record and event gone, but its owner and root token",
    answer: empty,
  }),
  usage: endpoint({ method: "GET", path: "/usage", source, scope: null, auth, summary: "What the account holds, and its quotas", answer: usageAnswer }),
  log: endpoint({ method: "GET", path: "/log", source, scope: null, auth, summary: "The requests served", answer: document }),
  clearLog: endpoint({ method: "DELETE", path: "/log", source, scope: null, auth, summary: "Forget the requests served", answer: empty }),
};

/** The emulator's accounts, and its log of anonymous requests (the main account's root token, the emulator's `--token`, only). */
export const accountsApi = {
  overview: endpoint({
    method: "GET",
    path: "/accounts/{accountId}/overview",
    source,
    scope: null,
    auth,
    summary: "An account's overview",
    query: overviewQuery,
    answer: document,
  }),
  list: endpoint({
    method: "GET",
    path: "/accounts",
    source,
    scope: null,
    auth,
    summary: "The accounts",
    answer: z.strictObject({ data: z.array(accountView) }),
  }),
  create: endpoint({
    method: "POST",
    path: "/accounts",
    source,
    scope: null,
    auth,
    summary: "Make an account",
    body: accountBody,
    answer: accountView.extend({ loaded: fixtureLoaded.optional() }),
  }),
  get: endpoint({ method: "GET", path: "/accounts/{accountId}", source, scope: null, auth, summary: "An account", answer: accountView }),
  delete: endpoint({ method: "DELETE", path: "/accounts/{accountId}", source, scope: null, auth, summary: "Delete an account", answer: empty }),
  anonymousLog: endpoint({
    method: "GET",
    path: "/log/anonymous",
    source,
    scope: null,
    auth,
    summary: "The requests no account's token signed",
    answer: document,
  }),
};
