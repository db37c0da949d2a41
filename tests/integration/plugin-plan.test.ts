/**
 * Exact previews: the plugin's Create and Update at preview (`preview: true`) plan outputs without a
 * request, and the plan never lies. For every resource type, a create and a run of in-place changes, each
 * planned and then made as the engine makes them: every output the plan says it knows is what the
 * operation then returns, every output the operation returns is in the plan (known or unknown), and the
 * emulator sees no request while planning.
 */
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { call, ed25519Key, emulator, get } from "../helpers/emulator";
import { isSecretValue, pluginClient, secret, UNKNOWN, type PluginClient } from "../helpers/plugin-rpc";
import { waitUntil } from "../helpers/wait";
import { definitions } from "../../provider/registry";
import { resetSession } from "../../provider/session";

jest.setTimeout(120_000);
type Props = Record<string, any>;
const PASS = "A-str0ng-Passw0rd!x";

let emu: Emulator;
let plugin: PluginClient;

beforeAll(async () => {
  emu = await emulator();
  emu.timing.speed = TEST_SPEED;
  plugin = await pluginClient();
  await plugin.configure({ apiUrl: emu.url, token: secret(emu.token) });
});
afterAll(async () => {
  plugin.close();
  resetSession();
  await emu.close();
});

/** The types a test of this file planned and made: every type of the registry must be (the last test). */
const planned = new Set<string>();

const unknown = (v: unknown) => v === UNKNOWN || (isSecretValue(v) && v.value === UNKNOWN);
/** The API requests the emulator has seen (its log, less the admin requests that read it). */
const requests = async () => ((await get(emu, "/__emulator/log")) as { path: string }[]).filter((e) => e.path.startsWith("/v4")).length;

/** A planned value against the value returned: equal, but where the plan says unknown (at any depth). */
function agrees(planned: unknown, actual: unknown): boolean {
  if (unknown(planned)) return true;
  if (Array.isArray(planned)) return Array.isArray(actual) && planned.length === actual.length && planned.every((v, i) => agrees(v, actual[i]));
  if (planned && typeof planned === "object" && !isSecretValue(planned)) {
    if (!actual || typeof actual !== "object" || Array.isArray(actual)) return false;
    const keys = new Set([...Object.keys(planned), ...Object.keys(actual)]);
    return [...keys].every((k) => agrees((planned as Props)[k], (actual as Props)[k]));
  }
  return JSON.stringify(actual) === JSON.stringify(planned);
}

/** What a plan says against what the operation did: known values hold, nothing returned is missing from the plan. */
function holds(what: string, planned: Props, actual: Props): void {
  const lies = Object.entries(planned)
    .filter(([k, v]) => !agrees(v, actual[k]))
    .map(([k, v]) => `${k}: planned ${JSON.stringify(v)}, got ${JSON.stringify(actual[k])}`);
  expect([what, lies]).toEqual([what, []]);
  const missing = Object.keys(actual).filter((k) => !(k in planned));
  expect([what, "missing from the plan", missing]).toEqual([what, "missing from the plan", []]);
}

/**
 * Plans and makes `type` from `steps[0]` (the program's arguments), then each next step in place: the
 * arguments as the program gives them, each a full set. Returns the id and the last outputs.
 */
async function lifecycle(type: string, name: string, steps: Props[], expectPlan?: (i: number, planned: Props, olds: Props) => void) {
  planned.add(type);
  const first = await plugin.check(type, name, steps[0]);
  expect([type, first.failures]).toEqual([type, []]);
  let before = await requests();
  const plannedCreate = (await plugin.create(type, name, first.inputs, { preview: true })).outs;
  expect([type, "requests at preview", (await requests()) - before]).toEqual([type, "requests at preview", 0]);
  const made = await plugin.create(type, name, first.inputs);
  holds(`${type} create`, plannedCreate, made.outs);
  expectPlan?.(0, plannedCreate, {});
  let olds = made.outs;
  let oldInputs = first.inputs;
  for (let i = 1; i < steps.length; i++) {
    const what = `${type} step ${i} (${JSON.stringify(steps[i]).slice(0, 120)})`;
    const news = await plugin.check(type, name, steps[i], oldInputs);
    expect([what, news.failures]).toEqual([what, []]);
    const d = await plugin.diff(type, made.id, olds, news.inputs, oldInputs);
    expect([what, d.replaces, d.diffs.length > 0]).toEqual([what, [], true]);
    before = await requests();
    const planned = await plugin.update(type, made.id, olds, news.inputs, { preview: true, oldInputs });
    expect([what, "requests at preview", (await requests()) - before]).toEqual([what, "requests at preview", 0]);
    const actual = await plugin.update(type, made.id, olds, news.inputs, { oldInputs });
    holds(what, planned, actual);
    expectPlan?.(i, planned, olds);
    olds = actual;
    oldInputs = news.inputs;
  }
  return { id: made.id, outs: olds, inputs: oldInputs };
}

