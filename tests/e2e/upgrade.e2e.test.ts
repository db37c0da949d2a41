/**
 * Upgrade in place: a stack made by an earlier release (tests/fixtures/upgrade-*: its state, config and the
 * emulator's state; 0.1.0, and the commit before the restructuring into one definition per resource) keeps
 * working with this package, unchanged program: no replacement, no change planned, refresh finds no drift,
 * and destroy removes everything with the old state.
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { call, emulator } from "../helpers/emulator";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(600_000);

const TOKEN = "upgrade-fixture-token-0123456789";
/** Each fixture, with the emulator URL its state and config recorded. */
const FIXTURES = [
  { name: "upgrade-0.1.0", url: "http://127.0.0.1:45833/v4" },
  { name: "upgrade-abb54eb", url: "http://127.0.0.1:45834/v4" },
];

describe.each(FIXTURES)("$name", ({ name, url: FIXTURE_URL }) => {
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
