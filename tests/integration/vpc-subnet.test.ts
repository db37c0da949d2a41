/**
 * Vpc and Subnet against the emulator: a subnet is made in its VPC, so their tests share a file.
 */
import { instanceProvider as instP } from "../../provider/resources/instance";
import { interfaceProvider as ifP } from "../../provider/resources/interface";
import { subnetProvider as subP } from "../../provider/resources/subnet";
import { vpcProvider as vpcP } from "../../provider/resources/vpc";
import { call, list } from "../helpers/emulator";
import { make, useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const PASS = "Str0ng-Passw0rd!";

describe("Vpc and Subnet", () => {
  test("create, label and description in place, region and ipv4 replace", async () => {
    const v = await make(vpcP, { label: "prod", region: "us-east" });
    expect(v.outs).toMatchObject({ label: "prod", region: "us-east", description: "" });
    const d1 = await vpcP.diff(v.id, v.outs, (await vpcP.check({}, { label: "prod-2", region: "us-east", description: "x" })).inputs);
    expect(d1).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false, changed: ["label", "description"] });
    const u = await vpcP.update(v.id, v.outs, { label: "prod-2", region: "us-east", description: "x" });
    expect(u.outs).toMatchObject({ label: "prod-2", description: "x" });
    // A new region with the same label: the old VPC must go first (labels are unique).
    expect(await vpcP.diff(v.id, u.outs, { label: "prod-2", region: "eu-central" })).toMatchObject({
      changes: true,
      replaces: ["region"],
      deleteBeforeReplace: true,
    });

    const s = await make(subP, { vpcId: v.id, label: "web", ipv4: "10.0.1.0/24" });
    expect(s.outs).toMatchObject({ vpcId: Number(v.id), label: "web", ipv4: "10.0.1.0/24", computes: [] });
    expect((await subP.diff(s.id, s.outs, (await subP.check({}, { vpcId: v.id, label: "web", ipv4: "10.0.2.0/24" })).inputs)).replaces).toEqual(["ipv4"]);
    expect((await subP.update(s.id, s.outs, { vpcId: v.id, label: "web-2", ipv4: "10.0.1.0/24" })).outs.label).toBe("web-2");
  });

  test("preview-time validation names the field and the rule", async () => {
    const bad = await subP.check({}, { vpcId: "1", label: "a--b", ipv4: "10.0.1.7/24" });
    expect(bad.failures).toEqual([
      { property: "label", reason: "label: must not have two hyphens in a row" },
      { property: "ipv4", reason: "ipv4: must be in canonical form: 10.0.1.0/24" },
    ]);
    expect((await vpcP.check({}, { label: "x".repeat(65), region: "us-east", description: "y".repeat(256) })).failures.map((f) => f.property)).toEqual([
      "label",
      "description",
    ]);
  });

  test("overlap with a sibling subnet declared in the same program is refused at check", async () => {
    expect((await subP.check({}, { vpcId: "7", label: "a", ipv4: "10.0.0.0/16" })).failures).toEqual([]);
    const r = await subP.check({}, { vpcId: "7", label: "b", ipv4: "10.0.4.0/24" });
    expect(r.failures).toEqual([{ property: "ipv4", reason: "ipv4: 10.0.4.0/24 overlaps 10.0.0.0/16 of subnet a of the same VPC" }]);
    // Checking the same subnet again is not an overlap with itself; another VPC is independent.
    expect((await subP.check({}, { vpcId: "7", label: "a", ipv4: "10.0.0.0/16" })).failures).toEqual([]);
    expect((await subP.check({}, { vpcId: "8", label: "b", ipv4: "10.0.4.0/24" })).failures).toEqual([]);
  });

  test("an instance joins through an Interface; its VPC address is an output; a subnet in use says who holds it", async () => {
    const v = await make(vpcP, { label: "net", region: "us-east" });
    const s = await make(subP, { vpcId: v.id, label: "web", ipv4: "10.0.1.0/24" });
    const inst = await make(instP, {
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      rootPass: PASS,
      label: "web-1",
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: s.id }],
    });
    expect(inst.outs.vpcIpv4).toBe("10.0.1.2");
    const inst2 = await make(instP, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "web-2" });
    const [cfg] = await list(emu, `/compute/instances/${inst2.id}/configs`);
    const i = await make(ifP, { computeId: inst2.id, configId: cfg.id, purpose: "vpc", subnetId: s.id });
    expect(i.outs).toMatchObject({ vpcId: Number(v.id), ipv4: { vpc: "10.0.1.3" }, active: false });
    const read = await subP.read(s.id, s.outs);
    expect((read.props!.computes as unknown[]).length).toBe(2);
    const err = await subP.delete(s.id, s.outs).catch((e) => e);
    expect(err.message).toMatch(
      new RegExp(
        `cannot delete subnet ${s.id} \\(web\\): it is still used by instance ${inst.id} \\(interfaces \\d+ active\\); instance ${inst2.id} \\(interfaces \\d+\\)\\. Remove those interfaces first`,
      ),
    );
    await ifP.delete(i.id, i.outs);
    await instP.delete(inst.id, inst.outs);
    await subP.delete(s.id, s.outs);
    expect(await list(emu, `/vpcs/${v.id}/subnets`)).toEqual([]);
    await vpcP.delete(v.id, v.outs);
    expect(await list(emu, "/vpcs")).toEqual([]);
    expect((await call(emu, "GET", `/vpcs/${v.id}/subnets/${s.id}`)).status).toBe(404);
  });
});
