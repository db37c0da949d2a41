/**
 * SSH public keys, as profile keys (`ssh_key`), `authorized_keys` and the profile's `authorized_keys` take them.
 * profile-api.md "SSH key": "The list of accepted key formats: not shown": the types the real service takes
 * (docs/spec-gaps.md "Accepted SSH key formats"), in the order the error text names them.
 */
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

/** Bytes of key material a key blob holds after its type name, at least. */
const LEAST_KEY_MATERIAL = 16;

/**
 * An OpenSSH public key line: `<type> <base64 blob> [comment]`. The blob is in SSH wire format: the type name as
 * a string (a 4-byte big-endian length, then its bytes), then the key material.
 */
export function sshKeyError(line: string): string | undefined {
  const types = SSH_KEY_TYPES.join(", ");
  if (/[\r\n]/.test(line.trim())) return "must be one key, on one line";
  const [type, data] = line.trim().split(/\s+/);
  if (data === undefined) return `must be an OpenSSH public key: "<type> <base64 key> [comment]", with type one of ${types}`;
  if (!new Set<string>(SSH_KEY_TYPES).has(type)) return `key type "${type.slice(0, 40)}" is not supported; use one of ${types}`;
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return "the key data is not valid base64";
  const blob = Buffer.from(data, "base64");
  if (blob.length < 4) return "the key data is too short";
  const nameEnd = 4 + blob.readUInt32BE(0);
  if (nameEnd !== 4 + type.length || blob.toString("latin1", 4, nameEnd) !== type) return `the key data does not hold a ${type} key`;
  return blob.length - nameEnd < LEAST_KEY_MATERIAL ? "the key data is too short" : undefined;
}
