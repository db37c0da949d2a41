import { mysqlProvider as p, postgresProvider as pg } from "../../provider/resources/database";
import { call, get, list } from "../helpers/emulator";
import { useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const base = { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" };
/** The root password the API gives for a MySQL database. */
const password = async (id: string) => (await get(emu, `/databases/mysql/instances/${id}/credentials`)).password;
const checked = async (news: Record<string, unknown>, provider = p) => {
  const r = await provider.check({}, news);
  expect(r.failures).toEqual([]);
  return r.inputs;
};

test("create waits until active; credentials and CA certificate are outputs", async () => {
  const c = await p.create(await checked({ ...base, allowList: ["10.0.1.2/32"] }));
  expect(c.outs).toMatchObject({
    status: "active",
    port: 3306,
    hosts: { primary: "app-db-mysql-primary.db.example" },
    username: "root",
    allowList: ["10.0.1.2/32"],
    clusterSize: 1,
    replicationType: "none",
  });
  expect(c.outs.password).toBe(await password(c.id));
  expect(Buffer.from(String(c.outs.caCertificate), "base64").toString()).toMatch(/BEGIN CERTIFICATE/);
  expect(c.outs.engine).toBe("mysql/8.0.35");
  const same = { ...base, allowList: ["10.0.1.2/32"] };
  expect((await p.diff(c.id, c.outs, await checked(same))).changes).toBe(false);
  const r = await p.read(c.id, c.outs);
  expect((await p.diff(c.id, r.props!, await checked(same))).changes).toBe(false);
});

test("check: names the field for each bad input, with the engine's own rules", async () => {
  const r = await p.check({}, { ...base, label: "ab", engine: "postgresql/16.1", allowList: ["10.0.0.0/40"], updates: { frequency: "monthly", duration: 9 } });
  expect(r.failures.map((f) => f.property).sort()).toEqual(["allowList", "engine", "label", "updates", "updates"]);
  expect((await p.check({}, { ...base, replicationType: "asynch" })).failures[0].reason).toMatch(/one-node cluster/);
  expect((await pg.check({}, { ...base, engine: "postgresql/16.1", replicationType: "semi_synch", clusterSize: 3 })).failures[0].property).toBe(
    "replicationType",
  );
});

test("check: the contract's rules and texts (cluster size, replication, maintenance window), as the API says them", async () => {
  const reasons = async (news: Record<string, unknown>, provider = p) => (await provider.check({}, { ...base, ...news })).failures.map((f) => f.reason);
  expect(await reasons({ clusterSize: 2 })).toEqual(["clusterSize: Must be 1 or 3"]);
  expect(await reasons({ clusterSize: 3, replicationType: "none" })).toEqual(["replicationType: a three-node cluster replicates: use asynch or semi_synch"]);
  expect(await reasons({ replicationType: "asynch" })).toEqual(["replicationType: a one-node cluster has no replication: use none (or a cluster of 3 nodes)"]);
  expect(await reasons({ engine: "postgresql/16.1", clusterSize: 3, replicationType: "semi_synch" }, pg)).toEqual([
    "replicationType: Must be one of none, asynch for postgresql",
  ]);
  expect(await reasons({ updates: { frequency: "weekly", weekOfMonth: 2 } })).toEqual(["updates.weekOfMonth: must be null for a weekly window"]);
  expect(await reasons({ updates: { frequency: "monthly", hourOfDay: 24 } })).toEqual([
    "updates.hourOfDay: must be 0 to 23",
    "updates.weekOfMonth: must be 1 to 4 for a monthly window",
  ]);
  expect(await reasons({ updates: { frequency: "monthly", weekOfMonth: 4, dayOfWeek: 7, duration: 1 } })).toEqual([]);
});

test("in place: label, allow list (waits until applied), maintenance window; the id stays", async () => {
  const c = await p.create(await checked(base));
  const news = await checked({ ...base, label: "app-db-2", allowList: ["198.51.100.7"], updates: { hourOfDay: 4 } });
  expect(await p.diff(c.id, c.outs, news)).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  const u = await p.update(c.id, c.outs, news);
  expect(u.outs).toMatchObject({ label: "app-db-2", allowList: ["198.51.100.7"], status: "active", updates: { hourOfDay: 4, frequency: "weekly" } });
  expect(await list(emu, "/databases/instances")).toEqual([expect.objectContaining({ id: Number(c.id), label: "app-db-2", allow_list: ["198.51.100.7"] })]);
});

test("the maintenance window: monthly, then weekly again (the week of the month dropped)", async () => {
  const c = await p.create(await checked({ ...base, updates: { frequency: "monthly", weekOfMonth: 3, dayOfWeek: 5 } }));
  expect(c.outs.updates).toEqual({ frequency: "monthly", weekOfMonth: 3, dayOfWeek: 5, duration: 3, hourOfDay: 0 });
  const news = await checked({ ...base, updates: { frequency: "weekly", dayOfWeek: 5 } });
  const u = await p.update(c.id, c.outs, news);
  expect(u.outs.updates).toEqual({ frequency: "weekly", weekOfMonth: null, dayOfWeek: 5, duration: 3, hourOfDay: 0 });
});

test("type: up in place; down refused at preview with what to do", async () => {
  const c = await p.create(await checked(base));
  await expect(p.diff(c.id, c.outs, await checked({ ...base, type: "c1-nano-1" }))).rejects.toThrow(
    /type: a database can only move to a type with more disk than c1-standard-2 \(51200 MB\); c1-nano-1 has 25600 MB/,
  );
  const news = await checked({ ...base, type: "c1-standard-4" });
  expect((await p.diff(c.id, c.outs, news)).replaces).toEqual([]);
  expect((await p.update(c.id, c.outs, news)).outs).toMatchObject({ type: "c1-standard-4", totalDiskSizeGb: 80 });
});

test("replacement is visible, and never deletes the old cluster first", async () => {
  const c = await p.create(await checked(base));
  expect(await p.diff(c.id, c.outs, await checked({ ...base, region: "eu-central" }))).toMatchObject({
    changes: true,
    replaces: ["region"],
    deleteBeforeReplace: false,
  });
  expect((await p.diff(c.id, c.outs, await checked({ ...base, engine: "mysql/8.0.30", label: "app-db-b" }))).deleteBeforeReplace).toBe(false);
});

test("refresh reads the credentials again: a reset made elsewhere shows up", async () => {
  const c = await p.create(await checked(base));
  await call(emu, "POST", `/databases/mysql/instances/${c.id}/credentials/reset`, { body: {} });
  const r = await p.read(c.id, c.outs);
  expect(r.props!.password).not.toBe(c.outs.password);
  expect(r.props!.password).toBe(await password(c.id));
});

test("PostgreSQL: replication commit type; delete waits until gone; a gone database reads as gone", async () => {
  const c = await pg.create(
    await checked({ ...base, engine: "postgresql/16.1", clusterSize: 3, replicationType: "asynch", replicationCommitType: "remote_apply" }, pg),
  );
  expect(c.outs).toMatchObject({
    port: 5432,
    username: "postgres",
    replicationCommitType: "remote_apply",
    hosts: { secondary: "app-db-postgresql-secondary.db.example" },
  });
  await pg.delete(c.id, c.outs);
  expect(await list(emu, "/databases/instances")).toEqual([]);
  expect(await pg.read(c.id, c.outs)).toEqual({});
});

test("a create whose wait times out keeps the database (no leak), with its id", async () => {
  emu.timing.speed = 10 * (30 / 663); // 10 when a database create took 30 s at speed 1, 663 s now: as slow as then
  const err = await p.create(await checked({ ...base, timeouts: { create: "1s" } })).catch((e) => e);
  expect(err.message).toMatch(/timed out after 1s waiting for MySQL database \d+ to be active \(status provisioning\).*kept in the stack/);
  expect(err.id).toBe(String((await list(emu, "/databases/instances"))[0].id));
  // What the stack keeps has the engine as the input has it: the next diff plans no replacement.
  expect(err.properties.engine).toBe("mysql/8.0.35");
  expect((await p.diff(err.id, err.properties, await checked(base))).replaces).toEqual([]);
});

test("an engine given as the API lists it now (major only, `mysql/8`) is the cluster's version, not a replacement", async () => {
  const c = await p.create(await checked(base));
  expect(c.outs.engine).toBe("mysql/8.0.35");
  for (const engine of ["mysql/8", "mysql/8.0"])
    expect(await p.diff(c.id, c.outs, await checked({ ...base, engine }))).toMatchObject({ changes: false, replaces: [] });
  expect(await p.diff(c.id, c.outs, await checked({ ...base, engine: "mysql/8.4" }))).toMatchObject({ changes: true, replaces: ["engine"] });
});
