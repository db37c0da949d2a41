import { configProvider as cfgP } from "../../provider/resources/config";
import { diskProvider as diskP } from "../../provider/resources/disk";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { call, get } from "../helpers/emulator";
import { change, instanceReads, make, useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const PASS = "Str0ng-Passw0rd!";
/** Read through the API: an instance's status, disks and profiles. */
const { status, statusIs, disksOf, configsOf } = instanceReads(emu);
/** not shown by the API: which profile an instance last booted (its interfaces show as active, but these profiles have none). */
const lastBooted = (computeId: string) => emu.store.data.instances.find((i) => String(i.id) === computeId)!._lastBootedConfig;
const bare = async (label = "host-1", type = "c1-standard-2") => (await make(instP, { region: "us-east", type, label })).id;
const deployed = async (label = "host-2") =>
  make(instP, { region: "us-east", type: "c1-standard-4", image: "compute/debian12", rootPass: PASS, label, swapSize: 512 });

describe("Config", () => {
  test("create with disk ids as strings; no diff against what the API reports; everything in place", async () => {
    const computeId = await bare();
    const root = await make(diskP, { computeId, label: "root", size: 1000 });
    const data = await make(diskP, { computeId, label: "data", size: 1000 });
    const c = await make(cfgP, {
      computeId,
      label: "main",
      devices: { sda: { diskId: root.id }, sdb: { diskId: Number(data.id) } },
      helpers: { network: false },
    });
    expect(c.outs.devices).toEqual({
      sda: { diskId: Number(root.id), volumeId: null },
      sdb: { diskId: Number(data.id), volumeId: null },
      sdc: null,
      sdd: null,
      sde: null,
      sdf: null,
      sdg: null,
      sdh: null,
    });
    expect(c.outs).toMatchObject({ kernel: "compute/latest-64bit", runLevel: "default", virtMode: "paravirt", helpers: { network: false, distro: true } });
    const r = await cfgP.read(c.id, c.outs);
    expect((await cfgP.diff(c.id, r.props!, c.inputs)).changes).toBe(false);
    const u = await change(cfgP, c.id, c.outs, {
      computeId,
      label: "main-2",
      devices: { sda: { diskId: root.id } },
      kernel: "compute/grub2",
      runLevel: "single",
    });
    expect(u.diff).toMatchObject({ changes: true, replaces: [] });
    const o = (await u.update()).outs;
    expect(o).toMatchObject({ label: "main-2", kernel: "compute/grub2", runLevel: "single", devices: { sdb: null } });
    expect((await configsOf(computeId)).map((x) => x.id)).toEqual([Number(c.id)]);
  });

  test("check: devices slots and required fields", async () => {
    const r = await cfgP.check({}, { computeId: 1, devices: { sdz: { diskId: 1 } } });
    expect(r.failures.map((f) => f.reason)).toEqual([expect.stringMatching(/^devices\.sdz: unknown device slot/)]);
    expect((await cfgP.check({}, { computeId: 1 })).failures.map((f) => f.reason)).toEqual(["devices is required"]);
    // The label's rule is the contract's (api/contract/configs.ts `profileLabel`): its length, and no control character.
    const bell = await cfgP.check({}, { computeId: 1, label: "main\u0007", devices: { sda: { diskId: 1 } } });
    expect(bell.failures).toEqual([{ property: "label", reason: "label: must not hold control characters" }]);
  });

  test("interfaces as a list, changed in place; rebootOnChange reboots a running instance with the profile", async () => {
    const inst = await deployed();
    const [disk] = await disksOf(inst.id);
    const c = await make(cfgP, { computeId: inst.id, label: "vlan-profile", devices: { sda: { diskId: disk.id } }, interfaces: [{ purpose: "public" }] });
    expect(c.outs.interfaces).toEqual([{ purpose: "public" }]);
    emu.log.length = 0;
    const u = await change(cfgP, c.id, c.outs, {
      computeId: inst.id,
      label: "vlan-profile",
      devices: { sda: { diskId: disk.id } },
      interfaces: [{ purpose: "public" }, { purpose: "vlan", label: "b" }],
      rebootOnChange: true,
    });
    await u.update();
    expect(emu.log.filter((l) => l.method !== "GET").map((l) => l.path.replace(/\/\d+/g, "/N"))).toEqual([
      "/v4/compute/instances/N/configs/N",
      "/v4/compute/instances/N/reboot",
    ]);
    // The instance runs with the profile: its interfaces are the active ones.
    expect((await get(emu, `/compute/instances/${inst.id}/configs/${c.id}`)).interfaces.map((i: any) => i.active)).toEqual([true, true]);
  });

  test("inline interfaces report their records (ids, active, vpcId, subnetId) after create, read and update", async () => {
    const vpc = (await call(emu, "POST", "/vpcs", { body: { label: "rec-net", region: "us-east" } })).body;
    const subnet = (await call(emu, "POST", `/vpcs/${vpc.id}/subnets`, { body: { label: "rec-sub", ipv4: "10.9.0.0/24" } })).body;
    const computeId = await bare();
    const root = await make(diskP, { computeId, label: "root", size: 1000 });
    const declared = [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id }];
    const c = await make(cfgP, { computeId, label: "records", devices: { sda: { diskId: root.id } }, interfaces: declared, booted: true });
    // The declared form stays as the program gave it; the records are the API's, read after the boot.
    expect(c.outs.interfaces).toEqual(declared);
    const api = (await get(emu, `/compute/instances/${computeId}/configs/${c.id}/interfaces`)) as any[];
    expect(api.map((i) => i.active)).toEqual([true, true]);
    const vpcAddress = api[1].ipv4.vpc;
    expect(vpcAddress).toMatch(/^10\.9\.0\.\d+$/);
    expect(c.outs.interfaceRecords).toEqual([
      { id: api[0].id, purpose: "public", primary: false, active: true },
      { id: api[1].id, purpose: "vpc", primary: false, active: true, vpcId: vpc.id, subnetId: subnet.id, ipv4: { vpc: vpcAddress }, ipRanges: [] },
    ]);
    // A refresh reads the same records, and proposes no change.
    const r = await cfgP.read(c.id, c.outs);
    expect(r.props!.interfaceRecords).toEqual(c.outs.interfaceRecords);
    expect(r.inputs).not.toHaveProperty("interfaceRecords");
    expect((await cfgP.diff(c.id, r.props!, c.inputs)).changes).toBe(false);
    // New interfaces are new records: new ids, not active until the next boot with the profile.
    const u = await change(cfgP, c.id, r.props!, {
      computeId,
      label: "records",
      devices: { sda: { diskId: root.id } },
      interfaces: [declared[1]],
      booted: true,
    });
    expect(u.diff).toMatchObject({ changes: true, replaces: [], changed: ["interfaces"] });
    const after = (await u.update()).outs.interfaceRecords as any[];
    const now = (await get(emu, `/compute/instances/${computeId}/configs/${c.id}/interfaces`)) as any[];
    expect(after).toEqual([expect.objectContaining({ id: now[0].id, purpose: "vpc", active: false, vpcId: vpc.id, subnetId: subnet.id })]);
    expect(now[0].id).not.toBe(api[1].id);
  });
});

