import { scopesWithin } from "../auth";
import { collections, type ApiFamily, type FamilyContext } from "../family";
import { FieldErrors, HttpError, jsonObject, NO_CONTENT, badRequest, notFound, paginate, type SignedInContext } from "../http";
import { checkText } from "../../api/text";
import { parseScopes } from "../../api/scopes";
import { sshKeyError } from "../../api/ssh-keys";
import { oneOf, optionalBoolean, readFields } from "../body";
import { z } from "zod";
import { apiTime, emptyGrants, newTokenValue, type TokenRecord, type User } from "../state";

const ro = { group: "account", level: "read_only" } as const;
const rw = { group: "account", level: "read_write" } as const;

type Body = Record<string, unknown>;

export interface SshKeyRecord {
  id: number;
  label: string;
  ssh_key: string;
  created: string;
  username: string;
}

/** The profile family's collection in the state file (the users and their tokens are the store's core). */
export interface ProfileState {
  sshkeys: SshKeyRecord[];
}

/** The SSH keys of a store, typed (the compute routes read them too: `authorized_users`). */
export const profileState = collections<ProfileState>({ sshkeys: [] });

/** The profile, with `user_type` as the real API answers it (`default`: no parent or child accounts here). */
function profileView(u: User) {
  const { grants: _grants, ...rest } = u;
  return { ...rest, referrals: { code: "", url: "", completed: 0, pending: 0, total: 0, credit: 0 }, user_type: "default" };
}

export const tokenView = (t: TokenRecord, full = false) => ({
  id: t.id,
  label: t.label,
  scopes: t.scopes,
  created: t.created,
  expiry: t.expiry,
  token: full ? t.token : t.token.slice(0, 16),
});

export const sshKeyView = (k: SshKeyRecord) => ({ id: k.id, label: k.label, ssh_key: k.ssh_key, created: k.created });

/** The profile family (`/profile...`): the user's profile, grants, personal access tokens and SSH keys. */
export const profileFamily: ApiFamily<ProfileState> = { name: "profile", state: profileState, register: registerProfileRoutes };

const EMAIL_TEXT = "Must be a valid email address";
const TIMEZONE_TEXT = "Must be a time zone name";
const KEYS_TEXT = "Must be an array of SSH public keys or null";
/** What a profile update may change, read as given (other fields are read-only or unknown: ignored). */
const PROFILE_FIELDS = {
  email: z
    .string({ error: EMAIL_TEXT })
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, EMAIL_TEXT)
    .optional(),
  email_notifications: optionalBoolean,
  two_factor_auth: optionalBoolean,
  restricted: optionalBoolean,
  timezone: z.string({ error: TIMEZONE_TEXT }).min(1, TIMEZONE_TEXT).max(64, TIMEZONE_TEXT).optional(),
  ip_whitelist_enabled: optionalBoolean,
  console_auth_method: oneOf(["password_keys", "keys_only", "disabled"]).optional(),
  authorized_keys: z
    .array(z.string({ error: KEYS_TEXT }), { error: KEYS_TEXT })
    .nullable()
    .optional(),
};

