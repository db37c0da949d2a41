import { configProvider as cfgP } from "../../provider/resources/config";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { interfaceProvider as ifP } from "../../provider/resources/interface";
import { call, get } from "../helpers/emulator";
import { change, instanceReads, make, useProviderSuite } from "../helpers/provider-suite";
import { waitUntil } from "../helpers/wait";

const emu = useProviderSuite();

const PASS = "Str0ng-Passw0rd!";
/** Read through the API: an instance's status, disks and profiles. */
const { statusIs, disksOf, configsOf } = instanceReads(emu);
const deployed = async (label = "host-2") =>
  make(instP, { region: "us-east", type: "c1-standard-4", image: "compute/debian12", rootPass: PASS, label, swapSize: 512 });

describe("Interface", () => {
  test("add a vlan interface; vlan changes replace; a public interface's primary changes in place", async () => {
    const inst = await deployed();
    const configId = (await configsOf(inst.id))[0].id;
    const vlan = await make(ifP, { computeId: inst.id, configId: String(configId), purpose: "vlan", label: "backend", ipamAddress: "10.0.0.5/24" });
    expect(vlan.outs).toMatchObject({ purpose: "vlan", label: "backend", ipamAddress: "10.0.0.5/24", active: false });
    expect(
      (await change(ifP, vlan.id, vlan.outs, { computeId: inst.id, configId, purpose: "vlan", label: "backend", ipamAddress: "10.0.0.5/24", primary: true }))
        .diff.replaces,
    ).toEqual(["primary"]);
    const pub = await make(ifP, { computeId: inst.id, configId, purpose: "public" });
    const u = await change(ifP, pub.id, pub.outs, { computeId: inst.id, configId, purpose: "public", primary: true });
    expect(u.diff).toMatchObject({ changes: true, replaces: [] });
    expect((await u.update()).outs.primary).toBe(true);
  });

  test("check: per-purpose fields", async () => {
    const r = await ifP.check({}, { computeId: 1, configId: 2, purpose: "public", label: "x", subnetId: 4 });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["label", "subnetId"]);
    expect((await ifP.check({}, { computeId: 1, configId: 2, purpose: "vlan" })).failures[0].reason).toMatch(/needs a label/);
  });

  test("an active interface is deleted inside a shutdown and boot of its instance", async () => {
    const inst = await make(instP, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "host-9" });
    const [cfg] = await configsOf(inst.id);
    const pub = await make(ifP, { computeId: inst.id, configId: cfg.id, purpose: "public" });
    await call(emu, "POST", `/compute/instances/${inst.id}/reboot`, { body: {} });
    const active = async () => (await get(emu, `/compute/instances/${inst.id}/configs/${cfg.id}/interfaces/${pub.id}`)).active === true;
    await waitUntil(active, { what: `interface ${pub.id} active after the reboot` });
    await ifP.delete(pub.id, pub.outs);
    expect(await get(emu, `/compute/instances/${inst.id}/configs/${cfg.id}/interfaces`)).toEqual([]);
    await statusIs(inst.id, "running");
  });

  test("a profile's interfaces are managed as a list or one by one, never both", async () => {
    const inst = await deployed();
    const [disk] = await disksOf(inst.id);
    const listed = await make(cfgP, { computeId: inst.id, label: "listed", devices: { sda: { diskId: disk.id } }, interfaces: [{ purpose: "public" }] });
    const r = await ifP.check({}, { computeId: inst.id, configId: listed.id, purpose: "vlan", label: "x" });
    const err = await ifP.create(r.inputs).catch((e) => e);
    expect(err.message).toMatch(/managed as a list by Config \d+: declare this interface there/);
    // And the other way round: a profile with Interface resources cannot take a list.
    const single = await make(cfgP, { computeId: inst.id, label: "single", devices: { sda: { diskId: disk.id } } });
    await make(ifP, { computeId: inst.id, configId: single.id, purpose: "public" });
    await expect(cfgP.diff(single.id, single.outs, { ...single.inputs, interfaces: [{ purpose: "public" }] })).rejects.toThrow(
      /managed one by one \(Interface/,
    );
    // An instance's own interfaces list claims its boot profile too.
    const withList = await make(instP, {
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      rootPass: PASS,
      label: "host-7",
      interfaces: [{ purpose: "public" }],
    });
    const e2 = await ifP.create({ computeId: withList.id, configId: withList.outs.bootConfigId, purpose: "vlan", label: "y" }).catch((e) => e);
    expect(e2.message).toMatch(/managed as a list by Instance/);
  });
});
