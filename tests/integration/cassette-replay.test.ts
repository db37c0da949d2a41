/**
 * The real API's recorded conversations, replayed against the emulator (tests/fixtures/cassettes: the official
 * Go client's integration tests as recorded by go-vcr, renamed to this API; see its README). Each cassette runs
 * in order against a fresh emulator, as the Go client sent it:
 *
 * - the ids the recording's creates answered are mapped to the emulator's as they are made, in the paths and
 *   bodies of the requests that follow (and `private/<id>` image ids); an event's id is mapped from the first
 *   events list that shows it (paired by action and entity), in paths (`/account/events/<id>`) and in the
 *   `X-Filter` the client waits with (`entity.id`, `"id": {"+gte": <id>}`, operators taking their field's ids);
 * - a GET the client repeated until a state (a status) is repeated until the emulator shows the state the
 *   recording reached, for a while (a list read once is not, when it has other items than recorded);
 * - an events list the client polled to wait on an operation (linodego's WaitForEventFinished: until the event
 *   shows, then until it is `finished`) is repeated until the emulator shows as many events, each as far as
 *   recorded or further (`scheduled` < `started`, `notification` < `finished`), for 3 s at most: a departure
 *   (`#N events`) when not; the events' `created +gte` filter values are 2024's or sanitized, before any now;
 * - a request the client sent after waiting on something outside the spec is sent after a short wait;
 * - a request the real API refused with "Compute busy." (the instance had actions under way) and the client
 *   sent again is sent as the client sent it in the end: once, again while the emulator answers busy;
 * - request values that were valid when recorded are given a valid form again: an `expiry` now in the past (or
 *   sanitized to `2018-01-02T03:04:05`, as every recorded time) is a year ahead, an `email` sanitized to
 *   `REDACTED` an address;
 * - each interaction (the events lists too) is compared: the HTTP status, the error body (each `reason` and
 *   `field`) and, for an answer with a body, its shape (tests/helpers/shapes.ts: field names and JSON types,
 *   recursively). A field the emulator answers and the 2024 recording lacks is no departure when the newer
 *   recorded answers of the same collection have it (tests/fixtures/real-answers: the API grew it since).
 *
 * Every departure left is one row of docs/spec-gaps.md's section "Recorded conversations replayed", with its
 * reason: the test fails on a departure that is not there, and on a row that no longer matches anything.
 * It prints the figures (cassettes, interactions, equal status, events lists as far as recorded, equal error or
 * shape). The cassettes are made by scripts/cassettes.ts (see tests/fixtures/cassettes/README.md).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/server";
import { emulator } from "../helpers/emulator";
import { loadAnswers } from "../helpers/replay";
import { eventsReached, Ids, isEventPath, isRecord, statusesOf } from "../helpers/replay-ids";
import { BEYOND_SPEC, endpointOf, key, parityReport, type EndpointTally } from "../helpers/parity";
import { compare, paths, shape } from "../helpers/shapes";
import { specEndpoints, type Endpoint } from "../helpers/spec-endpoints";
import { rowOf, unread } from "../helpers/contract-reads";
import type { CassetteFile, Interaction } from "../../scripts/cassettes";

const ROOT = join(__dirname, "..", "..");
const DIR = join(ROOT, "tests", "fixtures", "cassettes");

/** One recorded interaction, as scripts/cassettes.ts writes it. */
type Recorded = Interaction;

const cassettes: Array<[string, CassetteFile]> = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(DIR, f), "utf8")) as CassetteFile]);

/**
 * The departures docs/spec-gaps.md accepts: the rows of its sections "Recorded conversations replayed" and
 * "Recorded answers the contract does not read", `departure` -> why.
 */
function acceptedDepartures(): Map<string, string> {
  return new Map([...sectionRows("## Recorded conversations replayed"), ...sectionRows("## Recorded answers the contract does not read")]);
}

