/**
 * A destroy always completes: every delete the spec makes conditional is met or waited for. An active
 * interface (rule 4) is deleted inside a shutdown and boot of its instance; a profile or a disk the running
 * instance booted with is deleted once it is shut down; an instance whose clone is under way, and a subnet
 * or VPC whose users are instances being deleted, are deleted once that is over. What cannot pass (a
 * subnet used by an instance that stays) fails at once, naming who holds it.
 */
import { configProvider as cfgP } from "../../provider/resources/config";
import { diskProvider as diskP } from "../../provider/resources/disk";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { interfaceProvider as ifP } from "../../provider/resources/interface";
import { subnetProvider as subnetP } from "../../provider/resources/subnet";
import { vpcProvider as vpcP } from "../../provider/resources/vpc";
import { call, get, list } from "../helpers/emulator";
import { make, useProviderSuite } from "../helpers/provider-suite";
import { waitUntil } from "../helpers/wait";

jest.setTimeout(60_000);
const emu = useProviderSuite();

const PASS = "Str0ng-Passw0rd!";
const status = async (id: string) => (await get(emu, `/compute/instances/${id}`)).status;
/** The power actions the emulator was asked for since `from` (its request log). */
const powerActions = async (from: number) =>
  ((await get(emu, "/__emulator/log")) as Array<{ method: string; path: string }>)
    .slice(from)
    .filter((e) => e.method === "POST" && /\/(boot|shutdown|reboot)$/.test(e.path))
    .map((e) => e.path.split("/").pop());
const logLength = async () => ((await get(emu, "/__emulator/log")) as unknown[]).length;

/** An instance built from a disk and a profile, running with it, with a VPC interface added and made active. */
async function runningWithInterface() {
  const vpc = await make(vpcP, { region: "us-east", label: "del-net" });
  const subnet = await make(subnetP, { vpcId: vpc.id, ipv4: "10.40.0.0/24", label: "del-sub" });
  const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "del-host" });
  const disk = await make(diskP, { computeId: host.id, label: "root", size: 4096, image: "compute/debian12", rootPass: PASS });
  const profile = await make(cfgP, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id } }, booted: true });
  const iface = await make(ifP, { computeId: host.id, configId: profile.id, purpose: "vpc", subnetId: subnet.id });
  // Rule 2: it becomes active when the instance reboots with the profile.
  await call(emu, "POST", `/compute/instances/${host.id}/reboot`, { body: { config_id: Number(profile.id) } });
  await waitUntil(async () => (await get(emu, `/compute/instances/${host.id}/configs/${profile.id}/interfaces/${iface.id}`)).active === true);
  return { vpc, subnet, host, disk, profile, iface };
}

test("an active interface is deleted inside a shutdown and boot of its instance, which runs again after", async () => {
  const { host, profile, iface } = await runningWithInterface();
  const from = await logLength();
  await ifP.delete(iface.id, iface.outs);
  expect(await get(emu, `/compute/instances/${host.id}/configs/${profile.id}/interfaces`)).toEqual([]); // a plain array
  expect(await powerActions(from)).toEqual(["shutdown", "boot"]);
  expect(await status(host.id)).toBe("running");
  // Not active: no power cycle.
  const other = await make(ifP, { computeId: host.id, configId: profile.id, purpose: "public" });
  const again = await logLength();
  await ifP.delete(other.id, other.outs);
  expect(await powerActions(again)).toEqual([]);
});

test("a profile the instance was booted with by hand, and a disk in it, are deleted: the instance is shut down for them", async () => {
  const host = await make(instP, { region: "us-east", type: "c1-standard-2", label: "del-2" });
  const disk = await make(diskP, { computeId: host.id, label: "root", size: 4096, image: "compute/debian12", rootPass: PASS });
  const data = await make(diskP, { computeId: host.id, label: "data", size: 1024 });
  // No `booted` on the profile: it is booted by hand.
  const profile = await make(cfgP, { computeId: host.id, label: "boot", devices: { sda: { diskId: disk.id }, sdb: { diskId: data.id } } });
  await call(emu, "POST", `/compute/instances/${host.id}/boot`, { body: { config_id: Number(profile.id) } });
  await waitUntil(async () => (await status(host.id)) === "running");
  // The disk first: the instance is shut down for its delete and booted again.
  let from = await logLength();
  await diskP.delete(data.id, data.outs);
  expect(await powerActions(from)).toEqual(["shutdown", "boot"]);
  expect((await list(emu, `/compute/instances/${host.id}/disks`)).map((d) => String(d.id))).toEqual([disk.id]);
  expect(await status(host.id)).toBe("running");
  // Then the profile: shut down, and left so (there is no profile to boot back into).
  from = await logLength();
  await cfgP.delete(profile.id, profile.outs);
  expect(await powerActions(from)).toEqual(["shutdown"]);
  expect(await list(emu, `/compute/instances/${host.id}/configs`)).toEqual([]);
  expect(await status(host.id)).toBe("offline");
});

test("an instance whose clone is under way is deleted once the clone is done", async () => {
  emu.timing.speed = 0.05 * (8 / 110); // the clone lasts 400 ms: 0.05 when a clone took 8 s at speed 1, 110 s now
  const src = await make(instP, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "del-src" });
  const clone = await call(emu, "POST", `/compute/instances/${src.id}/clone`, { body: { region: "us-east", type: "c1-standard-2", label: "del-clone" } });
  expect(clone.status).toBe(200);
  await instP.delete(src.id, src.outs);
  expect((await list(emu, "/compute/instances")).map((i) => i.label)).toEqual(["del-clone"]);
  expect((await get(emu, `/compute/instances/${clone.body.id}`)).status).not.toBe("cloning");
});

test("a subnet and a VPC whose users are instances being deleted are deleted once those are gone; one in use fails naming who holds it", async () => {
  const { vpc, subnet, host } = await runningWithInterface();
  // The instance's delete lasts 400 ms (2 s at speed 1, as before); its making, at the tests' speed.
  emu.timing.speed = 0.2;
  // Held by an instance that stays: refused at once, naming the instance and its active interface.
  await expect(subnetP.delete(subnet.id, subnet.outs)).rejects.toThrow(/still used by instance \d+ \(interfaces \d+ active\)/);
  await expect(vpcP.delete(vpc.id, vpc.outs)).rejects.toThrow(/its subnets are still used by instance \d+ in subnet del-sub/);
  // The instance is being deleted (it takes a while): the subnet's delete waits for it, then the VPC's.
  await call(emu, "DELETE", `/compute/instances/${host.id}`);
  expect(await status(host.id)).toBe("deleting");
  await subnetP.delete(subnet.id, subnet.outs);
  await vpcP.delete(vpc.id, vpc.outs);
  expect(await list(emu, "/vpcs")).toEqual([]);
});
