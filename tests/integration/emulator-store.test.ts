/**
 * The emulator's store (issue 53): every account's records in a database (SQLite with `--state FILE`), each request
 * one transaction, ids from sequences every account shares and never gives twice; a state file of the last release
 * (JSON) moved into the database unchanged.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator } from "../helpers/emulator";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-store-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const FIXTURE = join(__dirname, "../fixtures/emulator-state-d959cbb");
const OLD_TOKEN = "upgrade-emulator-token-0123456789";
const oldAccountToken = (): string =>
  (JSON.parse(readFileSync(join(FIXTURE, "state.json.accounts/2.json"), "utf8")) as { account: { token: string } }).account.token;

const labels = async (emu: Emulator, path: string, token?: string): Promise<string[]> =>
  ((await call(emu, "GET", path, { token })).body.data as Array<{ label: string }>).map((r) => r.label);

describe("a state file of the last release", () => {
  test("is moved into the database unchanged: every account, record and token, the JSON kept beside it", async () => {
    cpSync(FIXTURE, dir, { recursive: true });
    const file = join(dir, "state.json");
    const b = oldAccountToken();
    let emu = await emulator({ stateFile: file, token: OLD_TOKEN, speed: 0 });
    try {
      expect(await labels(emu, "/profile/sshkeys")).toEqual(["key-a"]);
      expect(await labels(emu, "/compute/instances")).toEqual(["web-a"]);
      expect(await labels(emu, "/vpcs")).toEqual(["vpc-a"]);
      expect(await labels(emu, "/databases/mysql/instances")).toEqual(["db-a"]);
      expect(await labels(emu, "/profile/sshkeys", b)).toEqual(["key-b"]);
      expect(await labels(emu, "/compute/instances", b)).toEqual(["web-b"]);
      const old = (await call(emu, "GET", "/compute/instances", { token: b })).body.data[0];
      expect(old.id).toBe(10_000_001);
      // What is made next takes new ids (above every account's) and, in the second account, addresses of the
      // ranges (the last release gave it 203.0.39483.21: the records it made keep theirs); a public address after
      // every account's (the sequence all share), a private one after the account's own.
      const made = await call(emu, "POST", "/compute/instances", {
        token: b,
        body: { label: "new-b", region: "us-east", type: "g6-nanode-1", private_ip: true },
      });
      expect(made.status).toBe(200);
      expect(made.body.id).toBeGreaterThan(10_000_001);
      expect(made.body.ipv4).toEqual(["203.0.113.3", "192.168.128.2"]);
      expect((await call(emu, "GET", "/__emulator/accounts")).body.data.map((a: { label: string }) => a.label)).toEqual(["main", "team-b"]);
    } finally {
      await emu.close();
    }
    expect(existsSync(`${file}.v1.json`)).toBe(true);
    expect(existsSync(`${file}.accounts.v1/2.json`)).toBe(true);
    expect(readFileSync(file).subarray(0, 15).toString()).toBe("SQLite format 3");
    // And again, now from the database.
    emu = await emulator({ stateFile: file, token: OLD_TOKEN, speed: 0 });
    try {
      expect(await labels(emu, "/compute/instances", b)).toEqual(["web-b", "new-b"]);
    } finally {
      await emu.close();
    }
  });
});

describe("ids", () => {
  test("are never given twice: not across accounts, not after an account is deleted", async () => {
    const emu = await emulator({ stateFile: join(dir, "state.db"), speed: 0 });
    try {
      const made = async () => (await call(emu, "POST", "/__emulator/accounts", { body: {} })).body as { id: number; token: string };
      const a = await made();
      const keyA = await call(emu, "POST", "/profile/sshkeys", { token: a.token, body: { label: "a", ssh_key: ed25519Key(1) } });
      const mine = await call(emu, "POST", "/profile/sshkeys", { body: { label: "main", ssh_key: ed25519Key(2) } });
      expect(mine.body.id).not.toBe(keyA.body.id);
      expect((await call(emu, "DELETE", `/__emulator/accounts/${a.id}`)).status).toBe(200);
      const b = await made();
      expect(b.id).toBeGreaterThan(a.id);
      const keyB = await call(emu, "POST", "/profile/sshkeys", { token: b.token, body: { label: "b", ssh_key: ed25519Key(3) } });
      expect(keyB.body.id).toBeGreaterThan(mine.body.id);
    } finally {
      await emu.close();
    }
  });

  test("a fixture cannot use up the ids every account shares; the emulator gives none past 2^31 − 1", async () => {
    const file = join(dir, "state.db");
    let emu = await emulator({ stateFile: file, speed: 0 });
    try {
      const doc = { format: "compute-emulator-account", version: 1, counters: { sshkey: 2 ** 53 - 2 } };
      const refused = await call(emu, "POST", "/__emulator/import", { body: doc });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].reason).toMatch(/counters\.sshkey: a counter is at most 2147483647/);
      // A tenant's counters and ids near the end: the counters are the exporter's note, the record is renumbered.
      const key = { id: 2 ** 31 - 2, created: "2026-03-10T12:00:00", label: "edge", ssh_key: ed25519Key(4), username: "admin" };
      const edge = await call(emu, "POST", "/__emulator/import", { body: { ...doc, counters: { sshkey: 2 ** 31 - 2 }, records: { sshkeys: [key] } } });
      expect(edge.status).toBe(200);
      const given = edge.body.loaded.renumbered.sshkey[String(2 ** 31 - 2)];
      expect(given).toBeLessThan(100);
      const next = await call(emu, "POST", "/profile/sshkeys", { body: { label: "next", ssh_key: ed25519Key(5) } });
      expect(next.body.id).toBeGreaterThan(given);
      expect(next.body.id).toBeLessThan(2000);
    } finally {
      await emu.close();
    }
    // An operator's database whose sequence is at the end: the next key is refused (507), naming the kind.
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
    const db = new DatabaseSync(file);
    db.prepare("UPDATE sequences SET value = ? WHERE kind = 'sshkey'").run(2 ** 31 - 2);
    db.close();
    emu = await emulator({ stateFile: file, speed: 0 });
    try {
      const last = await call(emu, "POST", "/profile/sshkeys", { body: { label: "last", ssh_key: ed25519Key(6) } });
      expect(last.body.id).toBe(2 ** 31 - 1);
      const none = await call(emu, "POST", "/profile/sshkeys", { body: { label: "none", ssh_key: ed25519Key(7) } });
      expect(none.status).toBe(507);
      expect(none.body.errors[0].reason).toMatch(/has given every sshkey id/);
    } finally {
      await emu.close();
    }
  });
});

/** A tmpfs of `size` at `mount` (root only: the suite runs as root here and in CI). */
function smallDisk(mount: string, size: string): () => void {
  mkdirSync(mount, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mount]);
  return () => execFileSync("umount", ["-l", mount]);
}

