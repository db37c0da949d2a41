/**
 * The engine's resource options through the plain CLI, against this provider's replacement protocol
 * (tests/programs/options), each change planned exactly as the up then makes it (TestStack.upAsPlanned):
 * resource hooks, ignoreChanges (a program change, and a change by hand then refresh), the drift gate
 * (`preview --expect-no-changes` passes over drift made by hand, `--refresh` finds it), replaceOnChanges on
 * an in-place field with a pinned label (the label is handed over), a user's deleteBeforeReplace,
 * replacementTrigger and replaceWith, aliases (a rename, a new parent), retainOnDelete, deletedWith (no
 * DELETE sent for the children, nothing left), `refresh --run-program`, `up --target`, protect; and a read
 * function's invoke options (`dependsOn`). The plugin runs every case; the dynamic classes the ones where
 * the provider takes part (the hand-over, deleteBeforeReplace, deletedWith, dependsOn).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, get, list } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(600_000);

let emu: Emulator;
let plugin: InstalledPlugin;
let dir: string;
const stacks: TestStack[] = [];

beforeAll(async () => {
  plugin = await installPlugin();
  dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-options-"));
});
afterAll(async () => {
  for (const s of stacks) s.cleanup();
  plugin?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
// Each test on an emulator of its own.
beforeEach(async () => {
  emu = await emulator();
});
afterEach(async () => {
  await emu?.close();
});

function stackOf(form: "plugin" | "dynamic", hookLog: string): TestStack {
  const s = new TestStack("tests/programs/options", `options-${form}-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, form, publicKey: ed25519Key(63), hookLog },
    secrets: { "compute:token": emu.token },
    env: form === "plugin" ? plugin.env : {},
  });
  stacks.push(s);
  return s;
}

const byLabel = async (collection: string, label: string) => (await list(emu, collection)).filter((r) => r.label === label);
/** The DELETEs the emulator was sent since `from` (its request log), by path. */
const deletesSince = async (from: number) =>
  ((await get(emu, "/__emulator/log")) as Array<{ method: string; path: string }>)
    .slice(from)
    .filter((e) => e.method === "DELETE")
    .map((e) => e.path.replace(/^\/v4/, "").replace(/\d+/g, "N"));
const logLength = async () => ((await get(emu, "/__emulator/log")) as unknown[]).length;

