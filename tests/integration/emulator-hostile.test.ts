/**
 * The emulator under hostile input (issue 45's probes, each a regression test): no request stops it, stalls it
 * or answers 500 for a client's mistake; a failed request leaves its connection usable or closes it; what grows
 * with traffic is bounded; a restricted user cannot lift its own restrictions; labels and tags refuse control
 * characters alike. (Durability: emulator-durability.test.ts; every route under generated requests:
 * emulator-fuzz.property.test.ts.)
 */
import { connect } from "node:net";
import type { Emulator } from "../../emulator/server";
import { RateLimit, SWEEP_ABOVE } from "../../emulator/rate-limit";
import { addUser, call, ed25519Key, emulator } from "../helpers/emulator";

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator({ speed: 0 });
});
afterAll(async () => {
  await emu.close();
});

/** A raw HTTP/1.1 exchange on one connection: each request written after the previous answer (or the close), the status lines read. */
function raw(requests: string[], waitMs = 3000): Promise<{ statuses: string[]; closed: boolean }> {
  const { port } = new URL(emu.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1");
    const statuses: string[] = [];
    let buffer = "";
    let closed = false;
    let next = 0;
    const send = () => {
      if (next < requests.length) socket.write(requests[next++]);
    };
    const timer = setTimeout(() => finish(), waitMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses, closed });
    };
    socket.on("connect", send);
    socket.on("data", (d: Buffer) => {
      buffer += d.toString("latin1");
      // Each complete answer (headers, then its Content-Length of body) ends one exchange.
      for (;;) {
        const head = buffer.indexOf("\r\n\r\n");
        if (head < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, head))?.[1] ?? 0);
        if (buffer.length < head + 4 + length) return;
        statuses.push(buffer.slice(0, buffer.indexOf("\r\n")));
        buffer = buffer.slice(head + 4 + length);
        if (statuses.length === requests.length) return finish();
        send();
      }
    });
    socket.on("close", () => {
      closed = true;
      finish();
    });
    socket.on("error", () => undefined);
  });
}
const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: emulator\r\n${extra}\r\n`;
const alive = async () => expect((await call(emu, "GET", "/regions")).status).toBe(200);

test("a request line no URL parser takes is a client's error, and the emulator goes on", async () => {
  for (const target of ["//x:99999/", "//%5B/", "http://["]) {
    const r = await raw([get(target)]);
    // A client's error (`//x:99999/` is a path no route has: 404), never the emulator's end.
    expect([target, r.statuses[0]]).toEqual([target, expect.stringMatching(/^HTTP\/1\.1 4\d\d /)]);
    await alive();
  }
});

test("a bad percent-escape in a path is a 400, with a token or without", async () => {
  for (const token of [emu.token, null]) {
    const r = await call(emu, "GET", "/regions/%E0%A4%A", { token });
    expect([r.status, r.body.errors[0].reason]).toEqual([400, expect.stringMatching(/percent/)]);
  }
  await alive();
});

