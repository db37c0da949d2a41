/**
 * What a new user trying the emulator's API found (issue 53, fresh eyes), each a regression test: an instance's
 * link-local IPv6 address was the gateway's (fe80::1) for the first instance; a boot queued behind a shutdown went
 * from offline to running, never seen booting; at speed 0, an instance's create answered `running` and a disk's
 * `ready`, where a database's and an image's answered their first status (the real API answers each create so);
 * an image upload's event was finished at once, before its data came.
 */
import { gzipSync } from "node:zlib";
import { BASE_MS } from "../../emulator/timing";
import { I, PASS, useComputeEmulator } from "../helpers/compute-calls";
import { call, emulator, events } from "../helpers/emulator";

const { emu, tick, deployed, get } = useComputeEmulator();

test("an instance's link-local IPv6 address is its own (fe80:: and its MAC's EUI-64), never the gateway's", async () => {
  const first = await deployed({ label: "first" });
  const second = await deployed({ label: "second" });
  expect(first.id).toBe(1);
  const [a, b] = [(await get(`${I(first.id)}/ips`)).ipv6, (await get(`${I(second.id)}/ips`)).ipv6];
  expect(a.link_local.address).toBe("fe80::f03c:ff:fe00:1");
  expect(a.link_local.address).not.toBe(a.link_local.gateway);
  expect(b.link_local.address).not.toBe(a.link_local.address);
  for (const { link_local } of [a, b]) expect(link_local.address).toMatch(/^fe80::f03c:[0-9a-f]{0,2}ff:fe[0-9a-f]{2}:[0-9a-f]{1,4}$/);
});

test("a boot queued behind a shutdown is seen booting for a boot's time once the shutdown ends, then running", async () => {
  const inst = await deployed();
  expect((await call(emu(), "POST", `${I(inst.id)}/shutdown`)).status).toBe(200);
  expect((await call(emu(), "POST", `${I(inst.id)}/boot`)).status).toBe(200);
  expect((await get(I(inst.id))).status).toBe("shutting_down");
  tick(BASE_MS.shutting_down);
  expect((await get(I(inst.id))).status).toBe("booting");
  tick(BASE_MS.booting - 1);
  expect((await get(I(inst.id))).status).toBe("booting");
  tick(1);
  expect((await get(I(inst.id))).status).toBe("running");
});

test("at speed 0, every create answers its first status, as the real API's does, and the next read the final one", async () => {
  const e = await emulator({ speed: 0 });
  try {
    const made = async (path: string, body: object) => {
      const r = await call(e, "POST", path, { body });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const read = async (path: string) => (await call(e, "GET", path)).body.status;
    const inst = await made("/compute/instances", { label: "web-1", region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS });
    expect([inst.status, await read(I(inst.id))]).toEqual(["provisioning", "running"]);
    const empty = await made("/compute/instances", { label: "empty-1", region: "us-east", type: "c1-standard-2" });
    const disk = await made(`${I(empty.id)}/disks`, { label: "data", size: 1024 });
    expect([disk.status, await read(`${I(empty.id)}/disks/${disk.id}`)]).toEqual(["not ready", "ready"]);
    const image = await made("/images", { disk_id: disk.id, label: "captured" });
    expect([image.status, await read(`/images/${image.id}`)]).toEqual(["creating", "available"]);
    const db = await made("/databases/mysql/instances", { label: "db-1", region: "us-east", type: "g6-nanode-1", engine: "mysql/8" });
    expect([db.status, await read(`/databases/mysql/instances/${db.id}`)]).toEqual(["provisioning", "active"]);
  } finally {
    await e.close();
  }
});

test("an image upload's event is started until its data arrives, then finished; failed when its window closes first, or its image is deleted", async () => {
  let clock = Date.parse("2026-03-10T12:00:00Z");
  const e = await emulator({ now: () => clock, speed: 1, images: { uploadWindowMs: 60_000 } });
  try {
    const upload = async (label: string) => (await call(e, "POST", "/images/upload", { body: { label, region: "us-east" } })).body;
    const eventOf = async (imageId: string) => (await events(e, "image_upload")).find((x) => x.entity.id === imageId);
    const sent = await upload("sent");
    expect((await eventOf(sent.image.id)).status).toBe("started");
    clock += 10_000;
    expect((await eventOf(sent.image.id)).status).toBe("started");
    const data = { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: gzipSync(Buffer.alloc(1024)) };
    expect((await fetch(sent.upload_to, data)).status).toBe(200);
    expect(await eventOf(sent.image.id)).toMatchObject({ status: "finished", percent_complete: 100, duration: 10 });
    const never = await upload("never");
    clock += 60_000;
    expect((await call(e, "GET", `/images/${never.image.id}`)).status).toBe(404);
    expect(await eventOf(never.image.id)).toMatchObject({ status: "failed", duration: 60, time_remaining: null });
    const dropped = await upload("dropped");
    clock += 5_000;
    expect((await call(e, "DELETE", `/images/${dropped.image.id}`)).status).toBe(200);
    expect(await eventOf(dropped.image.id)).toMatchObject({ status: "failed", duration: 5 });
  } finally {
    await e.close();
  }
});
