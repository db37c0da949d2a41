/** A valid ed25519 public key line: key data made from `seed`, with correct framing (test and bench data). */
export function ed25519Key(seed: number, comment = "test@example"): string {
  const type = Buffer.from("ssh-ed25519");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(type.length);
  const klen = Buffer.alloc(4);
  klen.writeUInt32BE(32);
  const key = Buffer.alloc(32, seed % 256);
  key.writeUInt32BE(seed, 0);
  return `ssh-ed25519 ${Buffer.concat([len, type, klen, key]).toString("base64")} ${comment}`;
}
