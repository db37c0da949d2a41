/**
 * Lookups through the plain CLI (examples/lookup): a VPC and its subnet made out of band, found by label, and a
 * new instance attached to that subnet; a lookup in its Output form that depends on the new instance; an
 * instance made out of band read with `Instance.get`, whose outputs match the API; an unknown filter field
 * fails naming it.
 */
import type { Emulator } from "../../emulator/server";
import { call, emulator, get, inventory } from "../helpers/emulator";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

const ROOT_PASS = "L00kup-R00t-Pass!";
let emu: Emulator;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  stack = new TestStack("lookup", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, "lookup-example:rootPass": ROOT_PASS },
  });
});
afterAll(async () => {
  stack?.cleanup();
  await emu?.close();
});

test("a new instance on an existing VPC's subnet found by label; Output-form lookups; get of an instance made out of band", async () => {
  // Made out of band: two VPCs (only one has the label looked up), subnets, and an instance.
  const other = await call(emu, "POST", "/vpcs", { body: { label: "other-net", region: "us-east" } });
  const vpc = await call(emu, "POST", "/vpcs", { body: { label: "shared-net", region: "eu-central" } });
  await call(emu, "POST", `/vpcs/${other.body.id}/subnets`, { body: { label: "apps", ipv4: "10.1.0.0/24" } });
  const decoy = await call(emu, "POST", `/vpcs/${vpc.body.id}/subnets`, { body: { label: "db", ipv4: "10.2.1.0/24" } });
  const subnet = await call(emu, "POST", `/vpcs/${vpc.body.id}/subnets`, { body: { label: "apps", ipv4: "10.2.0.0/24" } });
  const legacy = await call(emu, "POST", "/compute/instances", { body: { label: "legacy-web", region: "eu-central", type: "c1-standard-2" } });
  expect([other.status, vpc.status, decoy.status, subnet.status, legacy.status]).toEqual([200, 200, 200, 200, 200]);

  const up = await stack.ok("up", { config: { "lookup-example:existingInstanceId": String(legacy.body.id) } });
  expect(up.summary).toEqual({ create: 2 }); // the stack and the app: the VPC, subnet and legacy instance are only read
  const existing = (await stack.ok("export")).deployment.resources.find((r: any) => r.urn.endsWith("::existing"));
  expect(existing).toMatchObject({ id: String(legacy.body.id), external: true });
  expect(up.outputs).toMatchObject({ vpcId: String(vpc.body.id), subnetId: String(subnet.body.id) });

  // The new instance is in eu-central (the VPC's region) with a vpc interface in the subnet found by label.
  const inv = await inventory(emu);
  const app = inv.instances.find((i) => i.label !== "legacy-web")!;
  expect(app.region).toBe("eu-central");
  const ips = await get(emu, `/vpcs/${vpc.body.id}/ips`);
  expect(ips.data.map((x: any) => [x.compute_id, x.subnet_id])).toEqual([[app.id, subnet.body.id]]);
  expect(up.outputs.appVpcIp).toBe(ips.data[0].address);

  // The Output-form lookup on the new instance's disks: what the API lists, filtered and ordered.
  const disks = (await get(emu, `/compute/instances/${app.id}/disks`)).data;
  expect(up.outputs.appDisks).toEqual(disks.filter((d: any) => d.filesystem === "ext4").map((d: any) => d.label));
  expect(up.outputs.appDisks.length).toBeGreaterThan(0);
  expect(up.outputs.instancesInRegion).toContain("legacy-web"); // the app too, if its create came first: nothing orders them

  // Instance.get: the outputs are the API's, and the stack records it as read, not managed.
  const api = await get(emu, `/compute/instances/${legacy.body.id}`);
  expect(up.outputs).toMatchObject({ existingLabel: api.label, existingStatus: api.status, existingIpv4: api.ipv4 });

  // An unknown filter field fails at preview, naming it and the fields there are (the --json preview escapes quotes).
  const bad = await stack.run("preview", { config: { "lookup-example:instanceFilter": "colour" } });
  expect(bad.code).not.toBe(0);
  expect(bad.output).toMatch(/getInstances: filters\[0\]\.name: unknown field \\*"colour\\*"; the fields of its items are id, region, type, label/);

  const destroy = await stack.ok("destroy", { config: { "lookup-example:instanceFilter": undefined } });
  expect(destroy.summary).toMatchObject({ delete: 2 });
  const after = await inventory(emu);
  // Only what the stack made is gone: the VPCs, subnets and the instance read with get stay.
  expect(after.instances.map((i) => i.id)).toEqual([legacy.body.id]);
  expect(after.vpcs).toHaveLength(2);
  expect(after.subnets).toHaveLength(3);
});
