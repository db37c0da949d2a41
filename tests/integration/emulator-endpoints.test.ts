import { emulator, call } from "../helpers/emulator";
import { fill, fixtures, specEndpoints } from "../helpers/spec-endpoints";

/**
 * Every endpoint of the three spec documents is served by the emulator. The endpoint tables are read from
 * the spec folder beside the repository (`../shared/spec`), their abbreviations (`I`, `M`, `P`) expanded,
 * and each method and path called with the ids of records made first through the API, so that a 404 means
 * a missing route, not a missing record. A 400 (a missing body) counts as served.
 *
 * The list read is also kept in tests/fixtures/spec-endpoints.json: where the spec folder is at hand, the
 * two must be equal (a changed spec fails here until `UPDATE_SPEC_ENDPOINTS=1` writes the list again);
 * where it is not (a checkout without shared/ beside it), the kept list is walked.
 */

test("every endpoint of the three spec documents is served", async () => {
  const endpoints = specEndpoints();
  expect(endpoints.length).toBeGreaterThan(100);
  const missing: string[] = [];
  // A fresh emulator and fresh records for each endpoint: a DELETE or a rebuild cannot hide another route.
  for (const e of endpoints) {
    let clock = Date.parse("2026-03-10T12:00:00Z");
    const emu = await emulator({ now: () => clock, speed: 1 });
    try {
      const ids = await fixtures(emu, (ms) => void (clock += ms));
      const p = fill(e.path, ids, new Date(clock));
      const r = await call(emu, e.method, p, e.method === "POST" || e.method === "PUT" ? { body: {} } : {});
      if (r.status === 404 || r.status === 405 || r.status >= 500) missing.push(`${e.method} ${e.path} (${e.doc}): ${r.status} for ${e.method} ${p}`);
    } finally {
      await emu.close();
    }
  }
  console.log(`Endpoints in the spec: ${endpoints.length}; served by the emulator: ${endpoints.length - missing.length}`);
  expect(missing).toEqual([]);
}, 120_000);
