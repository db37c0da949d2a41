/**
 * Issue 3's example through the real Pulumi CLI: examples/compute against the emulator: up, a resize,
 * a refresh after a change made by hand, and destroy with the emulator empty at the end.
 */
import type { Emulator } from "../../emulator/server";
import { call, emulator, get, list } from "../helpers/emulator";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

const ROOT_PASS = "Ex4mple-R00t-Pass!";
let emu: Emulator;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  stack = new TestStack("compute", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, "compute-example:rootPass": ROOT_PASS },
  });
});
afterAll(async () => {
  stack?.cleanup();
  await emu?.close();
});

test("up, resize, refresh after an out-of-band change, destroy", async () => {
  const up = await stack.ok("up");
  expect(up.summary).toEqual({ create: 8 });
  const instances = await list(emu, "/compute/instances");
  expect(instances).toHaveLength(1);
  const inst = instances[0];
  expect(inst).toMatchObject({ label: "web-1", status: "running", type: "c1-standard-2" });
  const I = `/compute/instances/${inst.id}`;
  const disks = await list(emu, `${I}/disks`);
  expect(disks.map((x) => [x.label, x.size, x.filesystem]).sort()).toEqual([
    ["data", 10240, "ext4"],
    ["root", 8192, "ext4"],
    ["swap", 512, "swap"],
  ]);
  const configs = await list(emu, `${I}/configs`);
  const main = configs.find((c) => c.label === "main")!;
  const maint = configs.find((c) => c.label === "maintenance")!;
  // The instance runs with "main": its interfaces are the active ones, the maintenance profile's are not.
  expect(main.interfaces.map((i: any) => i.active)).toEqual([true, true]);
  expect(maint.interfaces.map((i: any) => i.active)).toEqual([false]);
  expect(main.interfaces.map((i: any) => i.purpose)).toEqual(["public", "vlan"]);
  expect(maint.interfaces).toEqual([expect.objectContaining({ purpose: "vlan", label: "backend", ipam_address: "10.0.0.2/24" })]);
  expect(up.outputs).toMatchObject({ instanceId: String(inst.id), instanceType: "c1-standard-2", bootProfile: String(main.id) });

  // Nothing changed: nothing to do (no perpetual diff from server-filled defaults).
  expect((await stack.ok("up")).summary).toEqual({ same: 8 });

  // A resize: in place, same id, the instance running again after it.
  const resized = (await stack.upAsPlanned({ config: { type: "c1-standard-4" } })).up.json;
  expect(resized.summary).toMatchObject({ update: 1, same: 7 });
  expect(await list(emu, "/compute/instances")).toEqual([expect.objectContaining({ id: inst.id, type: "c1-standard-4", status: "running" })]);

  // A label changed by hand: refresh records it; the next up puts the declared label back.
  await call(emu, "PUT", `/compute/instances/${inst.id}`, { body: { label: "renamed-by-hand" } });
  const refresh = await stack.run("refresh", { config: { type: "c1-standard-4" } });
  expect(refresh.code).toBe(0);
  expect(refresh.output).toMatch(/Instance web updated .*\[diff: ~label\]/);
  const [instState] = resourcesOf(await stack.ok("export"), ":Instance");
  expect(instState.outputs.label).toBe("renamed-by-hand");
  const back = (await stack.upAsPlanned({ config: { type: "c1-standard-4" } })).up.json;
  expect(back.summary).toMatchObject({ update: 1 });
  expect((await get(emu, I)).label).toBe("web-1");

  // The root password is a secret: encrypted in the state, never printed.
  const exported = JSON.stringify(await stack.ok("export"));
  expect(exported).not.toContain(ROOT_PASS);
  expect(stack.transcript.join("\n")).not.toContain(ROOT_PASS);
  for (const r of resourcesOf(JSON.parse(exported), "")) if (r.inputs?.__provider) expect(r.inputs.__provider.length).toBeLessThan(400);

  // An update the API refuses (a label another instance holds) fails with the API's reason and loses
  // nothing: the state keeps the instance's outputs, and the change is planned again.
  const other = await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", label: "taken-label" } });
  const refused = await stack.run("up", { config: { type: "c1-standard-4", label: "taken-label" } });
  expect(refused.code).not.toBe(0);
  expect(refused.output).toMatch(/cannot update instance \d+: the API answered HTTP 400: label: Label must be unique/);
  expect(refused.output).not.toMatch(/resource init failed/);
  const [kept] = resourcesOf(await stack.ok("export"), ":Instance");
  expect(kept.outputs).toMatchObject({ label: "web-1", type: "c1-standard-4", status: "running", ipv4: expect.any(Array) });
  const again = await stack.run("preview", { config: { type: "c1-standard-4", label: "taken-label" } });
  expect(again.json.changeSummary).toMatchObject({ update: 1 });
  await call(emu, "DELETE", `/compute/instances/${other.body.id}`);
  expect((await stack.run("preview", { config: { type: "c1-standard-4", label: undefined } })).json.changeSummary).toEqual({ same: 8 });

  // destroy: the booted profile shuts the instance down first, then everything goes.
  const destroy = await stack.ok("destroy", { config: { type: "c1-standard-4" } });
  expect(destroy.summary).toEqual({ delete: 8 });
  // The instance is gone, and with it the lists of its disks and profiles.
  const status = async (p: string) => (await call(emu, "GET", p)).status;
  const gone = { instances: await list(emu, "/compute/instances"), disks: await status(`${I}/disks`), configs: await status(`${I}/configs`) };
  expect(gone).toEqual({ instances: [], disks: 404, configs: 404 });
});
