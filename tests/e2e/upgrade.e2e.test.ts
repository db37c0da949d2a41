/**
 * Upgrade in place: a stack made by an earlier release (tests/fixtures/upgrade-*: its state, config and the
 * emulator's state; 0.1.0, the commit before the restructuring into one definition per resource, and the
 * commit before exact previews) keeps working with this package, unchanged program: no replacement, no
 * change planned, refresh finds no drift, and destroy removes everything with the old state. The same for
 * stacks of the plugin form (examples/all on the plugin SDK, made by the plugin of the release before its
 * smaller state entries, and by the one before exact previews), with this release's plugin and its SDK.
 * Each runs the program its stack was made with, kept beside its state: tests/programs/upgrade, and the
 * plugin fixtures' own program/ folder (examples/all as it was then: 16 resources, 17 with the stack).
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { Project } from "../../scripts/pulumi";
import { call, emulator } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(600_000);

const TOKEN = "upgrade-fixture-token-0123456789";

/**
 * Which fixtures run. The newest of each form always (the release users upgrade from), and one older
 * fixture, a different one each day (in turn: every one within three days), so that the suite keeps its time
 * budget; `scripts/upgrade-matrix` (UPGRADE_FIXTURES=all) runs them all, or UPGRADE_FIXTURES=<name>,<name>.
 */
const OLDER = ["upgrade-0.1.0", "upgrade-abb54eb", "upgrade-plugin-6ed01f0"];
const chosen = (name: string): boolean => {
  const wanted = process.env.UPGRADE_FIXTURES;
  if (wanted === "all") return true;
  if (wanted) return wanted.split(",").includes(name);
  return !OLDER.includes(name) || OLDER[Math.floor(Date.now() / 86_400_000) % OLDER.length] === name;
};
/** Each fixture, with the emulator URL its state and config recorded. */
const FIXTURES = [
  { name: "upgrade-0.1.0", url: "http://127.0.0.1:45833/v4" },
  { name: "upgrade-abb54eb", url: "http://127.0.0.1:45834/v4" },
  // The commit before exact previews, naming policies and the rest of issue 26.
  { name: "upgrade-52033be", url: "http://127.0.0.1:45836/v4" },
];

describe.each(FIXTURES.filter((f) => chosen(f.name)))("$name", ({ name, url: FIXTURE_URL }) => {
  const FIXTURE = path.join(__dirname, "..", "fixtures", name);
  let emu: Emulator;
  let stack: TestStack;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-upgrade-"));
    copyFileSync(path.join(FIXTURE, "emulator.json"), path.join(dir, "emulator.json"));
    emu = await emulator({ token: TOKEN, stateFile: path.join(dir, "emulator.json") });
    stack = new TestStack("tests/programs/upgrade", "upgrade");
    // The API URL is the same as when the stack was made (refresh and destroy use the provider settings the
    // state recorded): the fixture's emulator URL becomes this emulator's.
    const here = (file: string) => readFileSync(file, "utf8").replaceAll(FIXTURE_URL, emu.url);
    cpSync(path.join(FIXTURE, "state"), stack.stateDir, { recursive: true });
    const state = path.join(stack.stateDir, ".pulumi", "stacks", "upgrade-program", "upgrade.json");
    writeFileSync(state, here(state));
    writeFileSync(path.join(stack.dir, "Pulumi.upgrade.yaml"), here(path.join(FIXTURE, "Pulumi.upgrade.yaml")));
  });
  afterAll(async () => {
    stack?.cleanup();
    await emu?.close();
  });

  test("a stack of the previous release: nothing planned, no drift, destroy cleans up", async () => {
    const before = (await call(emu, "GET", "/compute/instances")).body.data.map((i: { id: number; label: string }) => [i.id, i.label]);
    expect(before).toHaveLength(3);

    const preview = await stack.run("preview");
    if (preview.code !== 0) throw new Error(preview.output);
    expect(preview.json.changeSummary).toEqual({ same: 14 });

    const refresh = await stack.ok("refresh");
    expect(refresh.summary).toEqual({ same: 14 });
    expect((await stack.ok("up")).summary).toEqual({ same: 14 });
    // The unlabelled instance of the old release was not given a label behind the user's back.
    expect((await call(emu, "GET", "/compute/instances")).body.data.map((i: { id: number; label: string }) => [i.id, i.label])).toEqual(before);

    expect((await stack.ok("destroy")).summary).toEqual({ delete: 14 });
    for (const p of ["/compute/instances", "/vpcs", "/profile/sshkeys", "/databases/instances"])
      expect([p, (await call(emu, "GET", p)).body.data]).toEqual([p, []]);
  });
});

