/**
 * The emulator held to the real API's answers (tests/fixtures/real-answers, recorded by linode/linodego and
 * renamed to this API): for every recorded answer, the emulator is made to answer the same request (what it
 * needs is made through the API, never in its internals), and the two bodies are compared by shape: the
 * field names and the JSON type of each value (string, number, boolean, null, array, object), recursively.
 *
 * - A value null on either side is not a difference (a nullable field).
 * - The items of an array are compared as one merged shape per side (a disks list holds ext4 and swap disks);
 *   an empty array on either side says nothing about its items.
 * - An object under a key of MAP_KEYS (`members`: address -> role) is a map: its keys are data, only the
 *   shape of its values is compared.
 * - A field the emulator answers and this real answer lacks is not a difference when another recorded answer
 *   of the same kind has it at the same place: the real API has answered it (the answers span two
 *   generations of the API: 2024, the spec's v4.175.0, and HEAD).
 * - The HTTP statuses are compared too (errors, the grants' 204).
 *
 * Every other difference is either fixed in the emulator or listed in ALLOWED with its reason (the same
 * lines are in docs/spec-gaps.md); the test fails on any other, naming the kind, the answer, the field and
 * the two types, and on an ALLOWED entry that no longer matches anything.
 */
import type { Emulator } from "../../emulator/server";
import { DB_MS } from "../../emulator/routes/databases";
import { BASE_MS } from "../../emulator/timing";
import { addUser, call, ed25519Key, emulator, type Answer as EmuAnswer } from "../helpers/emulator";
import { loadAnswers, type Answer } from "../helpers/replay";
import { compare, paths, shape, type Difference } from "../helpers/shapes";

const answers = loadAnswers();

// Why a difference is kept. Each is also a line of docs/spec-gaps.md.
const NEWER_DATABASE_PLATFORM =
  "Only the current database platform (`platform` `rdbms-default`, the HEAD answers) has it; its records contradict the spec (no `replication_type`, `hosts.standby` for `secondary`), so the emulator answers the spec's generation (v4.175.0, the 2024 answers).";
const ENGINE_DISK_SIZES =
  "The spec's engine table has `total_disk_size_gb` and `used_disk_size_gb`; the real API answers only `id`, `engine` and `version`. Where the spec speaks, the emulator follows it.";
const GRANT_NAMES =
  "The spec's names for these grants are `script`, `monitoring`, `add_scripts`, `add_monitoring`, `monitoring_subscription`; the real API's `stackscript`, `longview`, `add_stackscripts`, `add_longview`, `longview_subscription` (the recorded answers rename only linode). The emulator keeps the spec's names.";
const IMAGE_REPLICATION = "Only a replicated image has `regions` and `total_size`; the spec has no image replication, and the emulator replicates no image.";
const REGION_EXTRAS =
  "`monitors` and `placement_group_limits` belong to services the spec does not have (monitoring, placement groups); the emulator's regions leave them out.";

/**
 * Differences kept on purpose: `<kind> <field path>` (`[]` for the items of an array), or the name of a
 * recorded answer for the whole answer, and why.
 */
