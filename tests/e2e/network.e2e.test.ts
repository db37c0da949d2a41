/**
 * Issue 4's example through the real Pulumi CLI: a VPC with two subnets, two instances in it, a
 * private image captured from a disk and one uploaded from a generated file; refresh, changes in
 * place, destroy with nothing left.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { call, emulator, inventory } from "../helpers/emulator";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

const ROOT_PASS = "N3twork-R00t-Pass!";
let emu: Emulator;
let stack: TestStack;
let dir: string;

beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(path.join(tmpdir(), "net-e2e-"));
  writeFileSync(path.join(dir, "disk.img"), Buffer.alloc(300_000, 1));
  stack = new TestStack("network", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, "network-example:imageFile": path.join(dir, "disk.img") },
    secrets: { "compute:token": emu.token, "network-example:rootPass": ROOT_PASS },
  });
});
afterAll(async () => {
  stack?.cleanup();
  rmSync(dir, { recursive: true, force: true });
  await emu?.close();
});

test("up, refresh after a change by hand, changes in place, destroy with nothing left", async () => {
  const up = await stack.ok("up");
  expect(up.summary).toEqual({ create: 10 });
  let d = await inventory(emu);
  expect(d.vpcs.map((v) => v.label)).toEqual(["example-net"]);
  expect(d.subnets.map((s) => [s.label, s.ipv4]).sort()).toEqual([
    ["db", "10.0.2.0/24"],
    ["web", "10.0.1.0/24"],
  ]);
  expect(d.instances.map((i) => [i.label, i.status]).sort()).toEqual([
    ["net-db-1", "running"],
    ["net-web-1", "running"],
  ]);
  expect(d.images.map((i) => [i.label, i.status]).sort()).toEqual([
    ["golden", "available"],
    ["uploaded", "available"],
  ]);
  expect(up.outputs.webVpcIp).toBe("10.0.1.2");
  const ips = await call(emu, "GET", `/vpcs/${up.outputs.vpcId}/ips`);
  expect(ips.body.data.map((x: any) => x.address).sort()).toEqual(["10.0.1.2", "10.0.2.2"]);
  expect((await stack.ok("up")).summary).toEqual({ same: 10 });

  // An image relabelled by hand: refresh records it.
  const golden = d.images.find((i) => i.label === "golden")!;
  await call(emu, "PUT", `/images/${golden.id}`, { body: { label: "golden-by-hand" } });
  const refresh = await stack.run("refresh");
  expect(refresh.code).toBe(0);
  expect(refresh.output).toMatch(/Image golden updated .*\[diff: ~label\]/);

  // Changes in place: the VPC's description, a subnet's label, the image's description (same ids).
  const ids = { vpc: d.vpcs[0].id, subnets: d.subnets.map((s) => s.id).sort(), image: golden.id };
  const changed = (await stack.upAsPlanned({ config: { vpcDescription: "changed", webSubnetLabel: "frontend", imageDescription: "v2" } })).up.json;
  expect(changed.summary).toMatchObject({ update: 3 });
  d = await inventory(emu);
  expect(d.vpcs[0]).toMatchObject({ id: ids.vpc, description: "changed" });
  expect(d.subnets.map((s) => s.id).sort()).toEqual(ids.subnets);
  expect(d.subnets.find((s) => s.label === "frontend")).toBeDefined();
  expect(d.images.find((i) => i.id === ids.image)).toMatchObject({ label: "golden", description: "v2" });

  // The root password stays a secret.
  const exported = JSON.stringify(await stack.ok("export"));
  expect(exported).not.toContain(ROOT_PASS);
  expect(resourcesOf(JSON.parse(exported), ":Image").map((r: any) => r.outputs.status)).toEqual(["available", "available"]);

  const destroy = await stack.ok("destroy", { config: { vpcDescription: "changed", webSubnetLabel: "frontend", imageDescription: "v2" } });
  expect(destroy.summary).toEqual({ delete: 10 });
  const children = [`/vpcs/${ids.vpc}/subnets`, ...d.instances.flatMap((i) => [`/compute/instances/${i.id}/disks`, `/compute/instances/${i.id}/configs`])];
  d = await inventory(emu);
  expect({ vpcs: d.vpcs, subnets: d.subnets, instances: d.instances, disks: d.disks, configs: d.configs, images: d.images }).toEqual({
    vpcs: [],
    subnets: [],
    instances: [],
    disks: [],
    configs: [],
    images: [],
  });
  // The subnets, disks and profiles went with their VPC and instances: their lists are not found.
  const statuses = await Promise.all(children.map(async (p) => [p, (await call(emu, "GET", p)).status]));
  expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(children.map((p) => [p, 404])));
});
