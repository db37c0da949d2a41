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
import { call, ed25519Key, get, list, useEmulatorPerTest } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(600_000);

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
const { emu } = useEmulatorPerTest();

function stackOf(form: "plugin" | "dynamic", hookLog: string): TestStack {
  const s = new TestStack("tests/programs/options", `options-${form}-${process.pid}`, {
    config: { "compute:apiUrl": emu().url, form, publicKey: ed25519Key(63), hookLog },
    secrets: { "compute:token": emu().token },
    env: form === "plugin" ? plugin.env : {},
  });
  stacks.push(s);
  return s;
}

const byLabel = async (collection: string, label: string) => (await list(emu(), collection)).filter((r) => r.label === label);
/** The DELETEs the emulator was sent since `from` (its request log), by path. */
const deletesSince = async (from: number) =>
  ((await get(emu(), "/__emulator/log")) as Array<{ method: string; path: string }>)
    .slice(from)
    .filter((e) => e.method === "DELETE")
    .map((e) => e.path.replace(/^\/v4/, "").replace(/\d+/g, "N"));
const logLength = async () => ((await get(emu(), "/__emulator/log")) as unknown[]).length;

test("plugin: every option, each change planned as the up makes it", async () => {
  const hookLog = path.join(dir, "plugin-hooks.log");
  const stack = stackOf("plugin", hookLog);
  const first = await stack.upAsPlanned();
  expect(first.up.json.summary).toMatchObject({ create: 16 });
  // Hooks ran around the host's create; the read function ran after the token was made.
  expect(readFileSync(hookLog, "utf8").split("\n").filter(Boolean)).toEqual(["before-create host", "after-create host"]);
  const [agent] = (await list(emu(), "/profile/tokens")).filter((t) => t.label.startsWith("agent-"));
  expect(first.up.json.outputs.agentListed).toEqual([agent.label]);

  // One program change, each option doing its part, planned as the up makes it:
  // - ignoreChanges: the new label is neither compared nor sent;
  // - replaceOnChanges on the tags (changed in place otherwise), with the pinned label: the new instance is
  //   made first under a temporary label and takes the pinned one once the old one is deleted;
  // - deleteBeforeReplace set by the user: the VPC with the pinned label is deleted, then made anew;
  // - replacementTrigger replaces a VPC, and replaceWith the key that follows it;
  // - aliases: the key renamed keeps its identity (no replacement);
  // - protect on the guarded key (no step: the state's flag), for the refused destroy below.
  const [oldWeb] = await byLabel("/compute/instances", "opt-web");
  const [named] = await byLabel("/profile/sshkeys", "opt-named");
  const c1 = { ignoredLabel: "opt-ignored-2", webTag: "green", pinnedRegion: "us-west", trigger: "2", keyName: "renamed", protect: "true" };
  const changed = await stack.upAsPlanned({ config: c1 });
  expect(changed.up.json.steps).toEqual([
    "replace follower (compute:index:SshKey)",
    "replace pinned (compute:index:Vpc)",
    "replace triggered (compute:index:Vpc)",
    "replace web (compute:index:Instance)",
  ]);
  expect((await byLabel("/profile/sshkeys", "opt-ignored")).length).toBe(1);
  expect((await byLabel("/compute/instances", "opt-web")).map((w) => [w.id === oldWeb.id, w.tags])).toEqual([[false, ["green"]]]);
  expect((await byLabel("/vpcs", "opt-pinned")).map((v) => v.region)).toEqual(["us-west"]);
  expect(changed.up.json.outputs.triggeredId).not.toBe(first.up.json.outputs.triggeredId);
  expect((await byLabel("/profile/sshkeys", "opt-named")).map((k) => k.id)).toEqual([named.id]);

  // `refresh --run-program`, and `up --target`: a trigger change outside the target is left for later.
  expect((await stack.run("refresh", { config: c1, flags: ["--run-program"] })).code).toBe(0);
  const guardedUrn = first.preview.json.steps.find((x: { urn: string }) => x.urn.endsWith("::guarded")).urn;
  const targeted = await stack.ok("up", { config: { ...c1, trigger: "3" }, flags: ["--target", guardedUrn] });
  expect(targeted.outputs.triggeredId).toBe(changed.up.json.outputs.triggeredId);

  // protect: a destroy of the protected key is refused, and the key stays. (Targeted: this CLI goes on past a
  // refused delete, so a whole destroy would delete every other resource; with the program, which a destroy
  // needs while the host's delete hooks are in the stack.)
  const [guarded] = await byLabel("/profile/sshkeys", "opt-guarded");
  const refused = await stack.run("destroy", { flags: ["--target", guardedUrn, "--run-program"] });
  expect(refused.code).not.toBe(0);
  expect(refused.output).toMatch(/protect/);
  expect((await byLabel("/profile/sshkeys", "opt-guarded")).map((k) => k.id)).toEqual([guarded.id]);

  // The drift gate, with changes made by hand: a plain preview does not read the API, so it passes over them;
  // `--refresh` reads them and fails the gate, naming the resource.
  const [ignoredKey] = await byLabel("/profile/sshkeys", "opt-ignored");
  await call(emu(), "PUT", `/profile/sshkeys/${ignoredKey.id}`, { body: { label: "by-hand" } });
  await call(emu(), "PUT", `/profile/sshkeys/${guarded.id}`, { body: { label: "drifted" } });
  expect((await stack.run("preview", { config: c1, flags: ["--expect-no-changes"] })).code).toBe(0);
  const gate = await stack.run("preview", { config: c1, flags: ["--refresh", "--expect-no-changes", "--diff"] });
  expect(gate.code).not.toBe(0);
  expect(gate.output).toMatch(/guarded/);
  expect(gate.output).toMatch(/no changes were expected for preview but changes were proposed/);

  // Then `up --refresh` heals the drift (the guarded key's label is put back; the ignored label's change
  // stays), in the same run as the next program change (other resources: they do not interfere): the key
  // moves under a component (aliases), the kept key leaves the program (retainOnDelete: it stays in the API),
  // the host and the VPC go with their children (deletedWith: no DELETE is sent for those), whose hooks run
  // around the host's delete; and the guarded key is no longer protected (pulumi config rm protect: no step).
  const c2 = { ...c1, parented: "true", dropKept: "true", dropHost: "true", dropNet: "true", protect: undefined };
  const before = await logLength();
  const dropped = await stack.upAsPlanned({ config: c2, flags: ["--refresh"] });
  expect(dropped.up.json.steps).toEqual([
    "create group (options:index:Group)",
    "delete boot (compute:index:Config)",
    "delete data (compute:index:Disk)",
    "delete eth0 (compute:index:Interface)",
    "delete host (compute:index:Instance)",
    "delete kept (compute:index:SshKey)",
    "delete net (compute:index:Vpc)",
    "delete sub (compute:index:Subnet)",
    "update guarded (compute:index:SshKey)",
  ]);
  expect((await get(emu(), `/profile/sshkeys/${guarded.id}`)).label).toBe("opt-guarded");
  expect((await get(emu(), `/profile/sshkeys/${ignoredKey.id}`)).label).toBe("by-hand");
  expect((await deletesSince(before)).sort()).toEqual(["/compute/instances/N", "/vpcs/N"]);
  expect((await list(emu(), "/compute/instances")).map((i) => i.label)).toEqual(["opt-web"]);
  expect((await list(emu(), "/vpcs")).map((v) => v.label).sort()).toEqual(["opt-pinned", expect.stringMatching(/^triggered-/)]);
  expect(await byLabel("/profile/sshkeys", "opt-kept")).toHaveLength(1);
  expect((await byLabel("/profile/sshkeys", "opt-named")).map((k) => k.id)).toEqual([named.id]);
  expect(readFileSync(hookLog, "utf8").split("\n").filter(Boolean).slice(2)).toEqual(["before-delete host", "after-delete host"]);

  // Once unprotected, the guarded key goes with the rest.
  await stack.ok("destroy", { config: c2 });
  expect((await list(emu(), "/profile/sshkeys")).map((k) => k.label)).toEqual(["opt-kept"]); // retained
});

