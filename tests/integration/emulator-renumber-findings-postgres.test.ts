/**
 * A fresh-eyes review of ids kept where free, else renumbered (issue 53), on a PostgreSQL database two emulators
 * share: what emulator-renumber-findings.test.ts finds in one process, here where a commit checks the ids it kept.
 */
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, list } from "../helpers/emulator";
import { startPostgres, type Postgres } from "../helpers/postgres";

jest.setTimeout(120_000);

let pg: Postgres;
let a: Emulator;
let b: Emulator;
let n = 0;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());
beforeEach(async () => {
  const database = pg.database(`findings${++n}`);
  a = await emulator({ database, speed: 0 });
  b = await emulator({ database, speed: 0 });
});
afterEach(async () => {
  await a?.close();
  await b?.close();
});

type Rec = Record<string, any>;

async function ok(emu: Emulator, method: string, path: string, body?: unknown, token?: string): Promise<Rec> {
  const r = await call(emu, method, path, { body, token });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An account holding records of several kinds: an SSH key, a VPC with a subnet, an instance in it, a database. */
async function stocked(emu: Emulator): Promise<void> {
  await ok(emu, "POST", "/profile/sshkeys", { label: "key", ssh_key: ed25519Key(1) });
  const net = await ok(emu, "POST", "/vpcs", { label: "net", region: "us-east", subnets: [{ label: "apps", ipv4: "10.0.1.0/24" }] });
  await ok(emu, "POST", "/compute/instances", {
    label: "web-1",
    region: "us-east",
    type: "c1-nano-1",
    image: "compute/debian12",
    root_pass: "Str0ng-Passw0rd!",
    interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: net.subnets[0].id }],
  });
  await ok(emu, "POST", "/databases/mysql/instances", { label: "orders", region: "us-east", type: "g6-nanode-1", engine: "mysql/8" });
}

const idsOf = async (emu: Emulator, token?: string) => ({
  instances: (await list(emu, "/compute/instances", { token })).map((i) => [i.id, i.ipv4]),
  vpcs: (await list(emu, "/vpcs", { token })).map((v) => [v.id, v.subnets.map((s: Rec) => s.id)]),
  keys: (await list(emu, "/profile/sshkeys", { token })).map((k) => k.id),
  databases: (await list(emu, "/databases/instances", { token })).map((d) => d.id),
});

test("an account's own export loaded back (a restore) keeps its ids, through either emulator", async () => {
  // Found: a restore failed, 500 after about five seconds. The ids the account holds were counted as kept, and a
  // shared database's commit checks that no kept id was given since the write read the sequences: each of the
  // account's own was (to it), so the write ran again a hundred times and gave up. In one process (memory, SQLite)
  // the same restore keeps every id.
  await stocked(a);
  const doc = await ok(a, "GET", "/__emulator/export");
  const before = await idsOf(a);
  for (const emu of [a, b]) {
    const started = Date.now();
    const loaded = await call(emu, "POST", "/__emulator/import", { body: doc });
    expect([loaded.status, loaded.body]).toEqual([200, { loaded: { records: expect.any(Number), requests: 0 } }]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await idsOf(b)).toEqual(before);
  }
  // After the restore, what either emulator makes takes a new id.
  const made = await ok(b, "POST", "/profile/sshkeys", { label: "after", ssh_key: ed25519Key(2) });
  expect(before.keys).not.toContain(made.id);
});

test("a restore after deletes through the other emulator: what the account still holds keeps its ids, the deleted come back renumbered", async () => {
  await stocked(a);
  const doc = await ok(a, "GET", "/__emulator/export");
  const before = await idsOf(a);
  const [key] = before.keys;
  expect((await call(b, "DELETE", `/profile/sshkeys/${key}`)).status).toBe(200);
  const loaded = await call(b, "POST", "/__emulator/import", { body: doc });
  expect(loaded.status).toBe(200);
  expect(loaded.body.loaded.renumbered).toEqual({ sshkey: { [String(key)]: expect.any(Number) } });
  const after = await idsOf(a);
  expect({ ...after, keys: [] }).toEqual({ ...before, keys: [] });
  expect(after.keys).toEqual([loaded.body.loaded.renumbered.sshkey[String(key)]]);
});
