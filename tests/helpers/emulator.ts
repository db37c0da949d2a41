import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator/server";

export const ROOT_TOKEN = "test-root-token-0123456789abcdef";

/** A valid ed25519 public key line (random key data, correct framing). */
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

export async function emulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ token: ROOT_TOKEN, ...opts });
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One raw HTTP call to the emulator. */
export async function call(
  emu: Emulator,
  method: string,
  path: string,
  opts: { token?: string | null; body?: unknown; rawBody?: string; contentType?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? emu.token : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] = opts.contentType ?? "application/json";
  const base = path.startsWith("/__emulator") ? emu.url.replace(/\/v4$/, "") : emu.url;
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Creates a user through the admin endpoint and returns its token. */
export async function addUser(emu: Emulator, username: string, opts: { restricted?: boolean; scopes?: string; global?: Record<string, boolean> } = {}): Promise<string> {
  const r = await call(emu, "POST", "/__emulator/users", { body: { username, ...opts } });
  if (r.status !== 200) throw new Error(`addUser: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}
