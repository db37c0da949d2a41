/**
 * Access through the real CLI: a read-only token can preview but not apply; a revoked token and a
 * restricted user without the grant get clear errors; no error prints the token.
 */
import type { Emulator } from "../../emulator/server";
import { addUser, call, emulator, list } from "../helpers/emulator";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
});

async function withStack(example: string, token: string, fn: (s: TestStack) => Promise<void>, secrets: Record<string, string> = {}) {
  const s = new TestStack(example, `access-${Math.random().toString(36).slice(2, 8)}`, {
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": token, ...secrets },
  });
  try {
    await fn(s);
    expect(s.transcript.join("\n")).not.toContain(token);
  } finally {
    s.cleanup();
  }
}

test("a read-only token: preview works, up fails with a clear permission error", async () => {
  const ro = await addUser(emu, "reader", { scopes: "account:read_only" });
  await withStack("sshkey", ro, async (s) => {
    expect((await s.run("preview")).code).toBe(0);
    const up = await s.run("up");
    expect(up.code).not.toBe(0);
    expect(up.output).toMatch(/cannot create SSH key: the API answered HTTP 403: .*account:read_write.*check the token's scopes/);
  });
  // Neither the reader (SSH keys are per user) nor the account's owner has a key.
  expect({ reader: await list(emu, "/profile/sshkeys", { token: ro }), owner: await list(emu, "/profile/sshkeys") }).toEqual({ reader: [], owner: [] });
});

test("a revoked token: a clear 401", async () => {
  const t = (await call(emu, "POST", "/profile/tokens", { body: { label: "ci" } })).body;
  await call(emu, "DELETE", `/profile/tokens/${t.id}`);
  await withStack("sshkey", t.token, async (s) => {
    const up = await s.run("up");
    expect(up.code).not.toBe(0);
    expect(up.output).toMatch(/HTTP 401: Invalid Token.*missing, unknown, expired or revoked/);
  });
});

test("a restricted user without add_computes: a clear error naming the grant", async () => {
  const t = await addUser(emu, "limited", { restricted: true });
  await withStack(
    "compute",
    t,
    async (s) => {
      const up = await s.run("up");
      expect(up.code).not.toBe(0);
      expect(up.output).toMatch(/cannot create instance: the API answered HTTP 403: .*add_computes grant/);
    },
    { "compute-example:rootPass": "Acc3ss-R00t-Pass!" },
  );
  // (The owner's token sees every instance of the account.)
  expect(await list(emu, "/compute/instances")).toEqual([]);
});
