import { gzipSync } from "node:zlib";
import { BASE_MS } from "../../emulator/routes/compute";
import { addUser, call, events as eventsOf, useClockedEmulator } from "../helpers/emulator";

const { emu, tick } = useClockedEmulator({ images: { maxUploadBytes: 64 * 1024, uploadWindowMs: 60_000 } });

const PASS = "Str0ng-Passw0rd!";
const fields = (r: { body: any }) => r.body.errors.map((e: any) => e.field);
const vpc = (body: Record<string, unknown>, token?: string) => call(emu(), "POST", "/vpcs", { body: { region: "us-east", ...body }, token });
/** How many events of an action the account lists. */
const events = async (action: string) => (await eventsOf(emu(), action)).length;

describe("VPCs", () => {
  test("create with inline subnets; the response has what a user needs; events", async () => {
    const r = await vpc({
      label: "prod",
      description: "the prod network",
      subnets: [
        { label: "web", ipv4: "10.0.1.0/24" },
        { label: "db", ipv4: "10.0.2.0/24" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      label: "prod",
      description: "the prod network",
      region: "us-east",
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect(r.body.subnets.map((s: any) => [s.label, s.ipv4, s.computes])).toEqual([
      ["web", "10.0.1.0/24", []],
      ["db", "10.0.2.0/24", []],
    ]);
    expect([await events("vpc_create"), await events("subnet_create")]).toEqual([1, 2]);
    expect((await call(emu(), "GET", `/vpcs/${r.body.id}/subnets`)).body.results).toBe(2);
  });

  test.each([
    ["", /1 to 64/],
    ["x".repeat(65), /1 to 64/],
    ["has_underscore", /^Label must include only ASCII letters, numbers, and dashes$/],
    ["dou--ble", /two hyphens/],
  ])("label %j is refused", async (label, reason) => {
    expect((await vpc({ label })).body.errors[0]).toMatchObject({ field: "label", reason: expect.stringMatching(reason) });
  });

  test("labels are unique per account; description at most 255; region needed, with VPC support", async () => {
    await vpc({ label: "a" });
    expect((await vpc({ label: "a" })).body.errors[0].reason).toMatch(/unique among your VPCs/);
    expect(fields(await vpc({ label: "b", description: "x".repeat(256) }))).toEqual(["description"]);
    expect(fields(await call(emu(), "POST", "/vpcs", { body: { label: "c" } }))).toEqual(["region"]);
    expect((await vpc({ label: "d", region: "ap-south" })).body.errors[0].reason).toMatch(/does not support VPCs/);
  });

  test("the body's rules first (api/contract/vpcs.ts), then what the account's VPCs and regions refuse, in a second answer", async () => {
    await vpc({ label: "taken" });
    const clash = {
      label: "taken",
      region: "ap-south",
      subnets: [
        { label: "s", ipv4: "10.0.0.0/16" },
        { label: "s", ipv4: "10.0.1.0/24" },
      ],
    };
    expect(fields(await vpc({ ...clash, description: "x".repeat(256) }))).toEqual(["description"]);
    expect(fields(await vpc(clash))).toEqual(["label", "region", "subnets[1].label", "subnets[1].ipv4"]);
  });

  test.each([
    ["10.0.1.5/24", /canonical form: 10\.0\.1\.0\/24/],
    ["8.8.8.0/24", /RFC 1918/],
    ["10.0.0.0/30", /1 to 29/],
    ["192.168.200.0/24", /192\.168\.128\.0\/17/],
    ["10.0.0.0", /IPv4 CIDR/],
    ["fd00::/64", /IPv4 CIDR/],
  ])("subnet ipv4 %s is refused", async (ipv4, reason) => {
    const r = await vpc({ label: "net", subnets: [{ label: "s", ipv4 }] });
    expect(r.body.errors[0]).toMatchObject({ field: "subnets[0].ipv4", reason: expect.stringMatching(reason) });
  });

  test("subnets must not overlap each other; labels unique in the VPC; a bad subnet creates nothing", async () => {
    const r = await vpc({
      label: "net",
      subnets: [
        { label: "a", ipv4: "10.0.0.0/16" },
        { label: "b", ipv4: "10.0.5.0/24" },
      ],
    });
    expect(r.body.errors[0]).toMatchObject({ field: "subnets[1].ipv4", reason: expect.stringMatching(/overlaps 10\.0\.0\.0\/16 of subnet a/) });
    expect((await call(emu(), "GET", "/vpcs")).body.data).toEqual([]);
    const v = (await vpc({ label: "net", subnets: [{ label: "a", ipv4: "10.0.0.0/16" }] })).body;
    expect((await call(emu(), "POST", `/vpcs/${v.id}/subnets`, { body: { label: "a", ipv4: "10.1.0.0/16" } })).body.errors[0].reason).toMatch(
      /unique among the VPC's subnets/,
    );
    expect((await call(emu(), "POST", `/vpcs/${v.id}/subnets`, { body: { label: "b", ipv4: "10.0.128.0/24" } })).body.errors[0].reason).toMatch(/overlaps/);
    expect((await call(emu(), "POST", `/vpcs/${v.id}/subnets`, { body: { label: "b", ipv4: "10.1.0.0/16" } })).status).toBe(200);
    expect(fields(await call(emu(), "POST", `/vpcs/${v.id}/subnets`, { body: {} })).sort()).toEqual(["ipv4", "label"]);
  });

  test("update label and description (events); ipv4 and region cannot change", async () => {
    const v = (await vpc({ label: "net", subnets: [{ label: "a", ipv4: "10.0.0.0/24" }] })).body;
    expect((await call(emu(), "PUT", `/vpcs/${v.id}`, { body: { label: "net-2", description: "d" } })).body).toMatchObject({
      label: "net-2",
      description: "d",
    });
    expect((await call(emu(), "PUT", `/vpcs/${v.id}`, { body: { region: "us-west" } })).status).toBe(400);
    const s = v.subnets[0];
    expect((await call(emu(), "PUT", `/vpcs/${v.id}/subnets/${s.id}`, { body: { label: "b" } })).body.label).toBe("b");
    expect((await call(emu(), "PUT", `/vpcs/${v.id}/subnets/${s.id}`, { body: { ipv4: "10.0.1.0/24" } })).body.errors[0].field).toBe("ipv4");
    expect([await events("vpc_update"), await events("subnet_update")]).toEqual([1, 1]);
  });

  test("page-size bounds apply to VPC lists", async () => {
    expect((await call(emu(), "GET", "/vpcs?page_size=10")).status).toBe(400);
    expect((await call(emu(), "GET", "/vpcs?page_size=25")).status).toBe(200);
  });

  test("scopes: vpc for VPCs, ips for addresses; add_vpcs for restricted users", async () => {
    const ro = await addUser(emu(), "reader", { scopes: "vpc:read_only" });
    expect((await call(emu(), "GET", "/vpcs", { token: ro })).status).toBe(200);
    expect((await vpc({ label: "x" }, ro)).status).toBe(403);
    expect((await call(emu(), "GET", "/vpcs/ips", { token: ro })).status).toBe(403);
    const ips = await addUser(emu(), "ipreader", { scopes: "ips:read_only" });
    expect((await call(emu(), "GET", "/vpcs/ips", { token: ips })).status).toBe(200);
    const restricted = await addUser(emu(), "limited", { restricted: true });
    expect((await vpc({ label: "x" }, restricted)).body.errors[0].reason).toMatch(/add_vpcs/);
    const allowed = await addUser(emu(), "allowed", { restricted: true, global: { add_vpcs: true } });
    expect((await vpc({ label: "x" }, allowed)).status).toBe(200);
  });

  test("instances join subnets through interfaces; addresses, subnet users and delete rules", async () => {
    const v = (await vpc({ label: "net", subnets: [{ label: "web", ipv4: "10.0.1.0/24" }] })).body;
    const s = v.subnets[0];
    const inst = (
      await call(emu(), "POST", "/compute/instances", {
        body: {
          region: "us-east",
          type: "c1-standard-2",
          image: "compute/debian12",
          root_pass: PASS,
          interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: s.id }],
        },
      })
    ).body;
    tick(BASE_MS.provisioning + BASE_MS.booting);
    const inst2 = (
      await call(emu(), "POST", "/compute/instances", {
        body: {
          region: "us-east",
          type: "c1-standard-2",
          label: "two",
          image: "compute/debian12",
          root_pass: PASS,
          booted: false,
          interfaces: [{ purpose: "vpc", subnet_id: s.id, ipv4: { nat_1_1: "any" } }],
        },
      })
    ).body;
    expect(
      (await call(emu(), "POST", "/compute/instances", { body: { region: "us-east", type: "c1-nano-1", interfaces: [{ purpose: "public" }] } })).body.errors[0]
        .reason,
    ).toMatch(/empty instance has no configuration profile/);
    expect(
      (
        await call(emu(), "POST", "/compute/instances", {
          body: { region: "us-west", type: "c1-nano-1", image: "compute/debian12", root_pass: PASS, interfaces: [{ purpose: "vpc", subnet_id: s.id }] },
        })
      ).body.errors[0].reason,
    ).toMatch(/is in region us-east/);

    const sub = (await call(emu(), "GET", `/vpcs/${v.id}/subnets/${s.id}`)).body;
    expect(sub.computes.map((c: any) => c.id).sort()).toEqual([inst.id, inst2.id].sort());
    expect(sub.computes.find((c: any) => c.id === inst.id).interfaces[0]).toMatchObject({ active: true, config_id: expect.any(Number) });
    const ips = (await call(emu(), "GET", `/vpcs/${v.id}/ips`)).body.data;
    expect(ips.map((x: any) => x.address).sort()).toEqual(["10.0.1.2", "10.0.1.3"]);
    expect(ips[0]).toMatchObject({ vpc_id: v.id, subnet_id: s.id, region: "us-east", gateway: "10.0.1.1", prefix: 24, subnet_mask: "255.255.255.0" });
    expect((await call(emu(), "GET", "/vpcs/ips")).body.results).toBe(2);

    // In use: neither the subnet nor the VPC can go, and nothing is deleted.
    const del = await call(emu(), "DELETE", `/vpcs/${v.id}/subnets/${s.id}`);
    expect(del.body.errors[0].reason).toMatch(new RegExp(`in use by instance ${inst.id} \\(profile \\d+, interface \\d+, active\\)`));
    expect((await call(emu(), "DELETE", `/vpcs/${v.id}`)).body.errors[0].reason).toMatch(/cannot be deleted/);
    expect((await call(emu(), "GET", `/vpcs/${v.id}/subnets`)).body.data).toHaveLength(1);

    // Free them: the instances go, then the VPC and its subnet go together, at once (the real API deleted a
    // VPC right after the instances that used it, while they were still `deleting`: recorded).
    for (const i of [inst, inst2]) await call(emu(), "DELETE", `/compute/instances/${i.id}`);
    expect((await call(emu(), "GET", `/compute/instances/${inst.id}`)).body.status).toBe("deleting");
    expect((await call(emu(), "DELETE", `/vpcs/${v.id}`)).status).toBe(200);
    // A deleted VPC's subnets have no list in the API: the store shows none was left behind.
    const vpcs = (await call(emu(), "GET", "/vpcs")).body.data;
    expect([vpcs.length, emu().store.data.subnets.length, await events("vpc_delete"), await events("subnet_delete")]).toEqual([0, 0, 1, 1]);
  });
});

describe("images", () => {
  const bootDisk = async () => {
    const inst = (
      await call(emu(), "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS } })
    ).body;
    tick(BASE_MS.provisioning + BASE_MS.booting);
    return { inst, disk: (await call(emu(), "GET", `/compute/instances/${inst.id}/disks`)).body.data[0] };
  };

  test("capture from a disk: creating -> available, private, deployable", async () => {
    const { disk } = await bootDisk();
    const r = await call(emu(), "POST", "/images", { body: { disk_id: disk.id, description: "golden", cloud_init: true } });
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^private\/\d+$/),
      label: disk.label,
      status: "creating",
      is_public: false,
      created_by: "admin",
      size: disk.size,
      capabilities: ["cloud-init"],
    });
    // As long as the real API's capture (disk_imagize: 144 s at speed 1).
    tick(BASE_MS.imagize - 1);
    expect((await call(emu(), "GET", `/images/${r.body.id}`)).body.status).toBe("creating");
    tick(1);
    const img = (await call(emu(), "GET", `/images/${r.body.id}`)).body;
    expect(img.status).toBe("available");
    const list = (await call(emu(), "GET", "/images")).body.data.map((i: any) => i.id);
    expect(list).toContain(r.body.id);
    expect((await call(emu(), "GET", "/images", { token: null })).body.data.map((i: any) => i.id)).not.toContain(r.body.id);
    expect((await call(emu(), "GET", `/images/${r.body.id}`, { token: null })).status).toBe(404);
    // Another user neither sees nor deploys it.
    const other = await addUser(emu(), "other");
    expect((await call(emu(), "GET", `/images/${r.body.id}`, { token: other })).status).toBe(404);
    const dep = await call(emu(), "POST", "/compute/instances", {
      body: { region: "us-east", type: "c1-standard-4", image: r.body.id, root_pass: PASS, label: "from-golden" },
    });
    expect(dep.status).toBe(200);
    expect(
      (await call(emu(), "POST", "/compute/instances", { token: other, body: { region: "us-east", type: "c1-standard-4", image: r.body.id, root_pass: PASS } }))
        .body.errors[0].field,
    ).toBe("image");
  });

  test("capture takes a disk not ready yet (as the real API did); once available, the image's size is its data's", async () => {
    const inst = (
      await call(emu(), "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS } })
    ).body;
    const disk = (await call(emu(), "GET", `/compute/instances/${inst.id}/disks`)).body.data.find((x: any) => x.filesystem !== "swap");
    expect(disk.status).toBe("not ready");
    const r = await call(emu(), "POST", "/images", { body: { disk_id: disk.id } });
    expect([r.status, r.body.status, r.body.size]).toEqual([200, "creating", disk.size]);
    tick(BASE_MS.imagize);
    const img = (await call(emu(), "GET", `/images/${r.body.id}`)).body;
    const debian = (await call(emu(), "GET", "/images/compute/debian12")).body;
    expect([img.status, img.size]).toEqual(["available", debian.size]);
    expect(img.size).toBeLessThan(disk.size);
    // A disk smaller than the source disk, as large as the data, is made from it (the real API accepted one).
    const host = (await call(emu(), "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", label: "small-disk-host" } })).body;
    const small = await call(emu(), "POST", `/compute/instances/${host.id}/disks`, { body: { image: img.id, size: img.size, root_pass: PASS } });
    expect(small.status).toBe(200);
  });

  test("capture needs disk_id, and computes:read_only on the token", async () => {
    expect(fields(await call(emu(), "POST", "/images", { body: {} }))).toEqual(["disk_id"]);
    const { disk } = await bootDisk();
    const imagesOnly = await addUser(emu(), "imgonly", { scopes: "images:read_write" });
    expect((await call(emu(), "POST", "/images", { token: imagesOnly, body: { disk_id: disk.id } })).body.errors[0].reason).toMatch(/computes:read_only/);
  });

  test("capture needs a read_write grant on the instance: a read_only one is refused 403, as the instance's other changes are", async () => {
    // A restricted user makes an instance (a read_write grant), then its grant is made read_only through an import.
    const maker = await addUser(emu(), "maker", { restricted: true, global: { add_computes: true, add_images: true } });
    const inst = (
      await call(emu(), "POST", "/compute/instances", {
        token: maker,
        body: { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS },
      })
    ).body;
    tick(BASE_MS.provisioning + BASE_MS.booting);
    const disk = (await call(emu(), "GET", `/compute/instances/${inst.id}/disks`)).body.data[0];
    const fixture = (await call(emu(), "GET", "/__emulator/export")).body;
    const user = fixture.records.users.find((u: any) => u.username === "maker");
    user.grants.compute = user.grants.compute.map((g: any) => ({ ...g, permissions: "read_only" }));
    expect((await call(emu(), "POST", "/__emulator/import", { body: fixture })).status).toBe(200);
    const refused = await call(emu(), "POST", "/images", { token: maker, body: { disk_id: disk.id, label: "mine" } });
    expect([refused.status, refused.body.errors[0].reason]).toEqual([403, "You have only read access to this instance"]);
    // What the grant lets it do (read the instance) it still does; a change of the instance is refused alike.
    expect((await call(emu(), "GET", `/compute/instances/${inst.id}`, { token: maker })).status).toBe(200);
    expect((await call(emu(), "POST", `/compute/instances/${inst.id}/shutdown`, { token: maker, body: {} })).status).toBe(403);
    // Nothing was made: no image, no disk_imagize event.
    expect((await call(emu(), "GET", "/images?page_size=500")).body.data.filter((i: any) => !i.is_public)).toEqual([]);
    expect(await events("disk_imagize")).toBe(0);
    // A grant of none does not see the disk (400 on disk_id, as before); read_write captures.
    user.grants.compute = user.grants.compute.map((g: any) => ({ ...g, permissions: null }));
    await call(emu(), "POST", "/__emulator/import", { body: fixture });
    expect(fields(await call(emu(), "POST", "/images", { token: maker, body: { disk_id: disk.id } }))).toEqual(["disk_id"]);
    user.grants.compute = user.grants.compute.map((g: any) => ({ ...g, permissions: "read_write" }));
    await call(emu(), "POST", "/__emulator/import", { body: fixture });
    expect((await call(emu(), "POST", "/images", { token: maker, body: { disk_id: disk.id } })).status).toBe(200);
  });

  test("upload: pending_upload, a PUT of gzip data to upload_to, then available", async () => {
    const r = await call(emu(), "POST", "/images/upload", { body: { label: "uploaded", region: "us-east", description: "from a file" } });
    expect(r.body.image).toMatchObject({ status: "pending_upload", label: "uploaded" });
    expect(r.body.upload_to).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/upload\/[0-9a-f]+$/);
    const notGzip = await fetch(r.body.upload_to, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: "raw bytes" });
    expect(notGzip.status).toBe(400);
    const wrongType = await fetch(r.body.upload_to, { method: "PUT", headers: { "content-type": "text/plain" }, body: gzipSync("x") });
    expect(wrongType.status).toBe(415);
    // The media type is application/octet-stream (its parameters aside), not one that starts with it.
    const longer = await fetch(r.body.upload_to, { method: "PUT", headers: { "content-type": "application/octet-stream-x" }, body: gzipSync("x") });
    expect(longer.status).toBe(415);
    const ok = await fetch(r.body.upload_to, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: gzipSync(Buffer.alloc(10_000, 7)),
    });
    expect(ok.status).toBe(200);
    expect((await call(emu(), "GET", `/images/${r.body.image.id}`)).body.status).toBe("creating");
    tick(BASE_MS.uploaded - 1);
    expect((await call(emu(), "GET", `/images/${r.body.image.id}`)).body.status).toBe("creating");
    tick(1);
    expect((await call(emu(), "GET", `/images/${r.body.image.id}`)).body).toMatchObject({ status: "available", size: 1 });
    // The URL works once.
    expect((await fetch(r.body.upload_to, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: gzipSync("x") })).status).toBe(404);
  });

  test("upload: over the size limit is refused; no data within the window cancels and deletes the image", async () => {
    const r = await call(emu(), "POST", "/images/upload", { body: { label: "big", region: "us-east" } });
    const big = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(100 * 1024)]);
    expect(
      (await fetch(r.body.upload_to, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: big }).catch(() => ({ status: 413 })))
        .status,
    ).toBe(413);
    tick(60_000);
    expect((await call(emu(), "GET", `/images/${r.body.image.id}`)).status).toBe(404);
    expect(fields(await call(emu(), "POST", "/images/upload", { body: {} })).sort()).toEqual(["label", "region"]);
  });

  test("update label and description; delete private images only", async () => {
    const { disk } = await bootDisk();
    const img = (await call(emu(), "POST", "/images", { body: { disk_id: disk.id } })).body;
    const u = await call(emu(), "PUT", `/images/${img.id}`, { body: { label: "renamed", description: "new" } });
    expect(u.body).toMatchObject({ label: "renamed", description: "new" });
    expect(fields(await call(emu(), "PUT", `/images/${img.id}`, { body: { description: "" } }))).toEqual(["description"]);
    // compute-api.md's PUT takes `label` and `description`: `cloud_init` is the capture's and the upload's, not read here.
    expect((await call(emu(), "PUT", `/images/${img.id}`, { body: { cloud_init: "yes" } })).status).toBe(200);
    expect((await call(emu(), "DELETE", "/images/compute/debian12")).body.errors[0].reason).toMatch(/Public images cannot/);
    expect((await call(emu(), "DELETE", `/images/${img.id}`)).status).toBe(200);
    expect((await call(emu(), "GET", `/images/${img.id}`)).status).toBe(404);
  });
});
