/**
 * A MySQL database's data and credentials changed in place against the emulator: a backup restored
 * (`restoreBackupId`, and a secondary snapshot of a one-node cluster refused at preview), and the root
 * credentials reset (`passwordRotation`, refused while the cluster restores a backup).
 */
import { mysqlProvider as db } from "../../provider/resources/database";
import { mysqlDatabaseSnapshot } from "../../provider/resources/databaseSnapshot";
import { call, get, list } from "../helpers/emulator";
import { checked, posts, said, useProviderSuite } from "../helpers/provider-suite";

jest.setTimeout(120_000);

const emu = useProviderSuite();

describe("MysqlDatabase restoreBackupId", () => {
  const base = { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" };
  const dbSnap = mysqlDatabaseSnapshot.provider;

  test("restores a backup in place (same id, restoring then active, credentials read again); the same value again or removed restores nothing; a backup of another cluster is refused at preview", async () => {
    const c = await db.create(await checked(db, base));
    const s = await dbSnap.create((await dbSnap.check({}, { __resourceName: "s", databaseId: c.id, label: "beforemigration" })).inputs);

    // At preview: a backup that is not this cluster's names restoreBackupId; nothing is sent.
    emu.log.length = 0;
    await expect(db.diff(c.id, c.outs, await checked(db, { ...base, restoreBackupId: 999 }, c.outs))).rejects.toThrow(
      /restoreBackupId: 999 is not a backup of MySQL database \d+/,
    );
    expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);

    const news = await checked(db, { ...base, restoreBackupId: s.id }, c.outs);
    const d = await db.diff(c.id, c.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    // The restore (10 s at speed 1, not recorded) lasts 100 ms, as at the tests' speed before (0.01): the polls
    // every 50 ms see it. (At TEST_SPEED, 0.01 * 8 / 74, it would last 11 ms.)
    emu.timing.speed = 0.01;
    const statuses: string[] = [];
    const watch = setInterval(() => void get(emu, `/databases/mysql/instances/${c.id}`).then((x) => statuses.push(x.status)), 50);
    const u = await db.update(c.id, c.outs, news).finally(() => clearInterval(watch));
    expect(posts(emu, /\/backups\/\d+\/restore$/).map((l) => l.path)).toEqual([`/databases/mysql/instances/${c.id}/backups/${s.id}/restore`]);
    expect(statuses).toContain("restoring");
    expect(await get(emu, `/databases/mysql/instances/${c.id}`)).toMatchObject({ id: Number(c.id), status: "active" });
    expect(u.outs).toMatchObject({
      restoreBackupId: s.id,
      status: "active",
      password: (await get(emu, `/databases/mysql/instances/${c.id}/credentials`)).password,
    });

    // Unchanged: no change planned; removed: a change of the input only, nothing restored.
    expect((await db.diff(c.id, u.outs, news)).changes).toBe(false);
    emu.log.length = 0;
    const removed = await checked(db, base, u.outs);
    await db.update(c.id, u.outs, removed);
    expect(posts(emu, /restore$/)).toEqual([]);
  });

  test("on a new cluster nothing is restored, and a line says so", async () => {
    const out = await said(() => db.create({ ...base, restoreBackupId: 5 }).then(async (c) => expect(c.outs.restoreBackupId).toBe(5)));
    expect(out).toMatch(/restoreBackupId 5: a new MySQL cluster has no backups of its own, so nothing is restored/);
    expect(posts(emu, /restore$/)).toEqual([]);
  });

  test("a secondary snapshot of a one-node cluster is refused at preview, naming target", async () => {
    const c = await db.create(await checked(db, base));
    const r = await dbSnap.check({}, { __resourceName: "s", databaseId: c.id, label: "nightly", target: "secondary" });
    expect(r.failures).toEqual([
      { property: "target", reason: expect.stringMatching(/^target: secondary applies to a high availability \(three-node\) cluster.*has 1 node/) },
    ]);
  });
});

describe("passwordRotation", () => {
  const base = { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" };
  const password = async (id: string) => (await get(emu, `/databases/mysql/instances/${id}/credentials`)).password;

  test("a new value resets the root credentials in place: same id, the output is the API's new password", async () => {
    const ins = await checked(db, { ...base, passwordRotation: "2026-11" });
    const c = await db.create(ins);
    const first = c.outs.password;
    expect(first).toBe(await password(c.id));
    // The same value: no change.
    expect((await db.diff(c.id, c.outs, await checked(db, { ...base, passwordRotation: "2026-11" }, ins))).changes).toBe(false);
    const news = await checked(db, { ...base, passwordRotation: "2026-12" }, ins);
    const d = await db.diff(c.id, c.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [], changed: ["passwordRotation"] });
    const u = await db.update(c.id, c.outs, news);
    expect(u.outs.password).not.toBe(first);
    expect(u.outs.password).toBe(await password(c.id));
    expect(emu.log.filter((l) => l.path.endsWith("/credentials/reset"))).toHaveLength(1);
    // Removed: nothing is reset.
    await db.update(c.id, u.outs, await checked(db, base, news));
    expect(emu.log.filter((l) => l.path.endsWith("/credentials/reset"))).toHaveLength(1);
  });

  test("refused at preview while the cluster restores a backup (a reset then would leave it failed)", async () => {
    const c = await db.create(await checked(db, { ...base, passwordRotation: "1" }));
    emu.timing.speed = 0.01; // the restore lasts 100 ms, as before (above), and the preview reads it under way
    await call(emu, "POST", `/databases/mysql/instances/${c.id}/backups`, { body: { label: "b1" } });
    await new Promise((r) => setTimeout(r, 300));
    const [b] = await list(emu, `/databases/mysql/instances/${c.id}/backups`);
    expect((await call(emu, "POST", `/databases/mysql/instances/${c.id}/backups/${b.id}/restore`, { body: {} })).status).toBe(200);
    await expect(db.diff(c.id, c.outs, await checked(db, { ...base, passwordRotation: "2" }))).rejects.toThrow(
      /passwordRotation: database \d+ is restoring a backup, and a credentials reset during a restore leaves it failed/,
    );
  });
});
