/**
 * The filtered read functions (provider/functions/index.ts) against the emulator, through the sdk's Promise and
 * Output forms: every page, filters (equality, a list of values, several ANDed, list fields), order, the
 * resource's view of each item, and errors that name the field. Every list takes them, the reference data's
 * too (through invoke, the plugin's path, with values as a YAML program gives them).
 */
import * as pulumi from "@pulumi/pulumi";
import type { Emulator } from "../../emulator/server";
import { functionSpecs, invoke } from "../../provider/functions";
import { ApiClient } from "../../provider/transport/client";
import {
  getDatabaseEngines,
  getDatabaseTypes,
  getDisks,
  getInstances,
  getInterfaces,
  getMysqlDatabases,
  getSshKeys,
  getSubnets,
  getVpcIps,
  getVpcs,
  getVpcsOutput,
} from "../../sdk";
import { call, ed25519Key, emulator } from "../helpers/emulator";
import { waitUntil } from "../helpers/wait";

let emu: Emulator;
let o: { apiUrl: string; token: string };

beforeAll(async () => {
  emu = await emulator();
  o = { apiUrl: emu.url, token: emu.token };
});
afterAll(async () => {
  await emu.close();
});

const post = async (p: string, body: Record<string, unknown>) => {
  const r = await call(emu, "POST", p, { body });
  if (r.status !== 200) throw new Error(`POST ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

test("every page is read, and filters apply to all of it", async () => {
  for (let i = 0; i < 520; i++) await post("/profile/sshkeys", { label: `key-${String(i).padStart(3, "0")}`, ssh_key: ed25519Key(1000 + i) });
  const before = emu.log.length;
  const all = await getSshKeys({}, o);
  expect(all.sshKeys).toHaveLength(520);
  expect(emu.log.slice(before).map((l) => l.path)).toEqual(expect.arrayContaining([expect.stringMatching(/page=2/)]));
  const some = await getSshKeys({ filters: [{ name: "label", values: ["key-007", "key-519", "nope"] }], orderBy: "label", order: "desc" }, o);
  expect(some.sshKeys.map((k) => k.label)).toEqual(["key-519", "key-007"]);
  expect(typeof some.sshKeys[0].id).toBe("string");
});

test("a filter value beyond Latin-1 goes in the header as a JSON escape: the same value, one request", async () => {
  const made = await post("/profile/sshkeys", { label: "clé-日本", ssh_key: ed25519Key(4242) });
  const before = emu.log.length;
  const found = await getSshKeys({ filters: [{ name: "label", values: ["clé-日本"] }] }, o);
  expect([found.sshKeys.map((k) => k.id), emu.log.length - before]).toEqual([[String(made.id)], 1]);
  await call(emu, "DELETE", `/profile/sshkeys/${made.id}`);
});

test("a filtered lookup sends what X-Filter can say: one request for a list of several pages", async () => {
  // The 520 keys of the test before: two pages unfiltered.
  const before = emu.log.length;
  const ids = (await getSshKeys({ filters: [{ name: "label", values: ["key-007", "key-519"] }] }, o)).sshKeys.map((k) => k.id);
  const some = await getSshKeys(
    {
      filters: [
        { name: "label", values: ["key-007", "key-519", "key-300"] },
        { name: "id", values: [...ids, "not-an-id"] }, // a value the API cannot hold: this filter stays on the client
      ],
      orderBy: "label",
      order: "desc",
    },
    o,
  );
  expect(some.sshKeys.map((k) => k.label)).toEqual(["key-519", "key-007"]);
  expect(emu.log.slice(before).map(({ method, path, status }) => ({ method, path, status }))).toEqual([
    { method: "GET", path: expect.stringMatching(/\/profile\/sshkeys\?page=1&/), status: 200 },
    { method: "GET", path: expect.stringMatching(/\/profile\/sshkeys\?page=1&/), status: 200 },
  ]);
});

test("instances: AND of filters, list fields, order by number or text, and the resource's view of each", async () => {
  const a = await post("/compute/instances", { label: "web-a", region: "us-east", type: "c1-standard-2", tags: ["web", "prod"] });
  await post("/compute/instances", { label: "web-b", region: "eu-central", type: "c1-standard-2", tags: ["web"] });
  await post("/compute/instances", { label: "db-a", region: "us-east", type: "c1-nano-1", tags: ["dbs"] });
  const web = await getInstances(
    {
      filters: [
        { name: "tags", values: ["web"] },
        { name: "region", values: ["us-east"] },
      ],
    },
    o,
  );
  expect(web.instances.map((i) => i.label)).toEqual(["web-a"]);
  expect(web.instances[0]).toMatchObject({ id: String(a.id), region: "us-east", type: "c1-standard-2", tags: ["web", "prod"], watchdogEnabled: true });
  const byLabel = await getInstances({ orderBy: "label" }, o);
  expect(byLabel.instances.map((i) => i.label)).toEqual(["db-a", "web-a", "web-b"]);
  const byId = await getInstances({ orderBy: "id", order: "desc" }, o);
  expect(byId.instances.map((i) => Number(i.id))).toEqual([...byId.instances.map((i) => Number(i.id))].sort((x, y) => y - x));

  // Children of an instance: disks, and a profile's interfaces (a plain list in the API).
  const data = await post(`/compute/instances/${a.id}/disks`, { label: "data", size: 1024, filesystem: "ext4" });
  // One disk at a time (the API answers "Compute busy." until the first is ready).
  await waitUntil(async () => (await call(emu, "GET", `/compute/instances/${a.id}/disks/${data.id}`)).body.status === "ready", {
    what: "the first disk ready",
  });
  await post(`/compute/instances/${a.id}/disks`, { label: "scratch", size: 512, filesystem: "raw" });
  expect((await getDisks({ computeId: String(a.id), filters: [{ name: "filesystem", values: ["raw"] }] }, o)).disks.map((d) => d.label)).toEqual(["scratch"]);
  const cfg = await post(`/compute/instances/${a.id}/configs`, {
    label: "boot",
    devices: {},
    interfaces: [{ purpose: "public" }, { purpose: "vlan", label: "back" }],
  });
  const ifs = await getInterfaces({ computeId: a.id, configId: cfg.id }, o);
  expect(ifs.interfaces.map((i) => i.purpose)).toEqual(["public", "vlan"]);
});

test("VPCs, subnets and addresses; the Output form takes Outputs", async () => {
  const vpc = await post("/vpcs", { label: "prod", region: "us-east" });
  await post("/vpcs", { label: "dev", region: "us-east" });
  const sub = await post(`/vpcs/${vpc.id}/subnets`, { label: "web", ipv4: "10.0.1.0/24" });
  const inst = await post("/compute/instances", {
    label: "in-vpc",
    region: "us-east",
    type: "c1-standard-2",
    image: "compute/debian12",
    root_pass: "Vpc-R00t-Pass!x",
    interfaces: [{ purpose: "vpc", subnet_id: sub.id }],
  });
  expect((await getSubnets({ vpcId: vpc.id }, o)).subnets.map((s) => [s.label, s.ipv4])).toEqual([["web", "10.0.1.0/24"]]);
  const ips = await getVpcIps({ vpcId: String(vpc.id), filters: [{ name: "computeId", values: [inst.id] }] }, o);
  expect(ips.ips).toEqual([
    expect.objectContaining({ subnetId: sub.id, vpcId: vpc.id, address: expect.stringMatching(/^10\.0\.1\./), gateway: "10.0.1.1", prefix: 24 }),
  ]);
  expect((await getVpcIps({}, o)).ips).toHaveLength(1);

  // The Output form: its arguments may be Outputs; the result is an Output.
  const label = pulumi.output(Promise.resolve("prod"));
  const out = getVpcsOutput({ filters: [{ name: "label", values: [label] }] }, o);
  expect(pulumi.Output.isInstance(out)).toBe(true);
  const ids = await new Promise<string[]>((resolve) => out.apply((r) => resolve(r.vpcs.map((v) => v.id))));
  expect(ids).toEqual([String(vpc.id)]);
});

test("database engines and types (the compute types clusters use)", async () => {
  const eng = await getDatabaseEngines({ filters: [{ name: "engine", values: ["postgresql"] }], orderBy: "version" }, o);
  expect(eng.engines.length).toBeGreaterThan(0);
  expect(eng.engines.every((e) => e.engine === "postgresql" && e.id === `postgresql/${e.version}`)).toBe(true);
  const versions = eng.engines.map((e) => e.version!);
  expect(versions).toEqual([...versions].sort((a, b) => a.localeCompare(b, "en", { numeric: true })));
  const types = await getDatabaseTypes({ filters: [{ name: "class", values: ["dedicated", "standard"] }] }, o);
  expect(types.types.length).toBeGreaterThan(0);
  expect(new Set(types.types.map((t) => t.class))).toEqual(new Set(["dedicated", "standard"]));
});

test("a filter the API refuses (a 400 on X-Filter) is dropped, and the whole list read, for the client to filter", async () => {
  // The instances of the test before; no instance record of the API holds `booted` (the provider keeps it from the inputs).
  const mark = emu.log.length;
  expect((await getInstances({ filters: [{ name: "booted", values: [true] }] }, o)).instances).toEqual([]);
  expect(emu.log.slice(mark).map((l) => l.status)).toEqual([400, 200]);
});

test("unknown filter or order fields fail at once, naming the field and the fields there are", async () => {
  expect(() => getInstances({ filters: [{ name: "colour", values: ["red"] }] }, o)).toThrow(
    /getInstances: filters\[0\]\.name: unknown field "colour"; the fields of its items are id, region, type, label/,
  );
  expect(() => getVpcs({ orderBy: "size" }, o)).toThrow(/getVpcs: orderBy: unknown field "size"/);
  // A field that holds objects cannot be compared by a filter or an order: said, with the fields that can.
  expect(() => getInstances({ filters: [{ name: "specs", values: ["x"] }] }, o)).toThrow(
    /"specs" holds objects, which a filter or order cannot compare; use one of id, region/,
  );
  // A database list never shows credentials: the items have no such fields.
  expect(() => getMysqlDatabases({ orderBy: "password" }, o)).toThrow(/unknown field "password"/);
  // Through invoke (the plugin's path), the same, and bad arguments name the rule.
  const c = new ApiClient({ baseUrl: emu.url, token: emu.token });
  await expect(invoke(c, "getVpcs", { filters: [{ name: "colour", values: [1] }] })).rejects.toThrow(/unknown field "colour"/);
  await expect(invoke(c, "getVpcs", { filters: [{ name: "label", values: [] }] })).rejects.toThrow(
    /getVpcs: filters\[0\]\.values: must hold at least one value/,
  );
  await expect(invoke(c, "getVpcs", { order: "desc" })).rejects.toThrow(/order needs orderBy/);
  await expect(invoke(c, "getDisks", {})).rejects.toThrow(/getDisks: computeId is required/);
});

test("every list takes filters, orderBy and order, returns { <listKey>: [...] }, and every function says its token scope", () => {
  for (const fn of functionSpecs) {
    expect([fn.name, typeof fn.scope, (fn.scope ?? "").length > 0]).toEqual([fn.name, "string", true]);
    if (!fn.listKey) continue;
    expect([fn.name, fn.filterable, fn.inputs.map((f) => f.name).slice(-3)]).toEqual([fn.name, true, ["filters", "orderBy", "order"]]);
  }
  const lists = functionSpecs.filter((f) => f.listKey).map((f) => f.name);
  expect(lists).toEqual(expect.arrayContaining(["getRegions", "getTypes", "getKernels", "getImages", "getRegionAvailability"]));
  // The spec asks databases:read_write to list a cluster's backups: the docs say so.
  expect(functionSpecs.find((f) => f.name === "getMysqlDatabaseBackups")!.scope).toMatch(/^`databases:read_write`/);
  expect(functionSpecs.find((f) => f.name === "getPostgresDatabaseBackups")!.scope).toMatch(/^`databases:read_write`/);
});

test("the reference lists through invoke (the plugin's path): values as YAML gives them, the newest image, a type and where it is sold", async () => {
  const c = new ApiClient({ baseUrl: emu.url, token: "" }); // reference data: no token needed
  const images = await invoke(c, "getImages", {
    filters: [
      { name: "vendor", values: ["Debian"] },
      { name: "isPublic", values: ["true"] },
    ],
    orderBy: "created",
    order: "desc",
  });
  expect(Object.keys(images)).toEqual(["images"]);
  // The emulator's own images first (their release dates), then the real ones (the recording's sanitized date).
  expect((images.images as { id: string }[]).map((i) => i.id).slice(0, 2)).toEqual(["compute/debian12", "compute/debian11"]);
  const types = await invoke(c, "getTypes", {
    filters: [
      { name: "vcpus", values: ["2"] },
      { name: "memory", values: ["4096"] },
      { name: "class", values: ["premium"] },
    ],
  });
  expect((types.types as { id: string }[]).map((t) => t.id)).toEqual(["c1-premium-4", "g7-premium-2"]);
  const where = await invoke(c, "getRegionAvailability", {
    filters: [
      { name: "plan", values: ["c1-premium-4"] },
      { name: "available", values: ["true"] },
    ],
    orderBy: "region",
  });
  expect((where.availability as { region: string }[]).map((a) => a.region)).toEqual(["eu-central", "us-east"]);
  const kernels = await invoke(c, "getKernels", { filters: [{ name: "deprecated", values: ["false"] }], orderBy: "id", order: "desc" });
  const kids = (kernels.kernels as { id: string }[]).map((k) => k.id);
  expect(kids).toEqual([...kids].sort((a, b) => b.localeCompare(a, "en", { numeric: true })));
  expect((await invoke(c, "getRegions", { filters: [{ name: "status", values: ["outage"] }] })).regions).toEqual([
    expect.objectContaining({ id: "ap-northeast" }),
  ]);
  // Without arguments, as before: every item.
  expect(((await invoke(c, "getRegions", {})).regions as unknown[]).length).toBe(34);
  // Bad arguments name the rule, as for every lookup.
  await expect(invoke(c, "getImages", { filters: [{ name: "distro", values: ["x"] }] })).rejects.toThrow(
    /getImages: filters\[0\]\.name: unknown field "distro"/,
  );
  await expect(invoke(c, "getTypes", { order: "up", orderBy: "vcpus" })).rejects.toThrow(/getTypes: order: must be one of asc, desc/);
  await expect(invoke(c, "getKernels", { apiUrl: emu.url })).rejects.toThrow(/getKernels: unknown argument "apiUrl"/);
  await expect(invoke(c, "getRegionAvailability", { regionId: "" })).rejects.toThrow(/getRegionAvailability: regionId: must not be empty/);
  // The profile's grants need a token: the unrestricted root user has every grant.
  const grants = await invoke(new ApiClient({ baseUrl: emu.url, token: emu.token }), "getProfileGrants", {});
  expect(grants).toMatchObject({ restricted: false, global: { addComputes: true, accountAccess: "read_write" }, compute: [] });
});
