/**
 * The walking skeleton through the real Pulumi CLI and engine: examples/sshkey, installed from the packed
 * tarball, against the emulator.
 */
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, list } from "../helpers/emulator";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  stack = new TestStack("sshkey", `e2e-${process.pid}`, { config: { "compute:apiUrl": emu.url }, secrets: { "compute:token": emu.token } });
});
afterAll(async () => {
  stack?.cleanup();
  await emu?.close();
});

/** The account's SSH keys, as the API lists them. */
const keys = () => list(emu, "/profile/sshkeys");

test("up, refresh after an out-of-band change, update in place, replace, destroy", async () => {
  // up: the key exists in the emulator and the outputs say so.
  const up = await stack.ok("up");
  expect(up.summary).toEqual({ create: 2 });
  const made = await keys();
  expect(made).toHaveLength(1);
  const id = String(made[0].id);
  expect(up.outputs).toMatchObject({ keyId: id, keyLabel: "deploy-key" });

  // A change made by hand: refresh shows it and records it in the state.
  await call(emu, "PUT", `/profile/sshkeys/${id}`, { body: { label: "edited-by-hand" } });
  const refresh = await stack.run("refresh");
  expect(refresh.code).toBe(0);
  expect(refresh.json.summary).toMatchObject({ update: 1 });
  expect(refresh.output).toMatch(/SshKey deploy-key updated .*\[diff: ~label\]/);
  const [afterRefresh] = resourcesOf(await stack.ok("export"), ":SshKey");
  expect(afterRefresh.outputs.label).toBe("edited-by-hand");

  // up puts the declared label back; a new label is an in-place update with the same id.
  const renamed = (await stack.upAsPlanned({ config: { label: "renamed-key" } })).up.json;
  expect(renamed.summary).toMatchObject({ update: 1 });
  expect(renamed.outputs.keyId).toBe(id);
  expect(await keys()).toEqual([expect.objectContaining({ id: Number(id), label: "renamed-key" })]);

  // With nothing changed, nothing is planned (`preview --expect-no-changes` passes).
  const same = await stack.run("preview", { config: { label: "renamed-key" }, flags: ["--expect-no-changes"] });
  expect([same.code, same.json.changeSummary]).toEqual([0, { same: 2 }]);

  // A new public key replaces the key: a new id, and the old key is gone.
  const newKey = ed25519Key(99, "rotated@example");
  const replaced = (await stack.upAsPlanned({ config: { label: "renamed-key", publicKey: newKey } })).up.json;
  expect(replaced.summary).toMatchObject({ replace: 1 });
  expect(replaced.outputs.keyId).not.toBe(id);
  expect(await keys()).toEqual([expect.objectContaining({ id: Number(replaced.outputs.keyId), ssh_key: newKey, label: "renamed-key" })]);

  // The token is a secret: never in the state, the stack's config file or the CLI output in plain text.
  const exported = JSON.stringify(await stack.ok("export"));
  expect(exported).not.toContain(emu.token);
  expect(exported).toContain('"compute:token":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext"');
  expect(stack.configFile()).toMatch(/compute:token:\s+secure: /);
  expect(stack.configFile()).not.toContain(emu.token);
  expect(stack.transcript.join("\n")).not.toContain(emu.token);
  const [res] = resourcesOf(JSON.parse(exported), ":SshKey");
  expect(res.type).toBe("pulumi-nodejs:dynamic/compute:SshKey");
  // The serialized provider is one require of the installed package's module for the type (sdk/providers/),
  // not the shim's code: a few hundred bytes in each of the entry's inputs and outputs.
  expect(res.inputs.__provider).toContain('require("pulumi-compute/dist/sdk/providers/sshKey.js")');
  expect(res.inputs.__provider.length).toBeLessThan(400);

  // destroy leaves the emulator empty.
  const destroy = await stack.ok("destroy", { config: { label: "renamed-key", publicKey: newKey } });
  expect(destroy.summary).toEqual({ delete: 2 });
  expect(await keys()).toEqual([]);
});

test("a bad label is refused at preview, naming the field, and nothing reaches the API", async () => {
  // The same stack (a user's): whatever it holds, the label is refused before any request.
  emu.log.length = 0;
  const r = await stack.run("preview", { config: { label: "x".repeat(70) } });
  expect(r.code).not.toBe(0);
  expect(r.output).toMatch(/label: must be at most 64 characters/);
  expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);
});