test("plugin: every option, each change planned as the up makes it", async () => {
  const hookLog = path.join(dir, "plugin-hooks.log");
  const stack = stackOf("plugin", hookLog);
  const first = await stack.upAsPlanned();
  expect(first.up.json.summary).toMatchObject({ create: 16 });
  // Hooks ran around the host's create; the read function ran after the token was made.
  expect(readFileSync(hookLog, "utf8").split("\n").filter(Boolean)).toEqual(["before-create host", "after-create host"]);
  const [agent] = await list(emu, "/profile/tokens").then((ts) => ts.filter((t) => t.label.startsWith("agent-")));
  expect(first.up.json.outputs.agentListed).toEqual([agent.label]);
  expect((await stack.run("preview", { flags: ["--expect-no-changes"] })).code).toBe(0);

  // ignoreChanges: a new label in the program is not applied, nor is a change by hand undone.
  const ignored = await stack.upAsPlanned({ config: { ignoredLabel: "opt-ignored-2" } });
  expect(ignored.up.json.steps).toEqual([]);
  const [ignoredKey] = await byLabel("/profile/sshkeys", "opt-ignored");
  await call(emu, "PUT", `/profile/sshkeys/${ignoredKey.id}`, { body: { label: "by-hand" } });
  expect((await stack.ok("refresh", { config: { ignoredLabel: "opt-ignored-2" } })).summary).toMatchObject({ update: 1 });
  expect((await stack.upAsPlanned({ config: { ignoredLabel: "opt-ignored-2" } })).up.json.steps).toEqual([]);
  expect((await get(emu, `/profile/sshkeys/${ignoredKey.id}`)).label).toBe("by-hand");

  // The drift gate: a plain preview does not read the API, so it passes over a change made by hand;
  // `--refresh` reads it and fails the gate, naming the resource.
  const [guarded] = await byLabel("/profile/sshkeys", "opt-guarded");
  await call(emu, "PUT", `/profile/sshkeys/${guarded.id}`, { body: { label: "drifted" } });
  const cfg = { ignoredLabel: "opt-ignored-2" };
  expect((await stack.run("preview", { config: cfg, flags: ["--expect-no-changes"] })).code).toBe(0);
  const gate = await stack.run("preview", { config: cfg, flags: ["--refresh", "--expect-no-changes", "--diff"] });
  expect(gate.code).not.toBe(0);
  expect(gate.output).toMatch(/guarded/);
  expect(gate.output).toMatch(/no changes were expected for preview but changes were proposed/);
  const healed = await stack.upAsPlanned({ config: cfg, flags: ["--refresh"] });
  expect(healed.up.json.steps).toContain("update guarded (compute:index:SshKey)");
  expect((await get(emu, `/profile/sshkeys/${guarded.id}`)).label).toBe("opt-guarded");

  // replaceOnChanges on the tags (changed in place otherwise), with the pinned label: the new instance is
  // made first under a temporary label and takes the pinned one once the old one is deleted.
  const [oldWeb] = await byLabel("/compute/instances", "opt-web");
  const replaced = await stack.upAsPlanned({ config: { ...cfg, webTag: "green" } });
  expect(replaced.up.json.steps).toEqual(["replace web (compute:index:Instance)"]);
  const webs = await byLabel("/compute/instances", "opt-web");
  expect(webs.map((w) => [w.id === oldWeb.id, w.tags])).toEqual([[false, ["green"]]]);
  expect(replaced.up.json.outputs.webId).toBe(String(webs[0].id));

  // deleteBeforeReplace set by the user: the VPC with the pinned label is deleted, then made in its new region.
  const moved = await stack.upAsPlanned({ config: { ...cfg, webTag: "green", pinnedRegion: "us-west" } });
  expect(moved.up.json.summary).toMatchObject({ replace: 1 });
  expect((await byLabel("/vpcs", "opt-pinned")).map((v) => v.region)).toEqual(["us-west"]);

  // replacementTrigger replaces the VPC; replaceWith replaces the key with it.
  const c2 = { ...cfg, webTag: "green", pinnedRegion: "us-west" };
  const triggered = await stack.upAsPlanned({ config: { ...c2, trigger: "2" } });
  expect(triggered.up.json.steps.filter((s: string) => s.startsWith("replace "))).toEqual([
    "replace follower (compute:index:SshKey)",
    "replace triggered (compute:index:Vpc)",
  ]);
  expect(triggered.up.json.outputs.triggeredId).not.toBe(first.up.json.outputs.triggeredId);

  // aliases: a rename, then a move under a component: the same key, never replaced.
  const c3 = { ...c2, trigger: "2" };
  const [named] = await byLabel("/profile/sshkeys", "opt-named");
  const renamed = await stack.upAsPlanned({ config: { ...c3, keyName: "renamed" } });
  expect(renamed.up.json.steps).toEqual([]);
  const parented = await stack.upAsPlanned({ config: { ...c3, keyName: "renamed", parented: "true" } });
  expect(parented.up.json.steps).toEqual(["create group (options:index:Group)"]);
  expect((await byLabel("/profile/sshkeys", "opt-named")).map((k) => k.id)).toEqual([named.id]);

  // `refresh --run-program` and `up --target`: a trigger change outside the target is left for later.
  const c4 = { ...c3, keyName: "renamed", parented: "true" };
  expect((await stack.run("refresh", { config: c4, flags: ["--run-program"] })).code).toBe(0);
  const guardedUrn = resourcesOf(await stack.ok("export"), ":SshKey").find((r: any) => r.urn.endsWith("::guarded")).urn;
  const targeted = await stack.ok("up", { config: { ...c4, trigger: "3" }, flags: ["--target", guardedUrn] });
  expect(targeted.outputs.triggeredId).toBe(triggered.up.json.outputs.triggeredId);

  // retainOnDelete: removed from the program, the key stays in the API.
  const kept = await stack.upAsPlanned({ config: { ...c4, dropKept: "true" } });
  expect(kept.up.json.steps).toEqual(["delete kept (compute:index:SshKey)"]);
  expect(await byLabel("/profile/sshkeys", "opt-kept")).toHaveLength(1);

  // deletedWith: the host and the VPC go; their children are deleted with them, so no DELETE is sent for them.
  const before = await logLength();
  const dropped = await stack.upAsPlanned({ config: { ...c4, dropKept: "true", dropHost: "true", dropNet: "true" } });
  expect(dropped.up.json.summary).toMatchObject({ delete: 6 });
  expect((await deletesSince(before)).sort()).toEqual(["/compute/instances/N", "/vpcs/N"]);
  expect(await byLabel("/compute/instances", "host")).toEqual([]);
  expect((await list(emu, "/compute/instances")).map((i) => i.label)).toEqual(["opt-web"]);
  expect((await list(emu, "/vpcs")).map((v) => v.label).sort()).toEqual(["opt-pinned", expect.stringMatching(/^triggered-/)]);
  expect(readFileSync(hookLog, "utf8").split("\n").filter(Boolean).slice(2)).toEqual(["before-delete host", "after-delete host"]);

  // protect: a destroy is refused while the key is protected; once unprotected, it goes.
  const c5 = { ...c4, dropKept: "true", dropHost: "true", dropNet: "true" };
  await stack.upAsPlanned({ config: { ...c5, protect: "true" } });
  const refused = await stack.run("destroy", { config: { ...c5, protect: "true" } });
  expect(refused.code).not.toBe(0);
  expect(refused.output).toMatch(/protect/);
  const unprotected = { ...c5, protect: undefined }; // (pulumi config rm protect)
  await stack.upAsPlanned({ config: unprotected });
  await stack.ok("destroy", { config: unprotected });
  expect((await list(emu, "/profile/sshkeys")).map((k) => k.label)).toEqual(["opt-kept"]); // retained
  await call(emu, "DELETE", `/profile/sshkeys/${(await byLabel("/profile/sshkeys", "opt-kept"))[0].id}`);
});

