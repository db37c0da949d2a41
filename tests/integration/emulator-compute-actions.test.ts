import { BASE_MS } from "../../emulator/routes/compute";
import { useComputeEmulator, I, PASS, fields } from "../helpers/compute-calls";
import { call, events } from "../helpers/emulator";

/** An instance's actions: power and the profile it boots, resize, mutate, rebuild, password reset, clone, backups and restore; its statistics and transfer. */

const { emu, tick, create, deployed, get } = useComputeEmulator();

describe("power and configuration profile choice", () => {
  test("actions are refused while provisioning (running or queued actions) with the real API's text", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS });
    for (const action of ["reboot", "shutdown", "mutate"]) {
      const a = await call(emu(), "POST", `${I(r.body.id)}/${action}`, { body: {} });
      expect([action, a.status, a.body.errors?.[0].reason]).toEqual([action, 400, "Compute busy."]);
    }
    expect((await call(emu(), "POST", `${I(r.body.id)}/resize`, { body: { type: "c1-standard-4" } })).body.errors[0].reason).toBe("Compute busy.");
  });

  test("a boot right after create is queued after it (rule 9 does not list boot; the real API accepted it)", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", label: "empty-then-boot", booted: false, image: "compute/debian12", root_pass: PASS });
    expect((await call(emu(), "POST", `${I(r.body.id)}/boot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.provisioning);
    tick(BASE_MS.booting);
    expect((await get(I(r.body.id))).status).toBe("running");
    // One that will run anyway, naming another profile, boots into it.
    const next = await create({ region: "us-east", type: "c1-standard-2", label: "boot-other-profile", image: "compute/debian12", root_pass: PASS });
    const other = (await call(emu(), "POST", `${I(next.body.id)}/configs`, { body: { label: "other", devices: {}, interfaces: [{ purpose: "public" }] } }))
      .body;
    expect((await call(emu(), "POST", `${I(next.body.id)}/boot`, { body: { config_id: other.id } })).status).toBe(200);
    tick(BASE_MS.provisioning + BASE_MS.booting);
    tick(BASE_MS.rebooting);
    expect((await get(I(next.body.id))).status).toBe("running");
    expect((await get(`${I(next.body.id)}/configs/${other.id}`)).interfaces[0].active).toBe(true);
  });

  test("shutdown, then boot: shutting_down -> offline -> booting -> running", async () => {
    const inst = await deployed();
    await call(emu(), "POST", `${I(inst.id)}/shutdown`, { body: {} });
    expect((await get(I(inst.id))).status).toBe("shutting_down");
    tick(BASE_MS.shutting_down);
    expect((await get(I(inst.id))).status).toBe("offline");
    await call(emu(), "POST", `${I(inst.id)}/boot`, { body: {} });
    expect((await get(I(inst.id))).status).toBe("booting");
    tick(BASE_MS.booting);
    expect((await get(I(inst.id))).status).toBe("running");
  });

  test("boot with several profiles and none booted last needs config_id (rule 2); reboot likewise (rule 3)", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", label: "bare" });
    const disk = (await call(emu(), "POST", `${I(r.body.id)}/disks`, { body: { label: "d", size: 1000 } })).body;
    tick(BASE_MS.disk);
    const c1 = (await call(emu(), "POST", `${I(r.body.id)}/configs`, { body: { label: "one", devices: { sda: { disk_id: disk.id } } } })).body;
    // A lone profile is used.
    expect((await call(emu(), "POST", `${I(r.body.id)}/boot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.booting);
    await call(emu(), "POST", `${I(r.body.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    await call(emu(), "POST", `${I(r.body.id)}/configs`, { body: { label: "two", devices: { sda: { disk_id: disk.id } } } });
    // Several, one booted last: that one.
    expect((await call(emu(), "POST", `${I(r.body.id)}/boot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.booting);
    expect((await call(emu(), "POST", `${I(r.body.id)}/reboot`, { body: {} })).status).toBe(200);
    tick(BASE_MS.rebooting);

    const r2 = await create({ region: "us-east", type: "c1-standard-2", label: "bare-two" });
    const d2 = (await call(emu(), "POST", `${I(r2.body.id)}/disks`, { body: { label: "d", size: 1000 } })).body;
    for (const label of ["a", "b"]) await call(emu(), "POST", `${I(r2.body.id)}/configs`, { body: { label, devices: { sda: { disk_id: d2.id } } } });
    const boot = await call(emu(), "POST", `${I(r2.body.id)}/boot`, { body: {} });
    expect(boot.body.errors[0]).toMatchObject({ field: "config_id", reason: expect.stringMatching(/No configuration profile could be determined/) });
    const reboot = await call(emu(), "POST", `${I(r2.body.id)}/reboot`, { body: { config_id: null } });
    expect(reboot.body.errors[0].reason).toMatch(/No configuration profile could be determined/);
    expect((await call(emu(), "POST", `${I(r2.body.id)}/boot`, { body: { config_id: c1.id } })).body.errors[0].field).toBe("config_id");
    const cfgs = (await get(`${I(r2.body.id)}/configs`)).data;
    expect((await call(emu(), "POST", `${I(r2.body.id)}/boot`, { body: { config_id: cfgs[1].id } })).status).toBe(200);
  });

  test("config_id 0 is the default profile (what linodego 2026 sends when given none), for a boot and a reboot", async () => {
    const inst = await deployed();
    tick(BASE_MS.booting);
    await call(emu(), "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    const boot = await call(emu(), "POST", `${I(inst.id)}/boot`, { body: { config_id: 0 } });
    expect([boot.status, boot.body]).toEqual([200, {}]);
    expect((await get(I(inst.id))).status).toBe("booting");
    tick(BASE_MS.booting);
    const reboot = await call(emu(), "POST", `${I(inst.id)}/reboot`, { body: { config_id: 0 } });
    expect([reboot.status, reboot.body]).toEqual([200, {}]);
    expect((await get(I(inst.id))).status).toBe("rebooting");
    tick(BASE_MS.rebooting);
    expect((await get(I(inst.id))).status).toBe("running");
    // An id that names no profile is still refused.
    const other = await call(emu(), "POST", `${I(inst.id)}/reboot`, { body: { config_id: 999_999 } });
    expect([other.status, other.body.errors[0]]).toEqual([400, { field: "config_id", reason: "Config 999999 not found on this instance" }]);
  });

  test("rescue refuses sdh", async () => {
    const inst = await deployed();
    const r = await call(emu(), "POST", `${I(inst.id)}/rescue`, { body: { devices: { sdh: { disk_id: null } } } });
    expect(r.body.errors[0]).toEqual({ field: "devices", reason: "Device sdh is reserved in rescue mode" });
  });
});

