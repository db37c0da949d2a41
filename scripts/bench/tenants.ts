/**
 * The emulator as a service a team shares (issue 53): what an import costs with and without the store, the memory
 * of 1,000 accounts each filled to its quota while they are used, and another tenant's latency while one is
 * under attack. Run in a process of its own with the collector exposed, which prints one JSON object:
 *   node --expose-gc dist/scripts/bench/tenants.js [--accounts N] [--quota N] [--rounds N]
 * `npm run bench -- --only tenants` runs it (section "The emulator for a team"). COMPUTE_BENCH_EMULATOR names
 * another build's dist/emulator/server.js (an earlier release's, for a before-and-after).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { ed25519Key } from "../keys";
import { fmt } from "./common";

interface Started {
  url: string;
  token: string;
  close(): Promise<void>;
}
type Start = (opts: Record<string, unknown>) => Promise<Started>;

/** The emulator to measure: this build's, or another's (COMPUTE_BENCH_EMULATOR). */
async function starter(): Promise<Start> {
  const other = process.env.COMPUTE_BENCH_EMULATOR;
  const mod = (other ? await import(path.resolve(other)) : await import("../../emulator/server")) as { startEmulator: Start };
  return mod.startEmulator;
}

/** Bytes this process has had written to storage so far (Linux: /proc/self/io `write_bytes`). */
const written = (): number => Number(/write_bytes: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"))?.[1] ?? 0);

function client(emu: Started, token = emu.token) {
  const pool = new Pool(emu.url.replace(/\/v4$/, ""), { connections: 8 });
  const ask = async (method: "GET" | "POST" | "PUT" | "DELETE", p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await pool.request({
      method,
      path: p,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.body.text();
    return { status: r.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  return { ask, close: () => pool.close() };
}

/** A fixture of `n` SSH keys (records of the export's own form). */
function keysDocument(n: number, from: number) {
  const sshkeys = Array.from({ length: n }, (_, i) => ({
    id: from + i,
    label: `key-${from + i}`,
    ssh_key: ed25519Key(from + i),
    created: "2026-01-01T00:00:00",
    username: "admin",
  }));
  return { format: "compute-emulator-account", version: 1, records: { sshkeys } };
}

/** A fixture of 1,000 requests, each making an SSH key (the keys `from` on). */
function keyRequests(from: number) {
  const requests = Array.from({ length: 1000 }, (_, i) => ({
    method: "POST",
    path: "/profile/sshkeys",
    body: { label: `key-${from + i}`, ssh_key: ed25519Key(from + i) },
  }));
  return { format: "compute-emulator-account", version: 1, requests };
}

/** Ten imports of 1,000 SSH keys each (requests) into one account, which holds 10,000 at the end: each import's seconds, the bytes written, the file's size. */
async function imports(start: Start, store: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-tenants-"));
  const file = path.join(dir, "state");
  const emu = await start({ speed: 0, ...(store ? { stateFile: file } : {}), quotas: { records: 100_000, bytes: 1e9 } });
  const { ask, close } = client(emu);
  const seconds: number[] = [];
  const before = written();
  try {
    for (let i = 1; i <= 10; i++) {
      const doc = keyRequests(i * 1000);
      const t0 = performance.now();
      const r = await ask("POST", "/__emulator/import", doc);
      if (r.status !== 200) throw new Error(`import ${i}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      seconds.push((performance.now() - t0) / 1000);
    }
  } finally {
    await close();
    await emu.close();
  }
  const bytes = written() - before;
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    size = 0;
  }
  rmSync(dir, { recursive: true, force: true });
  return { seconds, bytes, size };
}

const heap = (): number => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc: the heap is measured after a full collection");
  gc();
  return process.memoryUsage().heapUsed;
};

/** The request log's and the events' window of the filled accounts' run. */
const WINDOW = 20;

/** `accounts` accounts each filled to a quota of `quota` records, then used for `rounds` rounds: the heap after each. */
async function filled(start: Start, accounts: number, quota: number, rounds: number) {
  // The windows of what grows with traffic (each account's log and events) small, so that they fill within the run.
  const emu = await start({ speed: 0, quotas: { records: quota }, windows: { log: WINDOW, events: WINDOW } });
  const root = client(emu);
  const tokens: string[] = [];
  const t0 = performance.now();
  // The owner and its root token are 2 records: the rest are keys.
  const doc = keysDocument(quota - 2, 1);
  for (let i = 1; i < accounts; i++) {
    const made = await root.ask("POST", "/__emulator/accounts", { label: `tenant-${i}`, fixture: doc });
    if (made.status !== 200) throw new Error(`account ${i}: ${made.status} ${JSON.stringify(made.body).slice(0, 300)}`);
    tokens.push(String(made.body.token));
  }
  const fillSeconds = (performance.now() - t0) / 1000;
  const samples = [heap()];
  let refusedPastQuota = 0;
  for (let round = 0; round < rounds; round++) {
    for (const token of tokens) {
      const c = client(emu, token);
      // Past the quota: refused. Then a key deleted and one made in its place; the account read.
      const past = await c.ask("POST", "/v4/profile/sshkeys", { label: "one-more", ssh_key: ed25519Key(900_000 + round) });
      if (past.status === 403) refusedPastQuota++;
      const list = await c.ask("GET", "/v4/profile/sshkeys?page_size=25");
      const first = (list.body.data as Array<{ id: number }>)[0];
      await c.ask("DELETE", `/v4/profile/sshkeys/${first.id}`);
      await c.ask("POST", "/v4/profile/sshkeys", { label: `again-${round}`, ssh_key: ed25519Key(800_000 + round) });
      await c.close();
    }
    samples.push(heap());
  }
  await root.close();
  await emu.close();
  return { accounts, quota, fillSeconds, samples, refusedPastQuota, rounds };
}

/** Percentiles of a list of numbers (ms). */
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Another tenant's `GET /v4/profile` latency, quiet and while one tenant sends its worst (X-Filters at the work bound, writes). */
async function isolation(start: Start) {
  const emu = await start({ speed: 0, quotas: { records: 100_000, bytes: 1e9 } });
  const root = client(emu);
  const attacker = (await root.ask("POST", "/__emulator/accounts", { label: "attacker", fixture: keysDocument(4000, 1) })).body;
  const victim = (await root.ask("POST", "/__emulator/accounts", { label: "victim" })).body;
  const a = client(emu, String(attacker.token));
  const v = client(emu, String(victim.token));
  const probe = async (ms: number) => {
    const lat: number[] = [];
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const t0 = performance.now();
      const r = await v.ask("GET", "/v4/profile");
      if (r.status !== 200) throw new Error(`victim: ${r.status}`);
      lat.push(performance.now() - t0);
    }
    return lat;
  };
  const quiet = await probe(3000);
  // 900 conditions over 4,000 keys: 3,600,000 tests, just under the work bound.
  const filter = JSON.stringify({ "+or": Array.from({ length: 449 }, (_, i) => ({ label: `nope-${i}` })) });
  let stop = false;
  let attacks = 0;
  const attack = async (w: number) => {
    for (let i = 0; !stop; i++) {
      if (i % 2) await a.ask("GET", "/v4/profile/sshkeys?page_size=500", undefined, { "x-filter": filter });
      else await a.ask("PUT", "/v4/profile/sshkeys/1", { label: `w${w}-${i}` });
      attacks++;
    }
  };
  const attackers = Array.from({ length: 6 }, (_, w) => attack(w));
  const loud = await probe(5000);
  stop = true;
  await Promise.all(attackers);
  for (const c of [a, v, root]) await c.close();
  await emu.close();
  const stats = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });
  return { quiet: stats(quiet), underAttack: stats(loud), attackRequests: attacks };
}

export interface TenantsResult {
  imports: { memory: Awaited<ReturnType<typeof imports>>; sqlite: Awaited<ReturnType<typeof imports>> };
  filled: Awaited<ReturnType<typeof filled>>;
  isolation: Awaited<ReturnType<typeof isolation>>;
}

/** Runs the measurements in a process of its own (node --expose-gc) and writes the section. */
export function emulatorTenants(): string {
  const out = execFileSync(process.execPath, ["--expose-gc", path.join(__dirname, "tenants.js")], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(out) as TenantsResult;
  const mb = (n: number) => fmt(n / 1024 / 1024, 1);
  const row = (name: string, x: TenantsResult["imports"]["memory"]) =>
    `| ${name} | ${fmt(x.seconds[0], 2)} | ${fmt(x.seconds[9], 2)} | ${fmt(
      x.seconds.reduce((s, t) => s + t, 0),
      1,
    )} | ${mb(x.bytes)} | ${mb(x.size)} |`;
  const f = r.filled;
  return [
    "## 10. The emulator for a team",
    "",
    "Ten imports into one account, each of 1,000 requests making an SSH key (10,000 keys at the end), each import one transaction; bytes written to storage by the process (`/proc/self/io`).",
    "",
    "| Store | first import (s) | tenth (s) | all ten (s) | written (MB) | file (MB) |",
    "|---|---|---|---|---|---|",
    row("memory", r.imports.memory),
    row("SQLite (`--state`)", r.imports.sqlite),
    "",
    `${f.accounts} accounts, each filled to a quota of ${f.quota} records (made with a fixture: ${fmt(f.fillSeconds, 1)} s), then ${f.rounds} rounds of each account's traffic, with each account's request log and events kept to their last ${WINDOW} (\`windows\`, so that they fill within the run: the defaults are 2,000 and 1,000 an account) (a create past its quota, refused: ${f.refusedPastQuota} of ${f.rounds * (f.accounts - 1)}; a list, a delete, a create): the heap after a full collection, filled and after each round (MB): ${f.samples.map(mb).join(", ")}.`,
    "",
    `Another tenant's \`GET /v4/profile\`, one at a time, while one tenant sends X-Filters just under the work bound over 4,000 keys and writes on 6 connections (${r.isolation.attackRequests} requests): quiet p50 ${fmt(r.isolation.quiet.p50, 1)} ms, p99 ${fmt(r.isolation.quiet.p99, 1)} ms; under attack p50 ${fmt(r.isolation.underAttack.p50, 1)} ms, p99 ${fmt(r.isolation.underAttack.p99, 1)} ms, max ${fmt(r.isolation.underAttack.max, 1)} ms (one process serving both, on 2 cores).`,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { accounts: { type: "string" }, quota: { type: "string" }, rounds: { type: "string" } } });
  const start = await starter();
  const result: TenantsResult = {
    imports: { memory: await imports(start, false), sqlite: await imports(start, true) },
    filled: await filled(start, Number(values.accounts ?? 1000), Number(values.quota ?? 200), Number(values.rounds ?? 12)),
    isolation: await isolation(start),
  };
  console.log(JSON.stringify(result));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