test("an X-Filter nested deeper than the emulator reads is a 400 on X-Filter, not a stack overflow", async () => {
  let filter: unknown = { label: "x" };
  for (let i = 0; i < 1400; i++) filter = { "+or": [filter] };
  for (const [path, token] of [
    ["/regions", null],
    ["/profile/sshkeys", emu.token],
  ] as const) {
    const r = await fetch(emu.url + path, { headers: { "x-filter": JSON.stringify(filter), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    expect([path, r.status, ((await r.json()) as { errors: Array<{ field?: string }> }).errors[0].field]).toEqual([path, 400, "X-Filter"]);
  }
});

test("a body nested deeper than the emulator keeps is a 400 before anything is kept", async () => {
  for (const depth of [4100, 10_000]) {
    // Written as text: the test's own JSON.stringify overflows on such a value, as the emulator's did.
    const r = await call(emu, "PUT", "/profile/preferences", { rawBody: `{"deep":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}` });
    expect([depth, r.status, r.body.errors[0].reason]).toEqual([depth, 400, expect.stringMatching(/nested/)]);
  }
  expect((await call(emu, "GET", "/profile/preferences")).body).toEqual({});
});

test("bodies of the wrong shape are a 400 naming the field: interfaces [null], backups null", async () => {
  const inst = await call(emu, "POST", "/compute/instances", {
    body: { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: "Aa1!aaaaaaaa", interfaces: [null] },
  });
  expect([inst.status, inst.body.errors.map((e: { field?: string }) => e.field)]).toEqual([400, ["interfaces[0]"]]);
  const made = await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2" } });
  expect(made.status).toBe(200);
  const id = made.body.id as number;
  const cfg = await call(emu, "POST", `/compute/instances/${id}/configs`, { body: { label: "c", devices: {}, interfaces: [null] } });
  expect([cfg.status, cfg.body.errors.map((e: { field?: string }) => e.field)]).toEqual([400, ["interfaces[0]"]]);
  const upd = await call(emu, "PUT", `/compute/instances/${id}`, { body: { backups: null } });
  expect([upd.status, upd.body.errors[0].field]).toEqual([400, "backups"]);
});

test("what the fuzzing suite found: a rebuild with image null is a 400 on image; a refused token update keeps the old label", async () => {
  const made = await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2" } });
  const rebuild = await call(emu, "POST", `/compute/instances/${made.body.id}/rebuild`, { body: { image: null, root_pass: "Str0ng-Passw0rd!" } });
  expect([rebuild.status, rebuild.body.errors[0].field]).toEqual([400, "image"]);
  const token = await call(emu, "POST", "/profile/tokens", { body: { label: "before", scopes: "*" } });
  const update = await call(emu, "PUT", `/profile/tokens/${token.body.id}`, { body: { label: "after", scopes: "computes:read_only" } });
  expect([update.status, update.body.errors[0].field]).toEqual([400, "scopes"]);
  expect((await call(emu, "GET", `/profile/tokens/${token.body.id}`)).body.label).toBe("before");
});

test("the admin endpoints check their bodies as the API does", async () => {
  const limit = await call(emu, "PUT", "/__emulator/rate-limit", { body: null });
  expect([limit.status, limit.body.errors[0].reason]).toEqual([400, expect.stringMatching(/object/)]);
  const user = await call(emu, "POST", "/__emulator/users", { body: { username: "yes-user", restricted: "yes" } });
  expect([user.status, user.body.errors[0].field]).toEqual([400, "restricted"]);
  // Read by their rows' schemas (emulator/admin-api.ts): every field named, a grant of the wrong type too.
  const grant = await call(emu, "POST", "/__emulator/users", { body: { username: "grant-user", restricted: true, global: { add_computes: "yes" } } });
  expect([grant.status, grant.body.errors[0]]).toEqual([400, { field: "global.add_computes", reason: "Invalid input: expected boolean, received string" }]);
  const faults = await call(emu, "PUT", "/__emulator/faults", { body: { seed: 1, rules: [{ match: "(", rate: 2, kinds: [] }], extra: 1 } });
  expect(faults.body.errors).toEqual([
    { field: "rules[0].match", reason: expect.stringMatching(/^match is not a regular expression that runs in linear time/) },
    { field: "rules[0].rate", reason: "fault rate must be a number from 0 to 1" },
    { field: "rules[0].kinds", reason: "a fault rule needs at least one kind" },
    { field: "extra", reason: "Unknown field" },
  ]);
  expect((await call(emu, "GET", "/__emulator/faults")).body.config).toBeNull();
});

test("after a 413 on a kept-alive connection, the connection is closed, not left hanging", async () => {
  const big = "x".repeat(1_200_000);
  const post = `POST /v4/profile/sshkeys HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer ${emu.token}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`;
  const r = await raw([post, get("/v4/regions")], 5000);
  expect(r.statuses[0]).toMatch(/^HTTP\/1\.1 413 /);
  // Either the next request is answered on the same connection, or the connection is closed: never a wait.
  expect(r.statuses.length === 2 || r.closed).toBe(true);
  await alive();
});

test("a VPC with 4,000 subnets is answered in seconds, and other requests meanwhile", async () => {
  const subnets = Array.from({ length: 4000 }, (_, i) => ({ label: `s${i}`, ipv4: `10.${Math.floor(i / 256)}.${i % 256}.0/24` }));
  const t0 = Date.now();
  const [made, other] = await Promise.all([call(emu, "POST", "/vpcs", { body: { label: "wide", region: "us-east", subnets } }), call(emu, "GET", "/regions")]);
  // (Before: 31 s, every other request waiting; a liveness bound, not a speed target.)
  expect({ made: made.status, other: other.status, seconds: Math.round((Date.now() - t0) / 1000) < 10 }).toEqual({ made: 200, other: 200, seconds: true });
  const overlap = await call(emu, "POST", "/vpcs", {
    body: { label: "overlap", region: "us-east", subnets: [...subnets.slice(0, 3000), { label: "late", ipv4: "10.5.0.0/16" }] },
  });
  expect([overlap.status, overlap.body.errors[0].field]).toEqual([400, "subnets[3000].ipv4"]);
});

test("the request log keeps a window of requests and cuts long paths: memory does not grow with traffic", async () => {
  const long = `/regions?${"a".repeat(15_000)}`;
  for (let i = 0; i < 50; i++) await call(emu, "GET", long, { token: null });
  const last = emu.log.at(-1)!;
  expect(last.path.length).toBeLessThanOrEqual(256);
  const window = (await call(emu, "GET", "/__emulator/log")).body as unknown[];
  expect(window.length).toBeLessThanOrEqual(50_000);
});

test("a restricted user cannot lift its own restrictions, nor grant itself anything", async () => {
  const token = await addUser(emu, "limited-one", { restricted: true });
  const lift = await call(emu, "PUT", "/profile", { token, body: { restricted: false } });
  expect([lift.status, lift.body.errors[0].field]).toEqual([403, "restricted"]);
  expect((await call(emu, "GET", "/profile", { token })).body.restricted).toBe(true);
  const grants = await call(emu, "PUT", "/account/users/limited-one/grants", { token, body: { global: { add_computes: true } } });
  expect([401, 403, 404]).toContain(grants.status);
  expect((await call(emu, "GET", "/compute/instances", { token })).body.data).toEqual([]);
});

test("labels and tags refuse control characters alike: NUL, ESC, a bidirectional override, a lone surrogate", async () => {
  const key = ed25519Key(7, "probe@example");
  for (const bad of ["nul\u0000", "esc\u001b[31m", "rtl\u202eevil", "half\ud800"]) {
    const sshKey = await call(emu, "POST", "/profile/sshkeys", { body: { label: bad, ssh_key: key } });
    const token = await call(emu, "POST", "/profile/tokens", { body: { label: bad, scopes: "*" } });
    const tags = await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", tags: [`tag-${bad}`] } });
    expect([JSON.stringify(bad), sshKey.status, token.status, tags.status]).toEqual([JSON.stringify(bad), 400, 400, 400]);
  }
});

test("a new Authorization header with every request does not grow the rate limit's buckets past the last two seconds' keys", () => {
  let clock = 1_000_000;
  const spy = jest.spyOn(Date, "now").mockImplementation(() => clock);
  try {
    const limit = new RateLimit(5);
    for (let i = 0; i < 50_000; i++) {
      limit.take(`Bearer forged-${i}`);
      clock += 1; // 1,000 keys a second
    }
    // Without the sweep every key stays: 50,000 buckets.
    expect(limit.held).toBeLessThanOrEqual(2 * 1000 + SWEEP_ABOVE);
    // A dropped bucket was full anyway: a key seen again after its second gets its whole burst.
    clock += 5_000;
    for (let i = 0; i < 5; i++) expect(limit.take("Bearer forged-1")).toBeUndefined();
    expect(limit.take("Bearer forged-1")).toBe(1);
  } finally {
    spy.mockRestore();
  }
});
