/**
 * The emulator's admin routes under generated requests from several tenants at once (issue 53): accounts, import
 * and export, fixtures, faults, rate limit, users and uploads, each tenant (an account of its own) sending its own
 * sequence while the others send theirs, against one emulator with a state file. Bodies good and hostile: huge,
 * deep, of wrong types, with unknown keys, unicode, negative and huge numbers, duplicate ids, records referring to
 * records that are not there, imports of exports (of the tenant's own and of another's, two at once into one account
 * or into two), uploads finished or cut off mid-stream, faults and rate limits set on one tenant.
 *
 * What must hold, for every request:
 * - an answer, and never a 5xx but an injected fault (on the API of a tenant that asked for faults); the process
 *   goes on;
 * - another tenant's simple request (`GET /v4/profile`, sent every 100 ms through the run) is answered 200 within
 *   2 s: a stall detector, not a measure of speed;
 * - what was acknowledged reads back: an import's records in the account's export, a user's token signs in, the
 *   faults and rate limit as set, an upload's image no longer waiting; and every account's export is the same after
 *   a restart from the state file;
 * - what was refused changed nothing: the account's export is as it was before.
 *
 * Each run is a fresh emulator (a fixed clock, instant transitions) with three tenants and an observer, so that a
 * failure shrinks to the few requests that cause it. The seed is fixed, so that CI is repeatable: FUZZ_SEED=n and
 * FUZZ_RUNS=n explore further (`FUZZ_RUNS=200 npx jest emulator-admin-fuzz`). The probes of the issue, each on its
 * own: emulator-admin-probes.test.ts.
 */
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ed25519Key, emulator } from "../helpers/emulator";
import {
  Answer,
  CLOCK,
  Step,
  difference,
  exportOf,
  importedReadBack,
  json,
  putUpload,
  requestedLabels,
  rootStep,
  sameRecords,
  send,
  settled,
  spoiled,
  step,
} from "../helpers/admin-fuzz";

const SEED = Number(process.env.FUZZ_SEED ?? 53053);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** How long another tenant's `GET /v4/profile` may wait before it counts as a stall. */
const STALL_MS = 2000;
const TENANTS = 3;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-admin-fuzz-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Tenant {
  name: string;
  token: string;
  /** Whether faults were set on its API (a 5xx there may be injected; an answer may be cut). */
  faulted: boolean;
}

const tally = { requests: 0, refused: 0, acknowledged: 0, injected: 0, probes: 0, slowestProbeMs: 0 };
let runs = 0;

