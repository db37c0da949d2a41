import { z } from "zod";
import {
  profileApi,
  readDateTime,
  sshKey,
  sshKeyLabel,
  sshKeyLine,
  sshKeysApi,
  tokensApi,
  type Profile,
  type SshKey,
  type Token,
} from "../../api/contract/profile";
import { scopesWithin } from "../auth";
import { collectionsOf, recordField, type ApiFamily, type FamilyContext } from "../family";
import { badRequest, HttpError, notFound, paginate } from "../http";
import { NO_CONTENT, rowsOf, type Req } from "../router";
import { apiTime, emptyGrants, newTokenValue, type TokenRecord, type User } from "../state";

/** An SSH key as the state keeps it: the API's record (its label and key line by the create's rules) and its owner. */
export const storedSshKey = sshKey.extend({ label: sshKeyLabel, ssh_key: sshKeyLine, username: z.string() }).strict();
export type SshKeyRecord = z.output<typeof storedSshKey>;

/** The SSH keys of a store, typed (the compute routes read them too: `authorized_users`). */
export const profileState = collectionsOf({ sshkeys: storedSshKey });

/**
 * The profile family (`/profile...`): the user's profile, grants, personal access tokens and SSH keys. Its
 * counters: `sshkey`, and `token` (the account's tokens, which a fixture never carries, but the family numbers).
 */
export const profileFamily: ApiFamily<ReturnType<typeof profileState>> = {
  name: "profile",
  state: profileState,
  register: (family) => family.router.serve(ROWS, profileContext(family)),
  // A key belongs to a user of the account (a key of no user would be no one's to list or delete).
  references: (state) => {
    const users = new Set(state.data.users.map((u) => u.username));
    return profileState(state).sshkeys.flatMap((k, i) =>
      users.has(k.username) ? [] : [{ field: recordField("sshkeys", i, "username"), reason: `no user ${k.username} in the account` }],
    );
  },
  renumber: (state, to) => {
    for (const key of profileState(state).sshkeys) key.id = to("sshkey", key.id);
  },
};

type ProfileContext = ReturnType<typeof profileContext>;

function profileContext({ store, now }: FamilyContext) {
  return { store, now, keys: profileState(store) };
}

/** The profile, with `referrals` and `user_type` as the real API answers them (`default`: no parent or child accounts here). */
function profileView(u: User): Profile {
  const { grants: _grants, ...rest } = u;
  return { ...rest, referrals: { code: "", url: "", completed: 0, pending: 0, total: 0, credit: 0 }, user_type: "default" };
}

export const tokenView = (t: TokenRecord, full = false): Token => ({
  id: t.id,
  label: t.label,
  scopes: t.scopes,
  created: t.created,
  expiry: t.expiry,
  token: full ? t.token : t.token.slice(0, 16),
});

export const sshKeyView = (k: SshKeyRecord): SshKey => ({ id: k.id, label: k.label, ssh_key: k.ssh_key, created: k.created });

const row = rowsOf<ProfileContext>();

/** The caller's token `tokenId`, or 404. */
function tokenOf({ store }: ProfileContext, { params, user }: { params: { tokenId: number }; user: User }): TokenRecord {
  const t = store.data.tokens.find((x) => x.id === params.tokenId && x.username === user.username);
  if (!t) throw notFound();
  return t;
}

const keysOf = ({ keys }: ProfileContext, user: User) => keys.sshkeys.filter((k) => k.username === user.username);

/** The caller's SSH key `sshKeyId`, or 404. */
function keyOf(c: ProfileContext, { params, user }: { params: { sshKeyId: number }; user: User }): SshKeyRecord {
  const k = keysOf(c, user).find((x) => x.id === params.sshKeyId);
  if (!k) throw notFound();
  return k;
}

