/**
 * The read functions of the reference data (sdk/reference.ts, provider/functions/reference.ts) against the emulator:
 * the lists take `filters`, `orderBy` and `order` as every lookup does and return `{ <list>: [...] }`; the
 * array form of the release before (`getImages()`, `getImages(opts)`) still works; the regions' availability
 * (every region's, a paged envelope, or one region's, a plain array) and the profile's grants. What is
 * expected comes from the emulator's catalogue (emulator/data/catalog.json), filtered here by hand.
 */
import * as pulumi from "@pulumi/pulumi";
import catalog from "../../emulator/data/catalog.json";
import type { Emulator } from "../../emulator/server";
import {
  getImage,
  getImages,
  getImagesOutput,
  getKernel,
  getKernels,
  getKernelsOutput,
  getPrice,
  getPriceOutput,
  getProfileGrants,
  getProfileGrantsOutput,
  getRegion,
  getRegionAvailability,
  getRegionAvailabilityOutput,
  getRegions,
  getRegionsOutput,
  getType,
  getTypes,
  getTypesOutput,
} from "../../sdk";
import { addUser, call, emulator } from "../helpers/emulator";

let emu: Emulator;
let o: { apiUrl: string };
beforeAll(async () => {
  emu = await emulator();
  o = { apiUrl: emu.url };
});
afterAll(async () => {
  await emu.close();
});

const value = <T>(out: pulumi.Output<T>) => new Promise<T>((resolve) => out.apply(resolve));
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
/** The requests the emulator was sent with no token (its anonymous log, read with its root token). */
const anonymous = async () => (await call(emu, "GET", "/__emulator/log/anonymous")).body as Array<{ path: string; status: number }>;
/** The premium and gpu plans of the catalogue, and where each is sold (its `availability`). */
const soldIn = catalog.availability as Record<string, string[]>;
const limited = catalog.types.filter((t) => t.class === "premium" || t.class === "gpu");

test("lists read every page and come back in camelCase", async () => {
  const { regions } = await getRegions({}, o);
  expect(ids(regions)).toContain("us-east");
  const { types } = await getTypes({}, o);
  const std = types.find((t) => t.id === "c1-standard-2")!;
  expect(std).toMatchObject({ class: "standard", networkOut: 2000, successor: "c2-standard-2" });
  expect(std.addons.backups.regionPrices[0]).toEqual({ id: "ap-south", hourly: expect.any(Number), monthly: expect.any(Number) });
  expect(ids((await getKernels({}, o)).kernels)).toContain("compute/latest-64bit");
  expect((await getImages({}, o)).images.every((i) => i.isPublic)).toBe(true);
  // No token was needed for any of it (none was sent: the emulator's anonymous log has them).
  const sent = await anonymous();
  expect(sent.length).toBeGreaterThanOrEqual(4);
  expect(sent.every((l) => l.status === 200)).toBe(true);
});

test("the array form of the release before: getX() and getX(opts) return the array, which also holds the list key", async () => {
  const saved = process.env.COMPUTE_API_URL;
  process.env.COMPUTE_API_URL = emu.url;
  try {
    // getX(opts): an array (what programs of the release before read), and the list under its key.
    const regions = await getRegions(o);
    expect(Array.isArray(regions)).toBe(true);
    expect(ids(regions)).toEqual(catalog.regions.map((r) => r.id));
    expect(regions.regions).toEqual([...regions]);
    // The key is not enumerable: the array's own keys stay its indexes, and it serializes as the array.
    expect(Object.keys(regions)).toEqual(regions.map((_r, i) => String(i)));
    expect(JSON.parse(JSON.stringify(regions))).toEqual([...regions]);
    const types = await getTypes(o);
    expect([Array.isArray(types), ids(types), ids(types.types)]).toEqual([true, catalog.types.map((t) => t.id), catalog.types.map((t) => t.id)]);
    const kernels = await getKernels(o);
    expect([Array.isArray(kernels), ids(kernels), ids(kernels.kernels)]).toEqual([true, catalog.kernels.map((k) => k.id), catalog.kernels.map((k) => k.id)]);
    const images = await getImages(o);
    expect([Array.isArray(images), ids(images), ids(images.images)]).toEqual([true, catalog.images.map((i) => i.id), catalog.images.map((i) => i.id)]);
    // getX() (the stack's config or COMPUTE_API_URL), the same.
    const none = await getImages();
    expect([Array.isArray(none), none.length, none.images.length]).toEqual([true, catalog.images.length, catalog.images.length]);
    // The Output forms: getXOutput() and getXOutput(opts).
    const out = await value(getImagesOutput(o));
    expect([Array.isArray(out), ids(out), ids(out.images)]).toEqual([true, ids(images), ids(images)]);
    const outNone = await value(getRegionsOutput());
    expect([Array.isArray(outNone), outNone.regions.length]).toEqual([true, catalog.regions.length]);
    // The new form returns the object, as every lookup: `{ images }`, not an array.
    const obj = await getImages({}, o);
    expect([Array.isArray(obj), Object.keys(obj)]).toEqual([false, ["images"]]);
    const objOut = await value(getKernelsOutput({}, o));
    expect([Array.isArray(objOut), Object.keys(objOut)]).toEqual([false, ["kernels"]]);
  } finally {
    if (saved === undefined) delete process.env.COMPUTE_API_URL;
    else process.env.COMPUTE_API_URL = saved;
  }
});