test("on a full disk a change is answered 503 and nothing of it is kept; once there is room again, changes are", async () => {
  const mount = join(dir, "disk");
  const unmount = smallDisk(mount, "2m");
  try {
    const file = join(mount, "state.db");
    let emu = await emulator({ stateFile: file, speed: 0 });
    try {
      expect((await call(emu, "POST", "/profile/sshkeys", { body: { label: "kept-first", ssh_key: ed25519Key(6) } })).status).toBe(200);
      // Fill the disk to its last byte.
      const filler = join(mount, "filler");
      try {
        writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
      } catch {
        // ENOSPC: the disk is full, as wanted.
      }
      let refused = 0;
      for (let i = 0; i < 20; i++) {
        const r = await call(emu, "POST", "/profile/sshkeys", { body: { label: `never-${i}`, ssh_key: ed25519Key(100 + i) } });
        if (r.status === 503) {
          refused++;
          expect(r.body.errors[0].reason).toMatch(/could not save this change \(SQLITE_FULL\); nothing was changed/);
        } else expect(r.status).toBe(200);
      }
      expect(refused).toBeGreaterThan(0);
      const during = await labels(emu, "/profile/sshkeys?page_size=500");
      rmSync(filler);
      expect((await call(emu, "POST", "/profile/sshkeys", { body: { label: "kept-second", ssh_key: ed25519Key(7) } })).status).toBe(200);
      await emu.close();
      emu = await emulator({ stateFile: file, speed: 0 });
      // What was answered 200 is kept, what was answered 503 is not, in memory as in the file.
      expect(await labels(emu, "/profile/sshkeys?page_size=500")).toEqual([...during, "kept-second"]);
      expect(during.filter((l) => l.startsWith("never-")).length).toBe(20 - refused);
    } finally {
      await emu.close();
    }
  } finally {
    unmount();
  }
});