const post = async (p: string, body: Props) => {
  const r = await call(emu, "POST", p, { body });
  if (r.status !== 200) throw new Error(`POST ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

test("SSH key and token: a relabel keeps every other output known", async () => {
  const sshKey = ed25519Key(31);
  await lifecycle("SshKey", "k", [{ sshKey }, { sshKey, label: "renamed" }], (i, planned, olds) => {
    if (i === 0) expect(planned).toMatchObject({ label: expect.stringMatching(/^k-[0-9a-f]{7}$/), sshKey, created: UNKNOWN });
    else expect(planned).toEqual({ label: "renamed", sshKey, created: olds.created });
  });
  const scopes = "computes:read_only";
  await lifecycle("Token", "t", [{ scopes }, { scopes, label: "agent-2" }], (i, planned, olds) => {
    if (i === 1) expect(planned).toEqual({ label: "agent-2", scopes, expiry: null, token: olds.token, created: olds.created });
  });
});

test("VPC and subnet: updated is unknown only when a field the API stamps changes", async () => {
  const region = "us-east";
  // The API stamps `updated` when a VPC's label or description changes, a subnet's when its label does: each
  // step below changes one of them, so `updated` is planned unknown; every other output keeps its value.
  const vpcSteps = [{ region }, { region, description: "first" }, { region, description: "first", label: "net-two" }, { region }];
  const vpcChanges: Props[] = [{}, { description: "first" }, { label: "net-two" }, { description: "" }];
  const v = await lifecycle("Vpc", "net", vpcSteps, (i, planned, olds) => {
    if (i === 0)
      expect(planned).toEqual({ region, label: expect.stringMatching(/^net-[0-9a-f]{7}$/), description: UNKNOWN, created: UNKNOWN, updated: UNKNOWN });
    else expect([i, planned]).toEqual([i, { ...olds, ...vpcChanges[i], updated: UNKNOWN }]);
  });
  const subnet = { vpcId: v.id, ipv4: "10.1.0.0/24" };
  const sub = await lifecycle("Subnet", "sub", [subnet, { ...subnet, label: "sub-two" }], (i, planned, olds) => {
    const label = expect.stringMatching(/^sub-[0-9a-f]{7}$/);
    if (i === 0) expect(planned).toEqual({ ...subnet, vpcId: Number(v.id), label, computes: UNKNOWN, created: UNKNOWN, updated: UNKNOWN });
    else expect(planned).toEqual({ ...olds, label: "sub-two", updated: UNKNOWN });
  });
  // Otherwise (no stamped field among the changes; with these types' in-place inputs all stamped, no change at
  // all) `updated` is known: the value the API holds.
  for (const [type, r] of Object.entries({ Vpc: v, Subnet: sub })) {
    const before = await requests();
    const planned = await plugin.update(type, r.id, r.outs, r.inputs, { preview: true, oldInputs: r.inputs });
    expect([type, (await requests()) - before]).toEqual([type, 0]);
    expect([type, planned]).toEqual([type, r.outs]);
    expect([type, planned.updated]).toEqual([type, expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/)]);
  }
});

test("an instance deployed from an image, changed field by field: every plan holds", async () => {
  // Each step the program as it is then: one change over the step before.
  const steps: Props[] = [
    { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "plan-web", tags: ["alpha", "beta"], alerts: { cpu: 90 } },
  ];
  const then = (change: Props) => steps.push({ ...steps[steps.length - 1], ...change });
  then({ tags: ["beta", "gamma"] });
  then({ alerts: { cpu: 50, io: 100 } });
  then({ label: "plan-web-2", group: "g1", watchdogEnabled: false });
  then({ booted: false });
  then({ booted: true });
  then({ type: "c1-standard-4", allowAutoDiskResize: false });
  then({ backupsEnabled: true, backupSchedule: { day: "Monday" } });
  then({ swapSize: 1024 });
  then({ rootPass: secret("An0ther-Passw0rd!") });
  then({ image: "compute/ubuntu24.04", rebuildOnImageChange: true, swapSize: undefined }); // a rebuild makes a 512 MB swap disk
  then({ tags: undefined, group: undefined, watchdogEnabled: undefined });
  const { id, outs } = await lifecycle("Instance", "web", steps, (i, planned, olds) => {
    // Its price known at preview (c1-standard-2 in us-east: the type's default price, no add-on).
    if (i === 0)
      expect(planned).toMatchObject({
        label: "plan-web",
        region: "us-east",
        swapSize: 512,
        status: UNKNOWN,
        ipv4: UNKNOWN,
        hourlyPrice: 0.018,
        monthlyPrice: 13.14,
      });
    // A tag change leaves the addresses, the specs and the status known.
    if (i === 1) expect(planned).toMatchObject({ ipv4: olds.ipv4, specs: olds.specs, status: olds.status, updated: UNKNOWN });
    if (i === 4) expect(planned).toMatchObject({ status: "offline", booted: false, specs: olds.specs, updated: olds.updated });
    // A resize shows its price change (c1-standard-4: 26.28 a month); the backup service adds its add-on's 6.57.
    if (i === 6) expect(planned).toMatchObject({ specs: UNKNOWN, hostUuid: UNKNOWN, ipv4: olds.ipv4, monthlyPrice: 26.28, hourlyPrice: 0.036 });
    if (i === 6) expect(olds.monthlyPrice).toBe(13.14);
    if (i === 7) expect(planned).toMatchObject({ monthlyPrice: 32.85, hourlyPrice: 0.045 });
    if (i === 8) expect(planned).toMatchObject({ monthlyPrice: 32.85 });
  });
  // A refresh prices it anew from the catalogue: a state without the prices (a release before them) gets them.
  const { hourlyPrice, monthlyPrice, ...older } = outs;
  expect([hourlyPrice, monthlyPrice]).toEqual([0.045, 32.85]);
  const refreshed = await plugin.read("Instance", id, older, steps[steps.length - 1]);
  expect([refreshed.outs.hourlyPrice, refreshed.outs.monthlyPrice]).toEqual([0.045, 32.85]);
  await plugin.del("Instance", id, outs);
});

test("an instance with interfaces, its disks, profiles, interfaces and an image", async () => {
  const vpc = await post("/vpcs", { label: "plan-net", region: "us-east" });
  const subnet = await post(`/vpcs/${vpc.id}/subnets`, { label: "plan-sub", ipv4: "10.7.0.0/24" });
  const base = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "plan-vpc" };
  const web = await lifecycle("Instance", "vpc", [
    { ...base, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id }] },
    { ...base, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id, ipv4: { vpc: "10.7.0.20" } }] },
    { ...base, interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id, ipv4: { vpc: "10.7.0.20", nat11: "any" } }] },
  ]);
  await plugin.del("Instance", web.id, web.outs);

  const host = await post("/compute/instances", { label: "plan-host", region: "us-east", type: "c1-standard-2" });
  const disk = await lifecycle("Disk", "data", [
    { computeId: host.id, size: 1024, label: "data" },
    { computeId: host.id, size: 1024, label: "data-2" },
    { computeId: host.id, size: 2048, label: "data-2" },
  ]);
  const profileSteps = [
    { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } } },
    { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } }, kernel: "compute/grub2", comments: "first" },
    { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } }, helpers: { network: false } },
    { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } }, booted: true },
  ];
  const profile = await lifecycle("Config", "boot", profileSteps);
  // A profile with its interfaces as a list: their records are unknown until made, their ids stay known
  // through a reboot (only whether each is active may change), and new interfaces are new records.
  const listed = { computeId: host.id, devices: { sda: { diskId: disk.id } }, label: "listed" };
  const ifaces = [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id }];
  const withList = await lifecycle(
    "Config",
    "listed",
    [
      { ...listed, interfaces: ifaces, booted: true },
      { ...listed, interfaces: ifaces, booted: true, kernel: "compute/grub2", rebootOnChange: true },
      { ...listed, interfaces: [ifaces[1]], booted: true, kernel: "compute/grub2" },
    ],
    (i, planned, olds) => {
      if (i === 0) expect(planned.interfaceRecords).toBe(UNKNOWN);
      if (i === 1) {
        const ids = (olds.interfaceRecords as Props[]).map((r) => r.id);
        expect((planned.interfaceRecords as Props[]).map((r) => [r.id, r.active])).toEqual(ids.map((id) => [id, UNKNOWN]));
      }
      if (i === 2) expect(planned.interfaceRecords).toBe(UNKNOWN);
    },
  );
  expect((withList.outs.interfaceRecords as Props[]).map((r) => [r.purpose, r.subnetId])).toEqual([["vpc", Number(subnet.id)]]);
  await plugin.del("Config", withList.id, withList.outs);
  const vpcIface = { computeId: host.id, configId: profile.id, purpose: "vpc", subnetId: subnet.id };
  await lifecycle("Interface", "eth1", [
    { ...vpcIface, ipv4: { nat11: "any" } },
    { ...vpcIface, ipv4: { nat11: "any" }, primary: true },
    { ...vpcIface, ipv4: { nat11: "any" }, primary: true, ipRanges: ["10.7.0.128/28"] },
  ]);
  await waitUntil(async () => (await get(emu, `/compute/instances/${host.id}/disks/${disk.id}`)).status === "ready");
  await lifecycle("Image", "img", [{ diskId: disk.id }, { diskId: disk.id, label: "golden", description: "a golden image" }]);
  await call(emu, "POST", `/compute/instances/${host.id}/shutdown`);
  await waitUntil(async () => (await get(emu, `/compute/instances/${host.id}`)).status === "offline");
  await call(emu, "DELETE", `/compute/instances/${host.id}`);
});

test("databases: an allow-list change keeps the hosts, the port and the credentials known", async () => {
  const base = { region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35", label: "plan-my" };
  const my = await lifecycle(
    "MysqlDatabase",
    "my",
    [
      { ...base, allowList: ["10.0.0.1/32"] },
      { ...base, allowList: ["10.0.0.1/32", "10.0.0.2/32"] },
      { ...base, allowList: ["10.0.0.2/32"], updates: { dayOfWeek: 3 } },
      { ...base, type: "c1-standard-4", allowList: ["10.0.0.2/32"] },
      { ...base, type: "c1-standard-4", allowList: ["10.0.0.2/32"], passwordRotation: "2026-11" },
    ],
    (i, planned, olds) => {
      if (i === 1) {
        for (const k of ["hosts", "port", "username", "password", "caCertificate", "status", "version"]) expect([k, planned[k]]).toEqual([k, olds[k]]);
        expect(planned.allowList).toEqual(["10.0.0.1/32", "10.0.0.2/32"]);
      }
      if (i === 4) expect([unknown(planned.password), planned.username]).toEqual([true, olds.username]);
      // A one-node MySQL cluster of c1-standard-2 costs 30 a month (/databases/types), of c1-standard-4 60.
      if (i === 0) expect(planned).toMatchObject({ hourlyPrice: 0.045, monthlyPrice: 30 });
      if (i === 3) expect([olds.monthlyPrice, planned.monthlyPrice]).toEqual([30, 60]);
    },
  );
  const snap = await lifecycle("MysqlDatabaseSnapshot", "snap", [{ databaseId: my.id, label: "plansnap" }]);
  expect(snap.id).toMatch(/^\d+$/);
  await plugin.del("MysqlDatabase", my.id, my.outs);
  const pg = await lifecycle("PostgresDatabase", "pg", [
    { region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" },
    { region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1", allowList: ["192.0.2.0/24"] },
  ]);
  const pgSnap = await lifecycle("PostgresDatabaseSnapshot", "pg-snap", [{ databaseId: pg.id, label: "plansnap", target: "primary" }]);
  expect(pgSnap.id).toMatch(/^\d+$/);
  await plugin.del("PostgresDatabase", pg.id, pg.outs);
});

test("an instance snapshot: every output the API assigns is unknown until made", async () => {
  const inst = await post("/compute/instances", { label: "plan-snap", region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS });
  await post(`/compute/instances/${inst.id}/backups/enable`, {});
  await lifecycle("InstanceSnapshot", "snap", [{ computeId: inst.id, label: "before-release" }], (_i, planned) => {
    expect(planned).toMatchObject({ computeId: inst.id, label: "before-release", status: UNKNOWN });
  });
});

// Last, so that every test above has run: a type of the registry without a plan case here is named.
test("every resource type of provider/registry.ts has a plan case in this file", () => {
  const missing = definitions.map((d) => d.spec.type).filter((t) => !planned.has(t));
  expect(missing.map((t) => `${t} has no plan case in tests/integration/plugin-plan.test.ts (a lifecycle("${t}", ...) call)`)).toEqual([]);
});
