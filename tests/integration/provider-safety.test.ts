/**
 * Issue 10 against the emulator: nothing made twice, no data lost where the API changes a thing in place,
 * removed inputs cleared, and pinned labels that survive a create-first replacement. Facts are read back
 * through the API.
 */
import { REPLACEMENT_LABEL } from "../../provider/model/marks";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createOnce, UnidentifiedCreateError } from "../../provider/lifecycle/lost-answers";
import type { ResourceProvider } from "../../provider/lifecycle/hooks";
import { configProvider as cfgP } from "../../provider/resources/config";
import { mysqlProvider as dbP } from "../../provider/resources/database";
import { diskProvider as diskP } from "../../provider/resources/disk";
import { imageProvider as imgP } from "../../provider/resources/image";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { interfaceProvider as ifP } from "../../provider/resources/interface";
import { sshKeySpec } from "../../provider/resources/sshKey";
import { vpcProvider as vpcP } from "../../provider/resources/vpc";
import { client } from "../../provider/transport/settings";
import { call, ed25519Key, useEmulator } from "../helpers/emulator";
import { expectFaultFired } from "../helpers/faults";
import { make, useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const PASS = "Str0ng-Passw0rd!";
type Props = Record<string, unknown>;
/** What the engine does for a change: check with the old inputs, diff against the old outputs. */
async function plan(p: ResourceProvider, id: string, old: { inputs: Props; outs: Props }, news: Props) {
  const r = await p.check(old.inputs, news);
  expect(r.failures).toEqual([]);
  return { inputs: r.inputs, diff: await p.diff(id, old.outs, r.inputs) };
}
const get = async (p: string) => (await call(emu, "GET", p)).body;
const lose = (match: string) => emu.faults.set({ seed: 1, rules: [{ match, rate: 1, kinds: ["lost"], limit: 1 }] });
const sent = (re: RegExp) =>
  emu.log.filter((l) => l.method !== "GET" && re.test(`${l.method} ${l.path}`)).map((l) => `${l.method} ${l.path.replace(/\d+/g, "N")}`);

describe("a lost create answer never makes two", () => {
  test("an instance with no label in the program is auto-named, so it is found and adopted", async () => {
    lose("^POST /v4/compute/instances$");
    const c = await make(instP, { region: "us-east", type: "c1-nano-1", image: "compute/debian12", rootPass: PASS, __resourceName: "web" });
    const all = (await get("/compute/instances")).data;
    expect(all.map((i: { id: number }) => String(i.id))).toEqual([c.id]);
    expect(all[0].label).toMatch(/^web-[0-9a-f]{7}$/);
    expect(emu.log.filter((l) => l.method === "POST" && l.path === "/v4/compute/instances")).toHaveLength(1);
    expectFaultFired(emu, "POST", "/v4/compute/instances", "lost", 1);
  });

  test("a disk is found by its label, never a sibling of the same size", async () => {
    const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "host-1" });
    const sibling = await make(diskP, { computeId: host.id, label: "other", size: 1000 });
    lose("^POST /v4/compute/instances/\\d+/disks$");
    const d = await make(diskP, { computeId: host.id, size: 1000, __resourceName: "data" });
    expect(d.id).not.toBe(sibling.id);
    const disks = (await get(`/compute/instances/${host.id}/disks`)).data;
    expect(disks.map((x: { id: number; label: string }) => [String(x.id), x.label])).toEqual([
      [sibling.id, "other"],
      [d.id, expect.stringMatching(/^data-[0-9a-f]{7}$/)],
    ]);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${host.id}/disks`, "lost", 1);
  });

  test("an interface, which has no label, is found by its purpose, VLAN label, address and subnet", async () => {
    const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "host-1" });
    const disk = await make(diskP, { computeId: host.id, label: "root", size: 1000 });
    const cfg = await make(cfgP, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } } });
    const first = await make(ifP, { computeId: host.id, configId: cfg.id, purpose: "vlan", label: "backend", ipamAddress: "10.0.0.1/24" });
    lose("^POST /v4/compute/instances/\\d+/configs/\\d+/interfaces$");
    const second = await make(ifP, { computeId: host.id, configId: cfg.id, purpose: "vlan", label: "backend", ipamAddress: "10.0.0.2/24" });
    const list = await get(`/compute/instances/${host.id}/configs/${cfg.id}/interfaces`);
    expect(list.map((i: { id: number }) => String(i.id))).toEqual([first.id, second.id]);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${host.id}/configs/${cfg.id}/interfaces`, "lost", 1);
  });

  test("an interface create reads nothing first; after a lost answer, a twin already on the profile is named, never a third made", async () => {
    const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "host-1" });
    const disk = await make(diskP, { computeId: host.id, label: "root", size: 1000 });
    const cfg = await make(cfgP, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } } });
    const vlan = { computeId: host.id, configId: cfg.id, purpose: "vlan", label: "backend", ipamAddress: "10.0.0.1/24" };
    emu.log.length = 0;
    const first = await make(ifP, vlan);
    expect(emu.log.map((l) => `${l.method} ${l.path.replace(/\d+/g, "N")}`)).toEqual(["POST /vN/compute/instances/N/configs/N/interfaces"]);
    lose("^POST /v4/compute/instances/\\d+/configs/\\d+/interfaces$");
    const err = await make(ifP, vlan).catch((e: Error) => e);
    const list = await get(`/compute/instances/${host.id}/configs/${cfg.id}/interfaces`);
    expect(list).toHaveLength(2);
    expect(String(err)).toContain(`several interfaces like it (${first.id}, ${String(list[1].id)})`);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${host.id}/configs/${cfg.id}/interfaces`, "lost", 1);
  });

  test("a resource that nothing identifies is not sent again: the error says what may exist and where", async () => {
    lose("^POST /v4/profile/sshkeys$");
    const { findExisting: _none, ...blind } = sshKeySpec;
    const err = await createOnce(client(), blind, { label: "k", ssh_key: ed25519Key(3) }, {}).catch((e) => e);
    expect(err).toBeInstanceOf(UnidentifiedCreateError);
    expect(err.message).toMatch(/a new SSH key may exist under http:\/\/127\.0\.0\.1:\d+\/v4\/profile\/sshkeys/);
    expect(emu.log.filter((l) => l.method === "POST")).toHaveLength(1);
    expectFaultFired(emu, "POST", "/v4/profile/sshkeys", "lost", 1);
  });
});

describe("in place where the API has a path", () => {
  const deploy = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "web-1" };
  const swapOf = async (id: string) => (await get(`/compute/instances/${id}/disks`)).data.find((d: { filesystem: string }) => d.filesystem === "swap");

  test("swapSize is learnt at create and kept by refresh (one GET), read back once where the state lacks it", async () => {
    emu.log.length = 0;
    const c = await make(instP, { ...deploy, swapSize: 256 });
    expect(c.outs.swapSize).toBe(256);
    expect(emu.log.filter((l) => l.path.includes("/disks"))).toEqual([]);
    expect((await swapOf(c.id)).size).toBe(256);
    emu.log.length = 0;
    expect((await instP.read(c.id, c.outs)).props?.swapSize).toBe(256);
    expect(emu.log.map((l) => `${l.method} ${l.path.replace(/\d+/g, "N")}`)).toEqual(["GET /vN/compute/instances/N"]);
    emu.log.length = 0;
    expect((await instP.read(c.id, { ...c.outs, swapSize: undefined })).props?.swapSize).toBe(256);
    expect(emu.log.filter((l) => l.path.includes("/disks"))).toHaveLength(1);
  });

  test("swapSize is read back; adding the size it has plans nothing, even on a state that lacks it", async () => {
    const c = await make(instP, deploy);
    expect(c.outs.swapSize).toBe(512);
    expect((await plan(instP, c.id, c, { ...deploy, swapSize: 512 })).diff.changes).toBe(false);
    const legacy = { inputs: c.inputs, outs: { ...c.outs, swapSize: undefined } };
    expect((await plan(instP, c.id, legacy, { ...deploy, swapSize: 512 })).diff.changes).toBe(false);
  });

  test("a smaller swapSize resizes the swap disk in place, inside a shutdown and boot", async () => {
    const c = await make(instP, deploy);
    const { inputs, diff } = await plan(instP, c.id, c, { ...deploy, swapSize: 256 });
    expect(diff).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    emu.log.length = 0;
    const u = await instP.update(c.id, c.outs, inputs);
    expect(u.outs).toMatchObject({ swapSize: 256, status: "running" });
    expect(sent(/./)).toEqual(["POST /vN/compute/instances/N/shutdown", "POST /vN/compute/instances/N/disks/N/resize", "POST /vN/compute/instances/N/boot"]);
    expect((await swapOf(c.id)).size).toBe(256);
    expect((await get(`/compute/instances/${c.id}`)).status).toBe("running");
  });

  test("a swapSize that cannot fit, or that would add or remove the swap disk, is refused at preview", async () => {
    const c = await make(instP, deploy);
    await expect(plan(instP, c.id, c, { ...deploy, swapSize: 4096 })).rejects.toThrow(
      /swapSize: 4096 MB does not fit: .* more than the 51200 MB of type c1-standard-2 \(512 MB are free for swap\)/,
    );
    await expect(plan(instP, c.id, c, { ...deploy, swapSize: 0 })).rejects.toThrow(/swapSize: 0 would remove .* swap disk/);
    const empty = await make(instP, { ...deploy, label: "web-2", swapSize: 0 });
    expect(empty.outs.swapSize).toBe(0);
    await expect(plan(instP, empty.id, empty, { ...deploy, label: "web-2", swapSize: 256 })).rejects.toThrow(/has no swap disk to resize/);
  });

  test("a disk's rootPass changes by the per-disk password reset: same disk, not erased", async () => {
    const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "host-1" });
    const disk = await make(diskP, { computeId: host.id, label: "root", size: 4096, image: "compute/debian12", rootPass: PASS });
    await make(cfgP, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } }, booted: true });
    const { inputs, diff } = await plan(diskP, disk.id, disk, {
      computeId: host.id,
      label: "root",
      size: 4096,
      image: "compute/debian12",
      rootPass: "An0ther-Passw0rd!",
    });
    expect(diff).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    emu.log.length = 0;
    await diskP.update(disk.id, disk.outs, inputs);
    expect(sent(/./)).toEqual(["POST /vN/compute/instances/N/shutdown", "POST /vN/compute/instances/N/disks/N/password", "POST /vN/compute/instances/N/boot"]);
    expect((await get(`/compute/instances/${host.id}/disks/${disk.id}`)).status).toBe("ready");
    expect((await get(`/compute/instances/${host.id}`)).status).toBe("running");
  });

  test("an image file moved with the same content is an update that sends nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "img-"));
    try {
      const file = path.join(dir, "a.img");
      writeFileSync(file, Buffer.alloc(5000, 1));
      const img = await make(imgP, { file, region: "us-east", label: "up" });
      const moved = path.join(dir, "b.img");
      renameSync(file, moved);
      const { inputs, diff } = await plan(imgP, img.id, img, { file: moved, region: "us-east", label: "up" });
      expect(diff).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
      emu.log.length = 0;
      expect((await imgP.update(img.id, img.outs, inputs)).outs).toMatchObject({ file: moved, fileHash: img.outs.fileHash });
      expect(sent(/./)).toEqual([]);
      writeFileSync(moved, Buffer.alloc(5000, 2));
      expect((await plan(imgP, img.id, img, { file: moved, region: "us-east", label: "up" })).diff.replaces).toEqual(["fileHash"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("removing an optional input clears it where the API can", () => {
  test("instance tags and group", async () => {
    const c = await make(instP, { region: "us-east", type: "c1-nano-1", label: "web-1", tags: ["web", "prod"], group: "front" });
    const { inputs, diff } = await plan(instP, c.id, c, { region: "us-east", type: "c1-nano-1", label: "web-1" });
    expect(diff.changes).toBe(true);
    const u = await instP.update(c.id, c.outs, inputs);
    expect(await get(`/compute/instances/${c.id}`)).toMatchObject({ tags: [], group: "" });
    // Afterwards nothing is planned: no perpetual diff.
    expect((await plan(instP, c.id, { inputs, outs: u.outs }, { region: "us-east", type: "c1-nano-1", label: "web-1" })).diff.changes).toBe(false);
  });

  test("a VPC's description, a profile's comments, a database's allow list", async () => {
    const v = await make(vpcP, { label: "net", region: "us-east", description: "prod" });
    const pv = await plan(vpcP, v.id, v, { label: "net", region: "us-east" });
    await vpcP.update(v.id, v.outs, pv.inputs);
    expect((await get(`/vpcs/${v.id}`)).description).toBe("");

    const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "host-1" });
    const disk = await make(diskP, { computeId: host.id, label: "root", size: 1000 });
    const cfg = await make(cfgP, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } }, comments: "hi", runLevel: "single" });
    const pc = await plan(cfgP, cfg.id, cfg, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } } });
    await cfgP.update(cfg.id, cfg.outs, pc.inputs);
    expect(await get(`/compute/instances/${host.id}/configs/${cfg.id}`)).toMatchObject({ comments: null, run_level: "default" });

    const db = await make(dbP, { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35", allowList: ["10.0.0.1/32"] });
    const pd = await plan(dbP, db.id, db, { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" });
    await dbP.update(db.id, db.outs, pd.inputs);
    expect((await get(`/databases/mysql/instances/${db.id}`)).allow_list).toEqual([]);
  });
});

describe("a pinned label survives a replacement that makes the new resource first", () => {
  test("an instance: made under a temporary label, renamed once the old one is deleted", async () => {
    const base = { region: "us-east", type: "c1-nano-1", image: "compute/debian12", rootPass: PASS, label: "web-1" };
    const old = await make(instP, base);
    // diff, create, delete: the engine's order for a create-first replacement.
    const { diff } = await plan(instP, old.id, old, { ...base, region: "eu-central" });
    expect(diff).toMatchObject({ replaces: ["region"], deleteBeforeReplace: false });
    const checked = (await instP.check({}, { ...base, region: "eu-central" })).inputs;
    const made = await instP.create(checked);
    const labels = () => get("/compute/instances").then((r) => r.data.map((i: { id: number; label: string }) => [String(i.id), i.label]));
    expect(await labels()).toEqual([
      [old.id, "web-1"],
      [made.id, expect.stringMatching(/^web-1-[0-9a-f]{7}$/)],
    ]);
    expect(made.outs).toMatchObject({ label: "web-1", [REPLACEMENT_LABEL]: expect.stringMatching(/^web-1-/) });
    await instP.delete(old.id, old.outs);
    expect(await labels()).toEqual([[made.id, "web-1"]]);
    // The next preview plans nothing.
    expect((await plan(instP, made.id, { inputs: checked, outs: made.outs }, { ...base, region: "eu-central" })).diff.changes).toBe(false);
  });

  test("when the old one could not be deleted, the next run renames it", async () => {
    const base = { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" };
    const old = await make(dbP, base);
    await plan(dbP, old.id, old, { ...base, region: "eu-central" });
    const checked = (await dbP.check({}, { ...base, region: "eu-central" })).inputs;
    const made = await dbP.create(checked);
    expect((await get(`/databases/mysql/instances/${made.id}`)).label).toMatch(/^app-db-[0-9a-f]{7}$/);
    // The old cluster goes another way (the engine's delete failed, say): the new one still has its temporary label.
    await call(emu, "DELETE", `/databases/mysql/instances/${old.id}`);
    await useEmulator(emu); // a new session (the next run), configured
    const next = await plan(dbP, made.id, { inputs: checked, outs: made.outs }, { ...base, region: "eu-central" });
    expect(next.diff).toMatchObject({ changes: true, replaces: [] });
    await dbP.update(made.id, made.outs, next.inputs);
    expect((await get(`/databases/mysql/instances/${made.id}`)).label).toBe("app-db");
  });

  test("a pinned VPC label (no data) still deletes first", async () => {
    const v = await make(vpcP, { label: "net", region: "us-east" });
    expect((await plan(vpcP, v.id, v, { label: "net", region: "eu-central" })).diff).toMatchObject({ replaces: ["region"], deleteBeforeReplace: true });
    const auto = await make(vpcP, { region: "us-east", __resourceName: "net2" });
    expect((await plan(vpcP, auto.id, auto, { region: "eu-central", __resourceName: "net2" })).diff).toMatchObject({
      replaces: ["region"],
      deleteBeforeReplace: false,
    });
  });
});