function sectionRows(title: string): Map<string, string> {
  const text = readFileSync(join(ROOT, "docs", "spec-gaps.md"), "utf8");
  const start = text.indexOf(title);
  if (start < 0) throw new Error(`docs/spec-gaps.md has no section "${title}"`);
  const rest = text.slice(start + 3);
  const section = rest.slice(0, rest.search(/\n## /) < 0 ? undefined : rest.search(/\n## /));
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const m = /^\| `([^`]+)` \| (.+) \|$/.exec(line.trim());
    if (m) rows.set(m[1], m[2]);
  }
  return rows;
}

// ---- the replay ----------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: unknown;
}

async function send(emu: Emulator, r: Recorded, ids: Ids): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${emu.token}`, accept: "application/json" };
  if (r.filter !== undefined) headers["x-filter"] = JSON.stringify(ids.body(r.filter));
  let body: string | undefined;
  if (r.body !== undefined) {
    body = JSON.stringify(ids.body(r.body));
    headers["content-type"] = "application/json";
  }
  const res = await fetch(`${emu.url}${ids.path(r.path)}${r.query ? `?${r.query}` : ""}`, { method: r.method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The states an answer shows: its `status`, or its items' (a list). */
function states(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (typeof body.status === "string") return body.status;
  if (Array.isArray(body.data)) {
    const s = body.data.filter(isRecord).map((x) => x.status);
    return s.some((x) => typeof x === "string") ? JSON.stringify(s) : undefined;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether two answers have as many items (true when either is not a list). */
const sameCount = (a: unknown, b: unknown) =>
  !(isRecord(a) && Array.isArray(a.data) && isRecord(b) && Array.isArray(b.data)) || a.data.length === b.data.length;

/** The collection a path reads: its part before the first id (`/compute/instances`, `/vpcs`, `/profile/tokens`). */
const collectionOf = (path: string) => path.split(/\/(?:\d+|private)(?:\/|$)/)[0];

/** The fields the newer recorded answers have, by collection (`data[].` taken off a list's items). */
const NEWER_FIELDS = (() => {
  const out = new Map<string, Set<string>>();
  for (const a of loadAnswers()) {
    if (a.body === null || typeof a.body !== "object") continue;
    const set = out.get(collectionOf(a.path)) ?? new Set<string>();
    for (const p of paths(shape(a.body), "", new Set())) set.add(p.replace(/^data\[\]\./, ""));
    out.set(collectionOf(a.path), set);
  }
  return out;
})();
const newerField = (path: string, field: string) => NEWER_FIELDS.get(collectionOf(path))?.has(field.replace(/^data\[\]\./, "")) ?? false;

/** A path with its ids taken out, for the departures of a kind of answer: `GET /compute/instances/{id}/disks`. */
const pattern = (r: Pick<Recorded, "method" | "path">) => `${r.method} ${r.path.replace(/\/private\/\d+/, "/private/{id}").replace(/\/\d+(?=\/|$)/g, "/{id}")}`;

const errorsOf = (body: unknown): string =>
  isRecord(body) && Array.isArray(body.errors)
    ? body.errors
        .filter(isRecord)
        .map((e) => (e.field !== undefined ? `${String(e.field)}: ${String(e.reason)}` : String(e.reason)))
        .join("; ")
    : JSON.stringify(body);

interface Departure {
  key: string;
  detail: string;
}

const found: Departure[] = [];

/** Per endpoint (the spec's, the events beside them, and any other path recorded), what replayed how: docs/parity.md. */
const endpoints: Endpoint[] = [...specEndpoints(), ...BEYOND_SPEC];
const tallies = new Map<string, EndpointTally>();
const tallyOf = (r: Pick<Recorded, "method" | "path">): EndpointTally => {
  let e = endpointOf(endpoints, r.method, r.path);
  if (!e) {
    e = { doc: "beyond the tables", method: r.method, path: pattern(r).slice(r.method.length + 1) };
    if (!endpoints.some((x) => key(x) === key(e!))) endpoints.push(e);
  }
  const k = key(e);
  if (!tallies.has(k)) tallies.set(k, { interactions: 0, sameStatus: 0, sameBody: 0, answers: 0, read: 0, departures: new Set() });
  return tallies.get(k)!;
};
const depart = (r: Pick<Recorded, "method" | "path">, d: Departure) => {
  found.push(d);
  tallyOf(r).departures.add(d.key);
};
const figures = {
  cassettes: 0,
  interactions: 0,
  equalStatus: 0,
  equalBody: 0,
  busyRetries: 0,
  events: 0,
  eventsReached: 0,
  newerFields: new Set<string>(),
  answers: 0,
  read: 0,
};

/**
 * A recorded answer (an interaction's, or one of tests/fixtures/real-answers) read by its row's answer schema: each
 * field the schema does not read a departure (`GET /regions data[].placement_group_limits: not in the contract`).
 */
function readByContract(r: Pick<Recorded, "method" | "path" | "status" | "response">, from: string): void {
  if (r.status >= 300 || r.response === null || r.response === undefined) return;
  const row = rowOf(r.method, r.path);
  if (!row) return;
  const tally = tallyOf(r);
  tally.answers++;
  figures.answers++;
  const missed = unread(row, r.response);
  if (!missed.length) {
    tally.read++;
    figures.read++;
  }
  for (const m of missed) depart(r, { key: `${row.method} ${row.path} ${m}`, detail: `${from}: the answer's ${m}` });
}

/** The real API's answer while an instance has actions under way. */
const busy = (body: unknown) => errorsOf(body) === "Compute busy.";

async function replay(name: string, c: CassetteFile): Promise<void> {
  // 0.001 when an instance create took 8 s at speed 1, 74 s now: as fast as then.
  const emu = await emulator({ speed: 0.001 * (8 / 74) });
  const ids = new Ids();
  try {
    for (const [n, r] of c.interactions.entries()) {
      const next = c.interactions[n + 1];
      if (busy(r.response) && next && next.method === r.method && next.path === r.path && JSON.stringify(next.body) === JSON.stringify(r.body)) {
        figures.busyRetries++;
        continue;
      }
      if (r.after) await sleep(60);
      let got = await send(emu, r, ids);
      for (let k = 0; k < 100 && busy(got.body) && !busy(r.response); k++) {
        await sleep(20);
        got = await send(emu, r, ids);
      }
      const want = states(r.response);
      const where = `${name}#${r.i}`;
      readByContract(r, where);
      if (r.method === "GET" && isEventPath(r.path) && r.status === got.status && r.status < 300) {
        // The client waited on these events (until they showed, then until they finished): wait until the
        // emulator shows them as far as the recording did, a while (the emulator runs fast).
        figures.events++;
        // (An event of an entity no request of the cassette made cannot show: no wait for it.)
        const entity = isRecord(r.filter) ? r.filter["entity.id"] : undefined;
        const known = entity === undefined || ids.map.has(String(entity));
        for (let k = 0; known && k < 150 && !eventsReached(r.response, got.body); k++) {
          await sleep(20);
          got = await send(emu, r, ids);
        }
        if (eventsReached(r.response, got.body)) figures.eventsReached++;
        else
          depart(r, {
            key: `${where} events`,
            detail: `${r.method} ${r.path} ${JSON.stringify(ids.body(r.filter))}: recorded ${statusesOf(r.response)}, emulator ${statusesOf(got.body)}${known ? " after 3 s" : " (an entity no request of the cassette made)"}`,
          });
      } else if (r.method === "GET" && want !== undefined && r.status === got.status && (r.polls !== undefined || sameCount(r.response, got.body))) {
        // The client waited for this state (it sent the GET again and again): wait for it too, a while. (A list
        // read once with other items than recorded, such as the regions, cannot show the recorded states.)
        for (let n = 0; n < (r.polls ? 150 : 10) && states(got.body) !== want; n++) {
          await sleep(20);
          got = await send(emu, r, ids);
        }
      }
      figures.interactions++;
      const tally = tallyOf(r);
      tally.interactions++;
      if (got.status !== r.status) {
        depart(r, {
          key: `${where} status`,
          detail: `${r.method} ${r.path}: recorded ${r.status} ${r.status >= 400 ? errorsOf(r.response) : ""}, emulator ${got.status} ${got.status >= 400 ? errorsOf(got.body) : ""}`,
        });
        continue;
      }
      figures.equalStatus++;
      tally.sameStatus++;
      if (r.status >= 400) {
        if (errorsOf(r.response) === errorsOf(got.body)) {
          figures.equalBody++;
          tally.sameBody++;
        } else depart(r, { key: `${where} error`, detail: `${r.method} ${r.path}: recorded "${errorsOf(r.response)}", emulator "${errorsOf(got.body)}"` });
        continue;
      }
      ids.learn(r.response, got.body);
      const all = r.response === null || got.body === null ? [] : compare(shape(r.response), shape(got.body), "", []);
      const diffs = all.filter((d) => !(d.real === "absent" && newerField(r.path, d.path)));
      for (const d of all) if (!diffs.includes(d)) figures.newerFields.add(`${pattern(r)} ${d.path}`);
      if (!diffs.length) {
        figures.equalBody++;
        tally.sameBody++;
      }
      for (const d of diffs) depart(r, { key: `${pattern(r)} ${d.path}`, detail: `${where}: recorded ${d.real}, emulator ${d.emulator}` });
    }
    figures.cassettes++;
  } finally {
    await emu.close();
  }
}

describe("the real API's recorded conversations, replayed against the emulator", () => {
  test.each(cassettes)("%s", async (name, c) => replay(name, c), 30_000);

  test("the newer recorded answers (tests/fixtures/real-answers) are read by their rows' answer schemas too", () => {
    const answers = loadAnswers();
    for (const a of answers) readByContract({ method: a.method, path: a.path, status: a.status, response: a.body }, `real-answers ${a.name}`);
    expect(answers.length).toBeGreaterThan(70);
  });

  test("every departure is accepted in docs/spec-gaps.md with its reason, and every accepted one still happens", () => {
    const accepted = acceptedDepartures();
    const keys = new Set(found.map((d) => d.key));
    const unexplained = found.filter((d) => !accepted.has(d.key));
    const stale = [...accepted.keys()].filter((k) => !keys.has(k));
    console.log(
      `replayed ${figures.cassettes} cassettes, ${figures.interactions} interactions (and ${figures.busyRetries} "Compute busy." refusals the client sent again): ${figures.equalStatus} with the recorded status, ` +
        `${figures.eventsReached} of ${figures.events} event lists as far as recorded, ` +
        `${figures.equalBody} with the recorded error or shape (${figures.newerFields.size} fields of the newer recordings beside); ` +
        `${figures.read} of ${figures.answers} recorded answers read by their rows' answer schemas; ${keys.size} departures accepted in docs/spec-gaps.md`,
    );
    const lines = [...new Map(unexplained.map((d) => [d.key, d.detail])).entries()].map(([k, d]) => `| \`${k}\` | ${d} |`);
    expect({ unexplained: lines, stale }).toEqual({ unexplained: [], stale: [] });
  });

  test("docs/parity.md is what this replay finds, endpoint by endpoint (UPDATE_PARITY=1 writes it)", async () => {
    const probe = await emulator();
    const routes = probe.accounts.main.api.routes;
    await probe.close();
    const served = (e: Endpoint) => routes.some((r) => r.method === e.method && r.regex.test(e.path.replace(/\{\w+\}/g, "1")));
    const commit = cassettes[0]?.[1].commit ?? "?";
    const report = parityReport(
      endpoints,
      tallies,
      served,
      acceptedDepartures(),
      `${cassettes.length} cassettes of linode/linodego at ${commit.slice(0, 7)}, tests/fixtures/cassettes`,
    );
    const file = join(ROOT, "docs", "parity.md");
    if (process.env.UPDATE_PARITY) writeFileSync(file, report);
    const kept = readFileSync(file, "utf8");
    // The replay changed what it finds: UPDATE_PARITY=1 npx jest cassette-replay writes the report again.
    expect(kept).toBe(report);
  });
});
