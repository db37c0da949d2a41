import { BASE_MS } from "../../emulator/routes/compute";
import { useComputeEmulator, I, PASS, fields } from "../helpers/compute-calls";
import { call, events } from "../helpers/emulator";

/** An instance's configuration profiles (with their interfaces) and disks. */

const { emu, tick, create, deployed, get } = useComputeEmulator();

describe("configuration profiles and interfaces", () => {
  test("create needs label and devices; every field is checked", async () => {
    const inst = await deployed();
    expect(fields(await call(emu(), "POST", `${I(inst.id)}/configs`, { body: {} }))).toEqual(["label", "devices"]);
    // The body's shape first (api/contract/configs.ts: an unknown slot is refused on the map, naming it)...
    const bad = await call(emu(), "POST", `${I(inst.id)}/configs`, {
      body: { label: "x".repeat(49), devices: { sdz: null, sda: { disk_id: 9999 } }, run_level: "fast", virt_mode: "x" },
    });
    expect(fields(bad).sort()).toEqual(["devices", "label", "run_level", "virt_mode"]);
    expect(bad.body.errors.find((e: any) => e.field === "devices").reason).toBe("Unknown device slot sdz; use sda to sdh");
    // ...then what the account's state refuses: a disk not the instance's, a kernel not in the catalogue, more memory than the type's.
    const unknown = await call(emu(), "POST", `${I(inst.id)}/configs`, {
      body: { label: "x", devices: { sda: { disk_id: 9999 } }, kernel: "compute/none", memory_limit: 999999 },
    });
    expect(fields(unknown).sort()).toEqual(["devices.sda.disk_id", "kernel", "memory_limit"]);
  });

  test("`interfaces: null` (the Go client's body without interfaces) is taken as not given: none at create, kept at update", async () => {
    const inst = await deployed();
    const made = await call(emu(), "POST", `${I(inst.id)}/configs`, { body: { label: "nulls", devices: {}, interfaces: null } });
    expect([made.status, made.body.interfaces]).toEqual([200, []]);
    const withOne = await call(emu(), "PUT", `${I(inst.id)}/configs/${made.body.id}`, { body: { interfaces: [{ purpose: "public" }] } });
    expect(withOne.body.interfaces.map((i: { purpose: string }) => i.purpose)).toEqual(["public"]);
    const kept = await call(emu(), "PUT", `${I(inst.id)}/configs/${made.body.id}`, { body: { comments: "", interfaces: null } });
    expect([kept.status, kept.body.interfaces.map((i: { id: number }) => i.id)]).toEqual([200, withOne.body.interfaces.map((i: { id: number }) => i.id)]);
  });

  test("interfaces: add (a new primary clears the old), at most 3, order, update rules, delete rules, events", async () => {
    const inst = await deployed({ interfaces: [{ purpose: "public", primary: true }] });
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    const base = `${I(inst.id)}/configs/${cfg.id}/interfaces`;
    const pub = cfg.interfaces[0];
    expect(pub).toMatchObject({ purpose: "public", primary: true, active: true });
    const updates = async () => (await events(emu(), "compute_config_update")).length;

    const v1 = (await call(emu(), "POST", base, { body: { purpose: "vlan", label: "backend", ipam_address: "10.0.0.1/24", primary: true } })).body;
    expect(v1).toMatchObject({ purpose: "vlan", label: "backend", primary: true, active: false });
    expect((await call(emu(), "GET", `${base}/${pub.id}`)).body.primary).toBe(false);
    await call(emu(), "POST", base, { body: { purpose: "vlan", label: "other" } });
    expect((await call(emu(), "POST", base, { body: { purpose: "vlan", label: "fourth" } })).body.errors[0].reason).toMatch(/at most 3/);
    expect((await call(emu(), "POST", base, { body: {} })).body.errors[0].field).toBe("purpose");
    expect(await updates()).toBe(2);

    const list = (await call(emu(), "GET", base)).body;
    expect(Array.isArray(list)).toBe(true);
    const ids = list.map((i: any) => i.id);
    expect((await call(emu(), "POST", `${base}/order`, { body: { ids: [ids[2], ids[0]] } })).body.errors[0].field).toBe("ids");
    await call(emu(), "POST", `${base}/order`, { body: { ids: [ids[2], ids[0], ids[1]] } });
    expect((await call(emu(), "GET", base)).body.map((i: any) => i.id)).toEqual([ids[2], ids[0], ids[1]]);

    expect((await call(emu(), "PUT", `${base}/${v1.id}`, { body: { primary: false } })).body.errors[0].reason).toMatch(/vlan interfaces cannot be updated/);
    expect((await call(emu(), "PUT", `${base}/${pub.id}`, { body: { ip_ranges: [] } })).body.errors[0].reason).toMatch(/Only primary/);
    expect((await call(emu(), "PUT", `${base}/${pub.id}`, { body: { purpose: "vpc" } })).body.errors[0].field).toBe("purpose");
    expect((await call(emu(), "PUT", `${base}/${pub.id}`, { body: { primary: true } })).body.primary).toBe(true);

    // The public interface is active (the instance booted with it); the new vlan one is not until a reboot.
    expect((await call(emu(), "DELETE", `${base}/${pub.id}`)).body.errors[0].reason).toMatch(/active interface cannot be deleted/);
    expect((await call(emu(), "DELETE", `${base}/${v1.id}`)).status).toBe(200);
    await call(emu(), "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    expect((await call(emu(), "DELETE", `${base}/${pub.id}`)).status).toBe(200);
    expect(await updates()).toBe(6);
  });

  test("a PUT of interfaces redefines all of them; index fixes eth0..eth2", async () => {
    const inst = await deployed();
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    const r = await call(emu(), "PUT", `${I(inst.id)}/configs/${cfg.id}`, { body: { interfaces: [{ purpose: "vlan", label: "a" }, { purpose: "public" }] } });
    expect(r.body.interfaces.map((i: any) => i.purpose)).toEqual(["vlan", "public"]);
    expect((await call(emu(), "PUT", `${I(inst.id)}/configs/${cfg.id}`, { body: { interfaces: [{ purpose: "public" }, { purpose: "public" }] } })).status).toBe(
      400,
    );
  });

  test("the booted profile of a running instance cannot be deleted", async () => {
    const inst = await deployed();
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    expect((await call(emu(), "DELETE", `${I(inst.id)}/configs/${cfg.id}`)).body.errors[0].reason).toMatch(/shut the instance down/);
  });
});

describe("disks", () => {
  test("create within the type's allowance, not ready then ready; label, image and root_pass rules", async () => {
    const r = await create({ region: "us-east", type: "c1-standard-2", label: "diskhost" });
    const id = r.body.id;
    const D = `${I(id)}/disks`;
    expect(fields(await call(emu(), "POST", D, { body: {} })).sort()).toEqual(["label", "size"]);
    expect((await call(emu(), "POST", D, { body: { label: "big", size: 60000 } })).body.errors[0]).toMatchObject({
      field: "size",
      reason: expect.stringMatching(/51200 MB/),
    });
    // An image needs root_pass (the body's rule), then a disk its size at least (the image's, the account's to say).
    expect(fields(await call(emu(), "POST", D, { body: { size: 1000, image: "compute/debian12" } }))).toEqual(["root_pass"]);
    expect(fields(await call(emu(), "POST", D, { body: { size: 1000, image: "compute/debian12", root_pass: PASS } }))).toEqual(["size"]);
    expect((await call(emu(), "POST", D, { body: { label: "x", size: 10, filesystem: "ntfs" } })).body.errors[0].field).toBe("filesystem");
    const disk = (await call(emu(), "POST", D, { body: { label: "data", size: 2000, filesystem: "ext3" } })).body;
    expect(disk).toMatchObject({ label: "data", size: 2000, filesystem: "ext3", status: "not ready" });
    // One disk at a time, as the real API answered (recorded): "Compute busy." until the first is ready.
    expect((await call(emu(), "POST", D, { body: { label: "second", size: 100 } })).body.errors).toEqual([{ reason: "Compute busy." }]);
    tick(BASE_MS.disk);
    expect((await get(`${D}/${disk.id}`)).status).toBe("ready");
    expect((await call(emu(), "POST", D, { body: { label: "second", size: 100 } })).status).toBe(200);
    expect((await call(emu(), "PUT", `${D}/${disk.id}`, { body: { label: "renamed" } })).body.label).toBe("renamed");
  });

  test("a disk in the running profile cannot be deleted; resize needs the instance shut down", async () => {
    const inst = await deployed();
    const D = `${I(inst.id)}/disks`;
    const [main] = (await get(D)).data;
    expect((await call(emu(), "DELETE", `${D}/${main.id}`)).body.errors[0].reason).toMatch(/shut the instance down first/);
    expect((await call(emu(), "POST", `${D}/${main.id}/resize`, { body: { size: 20000 } })).body.errors[0].reason).toMatch(/must be shut down/);
    await call(emu(), "POST", `${I(inst.id)}/shutdown`, { body: {} });
    tick(BASE_MS.shutting_down);
    expect((await call(emu(), "POST", `${D}/${main.id}/resize`, { body: { size: 20000 } })).status).toBe(200);
    expect((await get(`${D}/${main.id}`)).status).toBe("not ready");
    tick(BASE_MS.disk);
    expect(await get(`${D}/${main.id}`)).toMatchObject({ status: "ready", size: 20000 });
    expect((await call(emu(), "DELETE", `${D}/${main.id}`)).status).toBe(200);
    const cfg = (await get(`${I(inst.id)}/configs`)).data[0];
    expect(cfg.devices.sda).toBeNull();
  });
});
