import { z } from "zod";
import { parseScopes } from "../scopes";
import { sshKeyError } from "../ssh-keys";
import { apiTime, bool, int, needs, oneOf, page, pageQuery, refuse, text, recordId } from "./common";
import { empty, endpoint, ro, rw } from "./endpoint";

/**
 * profile-api.md: the profile, its grants, its personal access tokens and its SSH keys (the rest of the document,
 * apps, devices, logins, phone, preferences, security questions and two-factor, is api/contract/profile-security.ts).
 */

/** profile-api.md "Profile": "console_auth_method | string enum | `password_keys`, `keys_only`, `disabled`". */
export const CONSOLE_AUTH_METHODS = ["password_keys", "keys_only", "disabled"] as const;

/** profile-api.md "Grants": a per-entity grant (its item shape "not shown": the real API's, docs/spec-gaps.md). */
export const entityGrant = z.strictObject({ id: recordId, label: z.string(), permissions: z.enum(["read_only", "read_write"]).nullable() });

/** profile-api.md "Grants": the `global` object. */
export const globalGrants = z.strictObject({
  account_access: z.string().nullable(),
  add_databases: z.boolean(),
  add_domains: z.boolean(),
  add_firewalls: z.boolean(),
  add_images: z.boolean(),
  add_computes: z.boolean(),
  add_monitoring: z.boolean(),
  add_nodebalancers: z.boolean(),
  add_scripts: z.boolean(),
  add_volumes: z.boolean(),
  add_vpcs: z.boolean(),
  cancel_account: z.boolean(),
  child_account_access: z.boolean(),
  monitoring_subscription: z.boolean(),
});

const entityGrants = z.array(entityGrant);

/** A restricted user's grants as the account keeps them: `global`, and the per-entity lists profile-api.md "Grants" names. */
export const userGrants = z.strictObject({
  global: globalGrants,
  database: entityGrants,
  domain: entityGrants,
  image: entityGrants,
  compute: entityGrants,
  monitoring: entityGrants,
  nodebalancer: entityGrants,
  script: entityGrants,
  volume: entityGrants,
  vpc: entityGrants,
});

/** The per-entity grant lists. */
export const GRANT_ENTITIES = [
  "database",
  "domain",
  "image",
  "compute",
  "monitoring",
  "nodebalancer",
  "script",
  "volume",
  "vpc",
] as const satisfies readonly (keyof z.output<typeof userGrants>)[];

/** The grants record `GET /profile/grants` answers: the user's, and `firewall` (the real API's; none here). */
export const grants = userGrants.extend({ firewall: z.array(entityGrant) });

/** profile-api.md "Profile" (with `user_type`, the real API's: recorded). */
export const profile = z.strictObject({
  username: z.string(),
  uid: int,
  email: z.string(),
  email_notifications: z.boolean(),
  timezone: z.string(),
  restricted: z.boolean(),
  two_factor_auth: z.boolean(),
  ip_whitelist_enabled: z.boolean(),
  console_auth_method: z.enum(CONSOLE_AUTH_METHODS),
  authorized_keys: z.array(z.string()).nullable(),
  authentication_type: z.string(),
  verified_phone_number: z.string().nullable(),
  referrals: z.strictObject({ code: z.string(), url: z.string(), completed: int, pending: int, total: int, credit: z.number() }),
  user_type: z.string(),
});

const EMAIL_TEXT = "Must be a valid email address";
const TIMEZONE_TEXT = "Must be a time zone name";
const KEYS_TEXT = "Must be an array of SSH public keys or null";

/** An SSH public key line (api/ssh-keys.ts), refused with the rule's text. */
const publicKey = (prefix = "") =>
  z.string({ error: KEYS_TEXT }).superRefine((v, ctx) => {
    const e = sshKeyError(v);
    if (e) refuse(ctx, `${prefix}${e}`, e);
  });

/** profile-api.md `PUT /profile`: what an update may change (other fields are read-only or unknown: ignored). */
export const profileUpdate = z.object({
  email: z
    .string({ error: EMAIL_TEXT })
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, EMAIL_TEXT)
    .optional(),
  email_notifications: bool.optional(),
  two_factor_auth: bool.optional(),
  restricted: bool.optional(),
  timezone: z.string({ error: TIMEZONE_TEXT }).min(1, TIMEZONE_TEXT).max(64, TIMEZONE_TEXT).optional(),
  ip_whitelist_enabled: bool.optional(),
  console_auth_method: oneOf(CONSOLE_AUTH_METHODS).optional(),
  authorized_keys: z.array(publicKey(), { error: KEYS_TEXT }).nullable().optional(),
});

/** profile-api.md "SSH key": `label` (at most 64 characters), `ssh_key`, `created`. */
export const sshKey = z.strictObject({ id: recordId, label: z.string(), ssh_key: z.string(), created: apiTime });

/** profile-api.md "SSH key": "label (string, at most 64 chars)". */
export const sshKeyLabel = text("sshKeyLabel", { notString: "Must be a string of at most 64 characters" });

/** An SSH key's `ssh_key`: an OpenSSH public key line (api/ssh-keys.ts). */
export const sshKeyLine = z.string({ error: needs("SSH key is required", "SSH key must be a string") }).superRefine((v, ctx) => {
  if (v === "") return refuse(ctx, "SSH key is required", "is required");
  const e = sshKeyError(v);
  if (e) refuse(ctx, `Invalid SSH key: ${e}`, e);
});

/** profile-api.md `POST /profile/sshkeys`: `label` (string, at most 64), `ssh_key` (string). */
export const sshKeyCreate = z.object({ label: sshKeyLabel.nullable().optional(), ssh_key: sshKeyLine });

