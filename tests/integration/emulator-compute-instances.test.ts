import { BASE_MS } from "../../emulator/routes/compute";
import { useComputeEmulator, I, PASS, fields } from "../helpers/compute-calls";
import { addUser, call, ed25519Key } from "../helpers/emulator";

/** The compute API's reference data (regions, types, kernels, public images) and the instance itself: create, update, delete. */

const { emu, tick, create, deployed, get } = useComputeEmulator();

describe("reference data (no token needed)", () => {
  test("regions, with capabilities and status", async () => {
    const r = await call(emu(), "GET", "/regions", { token: null });
    expect(r.status).toBe(200);
    expect(r.body.results).toBeGreaterThan(2);
    expect(r.body.data.some((x: any) => x.capabilities.includes("Metadata"))).toBe(true);
    expect(r.body.data.some((x: any) => !x.capabilities.includes("Metadata"))).toBe(true);
    expect(r.body.data[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), label: expect.any(String), country: expect.any(String), status: "ok", resolvers: expect.any(Object) }),
    );
    expect((await call(emu(), "GET", "/regions/us-east", { token: null })).body.id).toBe("us-east");
    expect((await call(emu(), "GET", "/regions/mars-1", { token: null })).status).toBe(404);
  });

  test("availability, for all regions and one", async () => {
    const all = await call(emu(), "GET", "/regions/availability", { token: null });
    expect(all.body.data[0]).toEqual({ region: expect.any(String), plan: expect.any(String), available: expect.any(Boolean) });
    const one = await call(emu(), "GET", "/regions/eu-central/availability", { token: null });
    expect(one.body.every((x: any) => x.region === "eu-central")).toBe(true);
  });

  test("types with class, prices and successor", async () => {
    const r = await call(emu(), "GET", "/compute/types", { token: null });
    const t = r.body.data.find((x: any) => x.id === "c1-standard-2");
    expect(t).toMatchObject({ class: "standard", successor: "c2-standard-2", price: { hourly: expect.any(Number), monthly: expect.any(Number) } });
    expect(t.addons.backups.price).toEqual({ hourly: expect.any(Number), monthly: expect.any(Number) });
    expect((await call(emu(), "GET", "/compute/types/c1-nano-1", { token: null })).body.class).toBe("nanode");
  });

  test("kernels, with ids that contain a slash", async () => {
    const r = await call(emu(), "GET", "/compute/kernels?page_size=500", { token: null });
    expect(r.body.data.map((k: any) => k.id)).toContain("compute/latest-64bit");
    const k = await call(emu(), "GET", "/compute/kernels/compute/latest-64bit", { token: null });
    expect(k.body).toMatchObject({ id: "compute/latest-64bit", architecture: "x86_64", kvm: true });
  });

  test("public images", async () => {
    const r = await call(emu(), "GET", "/images", { token: null });
    expect(r.body.data.every((i: any) => i.is_public && i.id.startsWith("compute/"))).toBe(true);
    expect((await call(emu(), "GET", "/images/compute/debian12", { token: null })).body).toMatchObject({ status: "available", capabilities: ["cloud-init"] });
  });
});

