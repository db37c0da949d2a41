import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator/server";
import { configure } from "../../provider";
import { resetSettings } from "../../provider/settings";

export const ROOT_TOKEN = "test-root-token-0123456789abcdef";

export { ed25519Key } from "../../scripts/keys";

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

/** Points the provider (in this process) at the emulator, as `compute:apiUrl` / `compute:token` would. */
export async function useEmulator(emu: Emulator, token = emu.token): Promise<void> {
  resetSettings();
  await configure({ config: { get: (k: string) => ({ "compute:apiUrl": emu.url, "compute:token": token })[k] } });
}