/** profile-api.md `PUT /profile/sshkeys/{sshKeyId}`: "`label` (only the label can change)"; a changed `ssh_key` is refused. */
export const sshKeyUpdate = z.object({ label: sshKeyLabel.nullable().optional(), ssh_key: z.unknown().optional() });

/** profile-api.md "Personal access token"; `token` is whole only in the create's answer, else its first 16 characters. */
export const token = z.strictObject({ id: recordId, label: z.string(), scopes: z.string(), created: apiTime, expiry: apiTime.nullable(), token: z.string() });

/** profile-api.md "Personal access token": "label | string 1..100". */
export const tokenLabel = text("tokenLabel", { notString: "Must be a string of 1 to 100 characters" });

/** A scopes string (api/scopes.ts): `*`, or `<group>:read_only|read_write` separated by spaces. */
export const tokenScopes = z.string({ error: "Must be a string of space-separated scopes" }).superRefine((v, ctx) => {
  const parsed = parseScopes(v);
  if (typeof parsed === "string") refuse(ctx, parsed);
});

/**
 * When a date-time the API reads is (ms): ISO 8601 with a zone, or none (UTC, as the API writes them); NaN when it is
 * none, or names a day its month has not (`2030-02-30`, which Date.parse would roll into March).
 */
export function readDateTime(v: string): number {
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
  const day = /^(\d{4})-(\d\d)-(\d\d)/.exec(v);
  if (Number.isNaN(ms) || !day) return NaN;
  const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d ? ms : NaN;
}

const EXPIRY_TEXT = "Must be an ISO 8601 date-time";
const EXPIRY_RULE = "must be an ISO 8601 date-time, for example 2027-01-01T00:00:00Z";

/** A token's `expiry`: a date-time (whether it is in the future is the API's to say, by its clock). */
export const tokenExpiry = z.string({ error: EXPIRY_TEXT }).superRefine((v, ctx) => {
  if (Number.isNaN(readDateTime(v))) refuse(ctx, EXPIRY_TEXT, EXPIRY_RULE);
});

/** profile-api.md `POST /profile/tokens`: `label` (string 1..100), `scopes` (string), `expiry` (date-time). */
export const tokenCreate = z.object({ label: tokenLabel.optional(), scopes: tokenScopes.optional(), expiry: tokenExpiry.nullable().optional() });

/** profile-api.md `PUT /profile/tokens/{tokenId}`: `label`; "scopes cannot be changed afterwards" (a changed one is refused). */
export const tokenUpdate = z.object({ label: tokenLabel.optional(), scopes: z.unknown().optional() });

const source = "profile-api.md";
const account = { ro: ro("account"), rw: rw("account") };

/** The profile's endpoints (profile-api.md "Endpoints"). */
export const profileApi = {
  get: endpoint({ method: "GET", path: "/profile", source, scope: null, auth: "required", summary: "View the profile", answer: profile }),
  update: endpoint({
    method: "PUT",
    path: "/profile",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Update the profile",
    body: profileUpdate,
    answer: profile,
  }),
  grants: endpoint({
    method: "GET",
    path: "/profile/grants",
    source,
    scope: null,
    auth: "required",
    summary: "View the grants (HTTP 204 with no body for an unrestricted user)",
    answer: grants,
  }),
};

/** profile-api.md: personal access tokens. */
export const tokensApi = {
  list: endpoint({
    method: "GET",
    path: "/profile/tokens",
    source,
    scope: account.ro,
    auth: "required",
    summary: "List tokens",
    query: pageQuery,
    answer: page(token),
  }),
  create: endpoint({
    method: "POST",
    path: "/profile/tokens",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Create a token",
    body: tokenCreate,
    answer: token,
  }),
  get: endpoint({ method: "GET", path: "/profile/tokens/{tokenId}", source, scope: account.ro, auth: "required", summary: "View a token", answer: token }),
  update: endpoint({
    method: "PUT",
    path: "/profile/tokens/{tokenId}",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Update a token",
    body: tokenUpdate,
    answer: token,
  }),
  delete: endpoint({
    method: "DELETE",
    path: "/profile/tokens/{tokenId}",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Revoke a token",
    answer: empty,
  }),
};

/** profile-api.md: SSH keys. */
export const sshKeysApi = {
  list: endpoint({
    method: "GET",
    path: "/profile/sshkeys",
    source,
    scope: account.ro,
    auth: "required",
    summary: "List SSH keys",
    query: pageQuery,
    answer: page(sshKey),
  }),
  create: endpoint({
    method: "POST",
    path: "/profile/sshkeys",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Add an SSH key",
    body: sshKeyCreate,
    answer: sshKey,
  }),
  get: endpoint({
    method: "GET",
    path: "/profile/sshkeys/{sshKeyId}",
    source,
    scope: account.ro,
    auth: "required",
    summary: "View an SSH key",
    answer: sshKey,
  }),
  update: endpoint({
    method: "PUT",
    path: "/profile/sshkeys/{sshKeyId}",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Update an SSH key's label",
    body: sshKeyUpdate,
    answer: sshKey,
  }),
  delete: endpoint({
    method: "DELETE",
    path: "/profile/sshkeys/{sshKeyId}",
    source,
    scope: account.rw,
    auth: "required",
    summary: "Delete an SSH key",
    answer: empty,
  }),
};

export type Profile = z.output<typeof profile>;
export type Grants = z.output<typeof grants>;
export type UserGrants = z.output<typeof userGrants>;
export type GlobalGrants = z.output<typeof globalGrants>;
export type EntityGrant = z.output<typeof entityGrant>;
export type SshKey = z.output<typeof sshKey>;
export type Token = z.output<typeof token>;
