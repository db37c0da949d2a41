/**
 * The emulator under generated requests (issue 45): every endpoint of the three spec documents, called with
 * bodies made of the API's own field names holding good and hostile values (wrong types, control characters,
 * extreme numbers, deep nesting), any JSON at all, bodies that are not JSON, odd path segments, odd paging and
 * X-Filter headers, and four kinds of caller (the root token, a read-only token, a made-up token, none).
 *
 * What must hold, for every request:
 * - an answer (no hang: each request has 10 seconds), and never a 5xx: a client's mistake is a 4xx;
 * - an answer that is JSON; a refusal in the API's error envelope, each reason a text;
 * - a refused write changes nothing: the account, read through every GET of the spec, is as it was;
 * - what was acknowledged is there: a created record is found at its path, a deleted one is gone (or going),
 *   an updated one reads back as answered;
 * and, after each run, the emulator restarted from its state file answers every read as before the restart.
 *
 * Each run is a fresh emulator (on a fixed clock, instant transitions) with one record of each family, so
 * that a failure shrinks to the few requests that cause it. The seed is fixed, so that CI is repeatable:
 * FUZZ_SEED=n and FUZZ_RUNS=n explore further (`FUZZ_RUNS=2000 npx jest emulator-fuzz`).
 */
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Emulator } from "../../emulator/server";
import { emulator, list } from "../helpers/emulator";
import { fuzzRequest, type FuzzRequest } from "../helpers/fuzz-requests";
import { fill, fixtures, specEndpoints } from "../helpers/spec-endpoints";

const SEED = Number(process.env.FUZZ_SEED ?? 45045);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const CLOCK = Date.parse("2026-03-10T12:00:00Z");

const endpoints = specEndpoints();
const reads = endpoints.filter((e) => e.method === "GET");

// ---- talking to the emulator ------------------------------------------------------------------------------

interface Answer {
  status: number;
  text: string;
}

/** One request, given 10 seconds: an emulator that does not answer by then has hung. */
async function send(
  emu: Emulator,
  method: string,
  path: string,
  init: { token?: string; body?: string; contentType?: string; filter?: string },
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
  if (init.filter !== undefined) headers["x-filter"] = init.filter;
  let res: Response;
  try {
    res = await fetch(emu.url + path, { method, headers, body: init.body, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new Error(`${method} ${path}: no answer (${(err as Error).message})`);
  }
  return { status: res.status, text: await res.text() };
}

/** The account as every GET of the spec and every list answers it: what a refused write must not change. */
async function account(emu: Emulator, ids: Record<string, string>): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const now = new Date(CLOCK);
  for (const e of reads) {
    const path = fill(e.path, ids, now);
    const answer = await send(emu, "GET", path, { token: emu.token });
    seen[path] = `${answer.status} ${answer.text}`;
  }
  // Records made during the run are in the lists above; their children are read here.
  for (const instance of await list(emu, "/compute/instances")) {
    for (const child of ["disks", "configs", "backups"]) {
      const path = `/compute/instances/${instance.id}/${child}`;
      seen[path] = (await send(emu, "GET", path, { token: emu.token })).text;
    }
  }
  for (const vpc of await list(emu, "/vpcs")) {
    const path = `/vpcs/${vpc.id}/subnets`;
    seen[path] = (await send(emu, "GET", path, { token: emu.token })).text;
  }
  return seen;
}

const differences = (before: Record<string, string>, after: Record<string, string>): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}\n    before: ${(before[k] ?? "(not read)").slice(0, 300)}\n    after:  ${(after[k] ?? "(not read)").slice(0, 300)}`);

/** The path of a request: its endpoint filled with the run's ids, perhaps one parameter made odd, and its query. */
function pathOf(r: FuzzRequest, ids: Record<string, string>): string {
  let template = r.endpoint.path;
  if (r.oddSegment !== undefined) {
    const params = [...template.matchAll(/\{\w+\}/g)];
    if (params.length) template = template.replace(params[params.length - 1][0], r.oddSegment);
  }
  return fill(template, ids, new Date(CLOCK)) + r.query;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A GET endpoint of the spec whose template the created record's path matches: where an acknowledged create is read. */
const readable = (path: string) => reads.some((e) => new RegExp(`^${e.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path));

