import { HttpError } from "./http";
import type { RequestContext } from "./router";
import type { Scope } from "../api/contract/endpoint";
import { parseScopes } from "../api/scopes";
import type { TokenRecord, User } from "./state";
import type { Store } from "./store";

const unauthorized = (reason: string) => new HttpError(401, [{ reason }], { "WWW-Authenticate": 'Bearer realm="compute"' });

/** Resolves the bearer token: 401 when missing (for routes that need one), unknown, revoked or expired. */
export function authenticate(
  store: Store,
  header: string | undefined,
  mode: "required" | "optional",
  now: number,
): { user: User; token: TokenRecord } | undefined {
  if (!header) {
    if (mode === "optional") return undefined;
    throw unauthorized("Invalid Token: no Authorization header was sent");
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized("Invalid Token: the Authorization header must be 'Bearer <token>'");
  // The committed state: a write under way (another request's) has a draft of its own.
  const state = store.committedState;
  const token = state.tokens.find((t) => t.token === m[1]);
  if (!token) throw unauthorized("Invalid Token");
  if (token.expiry && Date.parse(`${token.expiry}Z`) <= now) throw unauthorized("Invalid Token: the token has expired");
  const user = state.users.find((u) => u.username === token.username);
  if (!user) throw unauthorized("Invalid Token");
  return { user, token };
}

/** True when the token's scopes include the given one (`read_write` includes `read_only`). */
export function hasScope(scopes: string, group: string, level: "read_only" | "read_write"): boolean {
  const parsed = parseScopes(scopes);
  if (typeof parsed === "string") return false;
  if (parsed.all) return true;
  const have = parsed.groups.get(group);
  return have === "read_write" || (have === "read_only" && level === "read_only");
}

export function requireScope(token: TokenRecord, scope: Scope | null): void {
  if (!scope) return;
  if (!hasScope(token.scopes, scope.group, scope.level)) {
    throw new HttpError(403, [{ reason: `Your OAuth token is not authorized to use this endpoint: it needs the ${scope.group}:${scope.level} scope` }]);
  }
}

/** True when every scope in `requested` is covered by `acting`. */
export function scopesWithin(requested: string, acting: string): boolean {
  const req = parseScopes(requested);
  const act = parseScopes(acting);
  if (typeof req === "string" || typeof act === "string") return false;
  if (act.all) return true;
  if (req.all) return false;
  for (const [group, level] of req.groups) if (!hasScope(acting, group, level)) return false;
  return true;
}

/**
 * The context with its caller's user and token as the request's transaction sees them (what a route changes of its
 * caller, `PUT /profile`, is then part of the transaction): the caller was signed in before the transaction began.
 */
export function signedInNow(store: Store, ctx: RequestContext): RequestContext {
  if (!ctx.token || !ctx.user) return ctx;
  const { id } = ctx.token;
  const token = store.data.tokens.find((t) => t.id === id);
  const user = token && store.user(token.username);
  if (!token || !user) throw new HttpError(401, [{ reason: "Invalid Token" }], { "WWW-Authenticate": 'Bearer realm="compute"' });
  return { ...ctx, token, user };
}
