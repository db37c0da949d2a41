/**
 * InstanceSnapshot against the emulator: one slot per instance, the backup service checked at preview, a wait
 * until taken, delete leaves it, its lost create answer, and the lookup getInstanceBackups.
 */
import { invoke } from "../../provider/functions";
import { instanceProvider as inst } from "../../provider/resources/instance";
import { instanceSnapshotProvider as snap } from "../../provider/resources/instanceSnapshot";
import { client } from "../../provider/transport/settings";
import { get } from "../helpers/emulator";
import { expectFaultFired } from "../helpers/faults";
import { useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

type Provider = typeof snap;
const checked = async (p: Provider, news: Record<string, unknown>, name = "snap") => {
  const r = await p.check({}, { __resourceName: name, ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
};
const instance = async (backupsEnabled: boolean) =>
  inst.create(await checked(inst, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "Str0ng-Passw0rd!", backupsEnabled }));
const backups = async (computeId: string) => get(emu, `/compute/instances/${computeId}/backups`);

describe("InstanceSnapshot", () => {
  test("create waits until successful; read, lookup, a new label replaces the one in the slot, delete leaves it", async () => {
    const i = await instance(true);
    const c = await snap.create(await checked(snap, { computeId: i.id, label: "before-upgrade" }));
    expect(c.outs).toMatchObject({ label: "before-upgrade", status: "successful", type: "snapshot", available: true, disks: expect.any(Array) });
    expect((await backups(i.id)).snapshot.current).toMatchObject({ id: Number(c.id), label: "before-upgrade", status: "successful" });
    expect((await snap.read(c.id, c.outs)).props).toMatchObject({ status: "successful" });

    const found = await invoke(client(), "getInstanceBackups", { computeId: i.id, filters: [{ name: "type", values: ["snapshot"] }] });
    expect(found.backups).toEqual([expect.objectContaining({ id: c.id, label: "before-upgrade", status: "successful" })]);

    const d = await snap.diff(c.id, c.outs, await checked(snap, { computeId: i.id, label: "before-release-2" }));
    expect(d).toMatchObject({ changes: true, replaces: ["label"] });
    const next = await snap.create(await checked(snap, { computeId: i.id, label: "before-release-2" }));
    expect((await snap.read(c.id, c.outs)).id).toBeUndefined(); // the slot holds the new one
    await snap.delete(c.id, c.outs);
    expect(emu.log.filter((l) => l.method === "DELETE")).toEqual([]);
    await snap.delete(next.id, next.outs);
    expect((await backups(i.id)).snapshot.current).toMatchObject({ id: Number(next.id) });
  });

  test("at preview: a second snapshot of one instance, and an instance without the backup service, are refused naming computeId", async () => {
    const i = await instance(false);
    const off = await snap.check({}, { __resourceName: "a", computeId: i.id });
    expect(off.failures).toEqual([{ property: "computeId", reason: expect.stringMatching(/instance \d+ has no backup service: set backupsEnabled: true/) }]);
    const j = await instance(true);
    await checked(snap, { computeId: j.id }, "first");
    const second = await snap.check({}, { __resourceName: "second", computeId: j.id });
    expect(second.failures).toEqual([
      { property: "computeId", reason: expect.stringMatching(/has one snapshot slot, which InstanceSnapshot first of this program takes/) },
    ]);
    // The same resource checked again (an update, a replacement) keeps its slot.
    await checked(snap, { computeId: j.id, label: "x" }, "first");
    // The label's rule is the contract's (api/contract/backups.ts `snapshotLabel`): its length, and no control character.
    const bell = await snap.check({}, { __resourceName: "first", computeId: j.id, label: "before\u0007" });
    expect(bell.failures).toEqual([{ property: "label", reason: "label: must not hold control characters" }]);
  });

  test("the backup service being enabled by the Instance in the same run is not refused at preview", async () => {
    const ins = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "Str0ng-Passw0rd!", backupsEnabled: false };
    const i = await inst.create(await checked(inst, ins));
    // The Instance's diff (before the snapshot's check) plans it: the preview knows.
    await inst.diff(i.id, i.outs, await checked(inst, { ...ins, backupsEnabled: true }));
    await checked(snap, { computeId: i.id });
  });

  test("a lost create answer adopts the snapshot under way instead of taking a second one", async () => {
    const i = await instance(true);
    emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/compute/instances/\\d+/backups$", rate: 1, kinds: ["lost"], limit: 1 }] });
    const c = await snap.create(await checked(snap, { computeId: i.id, label: "lost" }));
    expect(emu.log.filter((l) => l.method === "POST" && /\/backups$/.test(l.path))).toHaveLength(1);
    expect((await backups(i.id)).snapshot.current).toMatchObject({ id: Number(c.id), label: "lost" });
    expectFaultFired(emu, "POST", `/v4/compute/instances/${i.id}/backups`, "lost", 1);
  });
});
