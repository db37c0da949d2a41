import type { Emulator } from "../../emulator/server";
import { configProvider as cfgP } from "../../provider/resources/config";
import { diskProvider as diskP } from "../../provider/resources/disk";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { interfaceProvider as ifP } from "../../provider/resources/interface";
import type { ResourceProvider } from "../../provider/lifecycle/rest-provider";
import { call, emulator, get, list, useEmulator } from "../helpers/emulator";
import { waitUntil } from "../helpers/wait";
import { resetSession } from "../../provider/session";

let emu: Emulator;
beforeEach(async () => {
  emu = await emulator();
  resetSession();
  await useEmulator(emu);
});
afterEach(async () => {
  await emu.close();
  resetSession();
});

const PASS = "Str0ng-Passw0rd!";
async function make(p: ResourceProvider, news: Record<string, unknown>) {
  const r = await p.check({}, news);
  expect(r.failures).toEqual([]);
  return { ...(await p.create(r.inputs)), inputs: r.inputs };
}
async function change(p: ResourceProvider, id: string, outs: Record<string, unknown>, news: Record<string, unknown>) {
  const r = await p.check(outs, news);
  expect(r.failures).toEqual([]);
  const d = await p.diff(id, outs, r.inputs);
  return { diff: d, update: () => p.update(id, outs, r.inputs) };
}
/** Read through the API: an instance's status, disks and profiles. */
const status = async (computeId: string) => (await get(emu, `/compute/instances/${computeId}`)).status;
const statusIs = (computeId: string, want: string) => waitUntil(async () => (await status(computeId)) === want, { what: `instance ${computeId} ${want}` });
const disksOf = (computeId: string) => list(emu, `/compute/instances/${computeId}/disks`);
const configsOf = (computeId: string) => list(emu, `/compute/instances/${computeId}/configs`);
/** not shown by the API: which profile an instance last booted (its interfaces show as active, but these profiles have none). */
const lastBooted = (computeId: string) => emu.store.data.instances.find((i) => String(i.id) === computeId)!._lastBootedConfig;
const bare = async (label = "host-1", type = "c1-standard-2") => (await make(instP, { region: "us-east", type, label })).id;
const deployed = async (label = "host-2") =>
  make(instP, { region: "us-east", type: "c1-standard-4", image: "compute/debian12", rootPass: PASS, label, swapSize: 512 });