// ---- the property -----------------------------------------------------------------------------------------

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-fuzz-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
test("every endpoint, under generated requests: no 5xx, no hang, a refused write changes nothing, an acknowledged one is kept", async () => {
  // The ids are the same in every run: each run's fixtures are made the same way on a fresh emulator.
  const probe = await emulator({ now: () => CLOCK, speed: 0 });
  const ids = await fixtures(probe, () => undefined);
  await probe.close();
  const tally = { requests: 0, refused: 0, acknowledged: 0 };

  await fc.assert(
    fc.asyncProperty(fc.array(fuzzRequest(endpoints, ids), { minLength: 1, maxLength: 12 }), async (requests) => {
      const file = join(dir, `state-${runs++}.json`);
      let emu = await emulator({ now: () => CLOCK, speed: 0, stateFile: file });
      try {
        const made = await fixtures(emu, () => undefined);
        expect(made).toEqual(ids);
        const readOnly = JSON.parse(
          (
            await send(emu, "POST", "/profile/tokens", {
              token: emu.token,
              body: JSON.stringify({ label: "fuzz-ro", scopes: "account:read_only computes:read_only databases:read_only images:read_only vpc:read_only" }),
            })
          ).text,
        ).token as string;
        const tokens = { root: emu.token, readOnly, madeUp: "0123456789abcdef0123456789abcdef", none: undefined };
        let before = await account(emu, ids);
        for (const r of requests) {
          const method = r.endpoint.method;
          const path = pathOf(r, ids);
          const body = method === "GET" || r.body.kind === "none" ? undefined : r.body.kind === "json" ? JSON.stringify(r.body.value) : r.body.text;
          const contentType = r.body.kind === "raw" ? r.body.contentType : undefined;
          const answer = await send(emu, method, path, { token: tokens[r.caller], body, contentType, filter: r.filter });
          tally.requests++;
          const what = `${method} ${path} as ${r.caller} with ${body ?? "no body"}${r.filter ? ` and X-Filter ${r.filter}` : ""}: ${answer.status} ${answer.text.slice(0, 300)}`;
          if (answer.status >= 500) throw new Error(`a 5xx: ${what}`);
          let parsed: any;
          try {
            parsed = answer.text ? JSON.parse(answer.text) : undefined;
          } catch {
            throw new Error(`an answer that is not JSON: ${what}`);
          }
          if (answer.status >= 400) {
            const errors = parsed?.errors;
            if (!Array.isArray(errors) || errors.length === 0 || errors.some((e: any) => typeof e?.reason !== "string")) {
              throw new Error(`a refusal outside the error envelope: ${what}`);
            }
          }
          if (method === "GET") continue;
          const after = await account(emu, ids);
          if (answer.status >= 400) {
            tally.refused++;
            const changed = differences(before, after);
            if (changed.length) throw new Error(`a refused write changed the account: ${what}\n  ${changed.join("\n  ")}`);
          } else {
            tally.acknowledged++;
            const itemPath = path.replace(/\?.*$/, "");
            if (method === "POST" && parsed && typeof parsed.id === "number" && readable(`${itemPath}/${parsed.id}`)) {
              const read = await send(emu, "GET", `${itemPath}/${parsed.id}`, { token: emu.token });
              if (read.status !== 200) throw new Error(`an acknowledged create is not found at ${itemPath}/${parsed.id} (${read.status}): ${what}`);
            }
            if (method === "DELETE" && readable(itemPath)) {
              const read = await send(emu, "GET", itemPath, { token: emu.token });
              const going = read.status === 200 && /"status": ?"(deleting|pending_deletion)"/.test(read.text);
              if (read.status !== 404 && !going) throw new Error(`an acknowledged delete is still there (${read.status} ${read.text.slice(0, 200)}): ${what}`);
            }
            if (method === "PUT" && readable(itemPath) && isObject(parsed) && r.body.kind === "json" && isObject(r.body.value)) {
              // Each field the update set reads back as the answer gave it (a status may move on meanwhile).
              const read = JSON.parse((await send(emu, "GET", itemPath, { token: emu.token })).text);
              const differs = Object.keys(r.body.value).filter((k) => k in parsed && JSON.stringify(read[k]) !== JSON.stringify(parsed[k]));
              if (differs.length)
                throw new Error(`an acknowledged update reads back otherwise (${differs.join(", ")}): ${what}\n  read: ${JSON.stringify(read).slice(0, 300)}`);
            }
          }
          before = after;
        }
        await emu.close();
        // What was acknowledged is in the file: the emulator started from it answers as before.
        emu = await emulator({ now: () => CLOCK, speed: 0, stateFile: file });
        const restarted = await account(emu, ids);
        const lost = differences(before, restarted);
        if (lost.length) throw new Error(`after a restart from the state file, the account differs:\n  ${lost.join("\n  ")}`);
      } finally {
        await emu.close();
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: false },
  );
  console.log(`Fuzzing: ${RUNS} runs (seed ${SEED}), ${tally.requests} requests, ${tally.refused} refused writes, ${tally.acknowledged} acknowledged writes`);
  // The generators reach both sides: writes are refused and writes are kept.
  expect(tally.refused).toBeGreaterThan(RUNS);
  expect(tally.acknowledged).toBeGreaterThan(RUNS / 3);
}, 600_000);
