/**
 * What a review of issue 52's fixtures and admin endpoints found, each held here (the families' own records are
 * held by tests/integration/emulator-fixtures-<family>.test.ts): a fixture's requests nest no deeper than a request
 * of the API, an export of any account imports again, ids a path can name, real times, the account's users as the API
 * has them, the events an account keeps, every field of a refused document named once; the admin endpoints' bodies
 * read strictly, a rate under one a second.
 */
import { call, ed25519Key, ROOT_TOKEN, useEmulatorPerTest } from "../helpers/emulator";

const { emu } = useEmulatorPerTest({ speed: 0, windows: { events: 100 } });

const doc = (more: Record<string, unknown>) => ({ format: "compute-emulator-account", version: 1, ...more });
const nested = (levels: number, leaf: unknown = "deep"): unknown => (levels === 0 ? leaf : { a: nested(levels - 1, leaf) });

test("a fixture's request whose body an earlier answer nests deeper than the API takes is refused, naming it; the export still works", async () => {
  // Each body 40 levels deep, at the bottom the whole of the answer before (itself 40 levels deep, and so on).
  const requests = Array.from({ length: 3 }, (_, i) => ({
    name: `p${i}`,
    method: "PUT",
    path: "/profile/preferences",
    body: nested(40, i === 0 ? "deep" : `\${p${i - 1}.a}`),
  }));
  const r = await call(emu(), "POST", "/__emulator/import", { body: doc({ requests }) });
  expect(r.body.errors).toEqual([{ field: "requests[1].body", reason: "requests[1].body is nested deeper than 64 levels" }]);
  expect((await call(emu(), "GET", "/__emulator/export")).status).toBe(200);
});

test("an export of an account holding what the API took (preferences 63 levels deep) imports into another account", async () => {
  expect((await call(emu(), "PUT", "/profile/preferences", { body: nested(62) })).status).toBe(200);
  const exported = (await call(emu(), "GET", "/__emulator/export")).body;
  const made = await call(emu(), "POST", "/__emulator/accounts", { body: { label: "deep", fixture: exported } });
  expect(made.status).toBe(200);
  expect((await call(emu(), "GET", "/profile/preferences", { token: made.body.token })).body).toEqual(nested(62));
  expect((await call(emu(), "POST", "/__emulator/import", { body: exported })).status).toBe(200);
});

test("record ids a path can name, and times that are times: refused by their place otherwise", async () => {
  const key = { label: "k", ssh_key: ed25519Key(1), created: "2026-01-01T00:00:00", username: "admin" };
  for (const [id, created] of [
    [9007199254740991, key.created],
    [-1, key.created],
    [7, "9999-99-99T99:99:99"],
  ] as const) {
    const r = await call(emu(), "POST", "/__emulator/import", { body: doc({ records: { sshkeys: [{ ...key, id, created }] } }) });
    expect([id, r.status, r.body.errors[0].field]).toEqual([
      id,
      400,
      typeof created === "string" && created.startsWith("9999") ? "records.sshkeys[0].created" : "records.sshkeys[0].id",
    ]);
  }
  const counters = await call(emu(), "POST", "/__emulator/import", { body: doc({ counters: { vpc: 2 ** 53 } }) });
  expect([counters.status, counters.body.errors[0].field]).toEqual([400, "counters.vpc"]);
});

test("the account's users as the API has them: its owner unrestricted, a restricted user with grants and only then", async () => {
  const me = (await call(emu(), "GET", "/__emulator/export")).body.records.users[0];
  const owner = await call(emu(), "POST", "/__emulator/import", { body: doc({ records: { users: [{ ...me, restricted: true }] } }) });
  expect(owner.body.errors[0]).toEqual({
    field: "records.users[0].restricted",
    reason: "records.users[0].restricted: admin owns the account (its root token's user): it is not restricted",
  });
  const other = { ...me, username: "dev", uid: 99, email: "dev@example.com", restricted: true, grants: null };
  const graceless = await call(emu(), "POST", "/__emulator/import", { body: doc({ records: { users: [me, other] } }) });
  expect(graceless.body.errors[0]).toEqual({ field: "records.users[1].grants", reason: "records.users[1].grants: a restricted user has grants" });
  expect((await call(emu(), "GET", "/compute/instances")).status).toBe(200);
});

