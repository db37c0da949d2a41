/**
 * What a team expects of the emulator as a service (issue 53): the real API's CORS headers on every `/v4` answer
 * and its preflight answered without a token; HEAD on every GET route; a health check that needs no token and
 * no account; a request log that says when each request arrived, how long it took and its bodies, with every
 * secret redacted and each body bounded; the page's overview paging past the API's 500 a page.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { DB_MS } from "../../emulator/routes/databases";
import { LOG_BODIES, LOG_BODY_CHARS, REDACTED } from "../../emulator/request-log";
import { addUser, call, ed25519Key, emulator, importSshKeys, useClockedEmulator, useEmulatorPerTest } from "../helpers/emulator";
import type { Emulator } from "../../emulator/server";

const ROOT = path.resolve(__dirname, "..", "..");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** As linodego's recordings show them on every answer of the real API (HEAD, 2,769 answers). */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "HEAD, GET, OPTIONS, POST, PUT, DELETE",
  "access-control-allow-headers": "Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter",
};
/** ...and on its successful answers only (2,601 answers). */
const CORS_SUCCESS = {
  "access-control-allow-credentials": "true",
  "access-control-expose-headers": "X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status",
};
const corsOf = (headers: Headers) => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith("access-control-")) out[name] = value;
  });
  return out;
};
const origin = (emu: Emulator) => emu.url.replace(/\/v4$/, "");

