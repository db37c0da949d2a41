/**
 * Issue 5's example through the real Pulumi CLI: a web tier in a VPC and a MySQL database whose
 * allow list is the instance's VPC address, plus a PostgreSQL database and a snapshot of the MySQL one; up,
 * an allow list changed in place, a refresh after a credentials reset made elsewhere, a password rotation
 * in place, four snapshots refused at preview, destroy; no secret in plain text.
 */
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { call, emulator, get, list } from "../helpers/emulator";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

const ROOT_PASS = "D4tabase-Web-R00t!";
let emu: Emulator;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  stack = new TestStack("database", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, "database-example:rootPass": ROOT_PASS },
  });
});
afterAll(async () => {
  stack?.cleanup();
  await emu?.close();
});

/** A database's root password and CA certificate, as the API gives them (to an active database). */
const password = async (db: { engine: string; id: number }) => (await get(emu, `/databases/${db.engine}/instances/${db.id}/credentials`)).password;
const ca = async (db: { engine: string; id: number }) => (await get(emu, `/databases/${db.engine}/instances/${db.id}/ssl`)).ca_certificate;
const databases = () => list(emu, "/databases/instances");

test("up, allow list in place, refresh after a credentials reset, destroy, and no secret in plain text", async () => {
  const up = await stack.ok("up");
  expect(up.summary).toEqual({ create: 7 });
  expect(up.outputs).toMatchObject({ webVpcIp: "10.10.0.2", mysqlAllowList: ["10.10.0.2/32"], mysqlPassword: "[secret]", postgresCa: "[secret]" });
  const my = (await databases()).find((x) => x.engine === "mysql")!;
  const pg = (await databases()).find((x) => x.engine === "postgresql")!;
  expect(my).toMatchObject({ status: "active", allow_list: ["10.10.0.2/32"] });
  // (The list across engines has no replication fields, as the real API's: the engine's own record has them.)
  expect(await get(emu, `/databases/postgresql/instances/${pg.id}`)).toMatchObject({
    status: "active",
    cluster_size: 3,
    replication_commit_type: "remote_write",
  });
  // The snapshot exists in the API, under the label the program reports.
  const snaps = await list(emu, `/databases/mysql/instances/${my.id}/backups`);
  expect(snaps).toEqual([expect.objectContaining({ type: "snapshot", label: (up.outputs.mysqlSnapshots as string[])[0] })]);

  // Refused at preview before any request: a second snapshot of the secondary node of this one-node cluster.
  emu.log.length = 0;
  const secondary = await stack.run("preview", { config: { snapshots: "2", snapshotTarget: "secondary" } });
  expect(secondary.code).not.toBe(0);
  expect(secondary.output).toMatch(/target: secondary applies to a high availability \(three-node\) cluster, and MySQL database \d+ has 1 node: use primary/);
  expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);

  // The snapshot restored in place (restoreBackupId): one restore, the same cluster, restoring and then active.
  // The restore (10 s at speed 1, not recorded) lasts 100 ms, as at the tests' speed before (0.01), so that the
  // provider's first read sees it under way (at TEST_SPEED, 11 ms, it waits 10 s for a restore it did not see).
  emu.timing.speed = 0.01;
  const restored = (await stack.upAsPlanned({ config: { snapshots: undefined, snapshotTarget: undefined, restoreBackupId: String(snaps[0].id) } })).up.json;
  emu.timing.speed = TEST_SPEED;
  expect(restored.summary).toEqual({ update: 1, same: 6 });
  expect(restored.outputs.mysqlId).toBe(String(my.id));
  const restores = emu.log.filter((l) => l.method === "POST" && /\/restore$/.test(l.path)).map((l) => l.path);
  expect(restores).toEqual([`/v4/databases/mysql/instances/${my.id}/backups/${snaps[0].id}/restore`]);
  expect((await databases()).find((x) => x.engine === "mysql")).toMatchObject({ id: my.id, status: "active" });

  // The allow list changes in place: same database.
  const widened = (await stack.upAsPlanned({ config: { extraAllowed: '["198.51.100.0/24"]' } })).up.json;
  expect(widened.summary).toMatchObject({ update: 1, same: 6 });
  expect((await databases()).find((x) => x.engine === "mysql")).toMatchObject({ id: my.id, allow_list: ["10.10.0.2/32", "198.51.100.0/24"] });

  // A credentials reset made elsewhere: refresh records the new password (as a secret).
  const before = await password(my);
  await call(emu, "POST", `/databases/mysql/instances/${my.id}/credentials/reset`, { body: {} });
  expect(await password(my)).not.toBe(before);
  const refresh = await stack.run("refresh", { config: { extraAllowed: '["198.51.100.0/24"]' } });
  expect(refresh.code).toBe(0);
  // The refresh display lists input changes only (the password is an output), so read the state:
  // decrypted on purpose here, it holds the new password.
  const after = await password(my);
  const decrypted = await stack.ok("export", { flags: ["--show-secrets"] });
  expect(resourcesOf(decrypted, ":MysqlDatabase")[0].outputs.password.plaintext).toBe(JSON.stringify(after));

  // A rotation: the credentials are reset in place (same id), and the output is the API's new password.
  const wide = { extraAllowed: '["198.51.100.0/24"]' };
  const rotated = (await stack.upAsPlanned({ config: { ...wide, passwordRotation: "2026-11" } })).up.json;
  expect(rotated.summary).toMatchObject({ update: 1 });
  expect(rotated.outputs.mysqlId).toBe(String(my.id));
  const rotatedPassword = await password(my);
  expect(rotatedPassword).not.toBe(after);
  const shown = await stack.ok("export", { flags: ["--show-secrets"] });
  expect(resourcesOf(shown, ":MysqlDatabase")[0].outputs.password.plaintext).toBe(JSON.stringify(rotatedPassword));
  expect((await stack.run("preview", { config: { ...wide, passwordRotation: "2026-11" } })).json.changeSummary).toEqual({ same: 7 });

  // Four snapshots of one database: refused at preview, naming the limit, before anything is made.
  const four = await stack.run("preview", { config: { ...wide, passwordRotation: "2026-11", snapshots: "4" } });
  expect(four.code).not.toBe(0);
  expect(four.output).toMatch(/databaseId: database \d+ keeps at most 3 snapshots, and this program declares 4/);
  expect(await list(emu, `/databases/mysql/instances/${my.id}/backups`)).toHaveLength(1);

  // The audit: no password, certificate, root password or token in the state or the CLI output.
  const exported = JSON.stringify(await stack.ok("export"));
  const secrets = [emu.token, ROOT_PASS, before, after, await password(my), await ca(my), await password(pg), await ca(pg)];
  for (const s of secrets) {
    expect(exported).not.toContain(s);
    expect(stack.transcript.join("\n")).not.toContain(s);
  }
  const [mysqlState] = resourcesOf(JSON.parse(exported), ":MysqlDatabase");
  for (const k of ["password", "caCertificate", "username"]) expect(mysqlState.outputs[k]).toHaveProperty("ciphertext");

  const destroy = await stack.ok("destroy", { config: { ...wide, passwordRotation: "2026-11" } });
  expect(destroy.summary).toEqual({ delete: 7 });
  const left = { databases: await databases(), instances: await list(emu, "/compute/instances"), vpcs: await list(emu, "/vpcs") };
  expect(left).toEqual({ databases: [], instances: [], vpcs: [] });
});
