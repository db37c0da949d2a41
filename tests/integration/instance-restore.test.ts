/**
 * An instance's data recovery against the emulator: a backup restored into an existing instance (`restore`),
 * snapshots before risky changes (`snapshotBeforeChange`), and the preview checks that go with them (a type the
 * disks do not fit, a backup of another region, script data over the limit).
 */
import { diskProvider as disk } from "../../provider/resources/disk";
import { instanceProvider as inst } from "../../provider/resources/instance";
import { instanceSnapshotProvider as snap } from "../../provider/resources/instanceSnapshot";
import { get, list } from "../helpers/emulator";
import { apiRequests, checked, posts, said, useProviderSuite } from "../helpers/provider-suite";

jest.setTimeout(120_000);

const emu = useProviderSuite();

type Provider = typeof inst;
const failures = async (p: Provider, news: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
  (await p.check(olds, { __resourceName: "r", ...news })).failures;

const WEB = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "Str0ng-Passw0rd!", backupsEnabled: true };

describe("Instance restore", () => {
  test("a backup restored into the instance in place with overwrite: same id, the backup's disks, booted again, the password set again", async () => {
    const i = await inst.create(await checked(inst, WEB));
    const s = await snap.create((await snap.check({}, { __resourceName: "s", computeId: i.id, label: "known-good" })).inputs);
    const before = (await list(emu, `/compute/instances/${i.id}/disks`)).map((x) => x.id);

    const news = await checked(inst, { ...WEB, restore: { backupId: Number(s.id), overwrite: true } }, i.outs);
    expect(await inst.diff(i.id, i.outs, news)).toMatchObject({ changes: true, replaces: [] });
    emu.log.length = 0;
    const u = await inst.update(i.id, i.outs, news);
    expect(posts(emu, /\/restore$/).map((l) => l.path)).toEqual([`/compute/instances/${i.id}/backups/${s.id}/restore`]);
    expect(posts(emu, /\/password$/)).toHaveLength(1); // the program's root password, set again on the backup's disks
    const after = await list(emu, `/compute/instances/${i.id}/disks`);
    expect(after.map((x) => x.id).some((id) => before.includes(id))).toBe(false);
    expect(after.map((x) => x.label).sort()).toEqual((s.outs.disks as Array<{ label: string }>).map((x) => x.label).sort());
    expect(await get(emu, `/compute/instances/${i.id}`)).toMatchObject({ id: Number(i.id), status: "running" });
    expect(u.outs).toMatchObject({ status: "running", booted: true, restore: { backupId: Number(s.id), overwrite: true } });
    expect((await inst.diff(i.id, u.outs, news)).changes).toBe(false);
  });

  test("refused at preview: not enough space without overwrite, a backup of another region, a backup that is not this instance's; nothing is sent", async () => {
    const i = await inst.create(await checked(inst, WEB));
    const s = await snap.create((await snap.check({}, { __resourceName: "s", computeId: i.id, label: "known-good" })).inputs);
    const far = await inst.create(await checked(inst, { ...WEB, region: "eu-central" }));
    emu.log.length = 0;
    const diffWith = async (id: string, outs: Record<string, unknown>, restore: Record<string, unknown>) =>
      inst.diff(id, outs, await checked(inst, { ...WEB, region: outs.region, restore }, outs));
    await expect(diffWith(i.id, i.outs, { backupId: Number(s.id) })).rejects.toThrow(
      /^restore\.overwrite: backup \d+ needs \d+ MB and instance \d+ has 0 MB free/,
    );
    await expect(diffWith(far.id, far.outs, { backupId: Number(s.id), sourceComputeId: i.id, overwrite: true })).rejects.toThrow(
      /^restore\.sourceComputeId: backup \d+ of instance \d+ is in region us-east, and instance \d+ is in eu-central: a backup is restored only in its own region/,
    );
    await expect(diffWith(i.id, i.outs, { backupId: 4242, overwrite: true })).rejects.toThrow(/^restore\.backupId: 4242 is not a backup of instance \d+/);
    expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);
  });

  test("a new instance from a backup of another region is refused at preview, naming backupId", async () => {
    const i = await inst.create(await checked(inst, WEB));
    const s = await snap.create((await snap.check({}, { __resourceName: "s", computeId: i.id, label: "known-good" })).inputs);
    const r = await failures(inst, { region: "eu-central", type: "c1-standard-2", backupId: Number(s.id) });
    expect(r).toEqual([
      {
        property: "backupId",
        reason: expect.stringMatching(/^backupId: backup \d+ belongs to instance \d+ in region us-east: a backup is restored only in its own region/),
      },
    ]);
    expect(await failures(inst, { region: "us-east", type: "c1-standard-2", backupId: Number(s.id) })).toEqual([]);
  });
});

