/**
 * examples/token through the real Pulumi CLI against the emulator: a read-only token for a monitoring agent.
 * Its value never appears in plain text in the state or the output; a label change keeps its id; a scope
 * change replaces it and the old value gets 401; destroy revokes it.
 */
import type { Emulator } from "../../emulator/server";
import { call, emulator, list } from "../helpers/emulator";
import { resourcesOf, TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
let stack: TestStack;
beforeAll(async () => {
  emu = await emulator();
  stack = new TestStack("token", `e2e-${process.pid}`, { config: { "compute:apiUrl": emu.url }, secrets: { "compute:token": emu.token } });
});
afterAll(async () => {
  stack?.cleanup();
  await emu?.close();
});

/** The value of a token the API listed, by id: only the stack knows it (`--show-secrets`). */
const value = async () => (await stack.run("outputs", { flags: ["--show-secrets"] })).json.agentToken as string;
const status = async (token: string) => (await call(emu, "GET", "/compute/instances", { token })).status;

test("a token: secret in the state, label in place, scopes replace (the old value gets 401), destroy revokes", async () => {
  const up = await stack.ok("up");
  expect(up.summary).toEqual({ create: 2 });
  const id = up.outputs.agentTokenId as string;
  expect(up.outputs.agentTokenLabel).toMatch(/^monitoring-agent-[0-9a-f]{7}$/);
  const first = await value();
  expect(first).toMatch(/^[0-9a-f]{64}$/);
  // The agent can read, and nothing more.
  expect(await status(first)).toBe(200);
  expect((await call(emu, "POST", "/vpcs", { token: first, body: { label: "x", region: "us-east" } })).status).toBe(403);
  // Never in plain text: not in the state, not in what the CLI printed.
  const exported = JSON.stringify(await stack.ok("export"));
  expect(exported).not.toContain(first);
  expect(stack.transcript.join("\n")).not.toContain(first);
  expect(up.outputs.agentToken).toBe("[secret]");
  // A refresh reads the token (its first 16 characters only) and keeps the value.
  await stack.ok("refresh");
  expect(await value()).toBe(first);
  expect((await stack.run("preview")).json.changeSummary).toEqual({ same: 2 });

  // A new label: in place, the same id and the same value.
  const renamed = (await stack.upAsPlanned({ config: { label: "monitoring" } })).up.json;
  expect(renamed.summary).toMatchObject({ update: 1 });
  expect(renamed.outputs.agentTokenId).toBe(id);
  expect(await value()).toBe(first);
  expect(await status(first)).toBe(200);

  // New scopes: a new token; the old one is revoked (401), the new value works. The preview plans the
  // replacement for the scopes (what `preview --diff` prints as `+-pulumi-nodejs:dynamic/compute:Token: (replace)`
  // and `~ scopes : "computes:read_only databases:read_only" => "computes:read_only"`).
  const replacement = await stack.upAsPlanned({ config: { label: "monitoring", scopes: "computes:read_only" } });
  expect(replacement.preview.json.steps.filter((x: { op: string }) => x.op !== "same")).toEqual([
    expect.objectContaining({
      op: "replace",
      replaceReasons: ["scopes"],
      oldState: expect.objectContaining({
        type: "pulumi-nodejs:dynamic/compute:Token",
        inputs: expect.objectContaining({ scopes: "computes:read_only databases:read_only" }),
      }),
      newState: expect.objectContaining({ type: "pulumi-nodejs:dynamic/compute:Token", inputs: expect.objectContaining({ scopes: "computes:read_only" }) }),
    }),
  ]);
  const replaced = replacement.up.json;
  expect(replaced.summary).toMatchObject({ replace: 1 });
  expect(replaced.outputs.agentTokenId).not.toBe(id);
  const second = await value();
  expect(second).not.toBe(first);
  expect(await status(first)).toBe(401);
  expect(await status(second)).toBe(200);

  // destroy revokes it.
  expect((await stack.ok("destroy", { config: { label: "monitoring", scopes: "computes:read_only" } })).summary).toEqual({ delete: 2 });
  expect(await status(second)).toBe(401);
  expect((await list(emu, "/profile/tokens")).map((t) => String(t.id))).toEqual([expect.any(String)]); // the emulator's root token only
  expect(resourcesOf(await stack.ok("export"), ":Token")).toEqual([]);
});