const ALLOWED: Record<string, string> = {
  "mysql hosts.standby": NEWER_DATABASE_PLATFORM,
  "mysql oldest_restore_time": NEWER_DATABASE_PLATFORM,
  "mysql updates.pending": NEWER_DATABASE_PLATFORM,
  "mysql platform": NEWER_DATABASE_PLATFORM,
  "postgresql hosts.standby": NEWER_DATABASE_PLATFORM,
  "postgresql oldest_restore_time": NEWER_DATABASE_PLATFORM,
  "postgresql updates.pending": NEWER_DATABASE_PLATFORM,
  "postgresql platform": NEWER_DATABASE_PLATFORM,
  "databases data[].hosts.standby": NEWER_DATABASE_PLATFORM,
  "databases data[].oldest_restore_time": NEWER_DATABASE_PLATFORM,
  "databases data[].updates.pending": NEWER_DATABASE_PLATFORM,
  "databases data[].platform": NEWER_DATABASE_PLATFORM,
  "engines data[].total_disk_size_gb": ENGINE_DISK_SIZES,
  "engines data[].used_disk_size_gb": ENGINE_DISK_SIZES,
  "engine total_disk_size_gb": ENGINE_DISK_SIZES,
  "engine used_disk_size_gb": ENGINE_DISK_SIZES,
  "grants stackscript": GRANT_NAMES,
  "grants longview": GRANT_NAMES,
  "grants script": GRANT_NAMES,
  "grants monitoring": GRANT_NAMES,
  "grants global.add_stackscripts": GRANT_NAMES,
  "grants global.add_longview": GRANT_NAMES,
  "grants global.longview_subscription": GRANT_NAMES,
  "grants global.add_scripts": GRANT_NAMES,
  "grants global.add_monitoring": GRANT_NAMES,
  "grants global.monitoring_subscription": GRANT_NAMES,
  "image regions": IMAGE_REPLICATION,
  "image total_size": IMAGE_REPLICATION,
  "regions data[].monitors": REGION_EXTRAS,
  "regions data[].placement_group_limits": REGION_EXTRAS,
};

/** Why a difference is allowed, if it is: by kind and field, or the whole answer. */
const allowed = (d: { kind: string; path: string; answer: string }): string | undefined => ALLOWED[`${d.kind} ${d.path}`] ?? ALLOWED[d.answer];

// ---- the emulator's answers -------------------------------------------------------------------------

const PASS = "Str0ng-Passw0rd!";

let emu: Emulator;
let clock: number;
const tick = (ms: number) => (clock += ms + 1);
/** The emulator's answer to each recorded answer, by the recorded answer's name. */
const got = new Map<string, EmuAnswer>();

async function ok(method: string, path: string, body?: unknown, token?: string): Promise<EmuAnswer> {
  const r = await call(emu, method, path, { body, token });
  if (r.status !== 200 && r.status !== 204) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}
const answer = (names: string[], r: EmuAnswer) => {
  for (const n of names) got.set(n, r);
};