describe("instance create", () => {
  test("from an image: provisioning, then booting, then running, with a default profile and two disks", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: "provisioning",
      label: `compute${r.body.id}`,
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      hypervisor: "kvm",
    });
    expect(r.body.ipv4).toHaveLength(1);
    expect(r.body.ipv6).toMatch(/\/128$/);
    expect(r.body).not.toHaveProperty("_queue");
    expect(JSON.stringify(r.body)).not.toContain(PASS);
    const disks = (await get(`${I(r.body.id)}/disks`)).data;
    expect(disks.map((x: any) => [x.size, x.filesystem, x.status])).toEqual([
      [51200 - 512, "ext4", "not ready"],
      [512, "swap", "not ready"],
    ]);
    tick(BASE_MS.provisioning - 1);
    expect((await get(I(r.body.id))).status).toBe("provisioning");
    // Its disks made, it boots (recorded: provisioning, booting, running; 50 s, then 24 s at speed 1).
    tick(1);
    expect((await get(I(r.body.id))).status).toBe("booting");
    expect((await get(`${I(r.body.id)}/disks`)).data.every((x: any) => x.status === "ready")).toBe(true);
    tick(BASE_MS.booting - 1);
    expect((await get(I(r.body.id))).status).toBe("booting");
    tick(1);
    expect((await get(I(r.body.id))).status).toBe("running");
    const cfgs = (await get(`${I(r.body.id)}/configs`)).data;
    expect(cfgs).toHaveLength(1);
    expect(cfgs[0]).toMatchObject({
      label: "My Debian 12 Disk Profile",
      kernel: "compute/latest-64bit",
      devices: { sda: { disk_id: disks[0].id }, sdb: { disk_id: disks[1].id } },
    });
  });

  test("booted false ends offline; swap_size sets the swap disk; private_ip adds an address", async () => {
    const r = await create({
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      root_pass: PASS,
      booted: false,
      swap_size: 1024,
      private_ip: true,
    });
    tick(BASE_MS.provisioning);
    expect((await get(I(r.body.id))).status).toBe("offline");
    expect((await get(`${I(r.body.id)}/disks`)).data.map((x: any) => x.size)).toEqual([51200 - 1024, 1024]);
    expect(r.body.ipv4[1]).toMatch(/^192\.168\./);
  });

  test("empty (no image, no backup): offline at once, no disks or profiles", async () => {
    const r = await create({ region: "us-east", type: "c1-nano-1", label: "empty-one" });
    expect(r.body.status).toBe("offline");
    expect((await get(`${I(r.body.id)}/disks`)).results).toBe(0);
    expect((await get(`${I(r.body.id)}/configs`)).results).toBe(0);
  });

  test("required fields and unknown region/type name their fields", async () => {
    expect(fields(await create({}))).toEqual(["region", "type"]);
    expect(fields(await create({ region: "mars", type: "huge" }))).toEqual(["region", "type"]);
  });

  test("root_pass: required for an image, 7..128, strong enough (the spec's text)", async () => {
    const base = { region: "us-east", type: "c1-standard-2", image: "compute/debian12" };
    expect(fields(await create(base))).toEqual(["root_pass"]);
    expect((await create({ ...base, root_pass: "Ab1!" })).body.errors[0].reason).toMatch(/7 to 128/);
    expect((await create({ ...base, root_pass: "a".repeat(129) })).body.errors[0].reason).toMatch(/7 to 128/);
    const weak = await create({ ...base, root_pass: "Password123!" });
    expect(weak.body.errors).toEqual([{ field: "root_pass", reason: "Password does not meet strength requirement" }]);
  });

  test.each([
    ["ab", /3 to 64/],
    ["x".repeat(65), /3 to 64/],
    ["-lead", /start and end/],
    ["has space", /only ASCII/],
    ["dou--ble", /in a row/],
  ])("label %j is refused", async (label, reason) => {
    const r = await create({ region: "us-east", type: "c1-nano-1", label });
    expect(r.body.errors[0]).toMatchObject({ field: "label", reason: expect.stringMatching(reason) });
  });

  test("labels are unique", async () => {
    await create({ region: "us-east", type: "c1-nano-1", label: "web-1" });
    const r = await create({ region: "us-east", type: "c1-nano-1", label: "web-1" });
    expect(r.body.errors[0]).toMatchObject({ field: "label", reason: "Label must be unique among your instances" });
  });

  test.each([
    [[], "interfaces", /1 to 3/],
    [[{ purpose: "public" }, { purpose: "vlan", label: "a" }, { purpose: "vlan", label: "b" }, { purpose: "vlan", label: "c" }], "interfaces", /at most 3/],
    [
      [
        { purpose: "public", primary: true },
        { purpose: "vlan", label: "a", primary: true },
      ],
      "interfaces",
      /one interface can be primary/,
    ],
    [[{ purpose: "vpc" }], "interfaces[0].subnet_id", /needs a subnet_id/],
    [[{ purpose: "vpc", subnet_id: 999 }], "interfaces[0].subnet_id", /not found/],
    [[{ purpose: "vlan" }], "interfaces[0].label", /needs a label/],
    [[{ purpose: "wifi" }], "interfaces[0].purpose", /one of public, vlan, vpc/],
  ])("interfaces %j are refused", async (interfaces, field, reason) => {
    const r = await create({ region: "us-east", type: "c1-nano-1", image: "compute/debian12", root_pass: PASS, interfaces });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ field, reason: expect.stringMatching(reason) });
  });

  test("user data needs a cloud-init image and a Metadata region", async () => {
    const ud = { user_data: Buffer.from("#cloud-config\n").toString("base64") };
    const noCi = await create({ region: "us-east", type: "c1-nano-1", image: "compute/alpine3.20", root_pass: PASS, metadata: ud });
    expect(noCi.body.errors[0].reason).toMatch(/cloud-init/);
    const noMd = await create({ region: "us-west", type: "c1-nano-1", image: "compute/debian12", root_pass: PASS, metadata: ud });
    expect(noMd.body.errors[0].reason).toMatch(/Metadata capability/);
    const ok = await create({ region: "us-east", type: "c1-nano-1", image: "compute/debian12", root_pass: PASS, metadata: ud });
    expect(ok.body.has_user_data).toBe(true);
    // No image: nothing to check the capability against; the real API accepted it (recorded).
    const noImage = await create({ region: "us-east", type: "c1-nano-1", label: "user-data-no-image", metadata: ud });
    expect([noImage.status, noImage.body.has_user_data, noImage.body.status]).toEqual([200, true, "offline"]);
  });

  test("deployment scripts need a compatible image and their inputs", async () => {
    const base = { region: "us-east", type: "c1-nano-1", root_pass: PASS };
    expect((await create({ ...base, image: "compute/alpine3.20", script_id: 101 })).body.errors[0].reason).toMatch(/needs one of these images/);
    expect((await create({ ...base, image: "compute/ubuntu24.04", script_id: 102 })).body.errors[0].reason).toMatch(/value for docker_user/);
    expect((await create({ ...base, image: "compute/ubuntu24.04", script_id: 102, script_data: { docker_user: "ops" } })).status).toBe(200);
    expect((await create({ ...base, image: "compute/debian12", script_id: 999 })).body.errors[0].field).toBe("script_id");
  });

  test("authorized keys must be keys; authorized users must have one", async () => {
    const base = { region: "us-east", type: "c1-nano-1", image: "compute/debian12", root_pass: PASS };
    expect((await create({ ...base, authorized_keys: ["nope"] })).body.errors[0].field).toBe("authorized_keys[0]");
    expect((await create({ ...base, authorized_users: ["admin"] })).body.errors[0].reason).toMatch(/no SSH key/);
    await call(emu(), "POST", "/profile/sshkeys", { body: { label: "k", ssh_key: ed25519Key(1) } });
    expect((await create({ ...base, authorized_users: ["admin"], authorized_keys: [ed25519Key(2)] })).status).toBe(200);
  });

  test("restricted users: add_computes to create, no tags, and only their own instances", async () => {
    const none = await addUser(emu(), "noadd", { restricted: true });
    expect((await create({ region: "us-east", type: "c1-nano-1" }, none)).status).toBe(403);
    const can = await addUser(emu(), "canadd", { restricted: true, global: { add_computes: true } });
    expect((await create({ region: "us-east", type: "c1-nano-1", tags: ["abc"] }, can)).status).toBe(403);
    const mine = await create({ region: "us-east", type: "c1-nano-1" }, can);
    expect(mine.status).toBe(200);
    expect((await call(emu(), "GET", I(mine.body.id), { token: can })).status).toBe(200);
    expect((await call(emu(), "PUT", I(mine.body.id), { token: can, body: { tags: ["abc"] } })).status).toBe(403);
    const theirs = await create({ region: "us-east", type: "c1-nano-1" });
    expect((await call(emu(), "GET", I(theirs.body.id), { token: can })).status).toBe(404);
    expect((await call(emu(), "GET", "/compute/instances", { token: can })).body.results).toBe(1);
  });

  test("the computes scope is needed", async () => {
    const t = await addUser(emu(), "acct", { scopes: "account:read_write computes:read_only" });
    expect((await create({ region: "us-east", type: "c1-nano-1" }, t)).status).toBe(403);
    expect((await call(emu(), "GET", "/compute/instances", { token: t })).status).toBe(200);
  });
});

