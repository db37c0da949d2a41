/**
 * Rules of the API spec that both the emulator (the server side) and the provider (preview-time
 * validation) apply. Pure functions, no dependencies: each returns an error text or `undefined`.
 */

/** Key types the real service accepts (the spec does not list them: see docs/spec-gaps.md). */
export const SSH_KEY_TYPES = [
  "ssh-rsa",
  "ssh-dss",
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

/**
 * Checks an OpenSSH public key line: `<type> <base64 blob> [comment]`, where the blob decodes and
 * starts with the same type name (as `ssh-keygen` writes it).
 */
export function sshPublicKeyError(value: string): string | undefined {
  const parts = value.trim().split(/\s+/);
  if (parts.length < 2) return `must be an OpenSSH public key: "<type> <base64 key> [comment]", with type one of ${SSH_KEY_TYPES.join(", ")}`;
  const [type, blob] = parts;
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) return `key type "${type.slice(0, 40)}" is not supported; use one of ${SSH_KEY_TYPES.join(", ")}`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(blob) || blob.length % 4 !== 0) return "the key data is not valid base64";
  const bytes = Buffer.from(blob, "base64");
  if (bytes.length < 4) return "the key data is too short";
  const len = bytes.readUInt32BE(0);
  if (len !== type.length || bytes.subarray(4, 4 + len).toString("latin1") !== type) return `the key data does not hold a ${type} key`;
  if (bytes.length < 4 + len + 16) return "the key data is too short";
  return undefined;
}

export function lengthError(value: string, min: number, max: number): string | undefined {
  if (value.length < min || value.length > max) {
    return min === 0 ? `must be at most ${max} characters (got ${value.length})` : `must be ${min} to ${max} characters (got ${value.length})`;
  }
  return undefined;
}

export const OAUTH_SCOPE_GROUPS = [
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

/** Parses a scopes string (`*` or space-separated `<group>:read_only|read_write`), or returns an error text. */
export function parseScopes(scopes: string): { all: boolean; groups: Map<string, "read_only" | "read_write"> } | string {
  const items = scopes.trim().split(/\s+/).filter(Boolean);
  if (items.length === 0) return "must name at least one scope, or *";
  const groups = new Map<string, "read_only" | "read_write">();
  let all = false;
  for (const item of items) {
    if (item === "*") {
      all = true;
      continue;
    }
    const m = /^([a-z_]+):(read_only|read_write)$/.exec(item);
    if (!m || !(OAUTH_SCOPE_GROUPS as readonly string[]).includes(m[1])) {
      return `"${item.slice(0, 60)}" is not a scope; use * or <group>:read_only|read_write with group one of ${OAUTH_SCOPE_GROUPS.join(", ")}`;
    }
    const level = m[2] as "read_only" | "read_write";
    if (groups.get(m[1]) !== "read_write") groups.set(m[1], level);
  }
  return { all, groups };
}