/**
 * Plugin fixtures: 6ed01f0's entries still carried __declared and replaceOnChanges (shed by the next up);
 * 52033be's (the commit before exact previews) carry neither.
 */
const PLUGIN_FIXTURES = [
  { name: "upgrade-plugin-6ed01f0", url: "http://127.0.0.1:45835/v4", legacyEntries: true },
  { name: "upgrade-plugin-52033be", url: "http://127.0.0.1:45837/v4", legacyEntries: false },
];

describe.each(PLUGIN_FIXTURES.filter((f) => chosen(f.name)))("$name: the plugin form", ({ name, url, legacyEntries }) => {
  const FIXTURE = path.join(__dirname, "..", "fixtures", name);
  const FIXTURE_URL = url;
  const ROOT = path.resolve(__dirname, "..", "..");
  let emu: Emulator;
  let plugin: InstalledPlugin;
  let dir: string;
  let project: Project;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-upgrade-plugin-"));
    copyFileSync(path.join(FIXTURE, "emulator.json"), path.join(dir, "emulator.json"));
    emu = await emulator({ token: TOKEN, stateFile: path.join(dir, "emulator.json") });
    plugin = await installPlugin();
    // The program the stack was made with (examples/all's of then, on the plugin SDK: the fixture's
    // program/, frozen so that examples/all can grow), on this release's plugin SDK (tests/programs/switch's
    // node_modules).
    const program = path.join(dir, "program");
    cpSync(path.join(FIXTURE, "program"), program, { recursive: true });
    copyFileSync(path.join(ROOT, "tests", "programs", "switch", "package.json"), path.join(program, "package.json"));
    symlinkSync(path.join(ROOT, "tests", "programs", "switch", "node_modules"), path.join(program, "node_modules"), "dir");
    const here = (file: string) => readFileSync(file, "utf8").replaceAll(FIXTURE_URL, emu.url);
    cpSync(path.join(FIXTURE, "state"), path.join(dir, "state"), { recursive: true });
    const state = path.join(dir, "state", ".pulumi", "stacks", "all-example", "upgrade.json");
    writeFileSync(state, here(state));
    writeFileSync(path.join(program, "Pulumi.upgrade.yaml"), here(path.join(FIXTURE, "Pulumi.upgrade.yaml")));
    project = new Project(program, "upgrade", path.join(dir, "state"), plugin.env);
  });
  afterAll(async () => {
    plugin?.cleanup();
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function ok(op: "up" | "preview" | "refresh" | "destroy" | "export") {
    const r = await project.run(op);
    if (r.code !== 0) throw new Error(`pulumi ${op} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r.json;
  }

  test("nothing planned, no drift, the entries without __declared and replaceOnChanges, destroy cleans up", async () => {
    const before = JSON.stringify((await ok("export")).deployment.resources);
    expect([before.includes("__declared"), before.includes("replaceOnChanges")]).toEqual([legacyEntries, legacyEntries]);
    expect((await ok("preview")).changeSummary).toEqual({ same: 17 });
    expect((await ok("refresh")).summary).toEqual({ same: 17 });
    expect((await ok("up")).summary).toEqual({ same: 17 });
    const after = JSON.stringify((await ok("export")).deployment.resources);
    expect(after).not.toContain("__declared");
    expect(after).not.toContain("replaceOnChanges");
    expect((await ok("preview")).changeSummary).toEqual({ same: 17 });

    expect((await ok("destroy")).summary).toEqual({ delete: 17 });
    for (const p of ["/compute/instances", "/vpcs", "/profile/sshkeys", "/databases/instances"])
      expect([p, (await call(emu, "GET", p)).body.data]).toEqual([p, []]);
  });
});
