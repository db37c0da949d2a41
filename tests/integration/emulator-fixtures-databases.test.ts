/**
 * A fixture's managed databases must be records the API could have made (issue 52, the fresh-eyes findings): a
 * cluster's type, region and engine/version the catalogue's, its label unique and by the API's rule, its fields
 * held together as a create and its updates make them (replication, commit type, window, a passing status with its
 * step to come); a backup's label a snapshot's, at most three snapshots a cluster. The family's counters follow its
 * records' ids. A record that is not so is refused with its place and the rule, before anything is loaded.
 */
import { countersOf, type StateHolder } from "../../emulator/family";
import type { Emulator } from "../../emulator/server";
import { databaseFamily } from "../../emulator/routes/databases";
import { call, emulator, list } from "../helpers/emulator";

const CLOCK = Date.parse("2026-03-10T12:00:00Z");
const M = "/databases/mysql/instances";
const P = "/databases/postgresql/instances";

type Records = Record<string, Array<Record<string, any>>>;
interface Fixture {
  format: string;
  version: number;
  records: Records;
  counters?: Record<string, number>;
}

let emu: Emulator;
/** The export of an account with a one-node MySQL cluster (a snapshot) and a three-node PostgreSQL one (a monthly window). */
let base: Fixture;

beforeAll(async () => {
  emu = await emulator({ now: () => CLOCK, speed: 0 });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await call(emu, method, path, { body });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const mysql = await ok("POST", M, { label: "orders", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35", allow_list: ["10.0.0.0/24"] });
  const pg = await ok("POST", P, {
    label: "ledger",
    region: "eu-central",
    type: "c1-standard-2",
    engine: "postgresql/16.1",
    cluster_size: 3,
    replication_commit_type: "on",
  });
  await ok("GET", `${M}/${mysql.id}`);
  await ok("POST", `${M}/${mysql.id}/backups`, { label: "snap1" });
  await ok("GET", `${P}/${pg.id}`);
  await ok("PUT", `${P}/${pg.id}`, { updates: { frequency: "monthly", duration: 1, hour_of_day: 3, day_of_week: 6, week_of_month: 2 } });
  base = (await call(emu, "GET", "/__emulator/export")).body;
});
afterAll(async () => {
  await emu.close();
});

/** The base export changed by `change` (a copy), imported into the main account. */
async function load(change: (records: Records, fixture: Fixture) => void = () => undefined) {
  const fixture = structuredClone(base);
  change(fixture.records, fixture);
  return call(emu, "POST", "/__emulator/import", { body: fixture });
}

/** A refusal as a fixture's load answers it: under its place, saying its place and the rule. */
const refusal = (field: string, reason: string) => ({ field, reason: `${field}: ${reason}` });

test("the export of an account with clusters of both engines and a snapshot loads (into another account too)", async () => {
  expect(base.records.databases.map((d) => [d.engine, d.cluster_size, d.replication_type])).toEqual([
    ["mysql", 1, "none"],
    ["postgresql", 3, "asynch"],
  ]);
  expect((await load()).status).toBe(200);
  const other = await call(emu, "POST", "/__emulator/accounts", { body: { label: "copy", fixture: base } });
  expect(other.status).toBe(200);
  expect((await list(emu, "/databases/instances", { token: other.body.token })).map((d) => d.label)).toEqual(["orders", "ledger"]);
});

test("a cluster's type, region or engine/version the catalogue has not (or a region without managed databases) is refused by its place", async () => {
  const refused = await load((r) => {
    r.databases[0].type = "nope";
    r.databases[0].region = "nope";
    r.databases[1].region = "ap-northeast";
    r.databases[1].version = "99";
  });
  expect(refused.status).toBe(400);
  expect(refused.body.errors).toEqual([
    refusal("records.databases[0].region", "Region nope not found"),
    refusal("records.databases[0].type", "Type nope not found"),
    refusal("records.databases[1].region", "Region ap-northeast does not offer managed databases"),
    refusal("records.databases[1].version", "Engine postgresql/99 is not a postgresql engine; see /databases/engines"),
  ]);
  // A MySQL cluster said to be PostgreSQL: its version is no PostgreSQL one, and it has no commit type.
  const other = await load((r) => {
    r.databases[0].engine = "postgresql";
  });
  expect(other.body.errors).toEqual([
    refusal("records.databases[0].replication_commit_type", "A PostgreSQL cluster has a replication_commit_type (local when its create named none)"),
  ]);
  const otherVersion = await load((r) => {
    r.databases[0].engine = "postgresql";
    r.databases[0].replication_commit_type = "local";
  });
  expect(otherVersion.body.errors).toEqual([
    refusal("records.databases[0].version", "Engine postgresql/8.0.35 is not a postgresql engine; see /databases/engines"),
  ]);
});

test("two clusters of one label are refused: loaded, a PUT keeping either's label was refused", async () => {
  const twice = await load((r) => {
    r.databases[1].label = "orders";
  });
  expect(twice.body.errors).toEqual([refusal("records.databases[1].label", "Label must be unique among your databases")]);
  // Each label its own: an update that keeps the label is taken.
  expect((await load()).status).toBe(200);
  const [mysql, pg] = base.records.databases;
  expect((await call(emu, "PUT", `${M}/${mysql.id}`, { body: { label: "orders" } })).status).toBe(200);
  expect((await call(emu, "PUT", `${P}/${pg.id}`, { body: { label: "ledger" } })).status).toBe(200);
});

test("a cluster's fields the API's rules refuse, or that no create and update could have made together", async () => {
  const refused = await load((r) => {
    Object.assign(r.databases[0], {
      label: "a",
      allow_list: ["zzz"],
      replication_type: "asynch",
      replication_commit_type: "on",
      updates: { ...r.databases[0].updates, hour_of_day: 25 },
      _ca: "!!!",
    });
    Object.assign(r.databases[1], {
      replication_type: "semi_synch",
      status: "restoring",
      _queue: [],
      updates: { ...r.databases[1].updates, week_of_month: null },
    });
    r.databaseBackups[0].label = "snap-1";
  });
  expect(refused.body.errors).toEqual([
    refusal("records.databases[0].label", "Label must be 3 to 32 characters (got 1)"),
    refusal("records.databases[0].allow_list[0]", '"zzz" is not a valid IP address'),
    refusal("records.databases[0].updates.hour_of_day", "Must be 0 to 23"),
    refusal("records.databases[0]._ca", "Must be base64, as the API answers a CA certificate"),
    refusal("records.databases[0].replication_type", "A one-node cluster has no replication: use none (or a cluster of 3 nodes)"),
    refusal("records.databases[0].replication_commit_type", "Only for PostgreSQL"),
    refusal("records.databases[1].updates.week_of_month", "Must be 1 to 4 for a monthly window"),
    refusal("records.databases[1].replication_type", "Must be one of none, asynch for postgresql"),
    refusal("records.databases[1]._queue", "A cluster restoring has the step that ends it to come (its _queue is empty)"),
    refusal("records.databaseBackups[0].label", "Label must use only ASCII letters and digits"),
  ]);
});

test("a cluster's maker is a user of the account; a cluster keeps at most three snapshots", async () => {
  const refused = await load((r) => {
    r.databases[0]._owner = "ghost";
    const [snapshot] = r.databaseBackups;
    r.databaseBackups.push(...[2, 3, 4].map((n) => ({ ...snapshot, id: snapshot.id + n, label: `snap${n}` })));
  });
  expect(refused.body.errors).toEqual([
    refusal("records.databases[0]._owner", "no user ghost in the account"),
    refusal("records.databaseBackups[3].database_id", `A database keeps at most 3 snapshots: database ${base.records.databases[0].id} has more`),
  ]);
});

test("the database and backup counters follow the records' ids, whatever the fixture's counters say", async () => {
  const state: StateHolder = { data: { version: 1, nextId: {}, users: [], tokens: [], events: [], ...base.records } };
  expect(countersOf([databaseFamily], state)).toEqual({ database: 2, dbbackup: 1 });
  const loaded = await load((r, fixture) => {
    r.databases[1].id = 30;
    r.databaseBackups[0].id = 50;
    fixture.counters = {};
  });
  expect(loaded.status).toBe(200);
  const made = await call(emu, "POST", M, { body: { label: "third", region: "us-east", type: "c1-standard-2", engine: "mysql/8" } });
  expect(made.body.id).toBe(31);
  await call(emu, "GET", `${M}/${made.body.id}`);
  expect((await call(emu, "POST", `${M}/${made.body.id}/backups`, { body: { label: "snap" } })).status).toBe(200);
  expect((await list(emu, `${M}/${made.body.id}/backups`)).map((b) => b.id)).toEqual([51]);
});