/** An update of the profile: the spec lists `restricted` as writable, not by whom (docs/spec-gaps.md). */
function updateProfile(_c: ProfileContext, { user, body }: Req<typeof profileApi.update>): Profile {
  // A restricted user lifting its own restrictions would be granting itself the account (no real API allows it).
  if (user.restricted && body.restricted !== undefined && body.restricted !== user.restricted)
    throw new HttpError(403, [{ field: "restricted", reason: "A restricted user cannot lift its own restrictions" }]);
  if (body.ip_whitelist_enabled === true && !user.ip_whitelist_enabled)
    throw badRequest("IP whitelisting is deprecated and cannot be enabled", "ip_whitelist_enabled");
  const { restricted, ...rest } = body;
  Object.assign(user, rest);
  if (restricted !== undefined) Object.assign(user, { restricted, grants: restricted ? (user.grants ?? emptyGrants()) : null });
  return profileView(user);
}

/** A new token: the acting token's scopes when none are asked (docs/spec-gaps.md), never more. */
function createToken({ store, now }: ProfileContext, { user, token, body }: Req<typeof tokensApi.create>): Token {
  if (body.scopes !== undefined && !scopesWithin(body.scopes, token.scopes))
    throw badRequest("Cannot grant scopes that the acting token does not have", "scopes");
  let expiry: string | null = null;
  if (body.expiry !== undefined && body.expiry !== null) {
    const t = readDateTime(body.expiry);
    if (t <= now()) throw badRequest("Must be in the future", "expiry");
    expiry = apiTime(t);
  }
  const id = store.nextId("token");
  const rec: TokenRecord = {
    id,
    label: body.label ?? `token-${id}`,
    scopes: body.scopes === undefined ? token.scopes : body.scopes.trim().split(/\s+/).join(" "),
    created: apiTime(now()),
    expiry,
    token: newTokenValue(),
    username: user.username,
  };
  store.data.tokens.push(rec);
  return tokenView(rec, true);
}

function addKey({ store, now, keys }: ProfileContext, { user, body }: Req<typeof sshKeysApi.create>): SshKey {
  const rec: SshKeyRecord = {
    id: store.nextId("sshkey"),
    label: body.label ?? "",
    ssh_key: body.ssh_key.trim(),
    created: apiTime(now()),
    username: user.username,
  };
  keys.sshkeys.push(rec);
  return sshKeyView(rec);
}

function updateKey(c: ProfileContext, req: Req<typeof sshKeysApi.update>): SshKey {
  const k = keyOf(c, req);
  if (req.body.ssh_key !== undefined && req.body.ssh_key !== k.ssh_key) throw badRequest("Only the label of an SSH key can be changed", "ssh_key");
  if (req.body.label !== undefined && req.body.label !== null) k.label = req.body.label;
  return sshKeyView(k);
}

const ROWS = [
  row(profileApi.get, (_c, req) => profileView(req.user)),
  row(profileApi.update, updateProfile),
  // The real API's grants record also has `firewall` grants (always empty here: no firewalls to grant).
  row(profileApi.grants, (_c, { user }) => (user.grants ? { ...user.grants, firewall: [] } : NO_CONTENT)),
  row(tokensApi.list, ({ store }, req) =>
    paginate(
      store.data.tokens.filter((t) => t.username === req.user.username).map((t) => tokenView(t)),
      req,
    ),
  ),
  row(tokensApi.create, createToken),
  row(tokensApi.get, (c, req) => tokenView(tokenOf(c, req))),
  row(tokensApi.update, (c, req) => {
    const t = tokenOf(c, req);
    // Every check before any change: a refused update changes nothing.
    if (req.body.scopes !== undefined && req.body.scopes !== t.scopes) throw badRequest("Scopes cannot be changed after a token is created", "scopes");
    if (req.body.label !== undefined) t.label = req.body.label;
    return tokenView(t);
  }),
  row(tokensApi.delete, (c, req) => {
    const t = tokenOf(c, req);
    c.store.data.tokens = c.store.data.tokens.filter((x) => x !== t);
    return {};
  }),
  row(sshKeysApi.list, (c, req) => paginate(keysOf(c, req.user).map(sshKeyView), req)),
  row(sshKeysApi.create, addKey),
  row(sshKeysApi.get, (c, req) => sshKeyView(keyOf(c, req))),
  row(sshKeysApi.update, updateKey),
  row(sshKeysApi.delete, (c, req) => {
    const k = keyOf(c, req);
    c.keys.sshkeys = c.keys.sshkeys.filter((x) => x !== k);
    return {};
  }),
];
