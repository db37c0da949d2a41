/**
 * The emulator under load: 50 concurrent clients for a bounded time, creating, reading, updating and
 * deleting, some with injected faults. Afterwards the state is exactly what the clients' successful
 * answers say it is, and no error happened but the injected ones.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { ed25519Key, emulator, list } from "../helpers/emulator";

jest.setTimeout(60_000);

test("50 clients for 3 seconds: no lost or corrupted state, no error but the injected ones", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "load-"));
  const file = path.join(dir, "state.json");
  const emu: Emulator = await emulator({
    stateFile: file,
    faults: { seed: 9, rules: [{ match: "^GET /v4/profile/sshkeys/", rate: 0.1, kinds: ["500", "503", "429"] }], retryAfterSeconds: 0 },
  });
  const headers = { authorization: `Bearer ${emu.token}`, "content-type": "application/json" };
  const until = Date.now() + 3000;
  const expected = new Map<number, string>(); // key id -> label, as the answers say
  const unexpected: string[] = [];
  let requests = 0;
  let injected = 0;
  const req = async (method: string, p: string, body?: unknown) => {
    requests++;
    const r = await fetch(`${emu.url}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 400) {
      const injectedFault = method === "GET" && [429, 500, 503].includes(r.status);
      if (injectedFault) injected++;
      else unexpected.push(`${method} ${p}: ${r.status} ${text}`);
    }
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const client = async (n: number) => {
    let i = 0;
    while (Date.now() < until) {
      i++;
      const c = await req("POST", "/profile/sshkeys", { label: `c${n}-${i}`, ssh_key: ed25519Key(n * 10000 + i) });
      if (c.status !== 200) continue;
      expected.set(c.body.id, c.body.label);
      await req("GET", `/profile/sshkeys/${c.body.id}`);
      if (i % 2 === 0) {
        const u = await req("PUT", `/profile/sshkeys/${c.body.id}`, { label: `c${n}-${i}-renamed` });
        if (u.status === 200) expected.set(c.body.id, u.body.label);
      }
      if (i % 3 === 0) {
        const d = await req("DELETE", `/profile/sshkeys/${c.body.id}`);
        if (d.status === 200) expected.delete(c.body.id);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: 50 }, (_, n) => client(n)));
    expect(unexpected).toEqual([]);
    expect(injected).toBeGreaterThan(0);
    // Every client made several requests at once with the others (how many a second is the bench's: npm run bench).
    expect(requests).toBeGreaterThan(150);
    const keys = await list(emu, "/profile/sshkeys");
    const actual = new Map(keys.map((k) => [k.id, k.label]));
    expect(actual).toEqual(expected);
    // Ids are unique, and the database holds the same state: an emulator started from it answers the same.
    expect(new Set(keys.map((k) => k.id)).size).toBe(keys.length);
    await emu.close();
    const again = await emulator({ stateFile: file });
    try {
      expect(new Map((await list(again, "/profile/sshkeys")).map((k) => [k.id, k.label]))).toEqual(expected);
    } finally {
      await again.close();
    }
    console.log(
      `emulator load: ${requests} requests from 50 clients in 3 s (${Math.round(requests / 3)}/s), ${injected} injected faults, ${expected.size} keys left`,
    );
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
