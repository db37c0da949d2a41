/**
 * Two emulator processes on one PostgreSQL database (issue 53), behind a round-robin load balancer, serve a real
 * client's tests: tests/go/linodego (linodego's own waiting helpers: instances made, booted, shut down, imaged;
 * databases made and patched), each request taken by either process in turn. Nothing is lost: what the client was
 * answered is what both processes read afterwards.
 *
 * Needs Go (tests/helpers/go.ts) and PostgreSQL (tests/helpers/postgres.ts: Debian's `postgresql`).
 */
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import { describeWithGo } from "../helpers/go";
import { ensureBuilt, linodegoTests, LINODEGO_SPEED, LINODEGO_TESTS, roundRobin, startEmulatorCli, type EmulatorProcess } from "../helpers/linodego";
import { startPostgres, type Postgres } from "../helpers/postgres";

jest.setTimeout(900_000);

describeWithGo("emulator-postgres.e2e")("two emulators on one PostgreSQL serve linodego's tests", () => {
  let pg: Postgres;
  let emulators: EmulatorProcess[] = [];
  let balancer: { origin: string; served: number[]; server: Server };
  const token = randomBytes(16).toString("hex");

  beforeAll(async () => {
    ensureBuilt();
    pg = await startPostgres();
    const database = pg.database("team");
    // One after the other: the second finds the first's tables and main account.
    for (let i = 0; i < 2; i++) emulators.push(await startEmulatorCli(token, ["--database", database, "--speed", LINODEGO_SPEED]));
    balancer = await roundRobin(emulators.map((e) => e.url.replace(/\/v4$/, "")));
  });
  afterAll(() => {
    for (const e of emulators) e.child.kill("SIGTERM");
    emulators = [];
    balancer?.server.close();
    pg?.stop();
  });

  test("go test in tests/go/linodego through both, then each process reads what the other wrote", async () => {
    const { code, output, seconds } = await linodegoTests(`${balancer.origin}/v4`, token);
    if (code !== 0) throw new Error(`go test ./... in tests/go/linodego failed (${String(code)}, after ${seconds} s):\n${output}`);
    for (const name of LINODEGO_TESTS) expect(output).toContain(`--- PASS: ${name} (`);
    expect(output).not.toContain("--- SKIP");
    // Both took requests.
    expect(balancer.served.every((n) => n > 20)).toBe(true);
    // Each process answers the same events list (every event each one recorded, in one order).
    const events = await Promise.all(
      emulators.map(async (e) => {
        const r = await fetch(`${e.url}/account/events?page_size=500`, { headers: { authorization: `Bearer ${token}` } });
        return ((await r.json()) as { data: Array<{ id: number; action: string }> }).data.map((x) => `${x.id} ${x.action}`);
      }),
    );
    expect(events[0].length).toBeGreaterThan(5);
    expect(events[1]).toEqual(events[0]);
    console.log(
      `linodego's tests through two emulators on one PostgreSQL: passed in ${seconds} s; requests served by each: ${balancer.served.join(", ")}; events both read: ${events[0].length}`,
    );
  });
});
