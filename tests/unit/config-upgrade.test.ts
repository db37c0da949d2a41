/**
 * A Config recorded by an earlier release (tests/fixtures/upgrade-*: the stack states those releases wrote)
 * has no `interfaceRecords` in its outputs: its diff against the inputs it was made with proposes no change,
 * and a preview of an in-place change plans the records unknown (the update reads them), never missing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configProvider } from "../../provider/resources/config";
import { UNKNOWN } from "../../provider/model/table";
import { resetSession } from "../../provider/session";

type Props = Record<string, unknown>;
const FIXTURES = join(__dirname, "..", "fixtures");

/** Every Config resource of every recorded upgrade state: its fixture, id, inputs and outputs. */
function recordedConfigs(): Array<[string, string, Props, Props]> {
  const found: Array<[string, string, Props, Props]> = [];
  for (const dir of readdirSync(FIXTURES).filter((d) => d.startsWith("upgrade-"))) {
    const stacks = join(FIXTURES, dir, "state", ".pulumi", "stacks");
    for (const stack of readdirSync(stacks)) {
      for (const file of readdirSync(join(stacks, stack)).filter((f) => f.endsWith(".json"))) {
        const state = JSON.parse(readFileSync(join(stacks, stack, file), "utf8"));
        for (const r of state.checkpoint.latest.resources as Array<{ type: string; id: string; inputs: Props; outputs: Props }>) {
          if (r.type !== "compute:index:Config" && r.type !== "pulumi-nodejs:dynamic/compute:Config") continue;
          const strip = ({ __provider: _p, ...rest }: Props) => rest;
          found.push([`${dir} ${r.type}`, r.id, strip(r.inputs), strip(r.outputs)]);
        }
      }
    }
  }
  return found;
}

const CONFIGS = recordedConfigs();
afterAll(() => resetSession());

test("the recorded states hold Config resources without interface records", () => {
  expect(CONFIGS.length).toBeGreaterThanOrEqual(5);
  for (const [, , , outs] of CONFIGS) expect(outs).not.toHaveProperty("interfaceRecords");
});

describe.each(CONFIGS)("%s %s", (_what, id, inputs, outs) => {
  test("no change is proposed; an in-place change plans the records unknown", async () => {
    const checked = await configProvider.check(inputs, inputs);
    expect(checked.failures).toEqual([]);
    const d = await configProvider.diff(id, outs, checked.inputs);
    expect(d).toMatchObject({ changes: false, replaces: [] });

    const changed = await configProvider.check(inputs, { ...inputs, kernel: "compute/grub2" });
    expect((await configProvider.diff(id, outs, changed.inputs)).changed).toEqual(["kernel"]);
    const planned = configProvider.plan(id, outs, changed.inputs);
    expect(planned).toMatchObject({ kernel: "compute/grub2", interfaceRecords: UNKNOWN, devices: outs.devices });
  });
});