describe("CORS, preflight, HEAD and the health check", () => {
  const { emu } = useEmulatorPerTest({ speed: 0 });

  test("every /v4 answer carries the real API's CORS headers: a success all five, an error the three its errors have", async () => {
    expect(corsOf((await call(emu(), "GET", "/regions", { token: null })).headers)).toEqual({ ...CORS, ...CORS_SUCCESS });
    const made = await call(emu(), "POST", "/profile/sshkeys", { body: { label: "k", ssh_key: ed25519Key(1) } });
    expect(made.status).toBe(200);
    expect(corsOf(made.headers)).toEqual({ ...CORS, ...CORS_SUCCESS });
    const gone = await call(emu(), "DELETE", `/profile/sshkeys/${made.body.id}`);
    expect([gone.status, corsOf(gone.headers)]).toEqual([200, { ...CORS, ...CORS_SUCCESS }]);
    for (const [method, p, token, status] of [
      ["GET", "/compute/instances/999", undefined, 404],
      ["GET", "/profile", null, 401],
      ["PATCH", "/profile", undefined, 405],
      ["GET", "/nothing-here", undefined, 404],
    ] as const) {
      const r = await call(emu(), method, p, { token });
      expect([method, p, r.status, corsOf(r.headers)]).toEqual([method, p, status, CORS]);
    }
    const bad = await call(emu(), "POST", "/profile/sshkeys", { body: { label: 7 } });
    expect([bad.status, corsOf(bad.headers)]).toEqual([400, CORS]);
    // A refusal of the rate limit and an injected fault are the API's answers too.
    await call(emu(), "PUT", "/__emulator/rate-limit", { body: { perSecond: 1 } });
    let limited: Response | undefined;
    for (let i = 0; i < 5 && !limited; i++) {
      const r = await fetch(`${emu().url}/regions`);
      if (r.status === 429) limited = r;
    }
    expect(limited && corsOf(limited.headers)).toEqual(CORS);
    await call(emu(), "PUT", "/__emulator/rate-limit", { body: { perSecond: null } });
    await call(emu(), "PUT", "/__emulator/faults", { body: { seed: 1, rules: [{ match: "^GET /v4/types", rate: 1, kinds: ["503"] }] } });
    const faulted = await call(emu(), "GET", "/types");
    expect([faulted.status, corsOf(faulted.headers)]).toEqual([503, CORS]);
    // The emulator's own endpoints and its page are not the API's: no CORS there.
    expect(corsOf((await call(emu(), "GET", "/__emulator/faults")).headers)).toEqual({});
    expect(corsOf((await fetch(`${origin(emu())}/`)).headers)).toEqual({});
  });

  test("a preflight (OPTIONS) of any /v4 path is answered 204 with the CORS headers, without a token, ahead of a rate limit", async () => {
    await call(emu(), "PUT", "/__emulator/rate-limit", { body: { perSecond: 1 } });
    for (const p of ["/v4/compute/instances", "/v4/profile/sshkeys/12", "/v4/not-a-path", "/v4"]) {
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${origin(emu())}${p}`, {
          method: "OPTIONS",
          headers: {
            Origin: "https://app.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, x-filter",
          },
        });
        expect([p, r.status, corsOf(r.headers), await r.text()]).toEqual([p, 204, { ...CORS, ...CORS_SUCCESS }, ""]);
      }
    }
    // Outside /v4, OPTIONS is what it was.
    expect((await fetch(`${origin(emu())}/__emulator/log`, { method: "OPTIONS" })).status).toBe(405);
  });

  test("HEAD on any GET route answers as the GET does, without its body", async () => {
    await call(emu(), "POST", "/profile/sshkeys", { body: { label: "k", ssh_key: ed25519Key(2) } });
    for (const [p, token] of [
      ["/v4/regions", null],
      ["/v4/regions/us-east", null],
      ["/v4/profile/sshkeys?page_size=25", emu().token],
      ["/v4/compute/instances/999", emu().token],
      ["/v4/profile", null],
      ["/__emulator/log", emu().token],
      ["/", null],
    ] as const) {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const got = await fetch(`${origin(emu())}${p}`, { headers });
      const text = await got.text();
      const head = await fetch(`${origin(emu())}${p}`, { method: "HEAD", headers });
      expect([p, head.status, head.headers.get("content-type"), await head.text()]).toEqual([p, got.status, got.headers.get("content-type"), ""]);
      if (p !== "/__emulator/log") expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    }
    // A HEAD of a path only written to is refused as before.
    expect((await fetch(`${emu().url}/compute/instances/999/boot`, { method: "HEAD", headers: { authorization: `Bearer ${emu().token}` } })).status).toBe(405);
  });

  test("the health check answers 200 with the version, with no token, past faults in force, and is not logged", async () => {
    await call(emu(), "PUT", "/__emulator/faults", { body: { seed: 1, rules: [{ match: ".", rate: 1, kinds: ["503"] }] } });
    await call(emu(), "DELETE", "/__emulator/log");
    for (const auth of [undefined, "Bearer nonsense", `Bearer ${emu().token}`]) {
      const r = await fetch(`${origin(emu())}/__emulator/health`, { headers: auth ? { authorization: auth } : {} });
      expect([r.status, r.headers.get("cache-control"), await r.json()]).toEqual([200, "no-store", { status: "ok", version: VERSION }]);
    }
    const head = await fetch(`${origin(emu())}/__emulator/health`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    await call(emu(), "DELETE", "/__emulator/faults");
    expect(emu().log.filter((l) => l.path.includes("health"))).toEqual([]);
    expect((await fetch(`${origin(emu())}/__emulator/health`, { method: "POST" })).status).not.toBe(200);
  });
});

describe("the request log", () => {
  const { emu, tick, now } = useClockedEmulator();

  test("each entry says when it arrived, how long it took and its bodies; no secret is ever written", async () => {
    const e = emu();
    const pass = "Zq8-not-in-any-log-RootPass!";
    const keyLine = ed25519Key(77);
    const started = new Date(now()).toISOString();
    const inst = await call(e, "POST", "/compute/instances", {
      body: { label: "web-1", region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: pass, authorized_keys: [keyLine] },
    });
    expect(inst.status).toBe(200);
    const pat = await call(e, "POST", "/profile/tokens", { body: { label: "ci", scopes: "*" } });
    const userToken = await addUser(e, "someone");
    const made = await call(e, "POST", "/__emulator/accounts", { body: { label: "job-1" } });
    const db = await call(e, "POST", "/databases/mysql/instances", {
      body: { label: "db-1", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" },
    });
    expect([pat.status, made.status, db.status]).toEqual([200, 200, 200]);
    tick(DB_MS.provisioning + 1000);
    const creds = await call(e, "GET", `/databases/mysql/instances/${db.body.id}/credentials`);
    expect(creds.status).toBe(200);
    const reset = await call(e, "POST", "/compute/instances/" + inst.body.id + "/password", { body: { root_pass: `${pass}2` } });
    // A body that is not JSON: its size only.
    const broken = await call(e, "POST", "/profile/sshkeys", { rawBody: `{"root_pass": "${pass}3", `, contentType: "application/json" });
    expect(broken.status).toBe(400);
    const secrets = [pass, `${pass}2`, `${pass}3`, keyLine.split(" ")[1], pat.body.token, userToken, made.body.token, creds.body.password, e.token];
    expect(secrets.every((s) => typeof s === "string" && s.length > 8)).toBe(true);
    void reset;

    const log = await call(e, "GET", "/__emulator/log");
    const text = JSON.stringify(log.body);
    for (const s of secrets) expect(text.includes(s)).toBe(false);
    const entry = (method: string, p: string) => log.body.find((l: { method: string; path: string }) => l.method === method && l.path === p);
    const created = entry("POST", "/v4/compute/instances");
    expect(created).toEqual({
      method: "POST",
      path: "/v4/compute/instances",
      status: 200,
      time: started,
      ms: expect.any(Number),
      request: expect.stringContaining(`"root_pass":"${REDACTED}"`),
      response: expect.stringContaining(`"label":"web-1"`),
    });
    expect(created.ms).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(created.request)).toMatchObject({ label: "web-1", authorized_keys: REDACTED });
    expect(JSON.parse(entry("POST", "/v4/profile/tokens").response)).toMatchObject({ label: "ci", token: REDACTED });
    expect(JSON.parse(entry("POST", "/__emulator/users").response)).toEqual({ username: "someone", token: REDACTED });
    expect(JSON.parse(entry("GET", `/v4/databases/mysql/instances/${db.body.id}/credentials`).response)).toEqual({
      username: creds.body.username,
      password: REDACTED,
    });
    expect(entry("POST", "/v4/profile/sshkeys")).toMatchObject({
      status: 400,
      request: expect.stringMatching(/^\[\d+ bytes, not JSON\]$/),
      response: expect.stringContaining("not valid JSON"),
    });
    // Later requests arrive later: their times are the emulator's clock when each arrived.
    expect(entry("GET", `/v4/databases/mysql/instances/${db.body.id}/credentials`).time).toBe(
      new Date(Date.parse(started) + DB_MS.provisioning + 1000).toISOString(),
    );
  });

  test("bodies are cut to their bound, a slow answer's duration is its time, and bodies are kept for the last requests only", async () => {
    const e = emu();
    const long = "x".repeat(5 * LOG_BODY_CHARS);
    const refused = await call(e, "POST", "/profile/sshkeys", { body: { label: long, ssh_key: ed25519Key(3) } });
    expect(refused.status).toBe(400);
    await call(e, "PUT", "/__emulator/faults", { body: { seed: 1, slowMs: 120, rules: [{ match: "^GET /v4/regions/us-east$", rate: 1, kinds: ["slow"] }] } });
    expect((await call(e, "GET", "/regions/us-east")).status).toBe(200);
    await call(e, "DELETE", "/__emulator/faults");
    const first = e.log.find((l) => l.method === "POST" && l.path === "/v4/profile/sshkeys");
    expect(first?.request).toHaveLength(LOG_BODY_CHARS);
    expect(first?.request?.endsWith("…")).toBe(true);
    const slow = e.log.find((l) => l.path === "/v4/regions/us-east");
    expect(slow).toMatchObject({ fault: "slow", status: 200 });
    expect(slow?.ms).toBeGreaterThanOrEqual(100);
    // A large answer (the regions list, the log itself) is logged within the bound too.
    expect((await call(e, "GET", "/regions?page_size=500")).status).toBe(200);
    expect(e.log.at(-1)?.response?.length).toBeLessThanOrEqual(LOG_BODY_CHARS);
    for (let i = 0; i < LOG_BODIES; i++) await call(e, "GET", "/regions/us-east");
    expect(first?.request).toBeUndefined();
    expect(first?.response).toBeUndefined();
    expect(e.log.at(-LOG_BODIES)?.response).toEqual(expect.stringContaining("us-east"));
    expect(e.log.filter((l) => l.response !== undefined).length).toBeLessThanOrEqual(LOG_BODIES);
  });
});

describe("the page's overview pages past 500", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await emulator({ speed: 0 });
  });
  afterAll(async () => {
    await emu.close();
  });

  test("each type is shown a page of 500 at a time, with its page, pages and count; another page is asked by its key", async () => {
    await importSshKeys(emu, 520);
    const one = await call(emu, "GET", "/__emulator/overview");
    const keys = one.body.resources.find((r: { type: string }) => r.type === "SSH keys");
    expect([keys.key, keys.page, keys.pages, keys.results, keys.rows.length]).toEqual(["sshkeys", 1, 2, 520, 500]);
    const two = (await call(emu, "GET", "/__emulator/overview?sshkeys=2")).body.resources.find((r: { type: string }) => r.type === "SSH keys");
    expect([two.page, two.pages, two.results, two.rows.length]).toEqual([2, 2, 520, 20]);
    expect(two.rows.map((r: { label: string }) => r.label)).toEqual(Array.from({ length: 20 }, (_, i) => `key-${501 + i}`));
    // The emulator's token reads another account's the same way.
    expect(
      (await call(emu, "GET", "/__emulator/accounts/1/overview?sshkeys=2")).body.resources.find((r: { type: string }) => r.type === "SSH keys").rows,
    ).toHaveLength(20);
    const bad = await call(emu, "GET", "/__emulator/overview?sshkeys=0");
    expect([bad.status, bad.body.errors[0].field]).toEqual([400, "sshkeys"]);
  });
});