describe("Disk", () => {
  test('a create the API refuses with "Compute busy." (another disk being made) is sent again until accepted, past the client\'s retries', async () => {
    const host = await bare("busy-host");
    emu.timing.speed = 0.5; // a disk takes 1.5 s to be made
    const before = process.env.COMPUTE_RETRY_ATTEMPTS;
    process.env.COMPUTE_RETRY_ATTEMPTS = "0"; // the client sends nothing again itself: the create's own loop does
    try {
      await useEmulator(emu);
      // Made by someone else, not ready for 1.5 s.
      expect((await call(emu, "POST", `/compute/instances/${host}/disks`, { body: { label: "first", size: 1000 } })).status).toBe(200);
      const second = await make(diskP, { computeId: host, label: "second", size: 1000 });
      expect((await disksOf(host)).map((d) => d.label).sort()).toEqual(["first", "second"]);
      expect(second.outs.status).toBe("ready");
      const posts = emu.log.filter((e) => e.method === "POST" && e.path.endsWith(`/compute/instances/${host}/disks`)).map((e) => e.status);
      expect(posts[0]).toBe(200);
      expect(posts.slice(1, -1).every((s) => s === 400)).toBe(true);
      expect(posts.length).toBeGreaterThan(2);
      expect(posts.at(-1)).toBe(200);
    } finally {
      if (before === undefined) delete process.env.COMPUTE_RETRY_ATTEMPTS;
      else process.env.COMPUTE_RETRY_ATTEMPTS = before;
    }
  });

  test("create waits until ready; the id is the API's; label in place; filesystem replaces", async () => {
    const computeId = await bare();
    const d = await make(diskP, { computeId, label: "data", size: 2048, filesystem: "ext3" });
    expect(d.outs).toMatchObject({ computeId: Number(computeId), label: "data", size: 2048, filesystem: "ext3", status: "ready" });
    expect((await disksOf(computeId)).map((x) => String(x.id))).toEqual([d.id]);
    const lbl = await change(diskP, d.id, d.outs, { computeId, label: "data-2", size: 2048, filesystem: "ext3" });
    expect(lbl.diff).toMatchObject({ changes: true, replaces: [] });
    expect((await lbl.update()).outs.label).toBe("data-2");
    expect((await change(diskP, d.id, d.outs, { computeId, label: "data", size: 2048, filesystem: "ext4" })).diff.replaces).toEqual(["filesystem"]);
  });

  test("computeId accepts the instance's string id or a number, with no diff between them", async () => {
    const computeId = await bare();
    const d = await make(diskP, { computeId, label: "data", size: 100 });
    expect((await change(diskP, d.id, d.outs, { computeId: Number(computeId), label: "data", size: 100 })).diff.changes).toBe(false);
  });

  test("size: a resize inside a shutdown/boot cycle of a running instance", async () => {
    const computeId = await bare();
    const d = await make(diskP, { computeId, label: "root", size: 1000 });
    await make(cfgP, { computeId, label: "boot", devices: { sda: { diskId: d.id } } });
    await call(emu, "POST", `/compute/instances/${computeId}/boot`, { body: {} });
    await statusIs(computeId, "running");
    emu.log.length = 0;
    const u = await change(diskP, d.id, d.outs, { computeId, label: "root", size: 3000 });
    expect(u.diff).toMatchObject({ changes: true, replaces: [] });
    expect((await u.update()).outs).toMatchObject({ size: 3000, status: "ready" });
    expect(emu.log.filter((l) => l.method !== "GET").map((l) => l.path.replace(/\/\d+/g, "/N"))).toEqual([
      "/v4/compute/instances/N/shutdown",
      "/v4/compute/instances/N/disks/N/resize",
      "/v4/compute/instances/N/boot",
    ]);
    expect(await status(computeId)).toBe("running");
    // Beyond the type's allowance: the API's reason, naming the field.
    const big = await change(diskP, d.id, { ...d.outs, size: 3000 }, { computeId, label: "root", size: 90000 });
    expect((await big.update().catch((e) => e)).message).toMatch(/cannot update disk \d+: the API answered HTTP 400: size: Only \d+ MB/);
    // ...and the instance, shut down for the resize, runs again.
    expect(await status(computeId)).toBe("running");
  });

  test("check: an empty disk without a label is auto-named; a bad size names the field", async () => {
    const r = await diskP.check({}, { computeId: "1", size: 0, __resourceName: "data" });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["size"]);
    expect(r.inputs.label).toMatch(/^data-[0-9a-f]{7}$/);
    expect((await diskP.check({}, { computeId: "1", size: 10, rootPass: "Str0ng-Passw0rd!" })).failures).toEqual([
      { property: "rootPass", reason: "rootPass: only a disk deployed from an image has a root password" },
    ]);
    expect((await diskP.check({}, { computeId: "x1", size: 10, label: "a" })).failures[0]).toMatchObject({ property: "computeId" });
  });

  test("a disk the running instance uses is deleted inside a shutdown and boot; a gone disk reads as gone", async () => {
    const inst = await deployed();
    const disks = await disksOf(inst.id);
    await diskP.delete(String(disks[0].id), { computeId: inst.id });
    expect((await disksOf(inst.id)).map((x) => x.id)).toEqual([disks[1].id]);
    await statusIs(inst.id, "running");
    const d = await make(diskP, { computeId: await bare("host-4"), label: "x", size: 10 });
    await diskP.delete(d.id, d.outs);
    expect(await diskP.read(d.id, d.outs)).toEqual({});
  });
});

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

