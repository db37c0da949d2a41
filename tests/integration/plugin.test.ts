/**
 * The provider plugin's gRPC server, called as the engine calls it (in this process, against the emulator):
 * configuration, check with auto-naming from the engine's seed, detailed diff, create/read/update/delete,
 * import ids of child resources, secrets marked by the plugin, customTimeouts, invokes.
 */
import type * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { call, ed25519Key, emulator, get, list } from "../helpers/emulator";
import { initFailed, pluginClient, secret, type PluginClient } from "../helpers/plugin-rpc";
import { waitUntil } from "../helpers/wait";
import { resetSession } from "../../provider/session";
import { specs } from "../../provider/registry";

type Props = Record<string, any>;
const PASS = "A-str0ng-Passw0rd!x";

let emu: Emulator;
let plugin: PluginClient;
const struct = (v: Props) => structproto.Struct.fromJavaScript(v);
const rpc = <Req, Res>(method: string, req: Req): Promise<Res> => plugin.rpc(method, req);
const configure = (args: Props) => plugin.configure(args);
const check = (...a: Parameters<PluginClient["check"]>) => plugin.check(...a);
const create = (type: string, name: string, props: Props, timeoutSeconds = 0) => plugin.create(type, name, props, { timeoutSeconds });
const read = (...a: Parameters<PluginClient["read"]>) => plugin.read(...a);
const diff = (...a: Parameters<PluginClient["diff"]>) => plugin.diff(...a);
const update = (type: string, id: string, olds: Props, news: Props) => plugin.update(type, id, olds, news);
const del = (...a: Parameters<PluginClient["del"]>) => plugin.del(...a);
const invoke = (...a: Parameters<PluginClient["invoke"]>) => plugin.invoke(...a);

beforeAll(async () => {
  emu = await emulator();
  plugin = await pluginClient();
  await configure({ apiUrl: emu.url, token: secret(emu.token) });
});
afterAll(async () => {
  plugin.close();
  resetSession();
  await emu.close();
});
beforeEach(() => {
  emu.timing.speed = TEST_SPEED;
});

test("plugin info, schema, and configuration that accepts secrets", async () => {
  const info = await rpc<emptyproto.Empty, any>("getPluginInfo", new emptyproto.Empty());
  expect(info.getVersion()).toMatch(/^\d+\.\d+\.\d+/);
  const schema = JSON.parse((await rpc<provproto.GetSchemaRequest, provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest())).getSchema());
  expect(schema.name).toBe("compute");
  expect(Object.keys(schema.resources)).toContain("compute:index:Instance");
  const res = await configure({ apiUrl: emu.url, token: secret(emu.token) });
  expect(res.getAcceptsecrets()).toBe(true);

  // CheckConfig keeps the token secret even when given as plain text, and refuses a malformed URL by name.
  const cc = new provproto.CheckRequest();
  cc.setUrn("urn:pulumi:dev::proj::pulumi:providers:compute::eu");
  cc.setNews(struct({ token: "plain-token", apiUrl: "not a url" }));
  const checked = await rpc<provproto.CheckRequest, provproto.CheckResponse>("checkConfig", cc);
  expect(checked.getInputs()!.toJavaScript()).toMatchObject({ token: secret("plain-token") });
  expect(checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
    ["apiUrl", expect.stringContaining("compute:apiUrl (or COMPUTE_API_URL) must be an http(s) URL")],
  ]);

  // No token, in the config or the environment: refused at preview, naming compute:token and COMPUTE_TOKEN.
  const saved = process.env.COMPUTE_TOKEN;
  delete process.env.COMPUTE_TOKEN;
  try {
    const none = new provproto.CheckRequest();
    none.setUrn("urn:pulumi:dev::proj::pulumi:providers:compute::default_0_1_0");
    none.setNews(struct({ apiUrl: "http://127.0.0.1:1/v4", token: "" }));
    const r = await rpc<provproto.CheckRequest, provproto.CheckResponse>("checkConfig", none);
    expect(r.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["token", expect.stringMatching(/compute:token.*COMPUTE_TOKEN/)]]);
  } finally {
    if (saved !== undefined) process.env.COMPUTE_TOKEN = saved;
  }
});