describe("resize, mutate, rebuild, password", () => {
  test("resize up grows the data disk when allowed, and takes effect after migrating", async () => {
    const inst = await deployed();
    expect((await call(emu(), "POST", `${I(inst.id)}/resize`, { body: { type: "c1-standard-4" } })).status).toBe(200);
    expect((await get(I(inst.id))).status).toBe("migrating");
    expect((await get(I(inst.id))).type).toBe("c1-standard-2");
    tick(BASE_MS.migrating);
    const after = await get(I(inst.id));
    expect(after).toMatchObject({ status: "running", type: "c1-standard-4", specs: { disk: 81920, memory: 4096 } });
    expect((await get(`${I(inst.id)}/disks`)).data.map((x: any) => x.size)).toEqual([81920 - 512, 512]);
  });

  test("resize without auto disk resize keeps the disks; a smaller type must fit the disks", async () => {
    const inst = await deployed();
    await call(emu(), "POST", `${I(inst.id)}/resize`, { body: { type: "c1-standard-4", allow_auto_disk_resize: false, migration_type: "warm" } });
    tick(BASE_MS.migrating);
    expect((await get(`${I(inst.id)}/disks`)).data.map((x: any) => x.size)).toEqual([51200 - 512, 512]);
    const down = await call(emu(), "POST", `${I(inst.id)}/resize`, { body: { type: "c1-nano-1" } });
    expect(down.body.errors[0]).toMatchObject({ field: "type", reason: expect.stringMatching(/delete or shrink disks first/) });
    expect((await call(emu(), "POST", `${I(inst.id)}/resize`, { body: { type: "c1-standard-4", migration_type: "hot" } })).body.errors[0].field).toBe(
      "migration_type",
    );
  });

  test("mutate upgrades to the successor, or says there is none", async () => {
    const inst = await deployed();
    await call(emu(), "POST", `${I(inst.id)}/mutate`, { body: {} });
    tick(BASE_MS.migrating);
    expect((await get(I(inst.id))).type).toBe("c2-standard-2");
    expect((await call(emu(), "POST", `${I(inst.id)}/mutate`, { body: {} })).body.errors[0].reason).toMatch(/no upgrade available/);
  });

  test("rebuild replaces the disks and profiles", async () => {
    const inst = await deployed();
    const before = (await get(`${I(inst.id)}/disks`)).data.map((x: any) => x.id);
    const r = await call(emu(), "POST", `${I(inst.id)}/rebuild`, { body: { image: "compute/ubuntu24.04", root_pass: PASS } });
    expect(r.body.status).toBe("rebuilding");
    tick(BASE_MS.rebuilding);
    const after = await get(I(inst.id));
    expect(after).toMatchObject({ status: "running", image: "compute/ubuntu24.04" });
    const disks = (await get(`${I(inst.id)}/disks`)).data;
    expect(disks.some((x: any) => before.includes(x.id))).toBe(false);
    expect(fields(await call(emu(), "POST", `${I(inst.id)}/rebuild`, { body: {} })).sort()).toEqual(["image", "root_pass"]);
  });

  test("password reset needs the instance shut down and a strong password; it records password_reset", async () => {
    const inst = await deployed();
    expect((await call(emu(), "POST", `${I(inst.id)}/password`, { body: { root_pass: PASS } })).body.errors[0].reason).toMatch(/must be shut down/);
    await call(emu(), "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    expect((await call(emu(), "POST", `${I(inst.id)}/password`, { body: { root_pass: "weakweakweak" } })).body.errors[0].reason).toBe(
      "Password does not meet strength requirement",
    );
    expect((await call(emu(), "POST", `${I(inst.id)}/password`, { body: { root_pass: "An0ther-Str0ng!" } })).status).toBe(200);
    expect(await events(emu(), "password_reset")).toHaveLength(1);
  });

  test("password reset with several non-swap disks asks for the per-disk reset", async () => {
    const inst = await create({ region: "us-east", type: "c1-standard-4", label: "two-disks" });
    for (const label of ["root", "data"]) {
      expect((await call(emu(), "POST", `${I(inst.body.id)}/disks`, { body: { label, size: 1000 } })).status).toBe(200);
      tick(BASE_MS.disk); // one disk at a time
    }
    const r = await call(emu(), "POST", `${I(inst.body.id)}/password`, { body: { root_pass: PASS } });
    expect(r.body.errors[0].reason).toMatch(/per-disk password reset/);
    const disk = (await get(`${I(inst.body.id)}/disks`)).data[0];
    // The per-disk reset's field is `password`, as the real API answered the Go client (recorded).
    expect(fields(await call(emu(), "POST", `${I(inst.body.id)}/disks/${disk.id}/password`, { body: { root_pass: PASS } }))).toEqual(["password"]);
    expect((await call(emu(), "POST", `${I(inst.body.id)}/disks/${disk.id}/password`, { body: { password: PASS } })).status).toBe(200);
  });
});

