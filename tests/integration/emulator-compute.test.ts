import type { Emulator } from "../../emulator/server";
import { BASE_MS } from "../../emulator/routes/compute";
import { addUser, call, ed25519Key, emulator } from "../helpers/emulator";

/** The emulator on a clock the test moves (speed 1: transitions take BASE_MS). */
let emu: Emulator;
let clock: number;
const tick = (ms: number) => (clock += ms);
beforeEach(async () => {
  clock = Date.parse("2026-03-10T12:00:00Z");
  emu = await emulator({ now: () => clock, speed: 1 });
});
afterEach(async () => {
  await emu.close();
});

const PASS = "Str0ng-Passw0rd!";
const create = (body: Record<string, unknown>, token?: string) => call(emu, "POST", "/compute/instances", { body, token });
const deployed = async (extra: Record<string, unknown> = {}) => {
  const r = await create({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS, ...extra });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  tick(BASE_MS.provisioning);
  return r.body;
};
const get = async (path: string) => (await call(emu, "GET", path)).body;
const I = (id: number) => `/compute/instances/${id}`;
const fields = (r: { body: any }) => r.body.errors.map((e: any) => e.field);

describe("reference data (no token needed)", () => {
  test("regions, with capabilities and status", async () => {
    const r = await call(emu, "GET", "/regions", { token: null });
    expect(r.status).toBe(200);
    expect(r.body.results).toBeGreaterThan(2);
    expect(r.body.data.some((x: any) => x.capabilities.includes("Metadata"))).toBe(true);
    expect(r.body.data.some((x: any) => !x.capabilities.includes("Metadata"))).toBe(true);
    expect(r.body.data[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), label: expect.any(String), country: expect.any(String), status: "ok", resolvers: expect.any(Object) }),
    );
    expect((await call(emu, "GET", "/regions/us-east", { token: null })).body.id).toBe("us-east");
    expect((await call(emu, "GET", "/regions/mars-1", { token: null })).status).toBe(404);
  });

  test("availability, for all regions and one", async () => {
    const all = await call(emu, "GET", "/regions/availability", { token: null });
    expect(all.body.data[0]).toEqual({ region: expect.any(String), plan: expect.any(String), available: expect.any(Boolean) });
    const one = await call(emu, "GET", "/regions/eu-central/availability", { token: null });
    expect(one.body.every((x: any) => x.region === "eu-central")).toBe(true);
  });

  test("types with class, prices and successor", async () => {
    const r = await call(emu, "GET", "/compute/types", { token: null });
    const t = r.body.data.find((x: any) => x.id === "c1-standard-2");
    expect(t).toMatchObject({ class: "standard", successor: "c2-standard-2", price: { hourly: expect.any(Number), monthly: expect.any(Number) } });
    expect(t.addons.backups.price).toEqual({ hourly: expect.any(Number), monthly: expect.any(Number) });
    expect((await call(emu, "GET", "/compute/types/c1-nano-1", { token: null })).body.class).toBe("nanode");
  });

  test("kernels, with ids that contain a slash", async () => {
    const r = await call(emu, "GET", "/compute/kernels?page_size=25", { token: null });
    expect(r.body.data.map((k: any) => k.id)).toContain("compute/latest-64bit");
    const k = await call(emu, "GET", "/compute/kernels/compute/latest-64bit", { token: null });
    expect(k.body).toMatchObject({ id: "compute/latest-64bit", architecture: "x86_64", kvm: true });
  });

  test("public images", async () => {
    const r = await call(emu, "GET", "/images", { token: null });
    expect(r.body.data.every((i: any) => i.is_public && i.id.startsWith("compute/"))).toBe(true);
    expect((await call(emu, "GET", "/images/compute/debian12", { token: null })).body).toMatchObject({ status: "available", capabilities: ["cloud-init"] });
  });
});