test("the newest public image of a vendor: filters on vendor and isPublic, ordered by created, newest first", async () => {
  const newest = (vendor: string) =>
    catalog.images
      .filter((i) => i.vendor === vendor && i.is_public)
      .sort((a, b) => b.created.localeCompare(a.created))
      .map((i) => i.id);
  // Images of the same date keep the list's order either way.
  const oldest = (vendor: string) =>
    catalog.images
      .filter((i) => i.vendor === vendor && i.is_public)
      .sort((a, b) => a.created.localeCompare(b.created))
      .map((i) => i.id);
  // The emulator's own images have their release dates; the real ones after them carry the recording's sanitized date.
  expect(newest("Debian").slice(0, 2)).toEqual(["compute/debian12", "compute/debian11"]);
  expect(newest("Ubuntu").slice(0, 2)).toEqual(["compute/ubuntu24.04", "compute/ubuntu22.04"]);
  for (const [vendor, isPublic] of [
    ["Debian", true],
    ["Ubuntu", "true"], // as text (YAML, config)
  ] as const) {
    const r = await getImages(
      {
        filters: [
          { name: "vendor", values: [vendor] },
          { name: "isPublic", values: [isPublic] },
        ],
        orderBy: "created",
        order: "desc",
      },
      o,
    );
    expect(ids(r.images)).toEqual(newest(vendor));
  }
  // Oldest first, and no public image is private.
  expect(ids((await getImages({ filters: [{ name: "vendor", values: ["Debian"] }], orderBy: "created" }, o)).images)).toEqual(oldest("Debian"));
  expect((await getImages({ filters: [{ name: "isPublic", values: [false] }] }, o)).images).toEqual([]);
  // The Output form takes Outputs in its filters.
  const vendor = pulumi.output(Promise.resolve("Ubuntu"));
  const out = getImagesOutput({ filters: [{ name: "vendor", values: [vendor] }], orderBy: "created", order: "desc" }, o);
  expect((await value(out)).images[0].id).toBe("compute/ubuntu24.04");
});

test("types by vCPUs and memory: numbers match the text a YAML program gives; order by number", async () => {
  const want = catalog.types.filter((t) => t.vcpus === 2 && t.memory === 4096).map((t) => t.id);
  expect(want.length).toBeGreaterThan(1);
  for (const values of [
    [["2"], ["4096"]],
    [[2], [4096]],
    [["2.0"], [" 4096"]],
  ]) {
    const r = await getTypes(
      {
        filters: [
          { name: "vcpus", values: values[0] },
          { name: "memory", values: values[1] },
        ],
      },
      o,
    );
    expect(ids(r.types)).toEqual(want);
  }
  // Text that is no number matches nothing; several values are alternatives; the order is by number (24576 after 8192).
  expect((await getTypes({ filters: [{ name: "vcpus", values: ["two"] }] }, o)).types).toEqual([]);
  const byMemory = await getTypes({ filters: [{ name: "vcpus", values: ["2", "4"] }], orderBy: "memory", order: "desc" }, o);
  const expected = catalog.types.filter((t) => t.vcpus === 2 || t.vcpus === 4).sort((a, b) => b.memory - a.memory || 0);
  expect(byMemory.types.map((t) => t.memory)).toEqual(expected.map((t) => t.memory));
  expect(byMemory.types[0].id).toBe("g7-highmem-4");
  // The Output form with an Output in the values.
  const premium = await value(getTypesOutput({ filters: [{ name: "class", values: [pulumi.output("premium")] }] }, o));
  expect(ids(premium.types)).toEqual(catalog.types.filter((t) => t.class === "premium").map((t) => t.id));
});