test("a fixture's events are kept as the account keeps them: its last ones (10,000; here 100)", async () => {
  const event = (id: number) => ({
    id,
    action: "compute_boot",
    created: "2026-01-01T00:00:00",
    username: "admin",
    entity: null,
    secondary_entity: null,
    seen: false,
    read: false,
    _start: 0,
    _finish: null,
    _notification: false,
  });
  const events = Array.from({ length: 150 }, (_, i) => event(i + 1));
  const r = await call(emu(), "POST", "/__emulator/import", { body: doc({ records: { events } }) });
  expect(r.status).toBe(200);
  expect((await call(emu(), "GET", "/__emulator/export")).body.records.events.map((e: { id: number }) => e.id).slice(0, 1)).toEqual([51]);
});

test("a document refused names each field once, under its place; an account's fixture is said so once", async () => {
  const r = await call(emu(), "POST", "/__emulator/import", { body: { format: "x", version: 0, records: [], extra: 1 } });
  expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual(["format", "version", "records", "extra"]);
  const account = await call(emu(), "POST", "/__emulator/accounts", { body: { label: 5, fixture: [] } });
  expect(account.body.errors.map((e: { field: string }) => e.field)).toEqual(["label", "fixture"]);
  const bad = await call(emu(), "POST", "/__emulator/accounts", { body: { label: "x", fixture: { format: "x", version: 1 } } });
  expect(bad.body.errors).toEqual([{ field: "format", reason: expect.stringMatching(/^fixture: format: /) }]);
});

test("the admin endpoints read their bodies strictly: a user's grants only for a restricted one, of the API's values; scopes the API takes; a limit or none", async () => {
  const loose = await call(emu(), "POST", "/__emulator/users", { body: { username: "grant-user", global: { add_computes: true } } });
  expect(loose.body.errors).toEqual([{ field: "global", reason: "Global grants are a restricted user's: give restricted: true" }]);
  const root = await call(emu(), "POST", "/__emulator/users", { body: { username: "root-user", restricted: true, global: { account_access: "root" } } });
  expect(root.body.errors[0].field).toBe("global.account_access");
  const scopes = await call(emu(), "POST", "/__emulator/users", { body: { username: "scope-user", scopes: "nonsense:read" } });
  expect(scopes.body.errors[0].field).toBe("scopes");
  const unknown = await call(emu(), "POST", "/__emulator/users", { body: { username: "key-user", colour: "blue" } });
  expect(unknown.body.errors).toEqual([{ field: "colour", reason: "Unknown field" }]);
  const empty = await call(emu(), "PUT", "/__emulator/rate-limit", { body: {} });
  expect(empty.body.errors[0].field).toBe("perSecond");
  const rate = await call(emu(), "PUT", "/__emulator/faults", { body: { seed: 1, rules: [{ match: "x", rate: "0.5", kinds: "500" }] } });
  expect(rate.body.errors).toEqual([
    { field: "rules[0].rate", reason: "fault rate must be a number from 0 to 1" },
    { field: "rules[0].kinds", reason: "kinds must be a list of fault kinds" },
  ]);
});

test("a rate limit under one request a second lets one through every so often (0.5: one in 2 s), never none", async () => {
  expect((await call(emu(), "PUT", "/__emulator/rate-limit", { body: { perSecond: 0.5 } })).status).toBe(200);
  const first = await call(emu(), "GET", "/regions", { token: ROOT_TOKEN });
  const second = await call(emu(), "GET", "/regions", { token: ROOT_TOKEN });
  expect([first.status, second.status, second.headers.get("retry-after")]).toEqual([200, 429, "2"]);
});
