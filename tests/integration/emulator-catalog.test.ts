/**
 * The emulator's catalogue holds the real API's reference lists (recorded in linode/linodego's cassettes,
 * renamed) beside its own entries: a program written against the real API's ids (`g6-nanode-1`, `us-ord`,
 * `compute/debian12`, `mysql/8.0.30`) reads them and makes instances, VPCs and databases with them.
 */
import { catalog, readCatalog } from "../../emulator/catalog";
import catalogJson from "../../emulator/data/catalog.json";
import { BASE_MS } from "../../emulator/routes/compute";
import { DB_MS } from "../../emulator/routes/databases";
import { I, PASS } from "../helpers/compute-calls";
import { call, useClockedEmulator } from "../helpers/emulator";

const { emu, tick } = useClockedEmulator();

const open = async (path: string) => {
  const r = await call(emu(), "GET", path, { token: null });
  expect(r.status).toBe(200);
  return r.body;
};
const ok = async (method: string, path: string, body: Record<string, unknown>) => {
  const r = await call(emu(), method, path, { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
/** Every string in a value, keys and values. */
const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.flatMap(strings)
    : v && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)])
      : typeof v === "string"
        ? [v]
        : [];

describe("the real lists, renamed", () => {
  test("types: the real plans with prices, region prices, the backups add-on and successor; the emulator's own first", async () => {
    const list = await open("/compute/types");
    const ids: string[] = list.data.map((t: { id: string }) => t.id);
    expect(list.results).toBe(46);
    // The emulator's own plans, then the real list in its recorded order.
    expect(ids.slice(0, 2)).toEqual(["c1-nano-1", "c1-standard-2"]);
    const real = ["g6-nanode-1", "g6-standard-1", "g6-standard-2", "g7-highmem-1", "g6-dedicated-2", "g1-gpu-rtx6000-1", "g7-premium-2", "g7-premium-64"];
    expect(real.map((id) => ids.indexOf(id))).toEqual([...real.map((id) => ids.indexOf(id))].sort((a, b) => a - b));
    expect(ids.indexOf("g6-nanode-1")).toBe(9);
    const t = await open("/compute/types/g6-standard-2");
    expect(t).toEqual({
      id: "g6-standard-2",
      label: "Compute 4GB",
      class: "standard",
      disk: 81920,
      memory: 4096,
      vcpus: 2,
      gpus: 0,
      network_out: 4000,
      transfer: 4000,
      price: { hourly: 0.036, monthly: 24 },
      region_prices: [
        { id: "id-cgk", hourly: 0.043, monthly: 28.8 },
        { id: "br-gru", hourly: 0.05, monthly: 33.6 },
      ],
      addons: {
        backups: {
          price: { hourly: 0.008, monthly: 5 },
          region_prices: [
            { id: "id-cgk", hourly: 0.009, monthly: 6 },
            { id: "br-gru", hourly: 0.01, monthly: 7 },
          ],
        },
      },
      successor: null,
    });
    expect((await open("/compute/types/g1-gpu-rtx6000-1")).gpus).toBe(1);
  });

  test("regions: the real list in its recorded order, with the real capability names and the same fields on every region", async () => {
    const list = await open("/regions");
    expect(list.results).toBe(34);
    const ids: string[] = list.data.map((r: { id: string }) => r.id);
    expect(ids.slice(0, 3)).toEqual(["au-mel", "es-mad", "in-maa"]);
    expect(ids).toEqual(expect.arrayContaining(["us-ord", "us-iad", "us-east", "us-west", "eu-central", "ap-south", "ap-northeast"]));
    const ord = await open("/regions/us-ord");
    expect(ord).toMatchObject({ id: "us-ord", label: "Chicago, IL", country: "us", site_type: "core", status: "ok" });
    expect(ord.capabilities).toEqual(expect.arrayContaining(["Computes", "GPU Computes", "Vlans", "VPCs", "Metadata", "Managed Databases"]));
    expect(ord.resolvers.ipv4.split(",")).toHaveLength(10);
    // Renamed everywhere; the fields of the emulator's region view on each, and no others.
    expect(strings(list.data).filter((s) => /linode/i.test(s))).toEqual([]);
    for (const r of list.data) expect(Object.keys(r).sort()).toEqual(["capabilities", "country", "id", "label", "resolvers", "site_type", "status"]);
    // The emulator's own regions keep what its rules and tests need: one without Metadata, one without VPCs, one in an outage.
    expect((await open("/regions/us-west")).capabilities).not.toContain("Metadata");
    expect((await open("/regions/ap-south")).capabilities).not.toContain("VPCs");
    expect((await open("/regions/ap-northeast")).status).toBe("outage");
  });

  test("availability: the real premium and gpu plans where the recording sells them", async () => {
    const ord: Array<{ plan: string; available: boolean }> = await open("/regions/us-ord/availability");
    expect(ord.find((a) => a.plan === "g7-premium-2")).toEqual({ region: "us-ord", plan: "g7-premium-2", available: true });
    expect(ord.find((a) => a.plan === "g1-gpu-rtx6000-1")?.available).toBe(false);
    expect(ord.find((a) => a.plan === "c1-premium-4")?.available).toBe(false);
  });

  test("public images, kernels (every recorded one, in pages of 100) and engines", async () => {
    const images = await open("/images");
    const imageIds: string[] = images.data.map((i: { id: string }) => i.id);
    expect(imageIds).toEqual(
      expect.arrayContaining(["compute/debian12", "compute/debian13", "compute/ubuntu24.04", "compute/almalinux9", "compute/ubuntu24.04-nvidia"]),
    );
    expect(imageIds.every((id) => id.startsWith("compute/"))).toBe(true);
    // Both recordings' public images: now's, then those of 2024 that are no longer listed.
    expect(images.results).toBe(59);
    expect(imageIds.slice(-2)).toEqual(["compute/ubuntu16.04lts", "compute/ubuntu18.04"]);
    expect(await open("/images/compute/debian13")).toMatchObject({
      label: "Debian 13",
      vendor: "Debian",
      created_by: "compute",
      size: 1800,
      status: "available",
      is_public: true,
    });

    const k1 = await open("/compute/kernels");
    expect([k1.results, k1.pages, k1.data.length]).toEqual([332, 4, 100]);
    expect((await open("/compute/kernels?page=4")).data).toHaveLength(32);
    expect(await open("/compute/kernels/compute/6.8.9-x86_64-compute164")).toMatchObject({ label: "6.8.9-x86_64-compute164", version: "6.8.9", kvm: true });
    expect((await open("/compute/kernels/compute/latest-64bit")).label).toBe("Latest 64 bit (6.8.9-x86_64-compute164)");

    const engines = await open("/databases/engines");
    // By engine, then version, as the real API lists them; both recorded generations (2024's full versions, the major-only ids of now).
    expect(engines.data.map((e: { id: string }) => e.id)).toEqual([
      "mysql/8",
      "mysql/8.0.30",
      "mysql/8.0.35",
      "postgresql/12.12",
      "postgresql/13",
      "postgresql/13.8",
      "postgresql/14",
      "postgresql/14.6",
      "postgresql/14.10",
      "postgresql/15",
      "postgresql/15.5",
      "postgresql/16",
      "postgresql/16.1",
      "postgresql/17",
    ]);
    expect(await open("/databases/engines/postgresql/14.6")).toEqual({
      id: "postgresql/14.6",
      engine: "postgresql",
      version: "14.6",
      total_disk_size_gb: 0,
      used_disk_size_gb: 0,
    });
  });

  // Not in databases-api.md: the real API's list, as recorded (TestDatabase_Type), with no token.
  test("the database types, with the price of a cluster of 1, 2 and 3 nodes per engine", async () => {
    const types = await open("/databases/types");
    // The recorded 19, after the emulator's own c1-* types (priced as their g6 namesakes: docs/spec-gaps.md).
    expect([types.results, types.data[0].id, types.data[5].id]).toEqual([24, "c1-nano-1", "g6-nanode-1"]);
    const own = await open("/databases/types/c1-standard-2");
    expect(own).toMatchObject({ class: "standard", memory: 2048, engines: { mysql: [{ quantity: 1, price: { monthly: 30 } }, {}, {}] } });
    const standard2 = await open("/databases/types/g6-standard-2");
    expect(standard2).toMatchObject({ label: "DBaaS - Compute 4GB", class: "standard", vcpus: 2, memory: 4096 });
    expect(standard2.engines.postgresql.map((p: { quantity: number; price: { monthly: number } }) => [p.quantity, p.price.monthly])).toEqual([
      [1, 60],
      [2, 100],
      [3, 140],
    ]);
    const dedicated = await call(emu(), "GET", "/databases/types", { token: null, headers: { "X-Filter": JSON.stringify({ class: "dedicated" }) } });
    expect(dedicated.body.data.every((t: { class: string }) => t.class === "dedicated")).toBe(true);
    expect(dedicated.body.results).toBe(10);
    expect((await call(emu(), "GET", "/databases/types/g6-nope-1", { token: null })).status).toBe(404);
  });
});

