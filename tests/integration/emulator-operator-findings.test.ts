/**
 * What a new user trying the emulator as its operator found (issue 53, fresh eyes), each a regression test: the
 * SQLite store's experimental warning printed where the global process is not node's own (inside Jest); requests
 * without a valid token were written in the main account's request log (a stranger could push the operator's
 * requests out of it), and an upload's data sent to another account's upload URL too; every `--token` a state
 * file was ever started with stayed a root token (and the newest was refused on /__emulator); an earlier release's
 * state file was moved into the database without its records checked (two instances of one id, a record its
 * schema refuses: moved, then every write of the account failed).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Emulator } from "../../emulator/server";
import { call, emulator } from "../helpers/emulator";

const SERVER = join(__dirname, "../../dist/emulator/server.js");
const CLI = join(__dirname, "../../dist/emulator/cli.js");
/** A state file of the release before the database (two accounts: FILE and FILE.accounts/2.json). */
const OLD_STATE = join(__dirname, "../fixtures/emulator-state-d959cbb");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-operator-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("node:sqlite's experimental warning is not printed, where the global process is a copy too (Jest's); other warnings are", () => {
  // As in a Jest test: the modules' `process` is a copy of node's, which node itself warns through.
  const script = `
    const node = process;
    const copy = Object.create(Object.getPrototypeOf(node));
    for (const key of Reflect.ownKeys(node)) Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(node, key));
    globalThis.process = copy;
    const { startEmulator } = require(${JSON.stringify(SERVER)});
    startEmulator({ stateFile: ${JSON.stringify(join(dir, "state.db"))}, speed: 0 }).then(async (emu) => {
      await emu.close();
      process.emitWarning("another warning", "OtherWarning");
    });
  `;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(run.status).toBe(0);
  expect(run.stderr).not.toMatch(/SQLite|ExperimentalWarning/);
  expect(run.stderr).toMatch(/OtherWarning: another warning/);
});

test("requests no account's token signed are kept out of the main account's log, in the emulator's anonymous log (no bodies)", async () => {
  const emu = await emulator({ speed: 0 });
  try {
    const tenant = (await call(emu, "POST", "/__emulator/accounts", { body: { label: "tenant" } })).body;
    const signed = await call(emu, "POST", "/profile/sshkeys", { body: { label: "mine", ssh_key: "not a key" } });
    expect(signed.status).toBe(400);
    for (let i = 0; i < 30; i++) expect((await call(emu, "GET", "/profile", { token: i % 2 ? null : `stranger-${i}` })).status).toBe(401);
    expect((await call(emu, "GET", "/regions", { token: null })).status).toBe(200);
    // An upload's data is its account's request, whoever's URL it is.
    const up = await call(emu, "POST", "/images/upload", { token: tenant.token, body: { label: "tenant-image", region: "us-east" } });
    const data = { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: gzipSync(Buffer.alloc(1024)) };
    expect((await fetch(up.body.upload_to, data)).status).toBe(200);
    const mine = (await call(emu, "GET", "/__emulator/log")).body as Array<{ method: string; path: string; status: number }>;
    expect(mine.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(["POST /__emulator/accounts 200", "POST /v4/profile/sshkeys 400"]);
    const theirs = (await call(emu, "GET", "/__emulator/log", { token: tenant.token })).body as Array<{ method: string; status: number }>;
    expect(theirs.map((e) => `${e.method} ${e.status}`)).toEqual(["POST 200", "PUT 200"]);
    const anonymous = await call(emu, "GET", "/__emulator/log/anonymous");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((e: { status: number }) => e.status)).toEqual([...Array<number>(30).fill(401), 200]);
    expect(anonymous.body.every((e: object) => !("request" in e) && !("response" in e))).toBe(true);
    // The emulator's root token only.
    expect((await call(emu, "GET", "/__emulator/log/anonymous", { token: tenant.token })).status).not.toBe(200);
    expect((await call(emu, "GET", "/__emulator/log/anonymous", { token: null })).status).toBe(401);
  } finally {
    await emu.close();
  }
});

