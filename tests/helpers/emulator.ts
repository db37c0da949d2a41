import { startEmulator, type Emulator, type EmulatorOptions } from "../../emulator/server";
import { configure } from "../../provider";
import { resetSession } from "../../provider/session";

export const ROOT_TOKEN = "test-root-token-0123456789abcdef";

import { ed25519Key } from "../../scripts/keys";
export { ed25519Key };

export async function emulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  // Every answer checked against the contract (api/contract): a view that drifts from it is a 500 naming the field.
  return startEmulator({ token: ROOT_TOKEN, checkAnswers: true, ...opts });
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * An emulator made for each test (in the suite's or the describe block's beforeEach, with `opts`, or what `opts()`
 * gives then) and closed after it (afterEach): `emu()` is this test's emulator; `restart(opts)` closes it and starts
 * another in its place (a test of what `--state` keeps, or of another clock), closed after the test too.
 */
export function useEmulatorPerTest(opts: EmulatorOptions | (() => EmulatorOptions) = {}): {
  emu: () => Emulator;
  restart: (opts?: EmulatorOptions) => Promise<Emulator>;
} {
  let current: Emulator | undefined;
  beforeEach(async () => {
    current = await emulator(typeof opts === "function" ? opts() : opts);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const emu = (): Emulator => {
    if (!current) throw new Error("the test's emulator is made in beforeEach");
    return current;
  };
  const restart = async (next: EmulatorOptions = {}): Promise<Emulator> => {
    await current?.close();
    current = undefined;
    current = await emulator(next);
    return current;
  };
  return { emu, restart };
}

/**
 * An emulator made for each test on a clock the test moves (from 2026-03-10 12:00 UTC; speed 1: transitions
 * take their full durations), for the suites that test the emulator itself (`opts` adds to these). Registers the
 * suite's beforeEach and afterEach; `emu()` is this test's emulator, `tick(ms)` moves the clock, `now()` reads it.
 */
export function useClockedEmulator(opts: EmulatorOptions = {}): { emu: () => Emulator; tick: (ms: number) => void; now: () => number } {
  let clock = 0;
  beforeEach(() => {
    clock = Date.parse("2026-03-10T12:00:00Z");
  });
  const { emu } = useEmulatorPerTest(() => ({ now: () => clock, speed: 1, ...opts }));
  return { emu, tick: (ms) => void (clock += ms), now: () => clock };
}

/** One raw HTTP call to the emulator. */
export async function call(
  emu: Emulator,
  method: string,
  path: string,
  opts: { token?: string | null; body?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
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
export async function addUser(
  emu: Emulator,
  username: string,
  opts: { restricted?: boolean; scopes?: string; global?: Record<string, boolean> } = {},
): Promise<string> {
  const r = await call(emu, "POST", "/__emulator/users", { body: { username, ...opts } });
  if (r.status !== 200) throw new Error(`addUser: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

/** Points the provider (in this process) at the emulator, as `compute:apiUrl` / `compute:token` would. */
export async function useEmulator(emu: Emulator, token = emu.token): Promise<void> {
  resetSession();
  await configure({ config: { get: (k: string) => ({ "compute:apiUrl": emu.url, "compute:token": token })[k] } });
}

/** A GET that must answer 200: its body. */
export async function get(emu: Emulator, path: string, opts: { token?: string | null } = {}): Promise<any> {
  const r = await call(emu, "GET", path, opts);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Every item of a paginated list, page after page (`path` without page or page_size). */
/** The account's events of an action, through the API (`GET /account/events`, X-Filter on `action`), newest first. */
export async function events(emu: Emulator, action: string, opts: { token?: string | null } = {}): Promise<any[]> {
  const answer = await call(emu, "GET", "/account/events?page_size=500", { ...opts, headers: { "x-filter": JSON.stringify({ action }) } });
  if (answer.status !== 200) throw new Error(`GET /account/events: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

export async function list(emu: Emulator, path: string, opts: { token?: string | null } = {}): Promise<any[]> {
  const items: any[] = [];
  const sep = path.includes("?") ? "&" : "?";
  for (let page = 1; ; page++) {
    const body = await get(emu, `${path}${sep}page=${page}&page_size=500`, opts);
    items.push(...body.data);
    if (page >= body.pages) return items;
  }
}

export type Inventory = Record<"sshkeys" | "vpcs" | "subnets" | "instances" | "disks" | "configs" | "images" | "databases", any[]>;

/**
 * What the API shows of the account (to the emulator's root token): SSH keys, VPCs and their subnets, instances
 * with their disks and profiles, private images, databases.
 */
export async function inventory(emu: Emulator): Promise<Inventory> {
  const instances = await list(emu, "/compute/instances");
  const vpcs = await list(emu, "/vpcs");
  const each = async (parents: any[], sub: (parent: any) => string) => (await Promise.all(parents.map((x) => list(emu, sub(x))))).flat();
  return {
    sshkeys: await list(emu, "/profile/sshkeys"),
    vpcs,
    subnets: await each(vpcs, (v) => `/vpcs/${v.id}/subnets`),
    instances,
    disks: await each(instances, (i) => `/compute/instances/${i.id}/disks`),
    configs: await each(instances, (i) => `/compute/instances/${i.id}/configs`),
    images: (await list(emu, "/images")).filter((i) => i.is_public === false),
    databases: await list(emu, "/databases/instances"),
  };
}

/** `n` SSH keys (labels key-1 to key-n) loaded into the account of `token` by a fixture's records: many records, fast. */
export async function importSshKeys(emu: Emulator, n: number, token = emu.token): Promise<void> {
  const first = await call(emu, "POST", "/profile/sshkeys", { token, body: { label: "key-1", ssh_key: ed25519Key(1000) } });
  const exported = await call(emu, "GET", "/__emulator/export", { token });
  const [model] = exported.body.records.sshkeys;
  const sshkeys = Array.from({ length: n }, (_, i) => ({ ...model, id: model.id + i, label: `key-${i + 1}`, ssh_key: ed25519Key(1000 + i) }));
  const loaded = await call(emu, "POST", "/__emulator/import", { token, body: { ...exported.body, records: { sshkeys } } });
  if (first.status !== 200 || loaded.status !== 200) throw new Error(`importSshKeys: ${first.status} ${loaded.status} ${JSON.stringify(loaded.body)}`);
}