describe("snapshotBeforeChange", () => {
  test("a resize is preceded by a snapshot in the same update, successful before the resize is sent; a plain change takes none", async () => {
    const i = await inst.create(await checked(inst, { ...WEB, snapshotBeforeChange: true }));
    emu.log.length = 0;
    const tagged = await checked(inst, { ...WEB, snapshotBeforeChange: true, tags: ["web"] }, i.outs);
    await inst.diff(i.id, i.outs, tagged);
    const t = await inst.update(i.id, i.outs, tagged);
    expect(posts(emu, /\/backups$/)).toEqual([]);

    const bigger = await checked(inst, { ...WEB, snapshotBeforeChange: true, tags: ["web"], type: "c1-standard-4" }, t.outs);
    await inst.diff(i.id, t.outs, bigger);
    await inst.update(i.id, t.outs, bigger);
    const order = posts(emu, /./).map((l) => l.path.replace(/\d+/g, "N"));
    expect(order.indexOf("/compute/instances/N/backups")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("/compute/instances/N/backups")).toBeLessThan(order.indexOf("/compute/instances/N/resize"));
    const slot = (await get(emu, `/compute/instances/${i.id}/backups`)).snapshot.current;
    expect(slot).toMatchObject({ status: "successful", label: expect.stringMatching(/^pulumi-before-the-resize-\d{8}T\d{6}Z$/) });
    // The snapshot holds the disks as they were before the resize.
    expect(slot.disks.length).toBeGreaterThan(0);
  });

  test("a data disk's resize and delete are preceded by a snapshot when its Instance asks for them", async () => {
    // An instance made empty (no image): its disks are Disk resources.
    const bare = { region: "us-east", type: "c1-standard-2", backupsEnabled: true, snapshotBeforeChange: true };
    const i = await inst.create(await checked(inst, bare));
    const dk = await disk.create((await disk.check({}, { __resourceName: "d", computeId: i.id, label: "data", size: 1024 })).inputs);
    await inst.diff(i.id, i.outs, await checked(inst, bare, i.outs));
    emu.log.length = 0;
    const grown = (await disk.check(dk.outs, { __resourceName: "d", computeId: i.id, label: "data", size: 2048 })).inputs;
    await disk.update(dk.id, dk.outs, grown);
    await disk.delete(dk.id, { ...dk.outs, size: 2048 });
    const order = apiRequests(emu)
      .filter((l) => l.method !== "GET")
      .map((l) => `${l.method} ${l.path.replace(/\d+/g, "N")}`);
    expect(order.filter((x) => /backups$|resize$|DELETE/.test(x))).toEqual([
      "POST /compute/instances/N/backups",
      "POST /compute/instances/N/disks/N/resize",
      "POST /compute/instances/N/backups",
      "DELETE /compute/instances/N/disks/N",
    ]);
  });

  test("refused at preview without the backup service, and beside an InstanceSnapshot of the same instance", async () => {
    expect(await failures(inst, { ...WEB, backupsEnabled: false, snapshotBeforeChange: true })).toEqual([
      { property: "snapshotBeforeChange", reason: "snapshotBeforeChange: needs backupsEnabled: true (the paid backup service keeps the snapshots)" },
    ]);
    const i = await inst.create(await checked(inst, WEB));
    await snap.check({}, { __resourceName: "keep", computeId: i.id, label: "keep" });
    await expect(inst.diff(i.id, i.outs, await checked(inst, { ...WEB, snapshotBeforeChange: true }, i.outs))).rejects.toThrow(
      /^snapshotBeforeChange: instance \d+ has one snapshot slot, which InstanceSnapshot keep of this program takes/,
    );
  });
});

describe("preview checks", () => {
  test("a resize to a type the disks do not fit is refused, naming type and the sizes", async () => {
    const i = await inst.create(await checked(inst, { ...WEB, type: "c1-standard-4" }));
    const used = (await list(emu, `/compute/instances/${i.id}/disks`)).reduce((n, x) => n + x.size, 0);
    const small = (await get(emu, "/compute/types/c1-standard-2")).disk;
    expect(used).toBeGreaterThan(small);
    emu.log.length = 0;
    await expect(inst.diff(i.id, i.outs, await checked(inst, { ...WEB, type: "c1-standard-2" }, i.outs))).rejects.toThrow(
      new RegExp(`^type: the disks of instance ${i.id} use ${used} MB, more than the ${small} MB of type c1-standard-2`),
    );
    expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);
  });

  test("script data over 65535 characters as JSON is refused on a disk, naming scriptData", async () => {
    const r = await disk.check(
      {},
      { __resourceName: "d", computeId: "1", size: 4096, image: "compute/debian12", scriptId: 1, scriptData: { big: "x".repeat(65_600) } },
    );
    expect(r.failures).toEqual([expect.objectContaining({ property: "scriptData", reason: expect.stringMatching(/scriptData.*at most 65535 characters/) })]);
  });

  test("an InstanceSnapshot replaced: the old one's delete says the newer snapshot replaced it, not that it stays", async () => {
    const i = await inst.create(await checked(inst, WEB));
    const first = await snap.create((await snap.check({}, { __resourceName: "s", computeId: i.id, label: "one" })).inputs);
    const second = await snap.create((await snap.check({}, { __resourceName: "s2", computeId: i.id, label: "two" })).inputs);
    const out = await said(() => snap.delete(first.id, first.outs));
    expect(out).toMatch(
      new RegExp(
        `instance snapshot ${first.id} leaves the stack: it is no longer in the API: the instance's one snapshot slot now holds snapshot ${second.id} \\(two\\)`,
      ),
    );
    expect(await said(() => snap.delete(second.id, second.outs))).toMatch(/leaves the stack: the API deletes no single snapshot: it stays in the API/);
  });
});
