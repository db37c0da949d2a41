/**
 * Against the emulator: an Instance made with `cloneFrom` (the source's tags, offline until `booted`, clone
 * rule 4 at preview, a lost answer adopted).
 */
import { instanceProvider as inst } from "../../provider/resources/instance";
import { get, list } from "../helpers/emulator";
import { expectFaultFired } from "../helpers/faults";
import { checked as checkedAs, useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const checked = (p: typeof inst, news: Record<string, unknown>, olds: Record<string, unknown> = {}) => checkedAs(p, news, olds, "x");
const source = async (extra: Record<string, unknown> = {}) =>
  inst.create(
    await checked(inst, {
      label: "prod",
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      rootPass: "Str0ng-Passw0rd!",
      tags: ["app", "prod"],
      ...extra,
    }),
  );

describe("cloneFrom", () => {
  test("a clone carries the source's tags, boots when asked, and plans no change afterwards", async () => {
    const src = await source();
    const ins = await checked(inst, { label: "staging", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, booted: true });
    const c = await inst.create(ins);
    expect(c.outs).toMatchObject({ label: "staging", tags: ["app", "prod"], status: "running", booted: true });
    expect(emu.log.some((l) => l.method === "POST" && l.path === `/v4/compute/instances/${src.id}/clone`)).toBe(true);
    expect(await list(emu, `/compute/instances/${c.id}/disks`)).toHaveLength(2);
    // The API shows the source's image on the clone: not an input the program gave, so not a change.
    expect((await get(emu, `/compute/instances/${c.id}`)).image).toBe("compute/debian12");
    const r = await inst.read(c.id, c.outs);
    const again = await checked(inst, { label: "staging", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, booted: true }, ins);
    expect(await inst.diff(c.id, r.props!, again)).toMatchObject({ changes: false });
    // A new source makes a new clone.
    expect((await inst.diff(c.id, r.props!, { ...again, cloneFrom: { computeId: Number(src.id) + 1 } })).replaces).toEqual(["cloneFrom"]);
  });

  test("left offline without booted; tags given replace the source's", async () => {
    const src = await source();
    const c = await inst.create(
      await checked(inst, { label: "copy-1", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, tags: ["staging"] }),
    );
    expect(c.outs).toMatchObject({ status: "offline", tags: ["staging"] });
  });

  test("at preview: inputs a clone cannot take, and a source with user data without metadata, name their field", async () => {
    const src = await source({ metadata: { userData: Buffer.from("#cloud-config\n").toString("base64") } });
    const r = await inst.check({}, { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, image: "compute/debian12", swapSize: 256 });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["image", "swapSize"]);
    const ud = await inst.check({}, { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id } });
    expect(ud.failures).toEqual([
      { property: "metadata", reason: expect.stringMatching(/instance \d+ was made with user data: its clone needs metadata.userData/) },
    ]);
    const gone = await inst.check({}, { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: 9999 } });
    expect(gone.failures).toEqual([{ property: "cloneFrom", reason: "cloneFrom.computeId: instance 9999 not found" }]);
  });

  test("a lost clone answer adopts the clone by its label, never makes two", async () => {
    const src = await source();
    emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/compute/instances/\\d+/clone$", rate: 1, kinds: ["lost"], limit: 1 }] });
    const c = await inst.create(await checked(inst, { label: "lost-clone", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id } }));
    expect((await list(emu, "/compute/instances")).filter((i) => i.label === "lost-clone").map((i) => String(i.id))).toEqual([c.id]);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${src.id}/clone`, "lost", 1);
    expect(emu.log.filter((l) => l.method === "POST" && l.path === `/v4/compute/instances/${src.id}/clone`)).toHaveLength(1);
  });
});