describe("Interface", () => {
  test("add a vlan interface; vlan changes replace; a public interface's primary changes in place", async () => {
    const inst = await deployed();
    const configId = (await configsOf(inst.id))[0].id;
    const vlan = await make(ifP, { computeId: inst.id, configId: String(configId), purpose: "vlan", label: "backend", ipamAddress: "10.0.0.5/24" });
    expect(vlan.outs).toMatchObject({ purpose: "vlan", label: "backend", ipamAddress: "10.0.0.5/24", active: false });
    expect(
      (await change(ifP, vlan.id, vlan.outs, { computeId: inst.id, configId, purpose: "vlan", label: "backend", ipamAddress: "10.0.0.5/24", primary: true }))
        .diff.replaces,
    ).toEqual(["primary"]);
    const pub = await make(ifP, { computeId: inst.id, configId, purpose: "public" });
    const u = await change(ifP, pub.id, pub.outs, { computeId: inst.id, configId, purpose: "public", primary: true });
    expect(u.diff).toMatchObject({ changes: true, replaces: [] });
    expect((await u.update()).outs.primary).toBe(true);
  });

  test("check: per-purpose fields", async () => {
    const r = await ifP.check({}, { computeId: 1, configId: 2, purpose: "public", label: "x", subnetId: 4 });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["label", "subnetId"]);
    expect((await ifP.check({}, { computeId: 1, configId: 2, purpose: "vlan" })).failures[0].reason).toMatch(/needs a label/);
  });

  test("an active interface is deleted inside a shutdown and boot of its instance", async () => {
    const inst = await make(instP, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "host-9" });
    const [cfg] = await configsOf(inst.id);
    const pub = await make(ifP, { computeId: inst.id, configId: cfg.id, purpose: "public" });
    await call(emu, "POST", `/compute/instances/${inst.id}/reboot`, { body: {} });
    const active = async () => (await get(emu, `/compute/instances/${inst.id}/configs/${cfg.id}/interfaces/${pub.id}`)).active === true;
    await waitUntil(active, { what: `interface ${pub.id} active after the reboot` });
    await ifP.delete(pub.id, pub.outs);
    expect(await get(emu, `/compute/instances/${inst.id}/configs/${cfg.id}/interfaces`)).toEqual([]);
    await statusIs(inst.id, "running");
  });

  test("a profile's interfaces are managed as a list or one by one, never both", async () => {
    const inst = await deployed();
    const [disk] = await disksOf(inst.id);
    const listed = await make(cfgP, { computeId: inst.id, label: "listed", devices: { sda: { diskId: disk.id } }, interfaces: [{ purpose: "public" }] });
    const r = await ifP.check({}, { computeId: inst.id, configId: listed.id, purpose: "vlan", label: "x" });
    const err = await ifP.create(r.inputs).catch((e) => e);
    expect(err.message).toMatch(/managed as a list by Config \d+: declare this interface there/);
    // And the other way round: a profile with Interface resources cannot take a list.
    const single = await make(cfgP, { computeId: inst.id, label: "single", devices: { sda: { diskId: disk.id } } });
    await make(ifP, { computeId: inst.id, configId: single.id, purpose: "public" });
    await expect(cfgP.diff(single.id, single.outs, { ...single.inputs, interfaces: [{ purpose: "public" }] })).rejects.toThrow(
      /managed one by one \(Interface/,
    );
    // An instance's own interfaces list claims its boot profile too.
    const withList = await make(instP, {
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      rootPass: PASS,
      label: "host-7",
      interfaces: [{ purpose: "public" }],
    });
    const e2 = await ifP.create({ computeId: withList.id, configId: withList.outs.bootConfigId, purpose: "vlan", label: "y" }).catch((e) => e);
    expect(e2.message).toMatch(/managed as a list by Instance/);
  });
});
