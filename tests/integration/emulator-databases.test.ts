import { DB_MS } from "../../emulator/routes/databases";
import { addUser, call, useClockedEmulator } from "../helpers/emulator";

const { emu, tick } = useClockedEmulator();

const M = "/databases/mysql/instances";
const P = "/databases/postgresql/instances";
const fields = (r: { body: any }) => r.body.errors.map((e: any) => e.field);
const mysql = (body: Record<string, unknown> = {}, token?: string) =>
  call(emu(), "POST", M, { token, body: { label: "db-1", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35", ...body } });
const active = async (body: Record<string, unknown> = {}) => {
  const r = await mysql(body);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  tick(DB_MS.provisioning);
  return r.body;
};

describe("engines and the cross-engine list", () => {
  test("engines need no token; one engine by its engine/version id", async () => {
    const r = await call(emu(), "GET", "/databases/engines/", { token: null });
    expect(r.body.data.map((e: any) => e.engine)).toEqual(expect.arrayContaining(["mysql", "postgresql"]));
    expect((await call(emu(), "GET", "/databases/engines/mysql/8.0.35", { token: null })).body).toMatchObject({ engine: "mysql", version: "8.0.35" });
    expect((await call(emu(), "GET", "/databases/engines/mysql/1.0", { token: null })).status).toBe(404);
  });

  test("/databases/instances lists every engine with instance_uri", async () => {
    await mysql();
    await call(emu(), "POST", P, { body: { label: "pg-1", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" } });
    const r = await call(emu(), "GET", "/databases/instances");
    expect(r.body.data.map((x: any) => [x.engine, x.instance_uri])).toEqual([
      ["mysql", "/v4/databases/mysql/instances/1"],
      ["postgresql", "/v4/databases/postgresql/instances/2"],
    ]);
    expect((await call(emu(), "GET", M)).body.results).toBe(1);
  });
});

describe("create", () => {
  test("provisioning, then active with hosts and port", async () => {
    const r = await mysql({ cluster_size: 3, allow_list: ["203.0.113.7", "10.0.0.0/8"] });
    expect(r.body).toMatchObject({
      status: "provisioning",
      label: "db-1",
      engine: "mysql",
      version: "8.0.35",
      cluster_size: 3,
      replication_type: "asynch",
      encrypted: false,
      ssl_connection: true,
      hosts: { primary: null, secondary: null },
      allow_list: ["203.0.113.7", "10.0.0.0/8"],
    });
    expect(r.body).not.toHaveProperty("replication_commit_type");
    expect(JSON.stringify(r.body)).not.toMatch(/password|_ca/);
    tick(DB_MS.provisioning - 1);
    expect((await call(emu(), "GET", `${M}/${r.body.id}`)).body.status).toBe("provisioning");
    tick(1);
    const db = (await call(emu(), "GET", `${M}/${r.body.id}`)).body;
    expect(db).toMatchObject({
      status: "active",
      port: 3306,
      hosts: { primary: "db-1-mysql-primary.db.example", secondary: "db-1-mysql-secondary.db.example" },
    });
  });

  test("PostgreSQL: replication_commit_type defaults to local; port 5432", async () => {
    const r = await call(emu(), "POST", P, {
      body: { label: "pg-1", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1", cluster_size: 3, replication_type: "asynch" },
    });
    expect(r.body.replication_commit_type).toBe("local");
    tick(DB_MS.provisioning);
    expect((await call(emu(), "GET", `${P}/${r.body.id}`)).body.port).toBe(5432);
  });

  test("required fields, labels 3..32 and unique, cluster size 1 or 3", async () => {
    expect(fields(await call(emu(), "POST", M, { body: {} })).sort()).toEqual(["engine", "label", "region", "type"]);
    expect(fields(await mysql({ label: "ab" }))).toEqual(["label"]);
    expect(fields(await mysql({ label: "x".repeat(33) }))).toEqual(["label"]);
    await mysql();
    expect((await mysql()).body.errors[0].reason).toMatch(/unique among your databases/);
    expect(fields(await mysql({ label: "db-2", cluster_size: 2 }))).toEqual(["cluster_size"]);
  });

  test.each([
    [M, "mysql/8.0.35", { replication_type: "semi_synch", cluster_size: 3 }, undefined],
    [P, "postgresql/16.1", { replication_type: "semi_synch", cluster_size: 3 }, /none, asynch for postgresql/],
    [M, "mysql/8.0.35", { replication_type: "asynch", cluster_size: 1 }, /one-node cluster/],
    [M, "mysql/8.0.35", { replication_type: "none", cluster_size: 3 }, /three-node cluster replicates/],
    [M, "mysql/8.0.35", { replication_commit_type: "local" }, /Only for PostgreSQL/],
    [P, "postgresql/16.1", { replication_commit_type: "sometimes" }, /on, local, remote_write/],
    [M, "postgresql/16.1", {}, /not a mysql engine/],
  ])("%s %s %j", async (path, engine, extra, reason) => {
    const r = await call(emu(), "POST", path, { body: { label: "db-x", region: "us-east", type: "c1-standard-2", engine, ...extra } });
    if (reason === undefined) expect(r.status).toBe(200);
    else expect(r.body.errors[0].reason).toMatch(reason);
  });

  test("the replication rule's texts; a label that is not text", async () => {
    const pg = { label: "pg-x", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" };
    expect((await call(emu(), "POST", P, { body: { ...pg, cluster_size: 3, replication_type: "none" } })).body.errors).toEqual([
      { field: "replication_type", reason: "A three-node cluster replicates: use asynch" },
    ]);
    expect((await mysql({ cluster_size: 3, replication_type: "none" })).body.errors[0].reason).toBe(
      "A three-node cluster replicates: use asynch or semi_synch",
    );
    expect((await mysql({ replication_type: "semi_synch" })).body.errors[0].reason).toBe(
      "A one-node cluster has no replication: use none (or a cluster of 3 nodes)",
    );
    // Said with the other fields' refusals, at once.
    expect(fields(await mysql({ label: "x", replication_type: "asynch" }))).toEqual(["label", "replication_type"]);
    expect((await mysql({ label: 42 })).body.errors).toEqual([{ field: "label", reason: "Label must be a string" }]);
  });

  test("the allow list takes IPs and CIDR ranges only", async () => {
    const r = await mysql({ allow_list: ["1.2.3.4", "10.0.0.0/33", "nope", "2001:db8::/32"] });
    expect(fields(r)).toEqual(["allow_list[1]", "allow_list[2]"]);
  });

  test("restricted users need add_databases; only unrestricted users delete or reset credentials", async () => {
    const none = await addUser(emu(), "none", { restricted: true });
    expect((await mysql({}, none)).status).toBe(403);
    const can = await addUser(emu(), "can", { restricted: true, global: { add_databases: true } });
    const r = await mysql({}, can);
    expect(r.status).toBe(200);
    tick(DB_MS.provisioning);
    expect((await call(emu(), "DELETE", `${M}/${r.body.id}`, { token: can })).body.errors[0].reason).toMatch(/Only unrestricted users/);
    expect((await call(emu(), "POST", `${M}/${r.body.id}/credentials/reset`, { token: can, body: {} })).status).toBe(403);
    const ro = await addUser(emu(), "reader", { scopes: "databases:read_only" });
    expect((await call(emu(), "GET", M, { token: ro })).status).toBe(200);
    expect((await mysql({ label: "db-9" }, ro)).status).toBe(403);
  });
});

describe("status preconditions", () => {
  test("while provisioning: no update, snapshot, credentials, patch, SSL, delete or backups", async () => {
    const r = (await mysql()).body;
    const refused = async (method: string, path: string, body?: unknown) =>
      (await call(emu(), method, `${M}/${r.id}${path}`, { body: body ?? (method === "GET" || method === "DELETE" ? undefined : {}) })).body.errors?.[0].reason;
    expect(await refused("PUT", "", { label: "db-2" })).toMatch(/must be active to be updated; it is provisioning/);
    expect(await refused("POST", "/backups", { label: "s1" })).toMatch(/must be active/);
    expect(await refused("GET", "/credentials")).toMatch(/must be active/);
    expect(await refused("POST", "/patch")).toMatch(/must be active/);
    expect(await refused("GET", "/ssl")).toMatch(/must be active/);
    expect(await refused("DELETE", "")).toMatch(/must be active, degraded, failed to be deleted/);
    expect(await refused("GET", "/backups")).toMatch(/still provisioning/);
  });

  test("update: label now; allow list and type take a while (updating -> active); type only upwards", async () => {
    const db = await active();
    const u = await call(emu(), "PUT", `${M}/${db.id}`, { body: { label: "db-renamed", allow_list: ["198.51.100.0/24"] } });
    expect(u.body).toMatchObject({ label: "db-renamed", status: "updating", allow_list: ["198.51.100.0/24"] });
    expect((await call(emu(), "PUT", `${M}/${db.id}`, { body: { label: "again" } })).body.errors[0].reason).toMatch(/must be active/);
    tick(DB_MS.updating);
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body.status).toBe("active");
    expect((await call(emu(), "PUT", `${M}/${db.id}`, { body: { type: "c1-nano-1" } })).body.errors[0]).toMatchObject({
      field: "type",
      reason: expect.stringMatching(/more disk space/),
    });
    await call(emu(), "PUT", `${M}/${db.id}`, { body: { type: "c1-standard-4" } });
    tick(DB_MS.updating * 3);
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body).toMatchObject({ type: "c1-standard-4", total_disk_size_gb: 80, status: "active" });
  });

  test("a body the schemas refuse is refused before the cluster's status is asked", async () => {
    const r = (await mysql()).body;
    expect((await call(emu(), "PUT", `${M}/${r.id}`, { body: { label: "x" } })).body.errors).toEqual([
      { field: "label", reason: "Label must be 3 to 32 characters (got 1)" },
    ]);
    expect((await call(emu(), "POST", `${M}/${r.id}/backups`, { body: { label: "has-dash" } })).body.errors[0].field).toBe("label");
    expect((await call(emu(), "POST", `${M}/${r.id}/backups`, { body: { label: 7 } })).body.errors).toEqual([
      { field: "label", reason: "Label must be a string" },
    ]);
    expect((await call(emu(), "POST", `${M}/${r.id}/backups`, { body: {} })).body.errors).toEqual([
      { field: "label", reason: "label is required: 1 to 30 characters" },
    ]);
    expect((await call(emu(), "PUT", `${M}/${r.id}`, { body: { label: "db-ok" } })).body.errors[0].reason).toMatch(
      /must be active to be updated; it is provisioning/,
    );
  });

  test("the maintenance window is validated", async () => {
    const db = await active();
    const bad = await call(emu(), "PUT", `${M}/${db.id}`, { body: { updates: { frequency: "monthly", duration: 5, hour_of_day: 24, day_of_week: 0 } } });
    expect(fields(bad).sort()).toEqual(["updates.day_of_week", "updates.duration", "updates.hour_of_day", "updates.week_of_month"]);
    const ok = await call(emu(), "PUT", `${M}/${db.id}`, {
      body: { updates: { frequency: "monthly", duration: 2, hour_of_day: 3, day_of_week: 7, week_of_month: 2 } },
    });
    expect(ok.body.updates).toEqual({ frequency: "monthly", duration: 2, hour_of_day: 3, day_of_week: 7, week_of_month: 2 });
    const weekly = { frequency: "weekly", duration: 1, hour_of_day: 0, day_of_week: 1 };
    expect((await call(emu(), "PUT", `${M}/${db.id}`, { body: { updates: { ...weekly, week_of_month: 2 } } })).body.errors).toEqual([
      { field: "updates.week_of_month", reason: "Must be null for a weekly window" },
    ]);
    expect((await call(emu(), "PUT", `${M}/${db.id}`, { body: { updates: { ...weekly, duration: 4 } } })).body.errors).toEqual([
      { field: "updates.duration", reason: "Must be 1 to 3 hours" },
    ]);
    expect((await call(emu(), "PUT", `${M}/${db.id}`, { body: { updates: weekly } })).body.updates).toEqual({ ...weekly, week_of_month: null });
  });
});

describe("backups, credentials, SSL, patch", () => {
  test("snapshots: label rules, target secondary only for HA, one at a time, at most 3", async () => {
    const db = await active();
    const snap = (label: string, extra = {}) => call(emu(), "POST", `${M}/${db.id}/backups`, { body: { label, ...extra } });
    expect(fields(await snap("has-dash"))).toEqual(["label"]);
    expect(fields(await snap("x".repeat(31)))).toEqual(["label"]);
    expect((await snap("s1", { target: "secondary" })).body.errors[0].reason).toMatch(/high availability/);
    expect((await snap("s1")).body).toEqual({});
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body.status).toBe("backing_up");
    // A snapshot blocks the next one (and the update) until it ends.
    expect((await snap("s2")).body.errors[0].reason).toMatch(/must be active|in progress/);
    tick(DB_MS.snapshot);
    expect((await snap("s2")).status).toBe(200);
    tick(DB_MS.snapshot);
    expect((await snap("s3")).status).toBe(200);
    tick(DB_MS.snapshot);
    expect((await snap("s4")).body.errors[0].reason).toMatch(/at most 3 snapshots/);
    const list = (await call(emu(), "GET", `${M}/${db.id}/backups`)).body.data;
    expect(list.map((b: any) => [b.label, b.type])).toEqual([
      ["s1", "snapshot"],
      ["s2", "snapshot"],
      ["s3", "snapshot"],
    ]);
    expect((await call(emu(), "DELETE", `${M}/${db.id}/backups/${list[0].id}`)).status).toBe(200);
    expect((await snap("s4")).status).toBe(200);
  });

  test("daily automatic backups at 00:00 UTC, kept 7 days", async () => {
    const db = await active();
    tick(10 * 24 * 3600_000);
    const autos = (await call(emu(), "GET", `${M}/${db.id}/backups`)).body.data.filter((b: any) => b.type === "auto");
    expect(autos).toHaveLength(7);
    expect(autos.every((b: any) => b.created.endsWith("T00:00:00"))).toBe(true);
  });

  test("credentials, reset (a new password), SSL certificate; a restore after a reset leaves the cluster failed", async () => {
    const db = await active();
    const c1 = (await call(emu(), "GET", `${M}/${db.id}/credentials`)).body;
    expect(c1).toEqual({ username: "root", password: expect.stringMatching(/^.{16,}$/) });
    const ssl = (await call(emu(), "GET", `${M}/${db.id}/ssl`)).body.ca_certificate;
    expect(Buffer.from(ssl, "base64").toString()).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);
    await call(emu(), "POST", `${M}/${db.id}/backups`, { body: { label: "before" } });
    tick(DB_MS.snapshot);
    expect((await call(emu(), "POST", `${M}/${db.id}/credentials/reset`, { body: {} })).body).toEqual({});
    expect((await call(emu(), "GET", `${M}/${db.id}/credentials`)).body.password).not.toBe(c1.password);
    const b = (await call(emu(), "GET", `${M}/${db.id}/backups`)).body.data[0];
    await call(emu(), "POST", `${M}/${db.id}/backups/${b.id}/restore`, { body: {} });
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body.status).toBe("restoring");
    tick(DB_MS.restoring);
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body.status).toBe("failed");
    // A failed cluster can still be restored or deleted.
    expect((await call(emu(), "DELETE", `${M}/${db.id}`)).status).toBe(200);
  });

  test("patch: updating, then active", async () => {
    const db = await active();
    await call(emu(), "POST", `${M}/${db.id}/patch`, { body: {} });
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body.status).toBe("updating");
    tick(DB_MS.patching);
    expect((await call(emu(), "GET", `${M}/${db.id}`)).body.status).toBe("active");
  });

  test("a patch holds updating as long as the real API's (recorded: 48 to 78 s): a client polling every 15 s reads it", async () => {
    for (const [path, engine] of [
      [M, "mysql/8.0.35"],
      [P, "postgresql/16.1"],
    ]) {
      const db = (await call(emu(), "POST", path, { body: { label: `patched-${engine.slice(0, 5)}`, region: "us-east", type: "c1-standard-2", engine } })).body;
      tick(DB_MS.provisioning);
      expect((await call(emu(), "POST", `${path}/${db.id}/patch`, { body: {} })).status).toBe(200);
      // linodego's database suites poll every 15 s (5 s before: they never read it).
      const polls: string[] = [];
      for (let poll = 0; poll < 5; poll++) {
        tick(15_000);
        polls.push((await call(emu(), "GET", `${path}/${db.id}`)).body.status);
      }
      expect([engine, polls]).toEqual([engine, ["updating", "updating", "updating", "active", "active"]]);
    }
  });

  test("PostgreSQL has the same operations under its path (mirrored)", async () => {
    const r = await call(emu(), "POST", P, { body: { label: "pg-1", region: "us-east", type: "c1-standard-2", engine: "postgresql/15.5" } });
    tick(DB_MS.provisioning);
    expect((await call(emu(), "GET", `${P}/${r.body.id}/credentials`)).body.username).toBe("postgres");
    expect((await call(emu(), "PUT", `${P}/${r.body.id}`, { body: { allow_list: ["10.0.0.1"] } })).body.status).toBe("updating");
    expect((await call(emu(), "GET", `${M}/${r.body.id}`)).status).toBe(404);
  });
});
