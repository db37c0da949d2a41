/**
 * Emulators sharing one PostgreSQL database (`--database`, issue 53): each serves what the others commit, writes of
 * one account follow one another whichever emulator takes them, ids are never given twice, an account made or deleted
 * by one is so for all. Two emulators in this process, each with its own connections, on a PostgreSQL of the test's.
 */
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, list } from "../helpers/emulator";
import { startPostgres, type Postgres } from "../helpers/postgres";

jest.setTimeout(120_000);

let pg: Postgres;
let n = 0;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());

/** Two emulators on a new database. */
async function pair(): Promise<[Emulator, Emulator]> {
  const database = pg.database(`shared${++n}`);
  const a = await emulator({ database, speed: 0 });
  const b = await emulator({ database, speed: 0 });
  return [a, b];
}

const key = (emu: Emulator, label: string, seed: number, token?: string) =>
  call(emu, "POST", "/profile/sshkeys", { token, body: { label, ssh_key: ed25519Key(seed) } });

test("what one emulator commits, the other serves: records, accounts and their tokens, deletions", async () => {
  const [a, b] = await pair();
  try {
    const made = await key(a, "from-a", 1);
    expect(made.status).toBe(200);
    expect((await call(b, "GET", `/profile/sshkeys/${made.body.id}`)).body.label).toBe("from-a");
    expect((await call(b, "PUT", `/profile/sshkeys/${made.body.id}`, { body: { label: "renamed-by-b" } })).status).toBe(200);
    expect((await call(a, "GET", `/profile/sshkeys/${made.body.id}`)).body.label).toBe("renamed-by-b");
    // An account made by b is served by a, with its token; deleted by a, b refuses its token.
    const team = (await call(b, "POST", "/__emulator/accounts", { body: { label: "team" } })).body as { id: number; token: string };
    expect((await call(a, "GET", "/profile", { token: team.token })).status).toBe(200);
    expect((await call(a, "GET", "/__emulator/accounts")).body.data.map((x: { label: string }) => x.label)).toEqual(["main", "team"]);
    const token = (await call(a, "POST", "/profile/tokens", { token: team.token, body: { label: "t" } })).body.token as string;
    expect((await call(b, "GET", "/profile", { token })).status).toBe(200);
    expect((await call(a, "DELETE", `/__emulator/accounts/${team.id}`)).status).toBe(200);
    expect((await call(b, "GET", "/profile", { token: team.token })).status).toBe(401);
    expect((await call(b, "GET", "/profile", { token })).status).toBe(401);
    expect((await call(b, "DELETE", `/profile/sshkeys/${made.body.id}`)).status).toBe(200);
    expect((await call(a, "GET", `/profile/sshkeys/${made.body.id}`)).status).toBe(404);
  } finally {
    await a.close();
    await b.close();
  }
});

test("writes of one account through both emulators at once: none lost, no id given twice", async () => {
  const [a, b] = await pair();
  try {
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => key(i % 2 ? a : b, `k${i}`, 100 + i)));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    for (const emu of [a, b]) expect((await list(emu, "/profile/sshkeys")).map((k) => k.label).sort()).toEqual(answers.map((r) => r.body.label).sort());
    // The same VPC label twice at once, through both: the account's rule (unique among its VPCs) holds across emulators.
    const vpc = (emu: Emulator) => call(emu, "POST", "/vpcs", { body: { label: "same", region: "us-east" } });
    const twice = await Promise.all([vpc(a), vpc(b)]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 400]);
  } finally {
    await a.close();
    await b.close();
  }
});

test("a fixture imported through one emulator moves the ids the other gives past the records it loaded", async () => {
  const [a, b] = await pair();
  try {
    await key(b, "warm-up", 600); // b holds a block of sshkey ids from here on
    const records = { sshkeys: [{ id: 5000, label: "loaded", ssh_key: ed25519Key(601), created: "2026-01-01T00:00:00", username: "admin" }] };
    const doc = { format: "compute-emulator-account", version: 1, records };
    expect((await call(a, "POST", "/__emulator/import", { body: doc })).status).toBe(200);
    const next = await key(b, "after", 602);
    expect(next.status).toBe(200);
    expect(next.body.id).toBeGreaterThan(5000);
    expect((await list(b, "/profile/sshkeys")).map((k) => k.label)).toEqual(["loaded", "after"]);
  } finally {
    await a.close();
    await b.close();
  }
});

