/**
 * OAuth scopes. compute-api.md "Authentication" 2: "OAuth tokens are limited by scopes of the form
 * `<group>:read_only` or `<group>:read_write`; `*` grants all. Several scopes are separated by a space."
 */

/**
 * The scope groups a token may name: compute-api.md names `computes`, `images`, `vpc`, `ips`; databases-api.md
 * adds `databases`, profile-api.md `account`; the others are the real service's (docs/spec-gaps.md "Scope
 * groups"). Sorted, as the error text lists them.
 */
export const SCOPE_GROUPS = [
  "account",
  "child_account",
  "computes",
  "databases",
  "domains",
  "events",
  "firewall",
  "images",
  "ips",
  "lke",
  "longview",
  "maintenance",
  "monitor",
  "nodebalancers",
  "object_storage",
  "stackscripts",
  "volumes",
  "vpc",
] as const;

export type ScopeLevel = "read_only" | "read_write";

/** What a scopes string grants: everything (`*`), or a level per group. */
export interface ScopeGrant {
  all: boolean;
  groups: Map<string, ScopeLevel>;
}

/**
 * Reads a scopes string (any run of whitespace separates; `read_write` wins over `read_only` for a group named
 * twice), or answers the error text for the first word that is not a scope.
 */
export function parseScopes(text: string): ScopeGrant | string {
  const words = text.split(/\s+/).filter((word) => word !== "");
  if (words.length === 0) return "must name at least one scope, or *";
  const grant: ScopeGrant = { all: false, groups: new Map() };
  for (const word of words) {
    if (word === "*") {
      grant.all = true;
      continue;
    }
    const m = /^([a-z_]+):(read_only|read_write)$/.exec(word);
    const level = m?.[2] === "read_write" ? "read_write" : "read_only";
    if (!m || !new Set<string>(SCOPE_GROUPS).has(m[1])) {
      return `"${word.slice(0, 60)}" is not a scope; use * or <group>:read_only|read_write with group one of ${SCOPE_GROUPS.join(", ")}`;
    }
    if (m[2] === "read_write" || !grant.groups.has(m[1])) grant.groups.set(m[1], level);
  }
  return grant;
}