describe("instance create", () => {
  test("from an image: provisioning, then running, with a default profile and two disks", async () => {
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
    tick(1);
    expect((await get(I(r.body.id))).status).toBe("running");
    expect((await get(`${I(r.body.id)}/disks`)).data.every((x: any) => x.status === "ready")).toBe(true);
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
    const weak = await create({ ...base, root_pass: "alllowercase" });
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
    await call(emu, "POST", "/profile/sshkeys", { body: { label: "k", ssh_key: ed25519Key(1) } });
    expect((await create({ ...base, authorized_users: ["admin"], authorized_keys: [ed25519Key(2)] })).status).toBe(200);
  });

  test("restricted users: add_computes to create, no tags, and only their own instances", async () => {
    const none = await addUser(emu, "noadd", { restricted: true });
    expect((await create({ region: "us-east", type: "c1-nano-1" }, none)).status).toBe(403);
    const can = await addUser(emu, "canadd", { restricted: true, global: { add_computes: true } });
    expect((await create({ region: "us-east", type: "c1-nano-1", tags: ["abc"] }, can)).status).toBe(403);
    const mine = await create({ region: "us-east", type: "c1-nano-1" }, can);
    expect(mine.status).toBe(200);
    expect((await call(emu, "GET", I(mine.body.id), { token: can })).status).toBe(200);
    expect((await call(emu, "PUT", I(mine.body.id), { token: can, body: { tags: ["abc"] } })).status).toBe(403);
    const theirs = await create({ region: "us-east", type: "c1-nano-1" });
    expect((await call(emu, "GET", I(theirs.body.id), { token: can })).status).toBe(404);
    expect((await call(emu, "GET", "/compute/instances", { token: can })).body.results).toBe(1);
  });

  test("the computes scope is needed", async () => {
    const t = await addUser(emu, "acct", { scopes: "account:read_write computes:read_only" });
    expect((await create({ region: "us-east", type: "c1-nano-1" }, t)).status).toBe(403);
    expect((await call(emu, "GET", "/compute/instances", { token: t })).status).toBe(200);
  });
});