describe("what a program of the real API makes with them", () => {
  test("an instance of g6-nanode-1 in us-ord from compute/debian12, with user data, runs", async () => {
    const userData = Buffer.from("#cloud-config\n").toString("base64");
    const inst = await ok("POST", "/compute/instances", {
      region: "us-ord",
      type: "g6-nanode-1",
      image: "compute/debian12",
      root_pass: PASS,
      metadata: { user_data: userData },
    });
    expect(inst).toMatchObject({ region: "us-ord", type: "g6-nanode-1", image: "compute/debian12", has_user_data: true });
    expect(inst.specs).toMatchObject({ disk: 25600, gpus: 0, memory: 1024, transfer: 1000, vcpus: 1 });
    tick(BASE_MS.provisioning + BASE_MS.booting);
    expect((await call(emu(), "GET", I(inst.id))).body.status).toBe("running");
    const disks = (await call(emu(), "GET", `${I(inst.id)}/disks`)).body.data;
    expect(disks.reduce((n: number, d: { size: number }) => n + d.size, 0)).toBe(25600);
    // A resize to a real plan with more disk.
    await ok("POST", `${I(inst.id)}/resize`, { type: "g6-standard-2" });
  });

  test("a VPC in us-iad, and an instance in it", async () => {
    const vpc = await ok("POST", "/vpcs", { label: "real-net", region: "us-iad", subnets: [{ label: "apps", ipv4: "10.0.0.0/24" }] });
    expect(vpc.region).toBe("us-iad");
    const inst = await ok("POST", "/compute/instances", {
      region: "us-iad",
      type: "g6-standard-1",
      image: "compute/ubuntu24.04",
      root_pass: PASS,
      interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0].id }],
    });
    expect(inst.region).toBe("us-iad");
  });

  test("databases on the real engines and plans: mysql/8.0.30 and postgresql/14.6 on g6-dedicated-2 in us-ord", async () => {
    const my = await ok("POST", "/databases/mysql/instances", { label: "real-my", region: "us-ord", type: "g6-dedicated-2", engine: "mysql/8.0.30" });
    const pg = await ok("POST", "/databases/postgresql/instances", { label: "real-pg", region: "us-ord", type: "g6-dedicated-2", engine: "postgresql/14.6" });
    expect([my.version, pg.version, my.total_disk_size_gb]).toEqual(["8.0.30", "14.6", 80]);
    tick(DB_MS.provisioning);
    expect((await call(emu(), "GET", `/databases/mysql/instances/${my.id}`)).body.status).toBe("active");
    expect((await call(emu(), "GET", `/databases/postgresql/instances/${pg.id}`)).body.status).toBe("active");
    // The major-only id the real API lists now is an engine too.
    expect((await ok("POST", "/databases/mysql/instances", { label: "real-my8", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8" })).version).toBe("8");
  });
});

describe("the catalogue read by the contract's record schemas (api/contract/reference.ts)", () => {
  test("every entry of the data file is the API's record; one that is not stops the emulator, naming its place", () => {
    expect(catalog.types).toHaveLength(46);
    const types = catalogJson.types.map((t, i) => (i === 3 ? { ...t, class: "tiny" } : t));
    expect(() => readCatalog({ ...catalogJson, types })).toThrow(/^emulator\/data\/catalog.json: types\.3\.class: /);
    const kernels = catalogJson.kernels.map((k, i) => (i === 0 ? { ...k, arch: "x86_64" } : k));
    expect(() => readCatalog({ ...catalogJson, kernels })).toThrow(/^emulator\/data\/catalog.json: kernels\.0: .*arch/);
  });

  test("each plan sold in some regions is a premium or gpu type, sold in regions of the catalogue", () => {
    expect(() => readCatalog({ ...catalogJson, availability: { ...catalogJson.availability, "c1-standard-2": ["us-east"] } })).toThrow(
      "emulator/data/catalog.json: availability.c1-standard-2: no premium or gpu type c1-standard-2",
    );
    expect(() => readCatalog({ ...catalogJson, availability: { ...catalogJson.availability, "c1-premium-4": ["mars-1"] } })).toThrow(
      "emulator/data/catalog.json: availability.c1-premium-4: no region mars-1",
    );
  });
});