test("check auto-names from the resource name and the engine's seed: the same seed gives the same label", async () => {
  const key = ed25519Key(1);
  const a = await check("SshKey", "deploy-key", { sshKey: key });
  const b = await check("SshKey", "deploy-key", { sshKey: key });
  expect(a.inputs.label).toMatch(/^deploy-key-[0-9a-f]{7}$/);
  expect(b.inputs.label).toBe(a.inputs.label);
  expect((await check("SshKey", "deploy-key", { sshKey: key }, {}, "seed-2")).inputs.label).not.toBe(a.inputs.label);
  // Kept from the old inputs on an update.
  expect((await check("SshKey", "deploy-key", { sshKey: key }, a.inputs, "seed-3")).inputs.label).toBe(a.inputs.label);
  const bad = await check("SshKey", "k", { sshKey: "nope", label: "x".repeat(100) });
  expect(bad.failures.map(([p]) => p).sort()).toEqual(["label", "sshKey"]);
});

test("SSH key: create, read, detailed diff, update in place, delete", async () => {
  const { inputs } = await check("SshKey", "k", { sshKey: ed25519Key(2), label: "laptop" });
  const c = await create("SshKey", "k", inputs);
  expect(c.outs).toMatchObject({ label: "laptop", created: expect.any(String) });
  expect((await get(emu, `/profile/sshkeys/${c.id}`)).label).toBe("laptop");

  const r = await read("SshKey", c.id, c.outs);
  expect(r.id).toBe(c.id);
  expect(r.inputs).toEqual({ label: "laptop", sshKey: inputs.sshKey });

  const news = (await check("SshKey", "k", { ...inputs, label: "desk" }, inputs)).inputs;
  const d = await diff("SshKey", c.id, c.outs, news);
  expect(d).toMatchObject({
    changes: provproto.DiffResponse.DiffChanges.DIFF_SOME,
    replaces: [],
    diffs: ["label"],
    kinds: { label: provproto.PropertyDiff.Kind.UPDATE },
  });
  const key2 = (await check("SshKey", "k", { ...inputs, sshKey: ed25519Key(3) }, inputs)).inputs;
  expect((await diff("SshKey", c.id, c.outs, key2)).kinds).toEqual({ sshKey: provproto.PropertyDiff.Kind.UPDATE_REPLACE });

  const outs = await update("SshKey", c.id, c.outs, news);
  expect(outs.label).toBe("desk");
  expect((await get(emu, `/profile/sshkeys/${c.id}`)).label).toBe("desk");
  // A refused update fails without touching the state (no partial-failure details: the old outputs stay).
  // (a label the API refuses, sent as the engine would send an update, past check).
  const refused = await update("SshKey", c.id, outs, { ...news, label: "x".repeat(100) }).catch((e: grpc.ServiceError) => e);
  expect((refused as grpc.ServiceError).details).toMatch(/cannot update SSH key \d+: the API answered HTTP 400/);
  expect(initFailed(refused as grpc.ServiceError)).toBeUndefined();

  await del("SshKey", c.id, outs);
  expect(await list(emu, "/profile/sshkeys")).toEqual([]);
  // Gone: read answers with no id (the engine drops it from the stack on refresh).
  expect((await read("SshKey", c.id, outs)).id).toBe("");
});