test("regions and kernels take filters and order too (a list field holds one of the values)", async () => {
  const gpu = await getRegions({ filters: [{ name: "capabilities", values: ["GPU Computes"] }] }, o);
  expect(ids(gpu.regions)).toEqual(catalog.regions.filter((r) => r.capabilities.includes("GPU Computes")).map((r) => r.id));
  expect(gpu.regions.length).toBeGreaterThan(1);
  const byLabel = await getRegions({ orderBy: "label", order: "desc" }, o);
  expect(byLabel.regions.map((r) => r.label)).toEqual(catalog.regions.map((r) => r.label).sort((a, b) => b.localeCompare(a, "en", { numeric: true })));
  const kernels = await getKernels({ filters: [{ name: "architecture", values: ["i386"] }] }, o);
  expect(ids(kernels.kernels)).toEqual(catalog.kernels.filter((k) => k.architecture === "i386").map((k) => k.id));
  // An unknown field fails at once, naming it and the fields there are; order needs orderBy.
  expect(() => getImages({ filters: [{ name: "distro", values: ["x"] }] }, o)).toThrow(
    /getImages: filters\[0\]\.name: unknown field "distro"; the fields of its items are id, label/,
  );
  expect(() => getTypesOutput({ orderBy: "cores" }, o)).toThrow(/getTypes: orderBy: unknown field "cores"/);
  await expect(getRegions({ order: "desc" }, o)).rejects.toThrow(/getRegions: order needs orderBy/);
});

test("getRegionAvailability: every region's (a paged envelope) or one region's (a plain array), filtered", async () => {
  const expected = catalog.regions.flatMap((r) =>
    limited.map((t) => ({ region: r.id, plan: t.id, available: r.status === "ok" && (soldIn[t.id] ?? []).includes(r.id) })),
  );
  // Some premium and gpu plans are unavailable in some regions, some available.
  expect(new Set(expected.map((a) => a.available))).toEqual(new Set([true, false]));
  let before = (await anonymous()).length;
  const all = await getRegionAvailability({}, o);
  expect(all.availability).toEqual(expected);
  // 34 regions by 15 plans: two pages of 500.
  expect((await anonymous()).slice(before).map((l) => l.path)).toEqual([
    expect.stringMatching(/^\/v4\/regions\/availability\?page=1&/),
    expect.stringMatching(/^\/v4\/regions\/availability\?page=2&/),
  ]);
  // Where the premium plan is sold: filters on the plan and `available` (as text), by region.
  const premium = await getRegionAvailability(
    {
      filters: [
        { name: "plan", values: ["c1-premium-4"] },
        { name: "available", values: ["true"] },
      ],
      orderBy: "region",
    },
    o,
  );
  expect(premium.availability.map((a) => a.region)).toEqual([...soldIn["c1-premium-4"]].sort());
  // One region: GET /regions/{regionId}/availability, a plain array in the API.
  before = (await anonymous()).length;
  const one = await getRegionAvailability({ regionId: "eu-central" }, o);
  expect(one.availability).toEqual(expected.filter((a) => a.region === "eu-central"));
  expect((await anonymous()).slice(before).map((l) => l.path)).toEqual(["/v4/regions/eu-central/availability"]);
  // A region in an outage sells nothing now; an unknown region is said by name.
  expect((await getRegionAvailability({ regionId: "ap-northeast" }, o)).availability.every((a) => !a.available)).toBe(true);
  await expect(getRegionAvailability({ regionId: "mars-1" }, o)).rejects.toThrow("region mars-1 not found");
  // The Output form takes the region as an Output.
  const gpuHere = getRegionAvailabilityOutput({ regionId: pulumi.output("eu-central"), filters: [{ name: "plan", values: ["c1-gpu-1"] }] }, o);
  expect((await value(gpuHere)).availability).toEqual([{ region: "eu-central", plan: "c1-gpu-1", available: true }]);
  expect(() => getRegionAvailability({ orderBy: "price" }, o)).toThrow(/unknown field "price"; the fields of its items are region, plan, available/);
});