function registerProfileRoutes({ router, store, now }: FamilyContext): void {
  const d = profileState(store);
  const me = (ctx: SignedInContext) => ctx.user;

  router.add("GET", "/profile", { scope: null, auth: "required" }, (ctx) => profileView(me(ctx)));

  router.add("PUT", "/profile", { scope: rw, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx);
    const u = me(ctx);
    const errors = new FieldErrors();
    const given = readFields(body, PROFILE_FIELDS, errors);
    // The spec lists `restricted` as writable, not by whom: a restricted user lifting its own restrictions would be
    // granting itself the account (no real API allows it: docs/spec-gaps.md).
    if (u.restricted && given.restricted !== undefined && given.restricted !== u.restricted)
      throw new HttpError(403, [{ field: "restricted", reason: "A restricted user cannot lift its own restrictions" }]);
    if (given.ip_whitelist_enabled === true && !u.ip_whitelist_enabled)
      errors.add("ip_whitelist_enabled", "IP whitelisting is deprecated and cannot be enabled");
    given.authorized_keys?.forEach((k, i) => {
      const e = sshKeyError(k);
      if (e) errors.add(`authorized_keys[${i}]`, e);
    });
    // Read-only or unknown fields are ignored, as the real service does.
    const next = { ...u, ...given };
    if (given.restricted !== undefined) next.grants = given.restricted ? (u.grants ?? emptyGrants()) : null;
    errors.throwIfAny();
    Object.assign(u, next);
    return profileView(u);
  });

  router.add("GET", "/profile/grants", { scope: null, auth: "required", status: 200 }, (ctx) => {
    const u = me(ctx);
    // The real API's grants record also has `firewall` grants (always empty here: no firewalls to grant).
    return u.restricted ? { ...u.grants, firewall: [] } : NO_CONTENT;
  });

  // Personal access tokens.
  router.add("GET", "/profile/tokens", { scope: ro, auth: "required" }, (ctx) =>
    paginate(
      store.data.tokens.filter((t) => t.username === me(ctx).username).map((t) => tokenView(t)),
      ctx,
    ),
  );

  router.add("POST", "/profile/tokens", { scope: rw, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const id = store.data.nextId.token ?? 0;
    let label = `token-${id + 1}`;
    if (body.label !== undefined) {
      if (typeof body.label !== "string") errors.add("label", "Must be a string of 1 to 100 characters");
      else {
        const e = checkText(body.label, "tokenLabel");
        if (e) errors.add("label", `Label ${e}`);
        label = body.label;
      }
    }
    // Omitted scopes: the new token gets the acting token's scopes (docs/spec-gaps.md).
    let scopes = ctx.token.scopes;
    if (body.scopes !== undefined) {
      if (typeof body.scopes !== "string") errors.add("scopes", "Must be a string of space-separated scopes");
      else {
        const parsed = parseScopes(body.scopes);
        if (typeof parsed === "string") errors.add("scopes", parsed);
        else if (!scopesWithin(body.scopes, ctx.token.scopes)) errors.add("scopes", "Cannot grant scopes that the acting token does not have");
        else scopes = body.scopes.trim().split(/\s+/).join(" ");
      }
    }
    let expiry: string | null = null;
    if (body.expiry !== undefined && body.expiry !== null) {
      const t = typeof body.expiry === "string" ? Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(body.expiry) ? body.expiry : `${body.expiry}Z`) : NaN;
      if (Number.isNaN(t)) errors.add("expiry", "Must be an ISO 8601 date-time");
      else if (t <= now()) errors.add("expiry", "Must be in the future");
      else expiry = apiTime(t);
    }
    errors.throwIfAny();
    const rec: TokenRecord = { id: store.nextId("token"), label, scopes, created: apiTime(now()), expiry, token: newTokenValue(), username: me(ctx).username };
    store.data.tokens.push(rec);
    return tokenView(rec, true);
  });

  const findToken = (ctx: SignedInContext) => {
    const t = store.data.tokens.find((x) => String(x.id) === ctx.params.tokenId && x.username === me(ctx).username);
    if (!t) throw notFound();
    return t;
  };
  router.add("GET", "/profile/tokens/{tokenId}", { scope: ro, auth: "required" }, (ctx) => tokenView(findToken(ctx)));
  router.add("PUT", "/profile/tokens/{tokenId}", { scope: rw, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx);
    const t = findToken(ctx);
    // Every check before any change: a refused update changes nothing.
    if (body.scopes !== undefined && body.scopes !== t.scopes) throw badRequest("Scopes cannot be changed after a token is created", "scopes");
    if (body.label !== undefined) {
      if (typeof body.label !== "string") throw badRequest("Must be a string of 1 to 100 characters", "label");
      const e = checkText(body.label, "tokenLabel");
      if (e) throw badRequest(`Label ${e}`, "label");
      t.label = body.label;
    }
    return tokenView(t);
  });
  router.add("DELETE", "/profile/tokens/{tokenId}", { scope: rw, auth: "required" }, (ctx) => {
    const t = findToken(ctx);
    store.data.tokens = store.data.tokens.filter((x) => x !== t);
    return {};
  });

  // SSH keys.
  const myKeys = (ctx: SignedInContext) => d.sshkeys.filter((k) => k.username === me(ctx).username);
  const findKey = (ctx: SignedInContext) => {
    const k = myKeys(ctx).find((x) => String(x.id) === ctx.params.sshKeyId);
    if (!k) throw notFound();
    return k;
  };
  const labelOf = (body: Body, errors: FieldErrors): string | undefined => {
    if (body.label === undefined || body.label === null) return undefined;
    if (typeof body.label !== "string") {
      errors.add("label", "Must be a string of at most 64 characters");
      return undefined;
    }
    const e = checkText(body.label, "sshKeyLabel");
    if (e) errors.add("label", `Label ${e}`);
    return body.label;
  };

  router.add("GET", "/profile/sshkeys", { scope: ro, auth: "required" }, (ctx) => paginate(myKeys(ctx).map(sshKeyView), ctx));
  router.add("POST", "/profile/sshkeys", { scope: rw, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = labelOf(body, errors) ?? "";
    const key = typeof body.ssh_key === "string" && body.ssh_key.length > 0 ? body.ssh_key : undefined;
    if (key === undefined) errors.add("ssh_key", "SSH key is required");
    else {
      const e = sshKeyError(key);
      if (e) errors.add("ssh_key", `Invalid SSH key: ${e}`);
    }
    errors.throwIfAny();
    if (key === undefined) throw badRequest("SSH key is required", "ssh_key");
    const rec: SshKeyRecord = {
      id: store.nextId("sshkey"),
      label,
      ssh_key: key.trim(),
      created: apiTime(now()),
      username: me(ctx).username,
    };
    d.sshkeys.push(rec);
    return sshKeyView(rec);
  });
  router.add("GET", "/profile/sshkeys/{sshKeyId}", { scope: ro, auth: "required" }, (ctx) => sshKeyView(findKey(ctx)));
  router.add("PUT", "/profile/sshkeys/{sshKeyId}", { scope: rw, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx);
    const k = findKey(ctx);
    const errors = new FieldErrors();
    const label = labelOf(body, errors);
    if (body.ssh_key !== undefined && body.ssh_key !== k.ssh_key) errors.add("ssh_key", "Only the label of an SSH key can be changed");
    errors.throwIfAny();
    if (label !== undefined) k.label = label;
    return sshKeyView(k);
  });
  router.add("DELETE", "/profile/sshkeys/{sshKeyId}", { scope: rw, auth: "required" }, (ctx) => {
    const k = findKey(ctx);
    d.sshkeys = d.sshkeys.filter((x) => x !== k);
    return {};
  });
}
