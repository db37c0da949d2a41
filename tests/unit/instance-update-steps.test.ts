/**
 * The in-place update of an instance is a list of steps, each "when these inputs changed, do this", in the
 * list's order (provider/resources/instance/update.ts). Which steps an update runs, for each kind of change;
 * what each step sends is held by the integration tests of the instance (tests/integration/instance*.test.ts).
 */
import type { HookContext } from "../../provider/lifecycle/hooks";
import type { InputName, InputsOf, StateOf } from "../../provider/model/table";
import { ApiClient } from "../../provider/transport/client";
import { ProgramContext } from "../../provider/program";
import type { InstanceApi, InstanceFields } from "../../provider/resources/instance/table";
import { UPDATE_STEPS, updateRun } from "../../provider/resources/instance/update";

type Olds = StateOf<InstanceFields>;
type News = InputsOf<InstanceFields>;

/** A hook context no step is run with: the steps' `when`s read only the run. */
const context = (): HookContext<InstanceApi, InstanceFields> => ({
  client: new ApiClient({ baseUrl: "http://127.0.0.1:1/v4", token: "" }),
  id: "1",
  props: {},
  timeoutMs: 1,
  outputs: {},
  keep: {},
  program: new ProgramContext(),
  wait: () => Promise.reject(new Error("no step is run")),
});

/** The names of the steps an update from `olds` to `news` runs, in order. */
function stepsFor(olds: Olds, news: News, changed: InputName<InstanceFields>[]): string[] {
  const run = updateRun(context(), olds, news, changed);
  return UPDATE_STEPS.filter((s) => s.when(run)).map((s) => s.name);
}

const base = { region: "us-east", type: "g6-standard-1", image: "compute/debian12", label: "web" };

describe("the instance update's steps", () => {
  it("run one PUT for the plain fields, whichever of them changed", () => {
    expect(stepsFor(base, { ...base, label: "web-2", tags: ["a"] }, ["label", "tags"])).toEqual(["one PUT of the plain fields"]);
    expect(stepsFor(base, { ...base, backupSchedule: { day: "Monday" } }, ["backupSchedule"])).toEqual(["one PUT of the plain fields"]);
  });

  it("take a snapshot first when snapshotBeforeChange is on and a change can lose data", () => {
    const news = { ...base, type: "g6-standard-2", snapshotBeforeChange: true };
    expect(stepsFor(base, news, ["type"])).toEqual(["snapshot before a risky change", "resize"]);
    // A label change loses nothing: no snapshot.
    expect(stepsFor(base, { ...news, type: base.type, label: "x-1" }, ["label"])).toEqual(["one PUT of the plain fields"]);
  });

  it("rebuild for a new image, then set the power state", () => {
    expect(stepsFor(base, { ...base, image: "compute/ubuntu24.04" }, ["image"])).toEqual(["rebuild", "power state"]);
  });

  it("reset a new root password in a power cycle, with a swap resize when both change", () => {
    expect(stepsFor({ ...base, rootPass: "old" }, { ...base, rootPass: "new" }, ["rootPass"])).toEqual(["swap resize and password reset, in one power cycle"]);
    expect(stepsFor({ ...base, swapSize: 512 }, { ...base, swapSize: 1024 }, ["swapSize"])).toEqual(["swap resize and password reset, in one power cycle"]);
    // The swap size the instance has already: nothing to do.
    expect(stepsFor({ ...base, swapSize: 512 }, { ...base, swapSize: 512 }, ["swapSize"])).toEqual([]);
  });

  it("restore a backup before anything else, and with overwrite set the program's password again", () => {
    const restore = { backupId: 9, overwrite: true };
    expect(stepsFor({ ...base, rootPass: "p" }, { ...base, restore }, ["restore"])).toEqual([
      "restore a backup",
      "swap resize and password reset, in one power cycle",
      "power state",
    ]);
    expect(stepsFor(base, { ...base, restore: { backupId: 9 } }, ["restore"])).toEqual(["restore a backup", "power state"]);
    // `restore` removed: nothing is restored.
    expect(stepsFor({ ...base, restore }, base, ["restore"])).toEqual([]);
  });

  it("enable or cancel the backup service, redefine the interfaces, boot or shut down", () => {
    expect(stepsFor(base, { ...base, backupsEnabled: true }, ["backupsEnabled"])).toEqual(["the backup service"]);
    expect(stepsFor(base, { ...base, interfaces: [{ purpose: "public" }] }, ["interfaces"])).toEqual(["interfaces, and a reboot"]);
    expect(stepsFor(base, { ...base, booted: false }, ["booted"])).toEqual(["power state"]);
  });

  it("run in the list's order whatever the order of the changes", () => {
    const news = {
      ...base,
      snapshotBeforeChange: true,
      label: "web-2",
      type: "g6-standard-2",
      image: "compute/ubuntu24.04",
      booted: true,
      backupsEnabled: true,
    };
    expect(stepsFor(base, news, ["booted", "type", "backupsEnabled", "image", "label"])).toEqual([
      "snapshot before a risky change",
      "rebuild",
      "one PUT of the plain fields",
      "the backup service",
      "resize",
      "power state",
    ]);
  });

  it("carry the root password the instance has when the program leaves it out, and keep the old one until a reset", () => {
    const ctx = context();
    const run = updateRun(ctx, { ...base, rootPass: "kept", swapSize: 256 }, base, ["label"]);
    expect(run.inputs.rootPass).toBe("kept");
    expect(ctx.keep.rootPass).toBe("kept");
    expect(ctx.outputs).toMatchObject({ swapSize: 256 });
  });
});