test("the state holds no __declared: the engine's old inputs say what the program declared (a refresh reports only those as inputs)", async () => {
  const host = await create("Instance", "h", (await check("Instance", "h", { region: "us-east", type: "c1-standard-2", label: "plug-host" })).inputs);
  const { inputs } = await check("Disk", "d", { computeId: host.id, label: "data", size: 1024 });
  const d = await create("Disk", "d", inputs);
  expect(d.outs).not.toHaveProperty("__declared");
  expect(d.outs.filesystem).toBe("ext4"); // the API's default: never declared
  const again = (await check("Disk", "d", { computeId: host.id, label: "data", size: 1024 }, inputs)).inputs;
  expect((await diff("Disk", d.id, d.outs, again, inputs)).changes).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
  // A refresh reports as inputs what was declared, as the state had them.
  expect((await read("Disk", d.id, d.outs, inputs)).inputs).toEqual(inputs);
  // A state written by an earlier release, or by the dynamic classes, carries __declared itself.
  const legacy = { ...d.outs, __declared: Object.keys(inputs) };
  expect((await diff("Disk", d.id, legacy, again)).changes).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
  await call(emu, "DELETE", `/compute/instances/${host.id}`);
});

test("import: a child resource's id names its parent; the read gives inputs that check and diff clean", async () => {
  const inst = await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", label: "oob-1" } });
  const disk = await call(emu, "POST", `/compute/instances/${inst.body.id}/disks`, { body: { label: "data", size: 1024, filesystem: "ext4" } });
  expect(disk.status).toBe(200);

  const r = await read("Disk", `${inst.body.id}/${disk.body.id}`);
  expect(r.id).toBe(String(disk.body.id));
  expect(r.outs).toMatchObject({ computeId: inst.body.id, label: "data", size: 1024, filesystem: "ext4", __imported: true });
  expect(r.inputs).toMatchObject({ computeId: inst.body.id, label: "data", size: 1024 });
  // The program's inputs for it (as the import option sends them): no change.
  const news = (await check("Disk", "data", { computeId: String(inst.body.id), label: "data", size: 1024, filesystem: "ext4" }, r.inputs)).inputs;
  expect((await diff("Disk", r.id, r.outs, news)).changes).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);

  // An instance imported by its own id: a write-only rootPass in the program is no change (the API never shows it).
  const ri = await read("Instance", String(inst.body.id));
  const ni = (await check("Instance", "oob-1", { ...ri.inputs, rootPass: secret(PASS) }, ri.inputs)).inputs;
  expect((await diff("Instance", ri.id, ri.outs, ni)).diffs).toEqual([]);

  await expect(read("Disk", String(disk.body.id))).rejects.toThrow(/the import id of a disk is <computeId>\/<id> \(for example 123\/456\), got "\d+"/);
  await expect(read("Interface", "1/2")).rejects.toThrow(/<computeId>\/<configId>\/<id>/);
  // A component (`pulumi import compute:index:ServerInVpc ...`): said so, and what to import instead.
  await expect(read("ServerInVpc", "1")).rejects.toThrow(
    /compute:index:ServerInVpc is a component \(its parts are resources of their own under it\), which `pulumi import` cannot adopt: import its parts instead/,
  );
  await call(emu, "DELETE", `/compute/instances/${inst.body.id}`);
});