describe("Config booted", () => {
  test("boots an empty instance with the profile, reads it back, and shuts it down before its delete", async () => {
    const computeId = await bare();
    const root = await make(diskP, { computeId, label: "root", size: 1000 });
    const c = await make(cfgP, { computeId, label: "boot", devices: { sda: { diskId: root.id } }, booted: true });
    expect(c.outs.booted).toBe(true);
    expect(await status(computeId)).toBe("running");
    expect(lastBooted(computeId)).toBe(Number(c.id));
    // A shutdown by hand shows as drift.
    await call(emu, "POST", `/compute/instances/${computeId}/shutdown`, { body: {} });
    await statusIs(computeId, "offline");
    const r = await cfgP.read(c.id, c.outs);
    expect(r.props!.booted).toBe(false);
    expect((await cfgP.diff(c.id, r.props!, c.inputs)).changes).toBe(true);
    await cfgP.update(c.id, r.props!, c.inputs);
    expect(await status(computeId)).toBe("running");
    // Deleting the booted profile shuts the instance down first; then its disk can go too.
    await cfgP.delete(c.id, c.outs);
    expect(await status(computeId)).toBe("offline");
    await diskP.delete(root.id, root.outs);
    expect(await disksOf(computeId)).toEqual([]);
  });

  test("a second profile with booted true reboots the running instance into it", async () => {
    const computeId = await bare();
    const root = await make(diskP, { computeId, label: "root", size: 1000 });
    await make(cfgP, { computeId, label: "one", devices: { sda: { diskId: root.id } }, booted: true });
    emu.log.length = 0;
    const two = await make(cfgP, { computeId, label: "two", devices: { sda: { diskId: root.id } }, booted: true });
    expect(emu.log.filter((l) => l.method === "POST").map((l) => l.path.replace(/\/\d+/g, "/N"))).toEqual([
      "/v4/compute/instances/N/configs",
      "/v4/compute/instances/N/reboot",
    ]);
    expect(lastBooted(computeId)).toBe(Number(two.id));
  });
});
