/**
 * MysqlDatabaseSnapshot against the emulator: found by label after an answer of `{}`, at most 3 per database at
 * preview and explained when the API refuses, delete removes it, its lost create answer, and the lookup
 * getMysqlDatabaseBackups.
 */
import { invoke } from "../../provider/functions";
import { mysqlProvider as db } from "../../provider/resources/database";
import { mysqlDatabaseSnapshot } from "../../provider/resources/databaseSnapshot";
import { client } from "../../provider/transport/settings";
import { call, get, list, useEmulator } from "../helpers/emulator";
import { expectFaultFired } from "../helpers/faults";
import { useProviderSuite } from "../helpers/provider-suite";

const dbSnap = mysqlDatabaseSnapshot.provider;
const emu = useProviderSuite();

type Provider = typeof dbSnap;
const checked = async (p: Provider, news: Record<string, unknown>, name = "snap") => {
  const r = await p.check({}, { __resourceName: name, ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
};

describe("MysqlDatabaseSnapshot", () => {
  const database = async () => db.create((await db.check({}, { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" })).inputs);
  const snapshots = (id: string) => list(emu, `/databases/mysql/instances/${id}/backups`);

  test("create finds the snapshot by label and waits until the cluster has taken it; lookup; delete removes it", async () => {
    const d = await database();
    const inputs = await checked(dbSnap, { databaseId: d.id }, "before-migration");
    expect(inputs.label).toMatch(/^beforemigration[0-9a-f]{7}$/);
    const c = await dbSnap.create(inputs);
    expect(c.outs).toMatchObject({ label: inputs.label, type: "snapshot", databaseId: Number(d.id) });
    expect((await get(emu, `/databases/mysql/instances/${d.id}`)).status).toBe("active");
    expect((await snapshots(d.id)).map((b) => String(b.id))).toEqual([c.id]);
    const found = await invoke(client(), "getMysqlDatabaseBackups", { databaseId: d.id });
    expect(found.backups).toEqual([expect.objectContaining({ id: c.id, label: inputs.label, type: "snapshot" })]);
    await dbSnap.delete(c.id, c.outs);
    expect(await snapshots(d.id)).toEqual([]);
  });

  test("at most 3 per database: a fourth in the program is refused at preview; the API's refusal names what is there", async () => {
    const d = await database();
    for (const n of ["a", "b", "c"]) await checked(dbSnap, { databaseId: d.id }, n);
    const fourth = await dbSnap.check({}, { __resourceName: "d", databaseId: d.id });
    expect(fourth.failures).toEqual([
      { property: "databaseId", reason: `databaseId: database ${d.id} keeps at most 3 snapshots, and this program declares 4 (a, b, c, d)` },
    ]);

    for (const label of ["one", "two", "three"]) {
      expect((await call(emu, "POST", `/databases/mysql/instances/${d.id}/backups`, { body: { label } })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 150));
    }
    await useEmulator(emu); // a new session (the next run), configured
    await expect(dbSnap.create(await checked(dbSnap, { databaseId: d.id, label: "four" }))).rejects.toThrow(
      /keeps at most 3 snapshots and has 3 \(one, id \d+; two, id \d+; three, id \d+\): delete one/,
    );
  });

  test("a lost answer: the snapshot it took is found by its label, never taken twice", async () => {
    const d = await database();
    emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/databases/mysql/instances/\\d+/backups$", rate: 1, kinds: ["lost"], limit: 1 }] });
    const c = await dbSnap.create(await checked(dbSnap, { databaseId: d.id, label: "lostanswer" }));
    expect((await snapshots(d.id)).map((b) => [String(b.id), b.label])).toEqual([[c.id, "lostanswer"]]);
    expectFaultFired(emu, "POST", `/v4/databases/mysql/instances/${d.id}/backups`, "lost", 1);
    expect(emu.log.filter((l) => l.method === "POST" && l.path === `/v4/databases/mysql/instances/${d.id}/backups`)).toHaveLength(1);
  });
});
