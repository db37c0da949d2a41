/**
 * The emulator's soak: a long run of the traffic that used to grow its memory (15 KB paths, a new
 * Authorization header with every request, VPC creates and deletes, each leaving an event, X-Filter reads,
 * bodies that do not parse, unknown ids, preferences replaced), with the heap measured after a full garbage
 * collection at even steps. What grows with traffic is bounded (the request log, the rate limit's buckets, the
 * events: docs/spec-gaps.md), so the heap levels off once the windows are full.
 *
 * Run in a process of its own with the collector exposed, which prints one JSON object:
 *   node --expose-gc dist/scripts/bench/soak.js [--requests N] [--samples N] [--log-window N] [--events-window N]
 * `npm run bench -- --only soak` runs it at the default windows (section "Emulator memory");
 * tests/integration/emulator-soak.test.ts samples it with small windows, to see the level sooner.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { startEmulator } from "../../emulator/server";
import { fmt } from "./common";

export interface SoakSample {
  requests: number;
  /** Heap in use after a full collection, bytes. */
  heapUsed: number;
  rss: number;
  logEntries: number;
  events: number;
  buckets: number;
}

export interface SoakResult {
  requests: number;
  windows: { log?: number; events?: number };
  samples: SoakSample[];
  /** Answers by status (a 5xx would be a failure of the run). */
  statuses: Record<string, number>;
}

export async function soak(requests: number, samples: number, windows: { log?: number; events?: number }): Promise<SoakResult> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the soak measures the heap after a full collection: run it with node --expose-gc");
  const emu = await startEmulator({ speed: 0, rateLimit: 1e9, windows });
  const pool = new Pool(emu.url.replace(/\/v4$/, ""), { connections: 8 });
  const auth = { authorization: `Bearer ${emu.token}` };
  const json = { ...auth, "content-type": "application/json" };
  const longPath = `/v4/regions?${"a".repeat(15_000)}`;
  const preferences = JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, "v".repeat(40)])));
  const statuses: Record<string, number> = {};
  let sent = 0;
  const ask = async (method: "GET" | "POST" | "PUT" | "DELETE", path: string, headers: Record<string, string>, body?: string) => {
    const answer = await pool.request({ method, path, headers, body });
    const text = await answer.body.text();
    statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
    sent++;
    return { status: answer.statusCode, text };
  };
  /** One cycle: eight requests. */
  const cycle = async (i: number) => {
    await ask("GET", longPath, {});
    await ask("GET", "/v4/profile", { authorization: `Bearer forged-${i}-${"x".repeat(64)}` });
    const vpc = await ask("POST", "/v4/vpcs", json, JSON.stringify({ label: `soak-${i}`, region: "us-east" }));
    const id = (JSON.parse(vpc.text) as { id?: number }).id;
    await ask("DELETE", `/v4/vpcs/${id}`, auth);
    await ask("GET", "/v4/vpcs", { ...auth, "x-filter": JSON.stringify({ label: `soak-${i}` }) });
    await ask("POST", "/v4/vpcs", json, "{");
    await ask("GET", "/v4/compute/instances/999999", auth);
    await ask("PUT", "/v4/profile/preferences", json, preferences);
  };
  const measure = (): SoakSample => {
    gc();
    gc();
    return {
      requests: sent,
      heapUsed: process.memoryUsage().heapUsed,
      rss: process.memoryUsage().rss,
      logEntries: emu.log.length,
      events: emu.store.data.events.length,
      buckets: emu.rateLimit.held,
    };
  };
  const result: SoakSample[] = [measure()];
  const cycles = Math.ceil(requests / 8);
  const step = Math.max(1, Math.floor(cycles / samples));
  const lanes = 8;
  for (let done = 0; done < cycles;) {
    const next = Math.min(cycles, done + step);
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = done + lane; i < next; i += lanes) await cycle(i);
      }),
    );
    done = next;
    result.push(measure());
  }
  await pool.close();
  await emu.close();
  return { requests: sent, windows, samples: result, statuses };
}

/** Section 9: the soak at the default windows, in a process of its own (the heap measured is the emulator's and its driver's). */
export async function emulatorSoak(requests: number): Promise<string> {
  const out = execFileSync(process.execPath, ["--expose-gc", path.join(__dirname, "soak.js"), "--requests", String(requests), "--samples", "8"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(out) as SoakResult;
  const mb = (bytes: number) => fmt(bytes / 1024 ** 2, 1);
  const half = result.samples[Math.floor(result.samples.length / 2)];
  const end = result.samples[result.samples.length - 1];
  return Promise.resolve(
    [
      "## 9. Emulator memory",
      "",
      `${result.requests.toLocaleString("en-US")} requests through 8 keep-alive connections, eight kinds in turn: a 15 KB path, a new Authorization header each time (a rate limit set, so each makes a bucket), a VPC created and deleted (two events), an X-Filter read, a body that does not parse, an unknown id, preferences replaced; the emulator and its driver in one process, the heap measured after a full garbage collection. The request log keeps the last 50,000 requests, the events the last 10,000, the rate limit the buckets of the last seconds (docs/spec-gaps.md). Answers: ${Object.entries(
        result.statuses,
      )
        .map(([s, n]) => `${n} × ${s}`)
        .join(", ")}. Target: the heap level once the windows are full (the second half grows by under 5%).`,
      "",
      "| requests | heap after GC (MB) | resident (MB) | log entries | events | buckets |",
      "|---|---|---|---|---|---|",
      ...result.samples.map(
        (s) =>
          `| ${s.requests.toLocaleString("en-US")} | ${mb(s.heapUsed)} | ${mb(s.rss)} | ${s.logEntries.toLocaleString("en-US")} | ${s.events.toLocaleString("en-US")} | ${s.buckets.toLocaleString("en-US")} |`,
      ),
      "",
      `From ${half.requests.toLocaleString("en-US")} requests to the end: the heap ${end.heapUsed >= half.heapUsed ? "+" : ""}${mb(end.heapUsed - half.heapUsed)} MB (${fmt(((end.heapUsed - half.heapUsed) / half.heapUsed) * 100, 1)}%).`,
      "",
    ].join("\n"),
  );
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      requests: { type: "string", default: "200000" },
      samples: { type: "string", default: "8" },
      "log-window": { type: "string" },
      "events-window": { type: "string" },
    },
  });
  const windows = {
    ...(values["log-window"] ? { log: Number(values["log-window"]) } : {}),
    ...(values["events-window"] ? { events: Number(values["events-window"]) } : {}),
  };
  soak(Number(values.requests), Number(values.samples), windows).then(
    (r) => console.log(JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