test("the --token of this start is the main account's root token: the one an earlier start gave is revoked, tokens made through the API stay", async () => {
  const file = join(dir, "state.db");
  const [a, b] = ["first-root-token-0123456789abcdef", "second-root-token-0123456789abcdef"];
  const status = async (emu: Emulator, token: string, path: string) => (await call(emu, "GET", path, { token })).status;
  let emu = await emulator({ stateFile: file, token: a, speed: 0 });
  const made = await call(emu, "POST", "/profile/tokens", { body: { label: "ci" } });
  expect(made.status).toBe(200);
  await emu.close();
  emu = await emulator({ stateFile: file, token: b, speed: 0 });
  try {
    expect(emu.token).toBe(b);
    expect(await status(emu, a, "/profile")).toBe(401);
    expect(await status(emu, b, "/__emulator/log")).toBe(200);
    expect(await status(emu, b, "/__emulator/accounts")).toBe(200);
    expect(await status(emu, made.body.token, "/profile")).toBe(200);
    const roots = (await call(emu, "GET", "/profile/tokens")).body.data.filter((t: { label: string }) => t.label === "emulator root token");
    expect(roots.length).toBe(1);
  } finally {
    await emu.close();
  }
  // Started without --token: the one it has (printed as ever), not a new one that revokes it.
  emu = await emulator({ stateFile: file, token: undefined, speed: 0 });
  try {
    expect(emu.token).toBe(b);
    expect(await status(emu, b, "/__emulator/accounts")).toBe(200);
    expect(await status(emu, a, "/profile")).toBe(401);
  } finally {
    await emu.close();
  }
});

describe("an earlier release's state file holding a record this emulator refuses", () => {
  type State = Record<string, Array<Record<string, unknown>>>;
  test.each<[string, string, (s: State) => void, RegExp]>([
    [
      "two instances of one id",
      "state.json",
      (s) => s.instances.push({ ...s.instances[0], label: "again" }),
      /instances\[1\]\.id: the id 1 is also instances\[0\]'s/,
    ],
    ["a record its schema refuses", "state.json.accounts/2.json", (s) => (s.instances[0].status = "exploded"), /instances\[0\]\.status: /],
    ["a record that points to nothing", "state.json", (s) => (s.configs[0].compute_id = 99), /configs\[0\]\.compute_id: /],
    ["two users of one name", "state.json", (s) => s.users.push({ ...s.users[0], uid: 99 }), /users\[1\]\.username: the name admin is also users\[0\]'s/],
  ])("%s: the emulator does not start, names the file, the place and the rule, and leaves the file as it was", (_, name, change, says) => {
    for (const part of ["state.json", "state.json.accounts"]) cpSync(join(OLD_STATE, part), join(dir, part), { recursive: true });
    const target = join(dir, name);
    const state = JSON.parse(readFileSync(target, "utf8")) as State;
    change(state);
    writeFileSync(target, JSON.stringify(state));
    const before = [readFileSync(join(dir, "state.json")), readFileSync(join(dir, "state.json.accounts/2.json"))];
    const run = spawnSync(process.execPath, [CLI, "--state", join(dir, "state.json"), "--speed", "0"], { encoding: "utf8", timeout: 15_000 });
    expect([run.status, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain(`compute-emulator: The state file ${target} `);
    expect(run.stderr).toMatch(says);
    expect([readFileSync(join(dir, "state.json")), readFileSync(join(dir, "state.json.accounts/2.json"))]).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(["state.json", "state.json.accounts"]);
  });
});

test("a state file of a release before events followed the clock is moved, its events finished, each entity with its path", async () => {
  const file = join(dir, "emulator.json");
  cpSync(join(__dirname, "../fixtures/upgrade-0.1.0/emulator.json"), file);
  const emu = await emulator({ stateFile: file, token: "upgrade-fixture-token-0123456789", speed: 0 });
  try {
    const all = (await call(emu, "GET", "/account/events?page_size=500")).body.data as Array<{ status: string; action: string; entity: { url: string } }>;
    expect(all.length).toBe(13);
    expect(new Set(all.map((e) => e.status))).toEqual(new Set(["finished"]));
    expect(all.filter((e) => e.action === "compute_create").map((e) => e.entity.url)).toContain("/v4/compute/instances/1");
    expect(all.filter((e) => e.action === "disk_create").every((e) => /^\/v4\/compute\/instances\/\d+\/disks\/\d+$/.test(e.entity.url))).toBe(true);
  } finally {
    await emu.close();
  }
});
