/**
 * Issue 10 at the level of the tables: auto-naming within every label rule, check keeping names, removed
 * inputs that clear, which replacements delete first, and the one timeouts facility.
 */
import { AUTONAMED, DECLARED } from "../../provider/model/marks";
import fc from "fast-check";
import { autoName } from "../../provider/model/naming";
import { specs } from "../../provider";
import { checkInputs, deletesFirst, diffInputs } from "../../provider/model/check";
import { updateBody } from "../../provider/model/mapping";
import type { ResourceSpec } from "../../provider/model/table";
import { DURATION_FORM, parseDuration, timeoutOf } from "../../provider/model/timeouts";

const spec = (type: string): ResourceSpec => specs.find((s) => s.type === type)!;
const named = specs.filter((s) => s.autoName);

describe("auto-naming", () => {
  test("every resource with a label is auto-named, Interface (whose label is a VLAN name) excepted", () => {
    const labelled = specs.filter((s) => s.fields.some((f) => f.name === "label" && f.kind === "input") && s.type !== "Interface");
    expect(named.map((s) => s.type).sort()).toEqual(labelled.map((s) => s.type).sort());
    expect(named.length).toBeGreaterThanOrEqual(9);
  });

  test.each(named.map((s) => [s.type, s] as const))("%s: any resource name gives a label its own rule accepts", (_type, s) => {
    const field = s.fields.find((f) => f.name === s.autoName!.field)!;
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (name) => {
        const label = autoName(s.autoName!, name);
        expect(field.schema!.safeParse(label).success).toBe(true);
        expect(label).toMatch(/[0-9a-f]{7}$/);
        expect(label.length).toBeLessThanOrEqual(s.autoName!.max);
      }),
      { seed: 10, numRuns: 300 },
    );
  });

  test("the name part is cleaned and cut, never the suffix", () => {
    const rule = spec("Vpc").autoName!;
    expect(autoName(rule, "prod_net!!", "abcdef1")).toBe("prod-net-abcdef1");
    expect(autoName(rule, "x".repeat(100), "abcdef1")).toBe(`${"x".repeat(56)}-abcdef1`);
    expect(autoName(spec("MysqlDatabase").autoName!, "", "abcdef1")).toBe("abcdef1");
    expect(autoName(spec("Instance").autoName!, "--web..1--", "abcdef1")).toBe("web.1-abcdef1");
  });

  test("check makes a label for a new resource from its name, and keeps it on every update", () => {
    const vpc = spec("Vpc");
    const created = checkInputs(vpc, { region: "us-east", __resourceName: "prod" });
    expect(created.failures).toEqual([]);
    expect(created.inputs).toMatchObject({ label: expect.stringMatching(/^prod-[0-9a-f]{7}$/), [AUTONAMED]: true });
    expect(created.inputs).not.toHaveProperty("__resourceName");
    const updated = checkInputs(vpc, { region: "us-east", description: "x", __resourceName: "prod" }, { ...created.inputs, __provider: "p" });
    expect(updated.inputs.label).toBe(created.inputs.label);
    // A replacement's check runs with no old inputs: a fresh name.
    expect(checkInputs(vpc, { region: "us-east", __resourceName: "prod" }).inputs.label).not.toBe(created.inputs.label);
  });

  test("a pinned label is the program's; a resource made before auto-naming keeps the service's label", () => {
    const inst = spec("Instance");
    const pinned = checkInputs(inst, { region: "r", type: "t", label: "web-1", __resourceName: "web" });
    expect(pinned.inputs.label).toBe("web-1");
    expect(pinned.inputs).not.toHaveProperty(AUTONAMED);
    // An old stack: its inputs had no label (the service named it compute5): nothing is made, so no change.
    const legacy = checkInputs(inst, { region: "r", type: "t", __resourceName: "web" }, { region: "r", type: "t", __provider: "p" });
    expect(legacy.inputs).not.toHaveProperty("label");
    expect(diffInputs(inst, { region: "r", type: "t", label: "compute5", [DECLARED]: ["region", "type"] }, legacy.inputs).changes).toBe(false);
  });
});

