/**
 * The emulator with `--state FILE` loses no acknowledged write (issue 45): an answered change is in the file
 * before its answer is sent, so a killed emulator (SIGKILL, nothing flushed on the way out) comes back with
 * every write it acknowledged; a change whose write fails is answered 503 and not kept, in memory or on disk.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, ROOT_TOKEN } from "../helpers/emulator";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-durability-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

let seed = 1;
const addKey = (emu: Emulator, label: string) => call(emu, "POST", "/profile/sshkeys", { body: { label, ssh_key: ed25519Key(seed++) } });
const keyLabels = async (emu: Emulator): Promise<string[]> => {
  const labels: string[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(emu, "GET", `/profile/sshkeys?page=${page}&page_size=500`);
    labels.push(...(answer.body.data as Array<{ label: string }>).map((k) => k.label));
    if (page >= answer.body.pages) return labels;
  }
};

test("a state file that is not one is refused by name at start, not taken for an empty account", async () => {
  const file = join(dir, "state.json");
  writeFileSync(file, '{"version": 1, "users": [');
  await expect(emulator({ stateFile: file })).rejects.toThrow(`The state file ${file} is not JSON`);
  writeFileSync(file, '{"version": 2}');
  await expect(emulator({ stateFile: file })).rejects.toThrow("is not an emulator state (version 1)");
  writeFileSync(file, "[]");
  await expect(emulator({ stateFile: file })).rejects.toThrow(`The state file ${file} is not an emulator state (file is not a database)`);
});

/** The emulator's command, started on a state file; resolves with its URL once it serves. */
async function startCli(file: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(__dirname, "../../dist/emulator/cli.js"), "--state", file, "--token", ROOT_TOKEN, "--speed", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

test("killed with SIGKILL in a storm of writes, the emulator comes back with every write it answered", async () => {
  const file = join(dir, "state.json");
  const first = await startCli(file);
  const emu = { url: first.url, token: ROOT_TOKEN } as Emulator;
  const acknowledged: string[] = [];
  let killed = false;
  // Eight writers at once; the emulator is killed once 300 writes are answered, others still in flight.
  const writer = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const label = `w${w}-${i}`;
      const answer = await addKey(emu, label).catch(() => undefined);
      if (answer?.status === 200) acknowledged.push(label);
      if (acknowledged.length >= 300 && !killed) {
        killed = true;
        first.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(writer));
  await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode ? resolve(undefined) : first.child.once("exit", resolve)));
  expect(first.child.signalCode).toBe("SIGKILL");

  const second = await startCli(file);
  try {
    const kept = new Set(await keyLabels({ url: second.url, token: ROOT_TOKEN } as Emulator));
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    expect(acknowledged.filter((label) => !kept.has(label))).toEqual([]);
    // And it still takes writes.
    expect((await addKey({ url: second.url, token: ROOT_TOKEN } as Emulator, "after-restart")).status).toBe(200);
  } finally {
    second.child.kill("SIGTERM");
  }
});