test("secrets: a secret input stays secret in the outputs, and the table's secret outputs are marked by the plugin", async () => {
  const { inputs } = await check("Instance", "web", {
    region: "us-east",
    type: "c1-standard-2",
    image: "compute/debian12",
    rootPass: secret(PASS),
    label: "web-s",
  });
  expect(inputs.rootPass).toEqual(secret(PASS));
  const c = await create("Instance", "web", inputs);
  expect(c.outs.rootPass).toEqual(secret(PASS));
  expect(c.outs.label).toBe("web-s");
  await del("Instance", c.id, c.outs);

  // Nothing secret in the inputs: the credentials and certificate are secret because the table says so.
  const db = await check("MysqlDatabase", "db", { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" });
  const made = await create("MysqlDatabase", "db", db.inputs);
  for (const k of ["username", "password", "caCertificate"]) expect(made.outs[k]).toEqual(secret(expect.any(String)));
  expect(made.outs.label).toBe("app-db");
  expect((await read("MysqlDatabase", made.id, made.outs)).outs.password).toEqual(made.outs.password);
  await del("MysqlDatabase", made.id, made.outs);
});

test("customTimeouts reach the waits: a create timeout of 1 s fails the instance's boot wait and keeps it", async () => {
  emu.timing.speed = 100 * (8 / 74); // 100 when an instance create took 8 s at speed 1, 74 s now: as slow as then
  const { inputs } = await check("Instance", "slow", { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "slow-1" });
  const err = await create("Instance", "slow", inputs, 1).catch((e: grpc.ServiceError) => e);
  expect((err as grpc.ServiceError).details).toMatch(/timed out after 1s waiting for instance \d+ to be running.*kept in the stack/);
  // The engine learns the id and properties from the error's details (ErrorResourceInitFailed) and keeps the instance.
  const kept = initFailed(err as grpc.ServiceError)!;
  expect(kept.id).toBe(String((await list(emu, "/compute/instances"))[0].id));
  expect(kept.props).toMatchObject({ label: "slow-1", status: "provisioning", rootPass: secret(PASS) });
  emu.timing.speed = TEST_SPEED;
  for (const i of await list(emu, "/compute/instances")) await call(emu, "DELETE", `/compute/instances/${i.id}`);
});

test("invoke serves the read functions; bad arguments come back as failures naming them", async () => {
  const regions = await invoke("compute:index:getRegions");
  expect(regions.ret.regions.map((r: Props) => r.id)).toContain("us-east");
  expect((await invoke("compute:index:getKernel", { id: "compute/grub2" })).ret.label).toBe("GRUB 2");
  expect((await invoke("compute:index:getRegion", { nope: 1 })).failures).toEqual(['getRegion: unknown argument "nope"']);
  await expect(invoke("compute:index:getNothing")).rejects.toThrow(/unknown function "getNothing"/);
  // The lookups too (the same function as the sdk's getX), with filters; an unknown field is a failure naming it.
  const vpc = await call(emu, "POST", "/vpcs", { body: { label: "invoked", region: "us-east" } });
  await call(emu, "POST", "/vpcs", { body: { label: "other", region: "us-east" } });
  const found = await invoke("compute:index:getVpcs", { filters: [{ name: "label", values: ["invoked"] }] });
  expect(found.ret.vpcs).toEqual([expect.objectContaining({ id: String(vpc.body.id), label: "invoked", region: "us-east" })]);
  expect((await invoke("compute:index:getVpcs", { filters: [{ name: "colour", values: ["x"] }] })).failures).toEqual([
    expect.stringMatching(/^getVpcs: filters\[0\]\.name: unknown field "colour"/),
  ]);
});

/**
 * `pulumi import` of 13 of the 14 types (not PostgresDatabaseSnapshot, whose table is MySQL's), as the engine runs it: Read by the import id with no state, then
 * Check of the inputs it read (olds and news alike), then Diff against what it read: no failure, no change.
 */
test("a Read of a resource that is gone answers an empty id, never an error, for every type (the engine's ExistsResource goes through Read)", async () => {
  const answers: [string, string][] = [];
  for (const spec of specs) {
    const inPath = spec.fields.filter((f) => f.inPath);
    // Gone, and so are its parents: a child of a parent that is gone is gone too.
    const id = spec.type === "Image" ? "private/999999" : [...inPath, spec].map((_x, i) => String(999_990 + i)).join("/");
    const r = await read(spec.type, id).catch((e: grpc.ServiceError) => ({ id: `error: ${e.details}` }));
    answers.push([spec.type, r.id]);
  }
  expect(answers).toEqual(specs.map((s) => [s.type, ""]));
});

test("import of each resource type but one: read by import id, the inputs read check and diff clean", async () => {
  const post = async (p: string, body: Props) => {
    const r = await call(emu, "POST", p, { body });
    if (r.status !== 200) throw new Error(`POST ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const inst = await post("/compute/instances", { label: "imp-1", region: "us-east", type: "c1-standard-2" });
  const disk = await post(`/compute/instances/${inst.id}/disks`, { label: "root", size: 2048, filesystem: "ext4" });
  const cfg = await post(`/compute/instances/${inst.id}/configs`, { label: "boot", devices: { sda: { disk_id: disk.id } } });
  const iface = await post(`/compute/instances/${inst.id}/configs/${cfg.id}/interfaces`, { purpose: "public" });
  const vpc = await post("/vpcs", { label: "imp-net", region: "us-east" });
  const subnet = await post(`/vpcs/${vpc.id}/subnets`, { label: "imp-sub", ipv4: "10.9.0.0/24" });
  await waitUntil(async () => (await get(emu, `/compute/instances/${inst.id}/disks/${disk.id}`)).status === "ready");
  const image = await post("/images", { disk_id: disk.id, label: "imp-image" });
  const mysql = await post("/databases/mysql/instances", { label: "imp-my", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" });
  const pg = await post("/databases/postgresql/instances", { label: "imp-pg", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" });
  const key = await post("/profile/sshkeys", { label: "imp-key", ssh_key: ed25519Key(9) });
  const cases: [string, string, string][] = [
    ["Instance", `${inst.id}`, `${inst.id}`],
    ["Disk", `${inst.id}/${disk.id}`, `${disk.id}`],
    ["Config", `${inst.id}/${cfg.id}`, `${cfg.id}`],
    ["Interface", `${inst.id}/${cfg.id}/${iface.id}`, `${iface.id}`],
    ["Vpc", `${vpc.id}`, `${vpc.id}`],
    ["Subnet", `${vpc.id}/${subnet.id}`, `${subnet.id}`],
    ["Image", image.id, image.id],
    ["MysqlDatabase", `${mysql.id}`, `${mysql.id}`],
    ["PostgresDatabase", `${pg.id}`, `${pg.id}`],
    ["SshKey", `${key.id}`, `${key.id}`],
  ];
  for (const [type, importId, id] of cases) {
    const r = await read(type, importId);
    expect([type, r.id]).toEqual([type, id]);
    const c = await check(type, "imported", r.inputs, r.inputs);
    expect([type, c.failures]).toEqual([type, []]);
    const d = await diff(type, r.id, r.outs, c.inputs);
    expect([type, d.diffs, d.changes]).toEqual([type, [], provproto.DiffResponse.DiffChanges.DIFF_NONE]);
  }
  // A database's credentials (read once it is active) are secret in what the import records too.
  await waitUntil(async () => (await get(emu, `/databases/mysql/instances/${mysql.id}`)).status === "active", { timeoutMs: 30_000 });
  expect((await read("MysqlDatabase", `${mysql.id}`)).outs.password).toEqual(secret(expect.any(String)));

  // What came later: a token (its value cannot be recovered: no `token` output), an instance's snapshot and
  // a database's, by `<parent id>/<backup id>`.
  const token = await post("/profile/tokens", { label: "imp-token", scopes: "computes:read_only" });
  await post(`/compute/instances/${inst.id}/backups/enable`, {});
  const snap = await post(`/compute/instances/${inst.id}/backups`, { label: "imp-snap" });
  await waitUntil(async () => (await get(emu, `/compute/instances/${inst.id}/backups/${snap.id}`)).status === "successful");
  await post(`/databases/mysql/instances/${mysql.id}/backups`, { label: "impsnap" });
  const [dbSnap] = (await get(emu, `/databases/mysql/instances/${mysql.id}/backups`)).data;
  for (const [type, importId, id] of [
    ["Token", `${token.id}`, `${token.id}`],
    ["InstanceSnapshot", `${inst.id}/${snap.id}`, `${snap.id}`],
    ["MysqlDatabaseSnapshot", `${mysql.id}/${dbSnap.id}`, `${dbSnap.id}`],
  ]) {
    const r = await read(type, importId);
    expect([type, r.id]).toEqual([type, id]);
    const c = await check(type, "imported", r.inputs, r.inputs);
    expect([type, c.failures]).toEqual([type, []]);
    const d = await diff(type, r.id, r.outs, c.inputs);
    expect([type, d.diffs, d.changes]).toEqual([type, [], provproto.DiffResponse.DiffChanges.DIFF_NONE]);
  }
  expect((await read("Token", `${token.id}`)).outs).not.toHaveProperty("token");
});

test("detailed diffs name the nested field that changes, and the one that forces a replacement", async () => {
  const K = provproto.PropertyDiff.Kind;
  const olds = {
    region: "us-east",
    type: "c1-standard-2",
    label: "nested",
    image: "compute/debian12",
    tags: ["alpha", "beta"],
    alerts: { cpu: 90, io: 10000, networkIn: 10, networkOut: 10, transferQuota: 80 },
    backupSchedule: { day: "Monday", window: "W2" },
    metadata: { userData: "YQ==" },
    interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: 7, ipv4: { vpc: "10.0.0.2" } }],
  };
  const inputs = Object.keys(olds);
  const news = {
    ...olds,
    tags: ["alpha", "gamma"],
    alerts: { cpu: 50 },
    backupSchedule: { day: "Friday" },
    interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: 7, ipv4: { vpc: "10.0.0.3" } }],
  };
  const d = await diff("Instance", "99", { ...olds, __declared: inputs }, news);
  expect(d.kinds).toEqual({ "tags[1]": K.UPDATE, "alerts.cpu": K.UPDATE, "backupSchedule.day": K.UPDATE, "interfaces[1].ipv4.vpc": K.UPDATE });
  expect(d.diffs.sort()).toEqual(["alerts", "backupSchedule", "interfaces", "tags"]);
  const replaced = await diff("Instance", "99", { ...olds, __declared: inputs }, { ...olds, metadata: { userData: "Yg==" } });
  expect(replaced).toMatchObject({ replaces: ["metadata"], kinds: { "metadata.userData": K.UPDATE_REPLACE } });
  const devices = (slot: string, diskId: number) => ({
    sda: null,
    sdb: null,
    sdc: null,
    sdd: null,
    sde: null,
    sdf: null,
    sdg: null,
    sdh: null,
    [slot]: { diskId, volumeId: null },
  });
  const cfg = { computeId: 5, label: "boot", devices: devices("sda", 11) };
  const moved = await diff("Config", "3", { ...cfg, __declared: Object.keys(cfg) }, { ...cfg, devices: devices("sda", 12) });
  expect(moved.kinds).toEqual({ "devices.sda.diskId": K.UPDATE });
});

test("a replacement the engine forces (replaceOnChanges) keeps the label hand-over: made first under a temporary label, then renamed", async () => {
  const args = { region: "us-east", type: "c1-standard-2", label: "forced-web", tags: ["blue"] };
  const first = await check("Instance", "web", args);
  const made = await create("Instance", "web", first.inputs);
  // The program's tags change; the engine checks against the old inputs, the diff says "in place"...
  const news = await check("Instance", "web", { ...args, tags: ["green"] }, first.inputs);
  expect((await diff("Instance", made.id, made.outs, news.inputs, first.inputs)).replaces).toEqual([]);
  // ...but replaceOnChanges makes it a replacement: the engine checks again with no old inputs, creates, then deletes.
  const again = await check("Instance", "web", { ...args, tags: ["green"] }, {});
  const replacement = await create("Instance", "web", again.inputs);
  expect((await get(emu, `/compute/instances/${replacement.id}`)).label).toMatch(/^forced-web-[0-9a-f]{7}$/);
  expect(replacement.outs.label).toBe("forced-web");
  await del("Instance", made.id, made.outs);
  const webs = (await list(emu, "/compute/instances")).filter((i) => i.label.startsWith("forced-web"));
  expect(webs.map((i) => [String(i.id), i.label, i.tags])).toEqual([[replacement.id, "forced-web", ["green"]]]);
  await del("Instance", replacement.id, replacement.outs);
});