test("every admin route, from three tenants at once: no 5xx, no crash, no stall of another tenant, nothing acknowledged lost, nothing refused kept", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(step, { minLength: 1, maxLength: 8 }), { minLength: TENANTS, maxLength: TENANTS }),
      fc.array(rootStep, { maxLength: 4 }),
      async (plans, rootPlan) => {
        const file = join(dir, `state-${runs++}.db`);
        let emu = await emulator({ now: () => CLOCK, speed: 0, stateFile: file });
        const failures: string[] = [];
        let stop = false;
        let observer: Promise<void> = Promise.resolve();
        try {
          // Three tenants (each with a key and a VPC, so that its export carries records) and an observer.
          const made: Tenant[] = [];
          for (let i = 0; i < TENANTS + 1; i++) {
            const a = await send(emu, "POST", "/__emulator/accounts", emu.token, json({ label: `tenant-${i}` }));
            if (a.status !== 200) throw new Error(`making a tenant: ${a.status} ${a.text}`);
            made.push({ name: `tenant-${i}`, token: a.body.token, faulted: false });
            await send(emu, "POST", "/profile/sshkeys", a.body.token, json({ label: `t${i}-key`, ssh_key: ed25519Key(900 + i) }));
            await send(emu, "POST", "/vpcs", a.body.token, json({ label: `t${i}-vpc`, region: "us-east", subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] }));
          }
          const watcher = made.pop()!;
          const tenants = made;

          // The stall detector: the observer's GET /v4/profile, every 100 ms, answered 200 within STALL_MS.
          observer = (async () => {
            while (!stop) {
              const t0 = performance.now();
              const r = await send(emu, "GET", "/profile", watcher.token);
              const ms = performance.now() - t0;
              tally.probes++;
              tally.slowestProbeMs = Math.max(tally.slowestProbeMs, Math.round(ms));
              if (r.status !== 200) failures.push(`the observer's GET /v4/profile was answered ${r.status}: ${r.text.slice(0, 200)}`);
              if (ms > STALL_MS) failures.push(`the observer's GET /v4/profile waited ${Math.round(ms)} ms (another tenant stalled it)`);
              await new Promise((r) => setTimeout(r, 100));
            }
          })();

          /** A request of a tenant, checked: never a 5xx but an injected fault; counted. */
          const ask = async (who: Tenant | "root", method: string, path: string, body?: string): Promise<Answer> => {
            const token = who === "root" ? emu.token : who.token;
            const r = await send(emu, method, path, token, body);
            tally.requests++;
            // An injected fault is on the API of a tenant that set faults (never on /__emulator).
            const injectable = who !== "root" && who.faulted && !path.startsWith("/__emulator");
            const what = `${who === "root" ? "root" : who.name}: ${method} ${path} ${body ? body.slice(0, 200) : ""} → ${r.status} ${r.text.slice(0, 300)}`;
            if ((r.status >= 500 || r.status === 0) && !injectable) failures.push(`a 5xx or a cut answer: ${what}`);
            if (r.status >= 500 || r.status === 0) tally.injected++;
            return r;
          };

          /** A change of a tenant's: refused, the export is as before; acknowledged, `check` holds. */
          const change = async (
            t: Tenant,
            what: string,
            before: any,
            acknowledged: boolean,
            check: (after: any) => string | undefined | Promise<string | undefined>,
          ) => {
            const after = await exportOf(emu, t.token);
            if (!acknowledged) {
              tally.refused++;
              if (!sameRecords(before, after)) failures.push(`${t.name}: a refused ${what} changed the account (before / after): ${difference(before, after)}`);
              return;
            }
            tally.acknowledged++;
            const wrong = await check(after);
            if (wrong) failures.push(`${t.name}: an acknowledged ${what} does not read back: ${wrong}`);
          };

          const runTenant = async (t: Tenant, steps: Step[], index: number) => {
            for (const [n, s] of steps.entries()) {
              const tag = `t${index}s${n}`;
              const before = await exportOf(emu, t.token);
              switch (s.op) {
                case "import": {
                  const source = s.from === "self" ? before : await exportOf(emu, tenants[(index + 1) % tenants.length].token);
                  const sent = spoiled(source, s.spoil, tag);
                  const r = await ask(t, "POST", "/__emulator/import", sent);
                  await change(t, `import (${s.from}, ${s.spoil.kind})`, before, r.status === 200, (after) => {
                    const labels = new Set(after.records.sshkeys.map((k: any) => k.label));
                    const missing = requestedLabels(s.spoil, tag).filter((l) => !labels.has(l));
                    return missing.length ? `keys ${missing.slice(0, 3).join(", ")} not made` : importedReadBack(sent, after, r.body.loaded.renumbered);
                  });
                  break;
                }
                case "import-twice": {
                  // Two imports at once: into this account both, or one into this and one into the observer's (whose
                  // GET /v4/profile must go on being answered meanwhile).
                  const target2 = s.otherAccount ? watcher : t;
                  const sent = s.spoils.map((sp, i) => spoiled(before, sp, `${tag}x${i}`));
                  const before2 = s.otherAccount ? undefined : before;
                  const answers = await Promise.all([ask(t, "POST", "/__emulator/import", sent[0]), ask(target2, "POST", "/__emulator/import", sent[1])]);
                  const mine = s.otherAccount ? [0] : [0, 1];
                  const ok = mine.filter((i) => answers[i].status === 200);
                  await change(t, `import of two at once (${s.spoils.map((x) => x.kind).join(", ")})`, before2 ?? before, ok.length > 0, (after) => {
                    // The last one applied is what the account holds: one of the acknowledged.
                    const reads = ok.map((i) => importedReadBack(sent[i], after, answers[i].body.loaded.renumbered));
                    return reads.some((x) => x === undefined) ? undefined : reads.join("; ");
                  });
                  break;
                }
                case "user": {
                  const r = await ask(t, "POST", "/__emulator/users", json(s.body));
                  await change(t, "user", before, r.status === 200, async (after) => {
                    if (!after.records.users.some((u: any) => u.username === r.body.username)) return `${r.body.username} is not a user`;
                    if (t.faulted) return undefined;
                    const me = await send(emu, "GET", "/profile", r.body.token);
                    return me.status === 200 || me.status === 429 ? undefined : `its token signs in ${me.status}`;
                  });
                  break;
                }
                case "faults": {
                  const r = await ask(t, "PUT", "/__emulator/faults", json(s.body));
                  if (r.status === 200) t.faulted = true;
                  await change(t, "faults", before, r.status === 200, async () => {
                    const read = await ask(t, "GET", "/__emulator/faults");
                    return sameRecords(read.body.config, r.body.config) ? undefined : `read ${read.text.slice(0, 200)}`;
                  });
                  break;
                }
                case "clear-faults": {
                  const r = await ask(t, "DELETE", "/__emulator/faults");
                  if (r.status !== 200) failures.push(`${t.name}: DELETE /__emulator/faults answered ${r.status}`);
                  else t.faulted = false;
                  break;
                }
                case "rate-limit": {
                  const r = await ask(t, "PUT", "/__emulator/rate-limit", json(s.body));
                  if (r.status === 200) {
                    const read = await ask(t, "GET", "/__emulator/rate-limit");
                    if (read.body?.perSecond !== r.body.perSecond) failures.push(`${t.name}: the rate limit reads ${read.text} after ${r.text}`);
                  }
                  // The rate limit is not a record: the account's export is as it was either way.
                  await change(t, "rate limit", before, false, () => undefined);
                  break;
                }
                case "upload": {
                  const u = await ask(t, "POST", "/images/upload", json({ label: `${tag}-up`, region: "us-east" }));
                  if (u.status === 0) break; // a `lost` fault: made or not, unknown
                  if (u.status !== 200) {
                    await change(t, "upload", before, false, () => undefined);
                    break;
                  }
                  const id = u.body.image.id as string;
                  const data = s.how === "never" ? Promise.resolve(-1) : putUpload(u.body.upload_to, s.how);
                  // An import refused meanwhile (a record that refers to no user) must not lose the upload.
                  const refusedImport = s.importMeanwhile ? ask(t, "POST", "/__emulator/import", spoiled(before, { kind: "missing-owner" }, tag)) : undefined;
                  const [status, imported] = await Promise.all([data, refusedImport]);
                  if (imported && imported.status !== 400) failures.push(`${t.name}: an import with a missing owner answered ${imported.status}`);
                  const after = await exportOf(emu, t.token);
                  const img = after.records.images.find((i: any) => i.id === id);
                  tally.acknowledged++;
                  if (!img) failures.push(`${t.name}: the image ${id} of an acknowledged upload is gone (data ${status})`);
                  else if (status === 200 && img.status === "pending_upload") failures.push(`${t.name}: an upload answered 200 left ${id} pending`);
                  else if (status !== 200 && img.status !== "pending_upload")
                    failures.push(`${t.name}: an upload answered ${status} changed ${id} to ${img.status}`);
                  if (status >= 500) failures.push(`${t.name}: an upload's data answered ${status}`);
                  break;
                }
                case "key": {
                  const r = await ask(t, "POST", "/profile/sshkeys", json({ label: `${tag}-key`, ssh_key: ed25519Key(s.seed) }));
                  if (r.status === 0) break; // a `lost` fault: taken or not, unknown
                  await change(t, "key", before, r.status === 200, (after) =>
                    after.records.sshkeys.some((k: any) => k.id === r.body.id && k.label === `${tag}-key`) ? undefined : `key ${r.body.id} not there`,
                  );
                  break;
                }
                case "accounts": {
                  // A tenant's token may not make or list accounts.
                  const r = await ask(t, s.method, "/__emulator/accounts", s.method === "POST" ? json({ label: "sneaky" }) : undefined);
                  if (r.status !== 403) failures.push(`${t.name}: ${s.method} /__emulator/accounts answered ${r.status}, not 403`);
                  break;
                }
                case "read": {
                  const r = await ask(t, "GET", s.path);
                  if (r.status !== 200) failures.push(`${t.name}: GET ${s.path} answered ${r.status}`);
                  break;
                }
              }
            }
          };

          const runRoot = async () => {
            const mine: number[] = [];
            for (const s of rootPlan) {
              if (s.op === "list") {
                const r = await ask("root", "GET", "/__emulator/accounts");
                if (r.status !== 200) failures.push(`root: GET /__emulator/accounts answered ${r.status}`);
              } else if (s.op === "make") {
                // Written as text: a deep fixture is deeper than the test's own JSON.stringify can go.
                const fixture = s.fixture === "none" ? undefined : spoiled(await exportOf(emu, tenants[0].token), s.fixture, "root");
                const label = s.label === undefined ? "" : `"label":${json(s.label)}`;
                const body = `{${label}${fixture === undefined ? "" : `${label ? "," : ""}"fixture":${fixture}`}}`;
                const r = await ask("root", "POST", "/__emulator/accounts", body);
                if (r.status === 200) {
                  mine.push(r.body.id);
                  if (fixture) {
                    const wrong = importedReadBack(fixture, await exportOf(emu, r.body.token), r.body.loaded?.renumbered);
                    if (wrong) failures.push(`root: an account made from a fixture does not hold it: ${wrong}`);
                  }
                } else {
                  // A refused account is not made.
                  const list = await ask("root", "GET", "/__emulator/accounts");
                  if (list.body.data.length !== 1 + TENANTS + 1 + mine.length) failures.push(`root: a refused account was made: ${list.text.slice(0, 300)}`);
                }
              } else {
                const id = s.which === "made" ? mine.pop() : s.which === "main" ? 1 : 999_999;
                if (id === undefined) continue;
                const r = await ask("root", "DELETE", `/__emulator/accounts/${id}`);
                const want = s.which === "made" ? 200 : s.which === "main" ? 400 : 404;
                if (r.status !== want) failures.push(`root: DELETE /__emulator/accounts/${id} answered ${r.status}, not ${want}`);
              }
            }
          };

          await Promise.all([...tenants.map((t, i) => runTenant(t, plans[i], i)), runRoot()]);
          stop = true;
          await observer;
          // Nothing the emulator answered was a 5xx of its own, an upload's data (logged in the main account) too.
          for (const [name, token] of [["main", emu.token], ...tenants.map((t) => [t.name, t.token])]) {
            const log = await send(emu, "GET", "/__emulator/log", token);
            for (const entry of log.body as Array<{ method: string; path: string; status: number; fault?: string }>) {
              if (entry.status >= 500 && !entry.fault) failures.push(`${name}'s log: ${entry.method} ${entry.path} was answered ${entry.status}`);
            }
          }
          if (failures.length) throw new Error(failures.join("\n"));

          // Every account as it was, after a restart from the state file.
          const before = (await Promise.all([...tenants, watcher].map((t) => exportOf(emu, t.token)))).map(settled);
          await emu.close();
          emu = await emulator({ now: () => CLOCK, speed: 0, stateFile: file });
          const after = (await Promise.all([...tenants, watcher].map((t) => exportOf(emu, t.token)))).map(settled);
          before.forEach((b, i) => {
            if (!sameRecords(b, after[i]))
              throw new Error(`tenant-${i}'s account differs after a restart from the state file (before / after): ${difference(b, after[i])}`);
          });
        } finally {
          stop = true;
          await observer;
          await emu.close();
        }
      },
    ),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  console.log(
    `Admin fuzzing: ${RUNS} runs (seed ${SEED}), ${tally.requests} requests, ${tally.refused} refused changes, ${tally.acknowledged} acknowledged, ` +
      `${tally.injected} injected faults; the observer's GET /v4/profile answered ${tally.probes} times, the slowest in ${tally.slowestProbeMs} ms`,
  );
  expect(tally.refused).toBeGreaterThan(RUNS);
  expect(tally.acknowledged).toBeGreaterThan(RUNS);
}, 120_000);