describe("instance update and delete", () => {
  test("PUT changes label, group, tags, alerts, watchdog and the backup schedule", async () => {
    const inst = await deployed();
    const r = await call(emu(), "PUT", I(inst.id), {
      body: {
        label: "renamed",
        group: "g",
        tags: ["web", "prod"],
        alerts: { cpu: 150 },
        watchdog_enabled: false,
        backups: { schedule: { day: "Monday", window: "W4" } },
      },
    });
    expect(r.body).toMatchObject({
      label: "renamed",
      group: "g",
      tags: ["web", "prod"],
      watchdog_enabled: false,
      backups: { schedule: { day: "Monday", window: "W4" } },
    });
    expect(r.body.alerts.cpu).toBe(150);
    expect(r.body.alerts.io).toBe(10000);
    const bad = await call(emu(), "PUT", I(inst.id), {
      body: { alerts: { cpu: -1, nope: 1 }, backups: { schedule: { day: "Someday" } }, watchdog_enabled: "yes" },
    });
    expect(fields(bad).sort()).toEqual(["alerts", "alerts.cpu", "backups.schedule.day", "watchdog_enabled"]);
    // An alert the API does not have is refused on `alerts`, naming it.
    expect(bad.body.errors.find((e: any) => e.field === "alerts").reason).toBe("Unknown alert nope");
  });

  test("delete: deleting, then gone with its disks, profiles and backups", async () => {
    const inst = await deployed();
    expect((await call(emu(), "DELETE", I(inst.id))).body).toEqual({});
    expect((await get(I(inst.id))).status).toBe("deleting");
    expect((await get(`${I(inst.id)}/disks`)).data.every((x: any) => x.status === "deleting")).toBe(true);
    expect((await call(emu(), "POST", `${I(inst.id)}/boot`, { body: {} })).body.errors[0].reason).toBe("The instance is being deleted");
    expect((await call(emu(), "DELETE", I(inst.id))).status).toBe(200);
    tick(BASE_MS.deleting);
    expect((await call(emu(), "GET", I(inst.id))).status).toBe(404);
    expect((await get("/compute/instances")).results).toBe(0);
    // The API has no list of a gone instance's disks or profiles: the store shows none were left behind.
    expect(emu().store.data.disks.filter((x) => x.compute_id === inst.id)).toEqual([]);
    expect(emu().store.data.configs.filter((x) => x.compute_id === inst.id)).toEqual([]);
  });
});