describe("removing an optional input", () => {
  const inst = spec("Instance");
  const olds = {
    region: "r",
    type: "t",
    label: "web-1",
    tags: ["a", "b"],
    group: "g",
    alerts: { cpu: 90 },
    [DECLARED]: ["region", "type", "label", "tags", "group", "alerts"],
  };

  test("clears what the API can clear, and says what it sends", () => {
    const news = { region: "r", type: "t", label: "web-1" };
    const d = diffInputs(inst, olds, news);
    expect(d.changed.sort()).toEqual(["group", "tags"]);
    expect(updateBody(inst, news, d.changed)).toEqual({ tags: [], group: "" });
  });

  test("is no change when it was never declared, or already has the cleared value", () => {
    expect(diffInputs(inst, { ...olds, [DECLARED]: ["region", "type", "label"] }, { region: "r", type: "t", label: "web-1" }).changes).toBe(false);
    expect(diffInputs(inst, { ...olds, tags: [], group: "" }, { region: "r", type: "t", label: "web-1", alerts: { cpu: 90 } }).changes).toBe(false);
  });

  test("every field with a clear value accepts that value", () => {
    for (const s of specs)
      for (const f of s.fields)
        if (f.clearTo !== undefined && f.clearTo !== null) expect([s.type, f.name, f.schema!.safeParse(f.clearTo).success]).toEqual([s.type, f.name, true]);
  });
});

describe("replacements", () => {
  const replacing = (type: string, news: Record<string, unknown>) => deletesFirst(spec(type), ["region"], ["region"], news);

  test("a pinned unique label deletes first only for resources that hold no data", () => {
    expect(replacing("Vpc", { label: "net" })).toBe(true);
    expect(replacing("Instance", { label: "web-1" })).toBe(false);
    expect(replacing("MysqlDatabase", { label: "db" })).toBe(false);
    expect(replacing("Disk", { label: "d" })).toBe(false);
  });

  test("an auto-named resource is replaced create-first", () => {
    expect(replacing("Vpc", { label: "net-abcdef1", [AUTONAMED]: true })).toBe(false);
  });

  test("Disk rootPass and Image file change in place; swapSize too", () => {
    expect(spec("Disk").fields.find((f) => f.name === "rootPass")!.forceNew).toBeFalsy();
    expect(spec("Image").fields.find((f) => f.name === "file")!.forceNew).toBeFalsy();
    expect(spec("Image").fields.find((f) => f.name === "fileHash")!.forceNew).toBe(true);
    expect(spec("Instance").fields.find((f) => f.name === "swapSize")!.forceNew).toBeFalsy();
  });
});

describe("one timeouts facility", () => {
  const waiting = specs.filter((s) => s.timeouts).map((s) => s.type);

  test("every resource that waits has the timeouts input, documented from the defaults of its definition", () => {
    expect(waiting.sort()).toEqual([
      "Config",
      "Disk",
      "Image",
      "Instance",
      "InstanceSnapshot",
      "MysqlDatabase",
      "MysqlDatabaseSnapshot",
      "PostgresDatabase",
      "PostgresDatabaseSnapshot",
    ]);
    for (const type of waiting) {
      const f = spec(type).fields.find((x) => x.name === "timeouts")!;
      for (const [op, d] of Object.entries(spec(type).timeouts!.defaults)) expect(f.description).toContain(`\`${op}\` (default ${d}`);
    }
    // The only input after the table's own: no resource that does not wait has it.
    for (const s of specs.filter((x) => !x.timeouts)) expect(s.fields.map((f) => f.name)).not.toContain("timeouts");
  });

  test.each(waiting)("%s: a bad duration is a check failure naming timeouts.<op> and the accepted form", (type) => {
    const r = checkInputs(spec(type), { timeouts: { create: "10 min" } });
    expect(r.failures).toContainEqual({ property: "timeouts", reason: `timeouts.create: must be ${DURATION_FORM}` });
  });

  test("an operation the resource does not wait for is refused; good values pass", () => {
    expect(checkInputs(spec("Image"), { timeouts: { update: "5m" } }).failures.map((f) => f.property)).toEqual(expect.arrayContaining(["timeouts"]));
    expect(checkInputs(spec("Disk"), { computeId: 1, size: 10, timeouts: { create: "1h30m", delete: "90s" } }).failures).toEqual([]);
    expect(timeoutOf(spec("Disk"), { timeouts: { create: "1h30m" } }, "create")).toBe(5_400_000);
    expect(timeoutOf(spec("Disk"), {}, "update")).toBe(parseDuration(spec("Disk").timeouts!.defaults.update!));
  });
});