test("dynamic classes: the hand-over under replaceOnChanges, deleteBeforeReplace, deletedWith, dependsOn", async () => {
  const stack = stackOf("dynamic", path.join(dir, "dynamic-hooks.log"));
  const first = await stack.upAsPlanned();
  expect(first.up.json.summary).toMatchObject({ create: 16 });
  const [agent] = (await list(emu(), "/profile/tokens")).filter((t) => t.label.startsWith("agent-"));
  expect(first.up.json.outputs.agentListed).toEqual([agent.label]);
  const [oldWeb] = await byLabel("/compute/instances", "opt-web");
  const [kept] = await byLabel("/profile/sshkeys", "opt-kept");
  const before = await logLength();
  // The kept key leaves the program too (retainOnDelete: its delete sends nothing, it stays in the API).
  const changed = await stack.upAsPlanned({ config: { webTag: "green", pinnedRegion: "us-west", dropHost: "true", dropNet: "true", dropKept: "true" } });
  expect(changed.up.json.summary).toMatchObject({ replace: 2, delete: 7 });
  expect((await byLabel("/compute/instances", "opt-web")).map((w) => [w.id === oldWeb.id, w.tags])).toEqual([[false, ["green"]]]);
  expect((await byLabel("/vpcs", "opt-pinned")).map((v) => v.region)).toEqual(["us-west"]);
  // The host's children and the VPC's subnet got no DELETE, nor the kept key; the old instance and VPCs did.
  expect((await deletesSince(before)).sort()).toEqual(["/compute/instances/N", "/compute/instances/N", "/vpcs/N", "/vpcs/N"]);
  expect((await byLabel("/profile/sshkeys", "opt-kept")).map((k) => k.id)).toEqual([kept.id]);
  // What is left is the new web instance, the one the stack holds.
  expect((await list(emu(), "/compute/instances")).map((i) => [i.label, String(i.id)])).toEqual([["opt-web", changed.up.json.outputs.webId]]);
});