test("one fixture imported at once through both emulators into two accounts: whichever keeps its ids, the other's are renumbered", async () => {
  const [a, b] = await pair();
  try {
    const made = await Promise.all(
      [a, b].map(async (emu, i) => (await call(emu, "POST", "/__emulator/accounts", { body: { label: `t${i}` } })).body as { token: string }),
    );
    for (let round = 0; round < 5; round++) {
      // Ids no account has had yet (past where the sequence is), the same in both imports.
      const records = {
        sshkeys: Array.from({ length: 20 }, (_, i) => ({
          id: 9000 + round * 100 + i,
          label: `r${round}-${i}`,
          ssh_key: ed25519Key(700 + round * 20 + i),
          created: "2026-01-01T00:00:00",
          username: "admin",
        })),
      };
      const doc = { format: "compute-emulator-account", version: 1, records };
      const loaded = await Promise.all([a, b].map((emu, i) => call(emu, "POST", "/__emulator/import", { token: made[i].token, body: doc })));
      expect(loaded.map((r) => r.status)).toEqual([200, 200]);
      const ids = await Promise.all([a, b].map(async (emu, i) => (await list(emu, "/profile/sshkeys", { token: made[i].token })).map((k) => k.id as number)));
      expect(new Set(ids.flat()).size).toBe(40);
      // One of them kept the fixture's ids; the other says what it gave instead.
      expect(loaded.filter((r) => r.body.loaded.renumbered === undefined)).toHaveLength(1);
    }
  } finally {
    await a.close();
    await b.close();
  }
});

test("started with another --token, an emulator makes it the root token and revokes the one before; started with none, it serves the one there is", async () => {
  const database = pg.database(`tokens${++n}`);
  const [first, second] = ["first-root-token-0123456789abcdef", "second-root-token-0123456789abcdef"];
  await (await emulator({ database, token: first, speed: 0 })).close();
  const b = await emulator({ database, token: second, speed: 0 });
  try {
    expect((await call(b, "GET", "/profile", { token: first })).status).toBe(401);
    expect((await call(b, "GET", "/__emulator/accounts", { token: second })).status).toBe(200);
  } finally {
    await b.close();
  }
  const c = await emulator({ database, token: undefined, speed: 0 });
  try {
    expect(c.token).toBe(second);
    expect((await call(c, "GET", "/__emulator/accounts")).status).toBe(200);
  } finally {
    await c.close();
  }
});

describe("what a new user's attack on the shared store found (fresh eyes)", () => {
  test("an import that makes hundreds of records of several kinds loads whole (a write that runs out of ids is run again with enough)", async () => {
    const [a, b] = await pair();
    try {
      const requests = Array.from({ length: 150 }, (_, i) => ({
        method: "POST",
        path: "/compute/instances",
        body: { label: `web-${i}`, region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: "Fresh-Eyes-Pass-91!" },
      }));
      const r = await call(a, "POST", "/__emulator/import", { body: { format: "compute-emulator-account", version: 1, requests } });
      expect([r.status, r.body.loaded]).toEqual([200, { records: 0, requests: 150 }]);
      expect((await list(b, "/compute/instances")).length).toBe(150);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("accounts made and deleted many at once: each answered, none an internal error", async () => {
    const [a, b] = await pair();
    try {
      const made = await Promise.all(
        Array.from({ length: 24 }, (_, i) => call(i % 2 ? a : b, "POST", "/__emulator/accounts", { body: { label: `job-${i}` } })),
      );
      expect(made.map((r) => r.status)).toEqual(made.map(() => 200));
      const gone = await Promise.all(made.map((r, i) => call(i % 2 ? b : a, "DELETE", `/__emulator/accounts/${r.body.id}`)));
      expect(gone.map((r) => r.status)).toEqual(gone.map(() => 200));
      expect((await call(a, "GET", "/__emulator/accounts")).body.data.map((x: { label: string }) => x.label)).toEqual(["main"]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("a database URL's password is never in a message, however it is given", async () => {
    for (const url of [
      "postgres://emu:Secret1@127.0.0.1:1/x",
      "postgres://emu:my/Secret2@127.0.0.1:1/x",
      "postgres://emu@127.0.0.1:1/x?password=Secret3",
      "postgres://127.0.0.1:1/x?user=emu&password=Secret4",
      "not a url Secret5",
      "mysql://emu:Secret6@127.0.0.1:1/x",
    ]) {
      const failed = await emulator({ database: url }).then(
        () => "started",
        (err: unknown) => String(err instanceof Error ? err.message : err),
      );
      expect(failed).not.toMatch(/Secret\d/);
      expect(failed).toMatch(/--database /);
    }
  });

  test("with the database down, the health check says so (503) and requests are 503, not internal errors", async () => {
    const own = await startPostgres();
    const database = own.database("down");
    const emu = await emulator({ database, speed: 0 });
    try {
      expect((await call(emu, "GET", "/profile")).status).toBe(200);
      own.stop();
      const health = await fetch(`${emu.url.replace(/\/v4$/, "")}/__emulator/health`);
      expect([health.status, ((await health.json()) as { status: string }).status]).toEqual([503, "unavailable"]);
      expect((await call(emu, "GET", "/profile")).status).toBe(503);
      expect((await call(emu, "POST", "/profile/sshkeys", { body: { label: "x", ssh_key: ed25519Key(9) } })).status).toBe(503);
    } finally {
      await emu.close();
    }
  });
});