describe("quotas", () => {
  test("a change past an account's quota is refused 403 naming it, and nothing of it is kept; deleting is never refused", async () => {
    const emu = await emulator({ speed: 0, quotas: { records: 12, users: 3, bytes: 1_000_000 } });
    try {
      // The owner and its root token are 2 records.
      const usage = async () => (await call(emu, "GET", "/__emulator/usage")).body;
      expect(await usage()).toEqual({ records: 2, bytes: expect.any(Number), users: 1, quotas: { records: 12, bytes: 1_000_000, users: 3 } });
      const keys = [];
      for (let i = 0; i < 10; i++) keys.push((await call(emu, "POST", "/profile/sshkeys", { body: { label: `k${i}`, ssh_key: ed25519Key(700 + i) } })).body.id);
      const refused = await call(emu, "POST", "/profile/sshkeys", { body: { label: "one-too-many", ssh_key: ed25519Key(720) } });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].reason).toMatch(/^The account's quota of 12 records would be passed \(13 with this change\): .*--quota-records$/);
      expect((await labels(emu, "/profile/sshkeys")).length).toBe(10);
      // An import past it is refused whole.
      const doc = (await call(emu, "GET", "/__emulator/export")).body;
      const more = { ...doc, records: { sshkeys: [...doc.records.sshkeys, { ...doc.records.sshkeys[0], id: 99_999, label: "x" }] } };
      expect((await call(emu, "POST", "/__emulator/import", { body: more })).status).toBe(403);
      expect((await labels(emu, "/profile/sshkeys")).length).toBe(10);
      // More records than the quota in the fixture itself: refused before any is read (not a 400 on a bad record).
      const many = { ...doc, records: { sshkeys: Array.from({ length: 13 }, (_, i) => ({ id: i + 1, bad: true })) } };
      const refusedWhole = await call(emu, "POST", "/__emulator/import", { body: many });
      expect([refusedWhole.status, refusedWhole.body.errors[0].reason]).toEqual([403, expect.stringMatching(/quota of 12 records would be passed \(13 /)]);
      expect((await call(emu, "DELETE", `/profile/sshkeys/${keys[0]}`)).status).toBe(200);
      expect((await usage()).records).toBe(11);
    } finally {
      await emu.close();
    }
  });

  test("users: the owner and as many more as the quota says", async () => {
    const emu = await emulator({ speed: 0, quotas: { users: 3 } });
    try {
      for (const name of ["user-a", "user-b"]) expect((await call(emu, "POST", "/__emulator/users", { body: { username: name } })).status).toBe(200);
      const third = await call(emu, "POST", "/__emulator/users", { body: { username: "user-c" } });
      expect([third.status, third.body.errors[0].reason]).toEqual([
        403,
        expect.stringMatching(/^The account's quota of 3 users would be passed \(4 with this change\)/),
      ]);
    } finally {
      await emu.close();
    }
  });

  test("a byte quota counts the records' JSON", async () => {
    const emu = await emulator({ speed: 0, quotas: { bytes: 4_000 } });
    try {
      let last = 200;
      let made = 0;
      for (let i = 0; i < 40 && last === 200; i++) {
        last = (await call(emu, "POST", "/profile/sshkeys", { body: { label: `k${i}`, ssh_key: ed25519Key(800 + i) } })).status;
        if (last === 200) made++;
      }
      expect(last).toBe(403);
      expect(made).toBeGreaterThan(5);
      const usage = (await call(emu, "GET", "/__emulator/usage")).body;
      expect(usage.bytes).toBeLessThanOrEqual(4_000);
    } finally {
      await emu.close();
    }
  });
});

test("a reset empties the account but its owner and root token, and what is made next takes new ids", async () => {
  const file = join(dir, "state.db");
  let emu = await emulator({ stateFile: file, speed: 0 });
  try {
    const key = await call(emu, "POST", "/profile/sshkeys", { body: { label: "before", ssh_key: ed25519Key(900) } });
    await call(emu, "POST", "/vpcs", { body: { label: "net", region: "us-east" } });
    const other = await call(emu, "POST", "/__emulator/users", { body: { username: "someone" } });
    expect((await call(emu, "POST", "/__emulator/reset")).status).toBe(200);
    expect(await labels(emu, "/profile/sshkeys")).toEqual([]);
    expect(await labels(emu, "/vpcs")).toEqual([]);
    expect((await call(emu, "GET", "/account/events")).body.data).toEqual([]);
    expect((await call(emu, "GET", "/profile", { token: other.body.token })).status).toBe(401);
    expect((await call(emu, "GET", "/__emulator/usage")).body).toMatchObject({ records: 2, users: 1 });
    await emu.close();
    emu = await emulator({ stateFile: file, speed: 0 });
    expect(await labels(emu, "/profile/sshkeys")).toEqual([]);
    const after = await call(emu, "POST", "/profile/sshkeys", { body: { label: "after", ssh_key: ed25519Key(901) } });
    expect(after.body.id).toBeGreaterThan(key.body.id);
  } finally {
    await emu.close();
  }
});

test("an account made at run time keeps its last 1,000 events and its last 2,000 requests (1,000 accounts stay bounded)", async () => {
  const emu = await emulator({ speed: 0 });
  try {
    const tenant = (await call(emu, "POST", "/__emulator/accounts", { body: { label: "busy" } })).body.token as string;
    // A VPC made and deleted: two events each.
    for (let i = 0; i < 560; i++) {
      const vpc = await call(emu, "POST", "/vpcs", { token: tenant, body: { label: `v${i}`, region: "us-east" } });
      await call(emu, "DELETE", `/vpcs/${vpc.body.id}`, { token: tenant });
    }
    let events = 0;
    for (let page = 1; ; page++) {
      const r = await call(emu, "GET", `/account/events?page=${page}&page_size=500`, { token: tenant });
      events += r.body.data.length;
      if (page >= r.body.pages) break;
    }
    // The window lets the oldest tenth go once past it: between 1,000 and 1,100.
    expect(events).toBeGreaterThanOrEqual(1000);
    expect(events).toBeLessThanOrEqual(1100);
    const log = (await call(emu, "GET", "/__emulator/log", { token: tenant })).body as unknown[];
    expect(log.length).toBeLessThanOrEqual(2200);
    expect(log.length).toBeGreaterThanOrEqual(1000);
  } finally {
    await emu.close();
  }
}, 60_000);