/** Makes the world the recorded answers describe, through the API, and keeps the emulator's answers. */
async function makeWorld(): Promise<void> {
  const deploy = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS };
  // Group A, C, E's instance: deployed from an image, with the backup service.
  const a = (await ok("POST", "/compute/instances", { ...deploy, label: "real-a", backups_enabled: true })).body;
  // Group D: deployed with a vlan interface.
  const dInst = (
    await ok("POST", "/compute/instances", { ...deploy, label: "real-d", interfaces: [{ purpose: "vlan", label: "vlan-1", ipam_address: "10.0.0.1/24" }] })
  ).body;
  // Group B, G, H, I: an empty instance, its profiles and interfaces, and a VPC.
  const bCreate = await ok("POST", "/compute/instances", { region: "us-east", type: "c1-standard-2", label: "real-b" });
  answer(["instance-create-empty"], bCreate);
  const b = bCreate.body;
  const vpcCreate = await ok("POST", "/vpcs", { label: "real-net", region: "us-east", subnets: [{ label: "real-sub", ipv4: "10.1.0.0/24" }] });
  answer(["vpc-create-with-subnet"], vpcCreate);
  const vpc = vpcCreate.body;
  const subnet = vpc.subnets[0];
  tick(BASE_MS.provisioning);

  const A = `/compute/instances/${a.id}`;
  answer(["instance-from-image", "instance-from-image-current"], await ok("GET", A));
  answer(["configs-with-disks"], await ok("GET", `${A}/configs`));
  const aCfg = (await ok("GET", `${A}/configs`)).body.data[0];
  answer(["config-with-disks"], await ok("GET", `${A}/configs/${aCfg.id}`));
  answer(["disks-ext4-and-swap", "disks-ext4-and-swap-current"], await ok("GET", `${A}/disks`));
  const aDisk = (await ok("GET", `${A}/disks`)).body.data.find((x: any) => x.filesystem === "ext4");
  answer(["disk-ext4"], await ok("GET", `${A}/disks/${aDisk.id}`));
  answer(["backups-automatic"], await ok("GET", `${A}/backups`));

  const D = `/compute/instances/${dInst.id}`;
  answer(["instance-vlan"], await ok("GET", D));
  answer(["configs-vlan-with-disks"], await ok("GET", `${D}/configs`));

  const B = `/compute/instances/${b.id}`;
  const cfgCreate = await ok("POST", `${B}/configs`, { label: "real-cfg", devices: {} });
  answer(["config-create-no-disks"], cfgCreate);
  answer(["configs-no-disks"], await ok("GET", `${B}/configs`));
  const cfg = cfgCreate.body;
  const interfaces = [{ purpose: "public" }, { purpose: "vlan", label: "testvlan" }, { purpose: "vpc", subnet_id: subnet.id, ipv4: { nat_1_1: "any" } }];
  answer(["config-public-vlan-vpc-update", "config-vpc-update-subnet"], await ok("PUT", `${B}/configs/${cfg.id}`, { interfaces }));
  answer(["config-vpc-nat-null-no-disks", "config-vpc-nat-set-reordered"], await ok("GET", `${B}/configs/${cfg.id}`));
  answer(["interfaces-public-vlan-vpc"], await ok("GET", `${B}/configs/${cfg.id}/interfaces`));
  const cfg2 = (await ok("POST", `${B}/configs`, { label: "real-cfg-2", devices: {} })).body;
  const added = await ok("POST", `${B}/configs/${cfg2.id}/interfaces`, { purpose: "vpc", subnet_id: subnet.id });
  answer(["interface-add-vpc-nat-null"], added);
  answer(["interfaces-one-vpc"], await ok("GET", `${B}/configs/${cfg2.id}/interfaces`));
  answer(["interface-update-vpc-nat-set"], await ok("PUT", `${B}/configs/${cfg2.id}/interfaces/${added.body.id}`, { primary: true, ipv4: { nat_1_1: "any" } }));

  const V = `/vpcs/${vpc.id}`;
  answer(["vpc"], await ok("GET", V));
  answer(["subnets"], await ok("GET", `${V}/subnets`));
  answer(["subnet-with-instance"], await ok("GET", `${V}/subnets/${subnet.id}`));
  answer(["vpc-ips-one-vpc"], await ok("GET", `${V}/ips`));
  answer(["vpc-ips-all"], await ok("GET", "/vpcs/ips"));

  // Group E: a disk made on an instance, the backup service, a snapshot.
  answer(["disk-create-ext4"], await ok("POST", `${B}/disks`, { label: "real-disk", size: 1024, filesystem: "ext4" }));
  await ok("POST", `${B}/backups/enable`, {});
  answer(["instance-backups-enabled"], await ok("GET", B));
  const snap = (await ok("POST", `${B}/backups`, { label: "real-snapshot" })).body;
  tick(BASE_MS.snapshot);
  answer(["backups-snapshot"], await ok("GET", `${B}/backups`));
  answer(["backup-snapshot"], await ok("GET", `${B}/backups/${snap.id}`));

  // Images: public, a capture, an upload.
  answer(["image-public"], await ok("GET", "/images/compute/ubuntu22.04"));
  const image = (await ok("POST", "/images", { disk_id: aDisk.id, label: "real-image" })).body;
  tick(BASE_MS.provisioning);
  answer(["image-private", "image-private-replicated"], await ok("GET", `/images/${image.id}`));
  answer(["image-upload-create"], await ok("POST", "/images/upload", { label: "real-upload", region: "us-east" }));

  // Databases: one cluster of each engine, three nodes, with a snapshot each.
  const db = { region: "us-east", type: "c1-standard-2", cluster_size: 3 };
  const my = (await ok("POST", "/databases/mysql/instances", { ...db, label: "real-my", engine: "mysql/8.0.35", replication_type: "semi_synch" })).body;
  const pg = (await ok("POST", "/databases/postgresql/instances", { ...db, label: "real-pg", engine: "postgresql/16.1" })).body;
  tick(DB_MS.provisioning);
  const M = `/databases/mysql/instances/${my.id}`;
  const P = `/databases/postgresql/instances/${pg.id}`;
  answer(["mysql", "mysql-2024"], await ok("GET", M));
  answer(["postgresql", "postgresql-2024"], await ok("GET", P));
  answer(["mysql-credentials"], await ok("GET", `${M}/credentials`));
  answer(["postgresql-credentials"], await ok("GET", `${P}/credentials`));
  answer(["mysql-ssl", "mysql-2024-ssl-null"], await ok("GET", `${M}/ssl`));
  answer(["postgresql-ssl"], await ok("GET", `${P}/ssl`));
  answer(["databases", "databases-2024"], await ok("GET", "/databases/instances"));
  await ok("POST", `${M}/backups`, { label: "mysnap" });
  await ok("POST", `${P}/backups`, { label: "pgsnap" });
  tick(DB_MS.snapshot);
  for (const [base, name] of [
    [M, "mysql-2024"],
    [P, "postgresql-2024"],
  ]) {
    const list = await ok("GET", `${base}/backups`);
    answer([`${name}-backups`], list);
    answer([`${name}-backup`], await ok("GET", `${base}/backups/${list.body.data.find((x: any) => x.type === "snapshot").id}`));
  }
  answer(["engines"], await ok("GET", "/databases/engines"));
  answer(["engine-mysql-8"], await ok("GET", "/databases/engines/mysql/8.0.35"));

  // The profile, SSH keys, tokens, grants.
  answer(["profile"], await ok("GET", "/profile"));
  const key = (await ok("POST", "/profile/sshkeys", { label: "real-key", ssh_key: ed25519Key(1) })).body;
  answer(["sshkey"], await ok("GET", `/profile/sshkeys/${key.id}`));
  answer(["sshkeys"], await ok("GET", "/profile/sshkeys"));
  const token = await ok("POST", "/profile/tokens", { label: "real-token", scopes: "computes:read_only", expiry: "2027-01-02T03:04:05" });
  answer(["token-create"], token);
  answer(["token"], await ok("GET", `/profile/tokens/${token.body.id}`));
  const forever = (await ok("POST", "/profile/tokens", { label: "real-token-2", scopes: "computes:read_only" })).body;
  answer(["token-no-expiry"], await ok("GET", `/profile/tokens/${forever.id}`));
  answer(["tokens"], await ok("GET", "/profile/tokens"));
  answer(["grants-unrestricted-204"], await ok("GET", "/profile/grants"));
  const restricted = await addUser(emu, "restricted-one", { restricted: true, global: { add_vpcs: true, add_images: true } });
  answer(["grants-user-update"], await ok("GET", "/profile/grants", undefined, restricted));

  // Reference data.
  answer(["regions"], await ok("GET", "/regions"));
  answer(["type"], await ok("GET", "/compute/types/c1-standard-2"));
  answer(["types"], await ok("GET", "/compute/types"));
  answer(["kernel-latest-64bit"], await ok("GET", "/compute/kernels/compute/latest-64bit"));
  answer(["kernels"], await ok("GET", "/compute/kernels"));

  // Errors: the same mistakes.
  const err = async (names: string[], method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
    answer(names, await call(emu, method, path, opts));
  await err(["error-404-instance"], "GET", "/compute/instances/1231");
  // A filter on a field that does not exist (the emulator takes no filter: allowed below).
  const filtered = await fetch(`${emu.url}/images`, { headers: { authorization: `Bearer ${emu.token}`, "x-filter": JSON.stringify({ foo: "bar" }) } });
  answer(["error-400-filter"], { status: filtered.status, body: await filtered.json(), headers: filtered.headers });
  await err(["error-400-instance-create"], "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", image: "compute/debian12" } });
  await err(["error-400-vpc-label"], "POST", "/vpcs", { body: { label: "bad label!", region: "us-east" } });
  // A disk made on an instance still provisioning. The emulator has no "busy" refusal of a disk create: it
  // refuses this one because the image's disks fill the type's allowance (a 400 all the same).
  const busy = (await ok("POST", "/compute/instances", { ...deploy, label: "real-busy" })).body;
  await err(["error-400-busy"], "POST", `/compute/instances/${busy.id}/disks`, { body: { label: "busy", size: 1024 } });
  await err(["error-404-image"], "GET", "/images/does-not-exist");
  await err(["error-404-type"], "GET", "/compute/types/does-not-exist");
  await err(["error-404-sshkey"], "GET", "/profile/sshkeys/123");
  await err(["error-404-token"], "GET", "/profile/tokens/123");
  await err(["error-401-invalid-token"], "GET", "/compute/instances", { token: "not-a-token" });
  await ok("PUT", "/__emulator/rate-limit", { perSecond: 1 });
  await call(emu, "GET", "/regions");
  await err(["error-429-too-many"], "GET", "/regions");
  await ok("PUT", "/__emulator/rate-limit", { perSecond: null });
}