test("dynamic classes: the hand-over under replaceOnChanges, deleteBeforeReplace, deletedWith, dependsOn", async () => {
  const stack = stackOf("dynamic", path.join(dir, "dynamic-hooks.log"));
  const first = await stack.upAsPlanned();
  expect(first.up.json.summary).toMatchObject({ create: 16 });
  const [agent] = (await list(emu, "/profile/tokens")).filter((t) => t.label.startsWith("agent-"));
  expect(first.up.json.outputs.agentListed).toEqual([agent.label]);
  const [oldWeb] = await byLabel("/compute/instances", "opt-web");
  const replaced = await stack.upAsPlanned({ config: { webTag: "green", pinnedRegion: "us-west" } });
  expect(replaced.up.json.steps).toEqual(["replace pinned (pulumi-nodejs:dynamic/compute:Vpc)", "replace web (pulumi-nodejs:dynamic/compute:Instance)"]);
  expect((await byLabel("/compute/instances", "opt-web")).map((w) => [w.id === oldWeb.id, w.tags])).toEqual([[false, ["green"]]]);
  expect((await byLabel("/vpcs", "opt-pinned")).map((v) => v.region)).toEqual(["us-west"]);
  const before = await logLength();
  await stack.upAsPlanned({ config: { webTag: "green", pinnedRegion: "us-west", dropHost: "true", dropNet: "true" } });
  expect((await deletesSince(before)).sort()).toEqual(["/compute/instances/N", "/vpcs/N"]);
  await stack.ok("destroy", { config: { webTag: "green", pinnedRegion: "us-west", dropHost: "true", dropNet: "true" } });
  expect((await list(emu, "/profile/sshkeys")).map((k) => k.label)).toEqual(["opt-kept"]);
  await call(emu, "DELETE", `/profile/sshkeys/${(await byLabel("/profile/sshkeys", "opt-kept"))[0].id}`);
  expect(await list(emu, "/compute/instances")).toEqual([]);
});
