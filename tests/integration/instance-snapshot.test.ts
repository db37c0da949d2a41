/**
 * Snapshots against the emulator: InstanceSnapshot (one slot per instance, the backup service checked at
 * preview, a wait until taken, delete leaves it) and MysqlDatabaseSnapshot (found by label after an answer of
 * `{}`, at most 3 per database at preview and explained when the API refuses, delete removes it), their lost
 * create answers, and the lookups getInstanceBackups and getMysqlDatabaseBackups.
 */
import type { Emulator } from "../../emulator/server";
import { invoke } from "../../provider/functions";
import { mysqlProvider as db } from "../../provider/resources/database";
import { mysqlDatabaseSnapshot } from "../../provider/resources/databaseSnapshot";
import { instanceProvider as inst } from "../../provider/resources/instance";
import { instanceSnapshotProvider as snap } from "../../provider/resources/instanceSnapshot";
import { client } from "../../provider/transport/settings";
import { call, emulator, get, list, useEmulator } from "../helpers/emulator";
import { resetSession } from "../../provider/session";

const dbSnap = mysqlDatabaseSnapshot.provider;
let emu: Emulator;
beforeEach(async () => {
  emu = await emulator();
  await useEmulator(emu);
});
afterEach(async () => {
  await emu.close();
  resetSession();
});

type Provider = typeof snap;
const checked = async (p: Provider, news: Record<string, unknown>, name = "snap") => {
  const r = await p.check({}, { __resourceName: name, ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
};
const instance = async (backupsEnabled: boolean) =>
  inst.create(await checked(inst, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "Str0ng-Passw0rd!", backupsEnabled }));
const backups = async (computeId: string) => get(emu, `/compute/instances/${computeId}/backups`);

describe("InstanceSnapshot", () => {
  test("create waits until successful; read, lookup, a new label replaces the one in the slot, delete leaves it", async () => {
    const i = await instance(true);
    const c = await snap.create(await checked(snap, { computeId: i.id, label: "before-upgrade" }));
    expect(c.outs).toMatchObject({ label: "before-upgrade", status: "successful", type: "snapshot", available: true, disks: expect.any(Array) });
    expect((await backups(i.id)).snapshot.current).toMatchObject({ id: Number(c.id), label: "before-upgrade", status: "successful" });
    expect((await snap.read(c.id, c.outs)).props).toMatchObject({ status: "successful" });

    const found = await invoke(client(), "getInstanceBackups", { computeId: i.id, filters: [{ name: "type", values: ["snapshot"] }] });
    expect(found.backups).toEqual([expect.objectContaining({ id: c.id, label: "before-upgrade", status: "successful" })]);

    const d = await snap.diff(c.id, c.outs, await checked(snap, { computeId: i.id, label: "before-release-2" }));
    expect(d).toMatchObject({ changes: true, replaces: ["label"] });
    const next = await snap.create(await checked(snap, { computeId: i.id, label: "before-release-2" }));
    expect((await snap.read(c.id, c.outs)).id).toBeUndefined(); // the slot holds the new one
    await snap.delete(c.id, c.outs);
    expect(emu.log.filter((l) => l.method === "DELETE")).toEqual([]);
    await snap.delete(next.id, next.outs);
    expect((await backups(i.id)).snapshot.current).toMatchObject({ id: Number(next.id) });
  });

  test("at preview: a second snapshot of one instance, and an instance without the backup service, are refused naming computeId", async () => {
    const i = await instance(false);
    const off = await snap.check({}, { __resourceName: "a", computeId: i.id });
    expect(off.failures).toEqual([{ property: "computeId", reason: expect.stringMatching(/instance \d+ has no backup service: set backupsEnabled: true/) }]);
    const j = await instance(true);
    await checked(snap, { computeId: j.id }, "first");
    const second = await snap.check({}, { __resourceName: "second", computeId: j.id });
    expect(second.failures).toEqual([
      { property: "computeId", reason: expect.stringMatching(/has one snapshot slot, which InstanceSnapshot first of this program takes/) },
    ]);
    // The same resource checked again (an update, a replacement) keeps its slot.
    await checked(snap, { computeId: j.id, label: "x" }, "first");
  });

  test("the backup service being enabled by the Instance in the same run is not refused at preview", async () => {
    const ins = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "Str0ng-Passw0rd!", backupsEnabled: false };
    const i = await inst.create(await checked(inst, ins));
    // The Instance's diff (before the snapshot's check) plans it: the preview knows.
    await inst.diff(i.id, i.outs, await checked(inst, { ...ins, backupsEnabled: true }));
    await checked(snap, { computeId: i.id });
  });

  test("a lost create answer adopts the snapshot under way instead of taking a second one", async () => {
    const i = await instance(true);
    emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/compute/instances/\\d+/backups$", rate: 1, kinds: ["lost"], limit: 1 }] });
    const c = await snap.create(await checked(snap, { computeId: i.id, label: "lost" }));
    expect(emu.log.filter((l) => l.method === "POST" && /\/backups$/.test(l.path))).toHaveLength(1);
    expect((await backups(i.id)).snapshot.current).toMatchObject({ id: Number(c.id), label: "lost" });
  });
});

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
  });
});