test("getProfileGrants: an unrestricted user (204) has every grant; a restricted one its record, in camelCase", async () => {
  const root = await getProfileGrants({ apiUrl: emu.url, token: emu.token });
  expect(root.restricted).toBe(false);
  expect(Object.values(root.global).every((g) => g === true || g === "read_write")).toBe(true);
  expect(root.global).toMatchObject({ accountAccess: "read_write", addComputes: true, addVpcs: true, addDatabases: true });
  expect([root.compute, root.database, root.vpc, root.image]).toEqual([[], [], [], []]);
  expect((await call(emu, "GET", "/profile/grants")).status).toBe(204);

  const token = await addUser(emu, "grants-user", { restricted: true, global: { add_vpcs: true } });
  const vpc = await call(emu, "POST", "/vpcs", { token, body: { label: "granted", region: "us-east" } });
  expect(vpc.status).toBe(200);
  const mine = await value(getProfileGrantsOutput({ apiUrl: emu.url, token }));
  expect(mine.restricted).toBe(true);
  expect(mine.global).toMatchObject({ accountAccess: null, addVpcs: true, addComputes: false, addDatabases: false });
  expect(mine.vpc).toEqual([{ id: vpc.body.id, label: "granted", permissions: "read_write" }]);
  expect(mine.compute).toEqual([]);
  // A token is needed.
  await expect(getProfileGrants({ apiUrl: emu.url, token: "" })).rejects.toThrow();
});

test("single lookups, with slash ids, and a clear error when missing", async () => {
  expect((await getRegion("eu-central", o)).capabilities).toContain("Metadata");
  expect((await getType("c1-nano-1", o)).class).toBe("nanode");
  expect((await getKernel("compute/grub2", o)).label).toBe("GRUB 2");
  expect((await getImage("compute/debian12", o)).createdBy).toBe("compute");
  await expect(getRegion("mars-1", o)).rejects.toThrow("region mars-1 not found");
});

test("getPrice: a type's price in a region, with the backups add-on, or a database cluster's, summed from the catalogue", async () => {
  // c1-standard-2 in ap-south: the region's own 0.0216 / 15.77, and its add-on's there, 0.0054 / 3.94.
  expect(await getPrice({ type: "c1-standard-2", region: "ap-south", backupsEnabled: true }, o)).toEqual({ hourly: 0.027, monthly: 19.71 });
  // Elsewhere the type's default price, 0.018 / 13.14, with the default add-on's, 0.0045 / 3.29.
  expect(await getPrice({ type: "c1-standard-2", region: "us-east" }, o)).toEqual({ hourly: 0.018, monthly: 13.14 });
  expect(await value(getPriceOutput({ type: "c1-standard-2", region: pulumi.output("us-east"), backupsEnabled: true }, o))).toEqual({
    hourly: 0.0225,
    monthly: 16.43,
  });
  // A three-node PostgreSQL cluster of g6-standard-2: 140 a month (/databases/types).
  expect(await getPrice({ type: "g6-standard-2", region: "us-east", engine: "postgresql", clusterSize: 3 }, o)).toEqual({ hourly: 0.21, monthly: 140 });
  await expect(getPrice({ type: "c9-none", region: "us-east" }, o)).rejects.toThrow(
    "getPrice: type c9-none is not in the API's catalogue of instance types (getTypes lists them)",
  );
  await expect(getPrice({ type: "g6-standard-2", region: "us-east", engine: "mysql", clusterSize: 2 }, o)).resolves.toEqual({ hourly: 0.15, monthly: 100 });
});

test("without an API URL the error says how to set one", async () => {
  const saved = process.env.COMPUTE_API_URL;
  delete process.env.COMPUTE_API_URL;
  try {
    await expect(getRegions()).rejects.toThrow(/compute:apiUrl.*COMPUTE_API_URL/);
    await expect(getRegions({ filters: [{ name: "status", values: ["ok"] }] })).rejects.toThrow(/compute:apiUrl.*COMPUTE_API_URL/);
  } finally {
    if (saved !== undefined) process.env.COMPUTE_API_URL = saved;
  }
});
