import { configProvider as cfgP } from "../../provider/resources/config";
import { diskProvider as diskP } from "../../provider/resources/disk";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { call, useEmulator } from "../helpers/emulator";
import { change, instanceReads, make, useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const PASS = "Str0ng-Passw0rd!";
/** Read through the API: an instance's status and disks. */
const { status, statusIs, disksOf } = instanceReads(emu);
const bare = async (label = "host-1", type = "c1-standard-2") => (await make(instP, { region: "us-east", type, label })).id;
const deployed = async (label = "host-2") =>
  make(instP, { region: "us-east", type: "c1-standard-4", image: "compute/debian12", rootPass: PASS, label, swapSize: 512 });

describe("Disk", () => {
  test('a create the API refuses with "Compute busy." (another disk being made) is sent again until accepted, past the client\'s retries', async () => {
    const host = await bare("busy-host");
    emu.timing.speed = 0.5 * (3 / 17); // a disk takes 1.5 s to be made (0.5 when it took 3 s at speed 1, 17 s now)
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
    // The label's rule and the size's are the contract's (api/contract/disks.ts `diskLabel`, `diskSize`).
    expect((await diskP.check({}, { computeId: "1", size: 10, label: "data\u0007" })).failures).toEqual([
      { property: "label", reason: "label: must not hold control characters" },
    ]);
    expect(r.failures).toEqual([{ property: "size", reason: "size: must be a whole number of MB, 1 or more" }]);
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