// ---- the test ---------------------------------------------------------------------------------------

beforeAll(async () => {
  clock = Date.parse("2026-03-10T12:00:00Z");
  emu = await emulator({ now: () => clock, speed: 1 });
  await makeWorld();
});
afterAll(async () => {
  await emu.close();
});

interface Found extends Difference {
  kind: string;
  answer: string;
}

function differences(): Found[] {
  // Every field path the real answers of a kind have (to tell a field the real API never answers).
  const known = new Map<string, Set<string>>();
  for (const a of answers) {
    const set = known.get(a.kind) ?? new Set<string>();
    paths(shape(a.body), "", set);
    known.set(a.kind, set);
  }
  const found: Found[] = [];
  for (const a of answers) {
    const e = got.get(a.name)!;
    const diffs: Difference[] = [];
    if (e.status !== a.status) diffs.push({ path: "(status)", real: String(a.status), emulator: String(e.status) });
    compare(shape(a.body), shape(e.body), "", diffs);
    for (const d of diffs) {
      if (d.real === "absent" && known.get(a.kind)!.has(d.path)) continue;
      found.push({ kind: a.kind, answer: a.name, ...d });
    }
  }
  return found;
}

test("the comparison names a field either side lacks and a type that differs; nulls and empty lists say nothing", () => {
  const real = shape({ id: 1, label: "x", devices: { sda: null }, interfaces: [], members: { "192.0.2.1": "primary" }, ipv4: ["a"] });
  const emu = shape({ id: "1", compute_id: 2, devices: { sda: { disk_id: 3 } }, interfaces: [{ id: 4 }], members: { "198.51.100.1": "primary" }, ipv4: [5] });
  expect(compare(real, emu, "", [])).toEqual([
    { path: "id", real: "number", emulator: "string" },
    { path: "label", real: "string", emulator: "absent" },
    { path: "ipv4[]", real: "string", emulator: "number" },
    { path: "compute_id", real: "absent", emulator: "number" },
  ]);
});

test("the emulator answers every recorded request", () => {
  expect(answers.filter((a) => !got.has(a.name)).map((a: Answer) => a.name)).toEqual([]);
});

test("the emulator's answers have the real answers' fields and types, but for the allowed differences", () => {
  const all = differences();
  const unexplained = all
    .filter((d) => allowed(d) === undefined)
    .map((d) => `${d.kind} ${d.path}: real ${d.real}, emulator ${d.emulator} (answer ${d.answer})`);
  expect([...new Set(unexplained)]).toEqual([]);
});

test("every allowed difference is still one", () => {
  const seen = new Set(differences().flatMap((d) => [`${d.kind} ${d.path}`, d.answer]));
  expect(Object.keys(ALLOWED).filter((k) => !seen.has(k))).toEqual([]);
});