describe("clone, backups and restore", () => {
  test("at most 5 concurrent clones; delete refused while a clone runs", async () => {
    const src = await deployed();
    for (let i = 0; i < 5; i++)
      expect((await call(emu(), "POST", `${I(src.id)}/clone`, { body: { region: "us-east", type: "c1-standard-2" } })).status).toBe(200);
    const sixth = await call(emu(), "POST", `${I(src.id)}/clone`, { body: { region: "us-east", type: "c1-standard-2" } });
    expect(sixth.status).toBe(400);
    expect(sixth.body.errors[0].reason).toMatch(/five concurrent clones/);
    expect((await call(emu(), "DELETE", I(src.id))).body.errors[0].reason).toMatch(/cloning or restoring/);
    const target = (await get("/compute/instances")).data[1];
    expect((await get(I(target.id))).status).toBe("cloning");
    expect((await call(emu(), "DELETE", I(target.id))).status).toBe(400);
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
    expect((await call(emu(), "POST", `${I(target.id)}/boot`, { body: {} })).status).toBe(200);
    expect((await call(emu(), "DELETE", I(src.id))).status).toBe(200);
  });

  test("snapshots need the backup service, one at a time; restore with and without overwrite", async () => {
    const inst = await deployed();
    expect((await call(emu(), "POST", `${I(inst.id)}/backups`, { body: { label: "s1" } })).body.errors[0].reason).toMatch(/not enabled/);
    await call(emu(), "POST", `${I(inst.id)}/backups/enable`, { body: {} });
    expect((await call(emu(), "POST", `${I(inst.id)}/backups`, { body: {} })).body.errors[0].field).toBe("label");
    const snap = (await call(emu(), "POST", `${I(inst.id)}/backups`, { body: { label: "s1" } })).body;
    expect(snap).toMatchObject({ type: "snapshot", status: "pending", label: "s1" });
    expect((await call(emu(), "POST", `${I(inst.id)}/backups`, { body: { label: "s2" } })).body.errors[0].reason).toMatch(/already in progress/);
    let list = await get(`${I(inst.id)}/backups`);
    expect(list).toMatchObject({ automatic: [], snapshot: { current: null, in_progress: { id: snap.id } } });
    tick(BASE_MS.snapshot);
    list = await get(`${I(inst.id)}/backups`);
    expect(list.snapshot.current).toMatchObject({ id: snap.id, status: "successful" });

    const other = await deployed({ label: "other-one" });
    const full = await call(emu(), "POST", `${I(inst.id)}/backups/${snap.id}/restore`, { body: { compute_id: other.id } });
    expect(full.body.errors[0].reason).toMatch(/Insufficient space/);
    const far = await deployed({ label: "far-away", region: "eu-central" });
    expect(
      (await call(emu(), "POST", `${I(inst.id)}/backups/${snap.id}/restore`, { body: { compute_id: far.id, overwrite: true } })).body.errors[0].reason,
    ).toMatch(/another region/);
    expect((await call(emu(), "POST", `${I(inst.id)}/backups/${snap.id}/restore`, { body: { compute_id: other.id, overwrite: true } })).status).toBe(200);
    expect((await get(I(other.id))).status).toBe("restoring");
    tick(BASE_MS.restoring);
    expect((await get(I(other.id))).status).toBe("offline");
    const cfg = (await get(`${I(other.id)}/configs`)).data[0];
    const disks = (await get(`${I(other.id)}/disks`)).data;
    expect(cfg.devices.sda.disk_id).toBe(disks[0].id);

    await call(emu(), "POST", `${I(inst.id)}/backups/cancel`, { body: {} });
    expect((await get(`${I(inst.id)}/backups`)).snapshot.current).toBeNull();
  });

  test("an instance can be created from a backup", async () => {
    const inst = await deployed();
    await call(emu(), "POST", `${I(inst.id)}/backups/enable`, { body: {} });
    const snap = (await call(emu(), "POST", `${I(inst.id)}/backups`, { body: { label: "base" } })).body;
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
    expect((await call(emu(), "GET", `${I(inst.id)}/stats/2026/2`)).status).toBe(200);
    expect((await call(emu(), "GET", `${I(inst.id)}/stats/2026/13`)).body.errors[0].field).toBe("month");
    expect((await call(emu(), "GET", `${I(inst.id)}/stats/2026/4`)).body.errors[0].reason).toMatch(/future/);
    expect(Object.keys(await get(`${I(inst.id)}/transfer`)).sort()).toEqual(["billable", "quota", "used"]);
    expect(Object.keys(await get(`${I(inst.id)}/transfer/2025/12`)).sort()).toEqual(["bytes_in", "bytes_out", "bytes_total"]);
    expect((await call(emu(), "GET", `${I(inst.id)}/transfer/1999/1`)).body.errors[0].field).toBe("year");
    expect((await call(emu(), "GET", `${I(inst.id)}/transfer/2038/1`)).body.errors[0].field).toBe("year");
    expect(await get(`${I(inst.id)}/volumes`)).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    expect(await get(`${I(inst.id)}/nodebalancers`)).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });
});
