/**
 * Snapshots, clones and restores through the real Pulumi CLI against the emulator:
 * - examples/snapshot: a snapshot taken before each release's change (the change waits for it);
 * - examples/clone: a production instance cloned for staging, with the source's tags;
 * - examples/restore: an instance made from the newest backup of another, found by getInstanceBackups.
 */
import type { Emulator } from "../../emulator/server";
import { call, emulator, get, list } from "../helpers/emulator";
import { TestStack } from "../helpers/pulumi";
import { waitUntil } from "../helpers/wait";

jest.setTimeout(600_000);

const ROOT_PASS = "B4ckup-R00t-Pass!";
let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu?.close();
});
const stackOf = (example: string) =>
  new TestStack(example, `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, [`${example}-example:rootPass`]: ROOT_PASS },
  });

test("examples/snapshot: the snapshot exists, successful, taken before the release's change; destroy leaves no instance", async () => {
  const stack = stackOf("snapshot");
  try {
    const up = await stack.ok("up");
    expect(up.summary).toEqual({ create: 5 });
    const id = up.outputs.instanceId as string;
    expect(up.outputs).toMatchObject({ snapshotLabel: "before-release-1", snapshotStatus: "successful" });
    const current = (await get(emu, `/compute/instances/${id}/backups`)).snapshot.current;
    expect(current).toMatchObject({ id: Number(up.outputs.snapshotId), label: "before-release-1", status: "successful", type: "snapshot" });

    // Release 2 brings a bigger data disk: a new snapshot first (it takes the slot), then the resize.
    emu.log.length = 0;
    const next = (await stack.upAsPlanned({ config: { release: "2", dataSize: "2048" } })).up.json;
    expect(next.summary).toMatchObject({ replace: 1, update: 1 });
    const order = emu.log.filter((l) => l.method === "POST").map((l) => l.path.replace(/\/\d+/g, "/N"));
    expect(order.indexOf("/v4/compute/instances/N/backups")).toBeLessThan(order.indexOf("/v4/compute/instances/N/disks/N/resize"));
    expect((await get(emu, `/compute/instances/${id}/backups`)).snapshot.current).toMatchObject({ label: "before-release-2", status: "successful" });
    // The old snapshot's delete said the API keeps it (here it is gone already: the new one took the slot).
    expect(next.outputs.dataSize).toBe(2048);
    expect((await stack.run("preview", { config: { release: "2", dataSize: "2048" } })).json.changeSummary).toEqual({ same: 5 });

    const destroy = await stack.run("destroy", { config: { release: "2", dataSize: "2048" } });
    expect(destroy.code).toBe(0);
    expect(destroy.output).toMatch(/instance snapshot \d+ leaves the stack: the API deletes no single snapshot: it stays in the API/);
    expect(await list(emu, "/compute/instances")).toEqual([]);
  } finally {
    stack.cleanup();
  }
});

test("examples/clone: staging is a running clone of production with its tags; a new label changes it in place", async () => {
  const stack = stackOf("clone");
  try {
    const up = await stack.ok("up");
    expect(up.summary).toEqual({ create: 3 });
    expect(up.outputs).toMatchObject({ stagingTags: ["app", "production"], stagingStatus: "running" });
    const staging = await get(emu, `/compute/instances/${up.outputs.stagingId}`);
    expect(staging).toMatchObject({ label: "clone-staging", tags: ["app", "production"], status: "running" });
    expect((await list(emu, `/compute/instances/${up.outputs.stagingId}/disks`)).length).toBe(
      (await list(emu, `/compute/instances/${up.outputs.prodId}/disks`)).length,
    );
    expect((await stack.run("preview")).json.changeSummary).toEqual({ same: 3 });
    const renamed = (await stack.upAsPlanned({ config: { stagingLabel: "clone-staging-2" } })).up.json;
    expect(renamed.summary).toMatchObject({ update: 1 });
    expect(renamed.outputs.stagingId).toBe(up.outputs.stagingId);
    // (No destroy: the emulator goes with the suite, and the snapshot's test holds what a destroy does.)
  } finally {
    stack.cleanup();
  }
});

test("examples/restore: an instance made from the backup getInstanceBackups finds runs", async () => {
  // The source, made elsewhere: an instance with the backup service and a snapshot.
  const src = (
    await call(emu, "POST", "/compute/instances", {
      body: { label: "restore-src", region: "eu-central", type: "c1-standard-2", image: "compute/debian12", root_pass: ROOT_PASS, backups_enabled: true },
    })
  ).body;
  await waitUntil(async () => (await get(emu, `/compute/instances/${src.id}`)).status === "running");
  const snap = (await call(emu, "POST", `/compute/instances/${src.id}/backups`, { body: { label: "nightly" } })).body;
  await waitUntil(async () => (await get(emu, `/compute/instances/${src.id}/backups/${snap.id}`)).status === "successful");

  const stack = stackOf("restore");
  try {
    // Refused at preview before any request: an instance made from a backup of another region.
    emu.log.length = 0;
    const far = await stack.run("preview", { config: { sourceInstance: String(src.id), region: "us-east" } });
    expect(far.code).not.toBe(0);
    expect(far.output).toMatch(
      new RegExp(`backupId: backup ${snap.id} belongs to instance ${src.id} in region eu-central: a backup is restored only in its own region`),
    );
    expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);

    // (The stack keeps its config between runs: an empty region is the source's again.)
    const up = await stack.ok("up", { config: { sourceInstance: String(src.id), region: "" } });
    expect(up.summary).toEqual({ create: 2 });
    expect(up.outputs).toMatchObject({ backupId: String(snap.id), backupLabel: "nightly", restoredStatus: "running" });
    const restored = await get(emu, `/compute/instances/${up.outputs.restoredId}`);
    expect(restored).toMatchObject({ label: "restored", region: "eu-central", status: "running" });
    expect((await list(emu, `/compute/instances/${restored.id}/disks`)).map((d) => d.label).sort()).toEqual(
      (await list(emu, `/compute/instances/${src.id}/disks`)).map((d) => d.label).sort(),
    );
    // Restored in place from its own snapshot (restore, overwrite): the same instance, running again, whose
    // disks are the snapshot's made anew.
    const rid = String(up.outputs.restoredId);
    const own = (await call(emu, "POST", `/compute/instances/${rid}/backups`, { body: { label: "known-good" } })).body;
    await waitUntil(async () => (await get(emu, `/compute/instances/${rid}/backups/${own.id}`)).status === "successful");
    const disksBefore = await list(emu, `/compute/instances/${rid}/disks`);
    emu.log.length = 0;
    const inPlace = (await stack.upAsPlanned({ config: { sourceInstance: String(src.id), restoreFrom: String(own.id) } })).up.json;
    expect(inPlace.summary).toEqual({ update: 1, same: 1 });
    expect(inPlace.outputs.restoredId).toBe(rid);
    expect(emu.log.filter((l) => l.method === "POST" && /\/restore$/.test(l.path)).map((l) => l.path)).toEqual([
      `/v4/compute/instances/${rid}/backups/${own.id}/restore`,
    ]);
    expect(await get(emu, `/compute/instances/${rid}`)).toMatchObject({ status: "running" });
    const disksAfter = await list(emu, `/compute/instances/${rid}/disks`);
    expect(disksAfter.map((d) => d.label).sort()).toEqual(disksBefore.map((d) => d.label).sort());
    expect(disksAfter.some((d) => disksBefore.some((b) => b.id === d.id))).toBe(false);
    expect((await stack.run("preview", { config: { sourceInstance: String(src.id), restoreFrom: String(own.id) } })).json.changeSummary).toEqual({ same: 2 });
  } finally {
    stack.cleanup();
  }
});