describe("instance update and delete", () => {
  test("PUT changes label, group, tags, alerts, watchdog and the backup schedule", async () => {
    const inst = await deployed();
    const r = await call(emu, "PUT", I(inst.id), {
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
    const bad = await call(emu, "PUT", I(inst.id), {
      body: { alerts: { cpu: -1, nope: 1 }, backups: { schedule: { day: "Someday" } }, watchdog_enabled: "yes" },
    });
    expect(fields(bad).sort()).toEqual(["alerts.cpu", "alerts.nope", "backups.schedule.day", "watchdog_enabled"]);
  });

  test("delete: deleting, then gone with its disks, profiles and backups", async () => {
    const inst = await deployed();
    expect((await call(emu, "DELETE", I(inst.id))).body).toEqual({});
    expect((await get(I(inst.id))).status).toBe("deleting");
    expect((await get(`${I(inst.id)}/disks`)).data.every((x: any) => x.status === "deleting")).toBe(true);
    expect((await call(emu, "POST", `${I(inst.id)}/boot`, { body: {} })).body.errors[0].reason).toMatch(/running or queued/);
    expect((await call(emu, "DELETE", I(inst.id))).status).toBe(200);
    tick(BASE_MS.deleting);
    expect((await call(emu, "GET", I(inst.id))).status).toBe(404);
    expect((await get("/compute/instances")).results).toBe(0);
    // The API has no list of a gone instance's disks or profiles: the store shows none were left behind.
    expect(emu.store.data.disks.filter((x) => x.compute_id === inst.id)).toEqual([]);
    expect(emu.store.data.configs.filter((x) => x.compute_id === inst.id)).toEqual([]);
  });
});

describe("power and configuration profile choice", () => {
  test("actions are refused while provisioning (running or queued actions)", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS });
    for (const action of ["reboot", "shutdown", "mutate", "boot"]) {
      const a = await call(emu, "POST", `${I(r.body.id)}/${action}`, { body: {} });
      expect([action, a.status, a.body.errors?.[0].reason]).toEqual([action, 400, expect.stringMatching(/running or queued actions/)]);
    }
    expect((await call(emu, "POST", `${I(r.body.id)}/resize`, { body: { type: "c1-standard-4" } })).body.errors[0].reason).toMatch(/running or queued/);
  });

  test("shutdown, then boot: shutting_down -> offline -> booting -> running", async () => {
    const inst = await deployed();
    await call(emu, "POST", `${I(inst.id)}/shutdown`, { body: {} });
    expect((await get(I(inst.id))).status).toBe("shutting_down");
    tick(BASE_MS.shutting_down);
    expect((await get(I(inst.id))).status).toBe("offline");
    await call(emu, "POST", `${I(inst.id)}/boot`, { body: {} });
    expect((await get(I(inst.id))).status).toBe("booting");
    tick(BASE_MS.booting);
    expect((await get(I(inst.id))).status).toBe("running");
  });

  test("boot with several profiles and none booted last needs config_id (rule 2); reboot likewise (rule 3)", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", label: "bare" });
    const disk = (await call(emu, "POST", `${I(r.body.id)}/disks`, { body: { label: "d", size: 1000 } })).body;
    tick(BASE_MS.disk);
    const c1 = (await call(emu, "POST", `${I(r.body.id)}/configs`, { body: { label: "one", devices: { sda: { disk_id: disk.id } } } })).body;
    // A lone profile is used.
    expect((await call(emu, "POST", `${I(r.body.id)}/boot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.booting);
    await call(emu, "POST", `${I(r.body.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    await call(emu, "POST", `${I(r.body.id)}/configs`, { body: { label: "two", devices: { sda: { disk_id: disk.id } } } });
    // Several, one booted last: that one.
    expect((await call(emu, "POST", `${I(r.body.id)}/boot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.booting);
    expect((await call(emu, "POST", `${I(r.body.id)}/reboot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.rebooting);

    const r2 = await create({ region: "us-east", type: "c1-standard-2", label: "bare-two" });
    const d2 = (await call(emu, "POST", `${I(r2.body.id)}/disks`, { body: { label: "d", size: 1000 } })).body;
    for (const label of ["a", "b"]) await call(emu, "POST", `${I(r2.body.id)}/configs`, { body: { label, devices: { sda: { disk_id: d2.id } } } });
    const boot = await call(emu, "POST", `${I(r2.body.id)}/boot`, { body: {} });
    expect(boot.body.errors[0]).toMatchObject({ field: "config_id", reason: expect.stringMatching(/No configuration profile could be determined/) });
    const reboot = await call(emu, "POST", `${I(r2.body.id)}/reboot`, { body: { config_id: null } });
    expect(reboot.body.errors[0].reason).toMatch(/No configuration profile could be determined/);
    expect((await call(emu, "POST", `${I(r2.body.id)}/boot`, { body: { config_id: c1.id } })).body.errors[0].field).toBe("config_id");
    const cfgs = (await get(`${I(r2.body.id)}/configs`)).data;
    expect((await call(emu, "POST", `${I(r2.body.id)}/boot`, { body: { config_id: cfgs[1].id } })).status).toBe(200);
  });

  test("rescue refuses sdh", async () => {
    const inst = await deployed();
    const r = await call(emu, "POST", `${I(inst.id)}/rescue`, { body: { devices: { sdh: { disk_id: null } } } });
    expect(r.body.errors[0]).toMatchObject({ field: "devices.sdh", reason: expect.stringMatching(/reserved/) });
  });
});

describe("resize, mutate, rebuild, password", () => {
  test("resize up grows the data disk when allowed, and takes effect after migrating", async () => {
    const inst = await deployed();
    expect((await call(emu, "POST", `${I(inst.id)}/resize`, { body: { type: "c1-standard-4" } })).status).toBe(200);
    expect((await get(I(inst.id))).status).toBe("migrating");
    expect((await get(I(inst.id))).type).toBe("c1-standard-2");
    tick(BASE_MS.migrating);
    const after = await get(I(inst.id));
    expect(after).toMatchObject({ status: "running", type: "c1-standard-4", specs: { disk: 81920, memory: 4096 } });
    expect((await get(`${I(inst.id)}/disks`)).data.map((x: any) => x.size)).toEqual([81920 - 512, 512]);
  });

  test("resize without auto disk resize keeps the disks; a smaller type must fit the disks", async () => {
    const inst = await deployed();
    await call(emu, "POST", `${I(inst.id)}/resize`, { body: { type: "c1-standard-4", allow_auto_disk_resize: false, migration_type: "warm" } });
    tick(BASE_MS.migrating);
    expect((await get(`${I(inst.id)}/disks`)).data.map((x: any) => x.size)).toEqual([51200 - 512, 512]);
    const down = await call(emu, "POST", `${I(inst.id)}/resize`, { body: { type: "c1-nano-1" } });
    expect(down.body.errors[0]).toMatchObject({ field: "type", reason: expect.stringMatching(/delete or shrink disks first/) });
    expect((await call(emu, "POST", `${I(inst.id)}/resize`, { body: { type: "c1-standard-4", migration_type: "hot" } })).body.errors[0].field).toBe(
      "migration_type",
    );
  });

  test("mutate upgrades to the successor, or says there is none", async () => {
    const inst = await deployed();
    await call(emu, "POST", `${I(inst.id)}/mutate`, { body: {} });
    tick(BASE_MS.migrating);
    expect((await get(I(inst.id))).type).toBe("c2-standard-2");
    expect((await call(emu, "POST", `${I(inst.id)}/mutate`, { body: {} })).body.errors[0].reason).toMatch(/no upgrade available/);
  });

  test("rebuild replaces the disks and profiles", async () => {
    const inst = await deployed();
    const before = (await get(`${I(inst.id)}/disks`)).data.map((x: any) => x.id);
    const r = await call(emu, "POST", `${I(inst.id)}/rebuild`, { body: { image: "compute/ubuntu24.04", root_pass: PASS } });
    expect(r.body.status).toBe("rebuilding");
    tick(BASE_MS.rebuilding);
    const after = await get(I(inst.id));
    expect(after).toMatchObject({ status: "running", image: "compute/ubuntu24.04" });
    const disks = (await get(`${I(inst.id)}/disks`)).data;
    expect(disks.some((x: any) => before.includes(x.id))).toBe(false);
    expect(fields(await call(emu, "POST", `${I(inst.id)}/rebuild`, { body: {} })).sort()).toEqual(["image", "root_pass"]);
  });

  test("password reset needs the instance shut down and a strong password; it records password_reset", async () => {
    const inst = await deployed();
    expect((await call(emu, "POST", `${I(inst.id)}/password`, { body: { root_pass: PASS } })).body.errors[0].reason).toMatch(/must be shut down/);
    await call(emu, "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    expect((await call(emu, "POST", `${I(inst.id)}/password`, { body: { root_pass: "weakweakweak" } })).body.errors[0].reason).toBe(
      "Password does not meet strength requirement",
    );
    expect((await call(emu, "POST", `${I(inst.id)}/password`, { body: { root_pass: "An0ther-Str0ng!" } })).status).toBe(200);
    // not shown by the API: events (how they are listed is not part of the spec).
    expect(emu.store.data.events.filter((e) => e.action === "password_reset")).toHaveLength(1);
  });

  test("password reset with several non-swap disks asks for the per-disk reset", async () => {
    const inst = await create({ region: "us-east", type: "c1-standard-4", label: "two-disks" });
    for (const label of ["root", "data"]) expect((await call(emu, "POST", `${I(inst.body.id)}/disks`, { body: { label, size: 1000 } })).status).toBe(200);
    tick(BASE_MS.disk);
    const r = await call(emu, "POST", `${I(inst.body.id)}/password`, { body: { root_pass: PASS } });
    expect(r.body.errors[0].reason).toMatch(/per-disk password reset/);
    const disk = (await get(`${I(inst.body.id)}/disks`)).data[0];
    expect((await call(emu, "POST", `${I(inst.body.id)}/disks/${disk.id}/password`, { body: { root_pass: PASS } })).status).toBe(200);
  });
});

describe("clone, backups and restore", () => {
  test("at most 5 concurrent clones; delete refused while a clone runs", async () => {
    const src = await deployed();
    for (let i = 0; i < 5; i++)
      expect((await call(emu, "POST", `${I(src.id)}/clone`, { body: { region: "us-east", type: "c1-standard-2" } })).status).toBe(200);
    const sixth = await call(emu, "POST", `${I(src.id)}/clone`, { body: { region: "us-east", type: "c1-standard-2" } });
    expect(sixth.status).toBe(400);
    expect(sixth.body.errors[0].reason).toMatch(/five concurrent clones/);
    expect((await call(emu, "DELETE", I(src.id))).body.errors[0].reason).toMatch(/cloning or restoring/);
    const target = (await get("/compute/instances")).data[1];
    expect((await get(I(target.id))).status).toBe("cloning");
    expect((await call(emu, "DELETE", I(target.id))).status).toBe(400);
    tick(BASE_MS.cloning);
    expect((await get(I(target.id))).status).toBe("offline");
    expect((await get(`${I(target.id)}/disks`)).results).toBe(2);
    // The source's profile is copied onto the target, pointing at the target's copies of the disks.
    const [srcCfg] = (await get(`${I(src.id)}/configs`)).data;
    const [copy] = (await get(`${I(target.id)}/configs`)).data;
    const copiedDisks = (await get(`${I(target.id)}/disks`)).data.map((x: { id: number }) => x.id);
    expect(copy).toMatchObject({ label: srcCfg.label, kernel: srcCfg.kernel });
    expect(copy.id).not.toBe(srcCfg.id);
    expect((await get(`${I(src.id)}/configs`)).results).toBe(1);
    expect(copiedDisks).toContain(copy.devices.sda.disk_id);
    expect((await call(emu, "POST", `${I(target.id)}/boot`, { body: {} })).status).toBe(200);
    expect((await call(emu, "DELETE", I(src.id))).status).toBe(200);
  });

  test("snapshots need the backup service, one at a time; restore with and without overwrite", async () => {
    const inst = await deployed();
    expect((await call(emu, "POST", `${I(inst.id)}/backups`, { body: { label: "s1" } })).body.errors[0].reason).toMatch(/not enabled/);
    await call(emu, "POST", `${I(inst.id)}/backups/enable`, { body: {} });
    expect((await call(emu, "POST", `${I(inst.id)}/backups`, { body: {} })).body.errors[0].field).toBe("label");
    const snap = (await call(emu, "POST", `${I(inst.id)}/backups`, { body: { label: "s1" } })).body;
    expect(snap).toMatchObject({ type: "snapshot", status: "pending", label: "s1" });
    expect((await call(emu, "POST", `${I(inst.id)}/backups`, { body: { label: "s2" } })).body.errors[0].reason).toMatch(/already in progress/);
    let list = await get(`${I(inst.id)}/backups`);
    expect(list).toMatchObject({ automatic: [], snapshot: { current: null, in_progress: { id: snap.id } } });
    tick(BASE_MS.snapshot);
    list = await get(`${I(inst.id)}/backups`);
    expect(list.snapshot.current).toMatchObject({ id: snap.id, status: "successful" });

    const other = await deployed({ label: "other-one" });
    const full = await call(emu, "POST", `${I(inst.id)}/backups/${snap.id}/restore`, { body: { compute_id: other.id } });
    expect(full.body.errors[0].reason).toMatch(/Insufficient space/);
    const far = await deployed({ label: "far-away", region: "eu-central" });
    expect(
      (await call(emu, "POST", `${I(inst.id)}/backups/${snap.id}/restore`, { body: { compute_id: far.id, overwrite: true } })).body.errors[0].reason,
    ).toMatch(/another region/);
    expect((await call(emu, "POST", `${I(inst.id)}/backups/${snap.id}/restore`, { body: { compute_id: other.id, overwrite: true } })).status).toBe(200);
    expect((await get(I(other.id))).status).toBe("restoring");
    tick(BASE_MS.restoring);
    expect((await get(I(other.id))).status).toBe("offline");
    const cfg = (await get(`${I(other.id)}/configs`)).data[0];
    const disks = (await get(`${I(other.id)}/disks`)).data;
    expect(cfg.devices.sda.disk_id).toBe(disks[0].id);

    await call(emu, "POST", `${I(inst.id)}/backups/cancel`, { body: {} });
    expect((await get(`${I(inst.id)}/backups`)).snapshot.current).toBeNull();
  });

  test("an instance can be created from a backup", async () => {
    const inst = await deployed();
    await call(emu, "POST", `${I(inst.id)}/backups/enable`, { body: {} });
    const snap = (await call(emu, "POST", `${I(inst.id)}/backups`, { body: { label: "base" } })).body;
    tick(BASE_MS.snapshot);
    const r = await create({ region: "us-east", type: "c1-standard-2", backup_id: snap.id, label: "from-backup" });
    expect(r.body.status).toBe("provisioning");
    tick(BASE_MS.provisioning);
    expect((await get(`${I(r.body.id)}/disks`)).results).toBe(2);
    expect((await create({ region: "us-east", type: "c1-nano-1", backup_id: snap.id })).body.errors[0].field).toBe("type");
  });
});

describe("stats, transfer and the empty lists", () => {
  test("stats and transfer with the month checks", async () => {
    const inst = await deployed();
    expect(Object.keys(await get(`${I(inst.id)}/stats`)).sort()).toEqual(["cpu", "io", "netv4", "netv6", "title"]);
    expect((await call(emu, "GET", `${I(inst.id)}/stats/2026/2`)).status).toBe(200);
    expect((await call(emu, "GET", `${I(inst.id)}/stats/2026/13`)).body.errors[0].field).toBe("month");
    expect((await call(emu, "GET", `${I(inst.id)}/stats/2026/4`)).body.errors[0].reason).toMatch(/future/);
    expect(Object.keys(await get(`${I(inst.id)}/transfer`)).sort()).toEqual(["billable", "quota", "used"]);
    expect(Object.keys(await get(`${I(inst.id)}/transfer/2025/12`)).sort()).toEqual(["bytes_in", "bytes_out", "bytes_total"]);
    expect((await call(emu, "GET", `${I(inst.id)}/transfer/1999/1`)).body.errors[0].field).toBe("year");
    expect((await call(emu, "GET", `${I(inst.id)}/transfer/2038/1`)).body.errors[0].field).toBe("year");
    expect(await get(`${I(inst.id)}/volumes`)).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    expect(await get(`${I(inst.id)}/nodebalancers`)).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });
});

describe("configuration profiles and interfaces", () => {
  test("create needs label and devices; every field is checked", async () => {
    const inst = await deployed();
    expect(fields(await call(emu, "POST", `${I(inst.id)}/configs`, { body: {} }))).toEqual(["label", "devices"]);
    const bad = await call(emu, "POST", `${I(inst.id)}/configs`, {
      body: {
        label: "x".repeat(49),
        devices: { sdz: null, sda: { disk_id: 9999 } },
        kernel: "compute/none",
        run_level: "fast",
        virt_mode: "x",
        memory_limit: 999999,
      },
    });
    expect(fields(bad).sort()).toEqual(["devices.sda.disk_id", "devices.sdz", "kernel", "label", "memory_limit", "run_level", "virt_mode"]);
  });

  test("interfaces: add (a new primary clears the old), at most 3, order, update rules, delete rules, events", async () => {
    const inst = await deployed({ interfaces: [{ purpose: "public", primary: true }] });
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    const base = `${I(inst.id)}/configs/${cfg.id}/interfaces`;
    const pub = cfg.interfaces[0];
    expect(pub).toMatchObject({ purpose: "public", primary: true, active: true });
    // not shown by the API: events (how they are listed is not part of the spec).
    const events = () => emu.store.data.events.filter((e) => e.action === "compute_config_update").length;

    const v1 = (await call(emu, "POST", base, { body: { purpose: "vlan", label: "backend", ipam_address: "10.0.0.1/24", primary: true } })).body;
    expect(v1).toMatchObject({ purpose: "vlan", label: "backend", primary: true, active: false });
    expect((await call(emu, "GET", `${base}/${pub.id}`)).body.primary).toBe(false);
    await call(emu, "POST", base, { body: { purpose: "vlan", label: "other" } });
    expect((await call(emu, "POST", base, { body: { purpose: "vlan", label: "fourth" } })).body.errors[0].reason).toMatch(/at most 3/);
    expect((await call(emu, "POST", base, { body: {} })).body.errors[0].field).toBe("purpose");
    expect(events()).toBe(2);

    const list = (await call(emu, "GET", base)).body;
    expect(Array.isArray(list)).toBe(true);
    const ids = list.map((i: any) => i.id);
    expect((await call(emu, "POST", `${base}/order`, { body: { ids: [ids[2], ids[0]] } })).body.errors[0].field).toBe("ids");
    await call(emu, "POST", `${base}/order`, { body: { ids: [ids[2], ids[0], ids[1]] } });
    expect((await call(emu, "GET", base)).body.map((i: any) => i.id)).toEqual([ids[2], ids[0], ids[1]]);

    expect((await call(emu, "PUT", `${base}/${v1.id}`, { body: { primary: false } })).body.errors[0].reason).toMatch(/vlan interfaces cannot be updated/);
    expect((await call(emu, "PUT", `${base}/${pub.id}`, { body: { ip_ranges: [] } })).body.errors[0].reason).toMatch(/Only primary/);
    expect((await call(emu, "PUT", `${base}/${pub.id}`, { body: { purpose: "vpc" } })).body.errors[0].field).toBe("purpose");
    expect((await call(emu, "PUT", `${base}/${pub.id}`, { body: { primary: true } })).body.primary).toBe(true);

    // The public interface is active (the instance booted with it); the new vlan one is not until a reboot.
    expect((await call(emu, "DELETE", `${base}/${pub.id}`)).body.errors[0].reason).toMatch(/active interface cannot be deleted/);
    expect((await call(emu, "DELETE", `${base}/${v1.id}`)).status).toBe(200);
    await call(emu, "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    expect((await call(emu, "DELETE", `${base}/${pub.id}`)).status).toBe(200);
    expect(events()).toBe(6);
  });

  test("a PUT of interfaces redefines all of them; index fixes eth0..eth2", async () => {
    const inst = await deployed();
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    const r = await call(emu, "PUT", `${I(inst.id)}/configs/${cfg.id}`, { body: { interfaces: [{ purpose: "vlan", label: "a" }, { purpose: "public" }] } });
    expect(r.body.interfaces.map((i: any) => i.purpose)).toEqual(["vlan", "public"]);
    expect((await call(emu, "PUT", `${I(inst.id)}/configs/${cfg.id}`, { body: { interfaces: [{ purpose: "public" }, { purpose: "public" }] } })).status).toBe(
      400,
    );
  });

  test("the booted profile of a running instance cannot be deleted", async () => {
    const inst = await deployed();
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    expect((await call(emu, "DELETE", `${I(inst.id)}/configs/${cfg.id}`)).body.errors[0].reason).toMatch(/shut the instance down/);
  });
});

describe("disks", () => {
  test("create within the type's allowance, not ready then ready; label, image and root_pass rules", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", label: "diskhost" });
    const id = r.body.id;
    const D = `${I(id)}/disks`;
    expect(fields(await call(emu, "POST", D, { body: {} })).sort()).toEqual(["label", "size"]);
    expect((await call(emu, "POST", D, { body: { label: "big", size: 60000 } })).body.errors[0]).toMatchObject({
      field: "size",
      reason: expect.stringMatching(/51200 MB/),
    });
    expect((await call(emu, "POST", D, { body: { size: 1000, image: "compute/debian12" } })).body.errors.map((e: any) => e.field).sort()).toEqual([
      "root_pass",
      "size",
    ]);
    expect((await call(emu, "POST", D, { body: { label: "x", size: 10, filesystem: "ntfs" } })).body.errors[0].field).toBe("filesystem");
    const disk = (await call(emu, "POST", D, { body: { label: "data", size: 2000, filesystem: "ext3" } })).body;
    expect(disk).toMatchObject({ label: "data", size: 2000, filesystem: "ext3", status: "not ready" });
    tick(BASE_MS.disk);
    expect((await get(`${D}/${disk.id}`)).status).toBe("ready");
    expect((await call(emu, "PUT", `${D}/${disk.id}`, { body: { label: "renamed" } })).body.label).toBe("renamed");
  });

  test("a disk in the running profile cannot be deleted; resize needs the instance shut down", async () => {
    const inst = await deployed();
    const D = `${I(inst.id)}/disks`;
    const [main] = (await get(D)).data;
    expect((await call(emu, "DELETE", `${D}/${main.id}`)).body.errors[0].reason).toMatch(/shut the instance down first/);
    expect((await call(emu, "POST", `${D}/${main.id}/resize`, { body: { size: 20000 } })).body.errors[0].reason).toMatch(/must be shut down/);
    await call(emu, "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    expect((await call(emu, "POST", `${D}/${main.id}/resize`, { body: { size: 20000 } })).status).toBe(200);
    expect((await get(`${D}/${main.id}`)).status).toBe("not ready");
    tick(BASE_MS.disk);
    expect(await get(`${D}/${main.id}`)).toMatchObject({ status: "ready", size: 20000 });
    expect((await call(emu, "DELETE", `${D}/${main.id}`)).status).toBe(200);
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    expect(cfg.devices.sda).toBeNull();
  });
});
