import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { z } from "zod";
import { collectionsOf, familyCollections, serviceKey, Services } from "../../emulator/family";
import { apiFamilies } from "../../emulator/routes";
import { addUser, call, ed25519Key, emulator, ROOT_TOKEN, useEmulatorPerTest } from "../helpers/emulator";

const { emu, restart } = useEmulatorPerTest();

describe("authentication", () => {
  test("no Authorization header is 401 with the error envelope", async () => {
    const r = await call(emu(), "GET", "/profile", { token: null });
    expect(r.status).toBe(401);
    expect(r.body.errors[0].reason).toMatch(/Invalid Token/);
  });

  test("an unknown token is 401", async () => {
    expect((await call(emu(), "GET", "/profile", { token: "nope" })).status).toBe(401);
  });

  test("a malformed Authorization header is 401", async () => {
    const res = await fetch(`${emu().url}/profile`, { headers: { authorization: `Token ${ROOT_TOKEN}` } });
    expect(res.status).toBe(401);
  });

  test("a token without the needed scope is 403; read_write covers read_only", async () => {
    const ro = await addUser(emu(), "reader", { scopes: "account:read_only" });
    expect((await call(emu(), "GET", "/profile/sshkeys", { token: ro })).status).toBe(200);
    const w = await call(emu(), "POST", "/profile/sshkeys", { token: ro, body: { label: "x", ssh_key: ed25519Key(1) } });
    expect(w.status).toBe(403);
    expect(w.body.errors[0].reason).toMatch(/account:read_write/);
    const rw = await addUser(emu(), "writer", { scopes: "account:read_write" });
    expect((await call(emu(), "GET", "/profile/sshkeys", { token: rw })).status).toBe(200);
    const other = await addUser(emu(), "other", { scopes: "computes:read_write" });
    expect((await call(emu(), "GET", "/profile/sshkeys", { token: other })).status).toBe(403);
  });

  test("the profile and grants need no scope", async () => {
    const t = await addUser(emu(), "narrow", { scopes: "computes:read_only" });
    expect((await call(emu(), "GET", "/profile", { token: t })).status).toBe(200);
    expect((await call(emu(), "GET", "/profile/grants", { token: t })).status).toBe(204);
  });
});

describe("protocol", () => {
  test("paths outside /v4 and unknown paths are 404", async () => {
    expect((await fetch(emu().url.replace("/v4", "/v3/profile"))).status).toBe(404);
    expect((await call(emu(), "GET", "/nothing-here")).status).toBe(404);
  });

  test("a known path with another method is 405", async () => {
    const r = await call(emu(), "PATCH", "/profile/sshkeys");
    expect(r.status).toBe(405);
    expect(r.body.errors[0].reason).toMatch(/PATCH/);
  });

  test("a body that is not JSON is 415; broken JSON is 400", async () => {
    const r = await call(emu(), "POST", "/profile/sshkeys", { rawBody: "label=x", contentType: "application/x-www-form-urlencoded" });
    expect(r.status).toBe(415);
    const b = await call(emu(), "POST", "/profile/sshkeys", { rawBody: "{not json" });
    expect(b.status).toBe(400);
    expect(b.body.errors[0].reason).toMatch(/not valid JSON/);
  });

  test("unknown ids are 404", async () => {
    expect((await call(emu(), "GET", "/profile/sshkeys/999")).status).toBe(404);
    expect((await call(emu(), "GET", "/profile/tokens/999")).status).toBe(404);
  });
});

describe("pagination", () => {
  beforeEach(async () => {
    for (let i = 0; i < 60; i++) {
      const r = await call(emu(), "POST", "/profile/sshkeys", { body: { label: `k${i}`, ssh_key: ed25519Key(i) } });
      if (r.status !== 200) throw new Error(`POST /profile/sshkeys: ${r.status} ${JSON.stringify(r.body)}`);
    }
  });

  test("the envelope has data, page, pages and results; default page size 100", async () => {
    const r = await call(emu(), "GET", "/profile/sshkeys");
    expect(r.body).toMatchObject({ page: 1, pages: 1, results: 60 });
    expect(r.body.data).toHaveLength(60);
  });

  test("page and page_size slice the list", async () => {
    const r = await call(emu(), "GET", "/profile/sshkeys?page=3&page_size=25");
    expect(r.body).toMatchObject({ page: 3, pages: 3, results: 60 });
    expect(r.body.data.map((k: any) => k.label)).toEqual(Array.from({ length: 10 }, (_, i) => `k${50 + i}`));
  });

  test.each([
    ["page_size=24", "page_size"],
    ["page_size=501", "page_size"],
    ["page_size=abc", "page_size"],
    ["page=0", "page"],
    ["page=-1", "page"],
  ])("%s is refused with the field named", async (q, field) => {
    const r = await call(emu(), "GET", `/profile/sshkeys?${q}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe(field);
  });
});

describe("profile", () => {
  test("GET returns the profile fields", async () => {
    const r = await call(emu(), "GET", "/profile");
    expect(r.body).toMatchObject({ username: "admin", restricted: false, console_auth_method: "password_keys", authorized_keys: null });
    expect(r.body).toHaveProperty("referrals");
  });

  test("PUT changes the allowed fields and validates them", async () => {
    const ok = await call(emu(), "PUT", "/profile", { body: { email: "me@example.org", timezone: "Europe/Paris", console_auth_method: "keys_only" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email: "me@example.org", timezone: "Europe/Paris", console_auth_method: "keys_only" });
    // What the body's schema refuses (api/contract/profile.ts), every field at once; then what the account's state refuses.
    const bad = await call(emu(), "PUT", "/profile", { body: { email: "nope", console_auth_method: "telnet", ip_whitelist_enabled: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["console_auth_method", "email"]);
    const enable = await call(emu(), "PUT", "/profile", { body: { email: "other@example.org", ip_whitelist_enabled: true } });
    expect(enable.status).toBe(400);
    expect(enable.body.errors).toEqual([{ field: "ip_whitelist_enabled", reason: "IP whitelisting is deprecated and cannot be enabled" }]);
    expect((await call(emu(), "GET", "/profile")).body.email).toBe("me@example.org");
  });

  test("PUT with authorized_keys checks each key", async () => {
    const r = await call(emu(), "PUT", "/profile", { body: { authorized_keys: [ed25519Key(1), "ssh-rsa nope"] } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("authorized_keys[1]");
  });

  test("PUT needs account:read_write", async () => {
    const ro = await addUser(emu(), "reader", { scopes: "account:read_only" });
    expect((await call(emu(), "PUT", "/profile", { token: ro, body: { timezone: "UTC" } })).status).toBe(403);
  });

  test("grants: 204 with no body for an unrestricted user, the grants object for a restricted one", async () => {
    const r = await call(emu(), "GET", "/profile/grants");
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    const t = await addUser(emu(), "limited", { restricted: true, global: { add_computes: true } });
    const g = await call(emu(), "GET", "/profile/grants", { token: t });
    expect(g.status).toBe(200);
    expect(g.body.global).toMatchObject({ add_computes: true, add_vpcs: false, add_databases: false });
    // The spec's arrays, and `firewall`, which the real API answers too (tests/fixtures/real-answers).
    expect(Object.keys(g.body).sort()).toEqual([
      "compute",
      "database",
      "domain",
      "firewall",
      "global",
      "image",
      "monitoring",
      "nodebalancer",
      "script",
      "volume",
      "vpc",
    ]);
    expect(g.body.firewall).toEqual([]);
  });
});

describe("personal access tokens", () => {
  test("the full value appears only in the create response, later only 16 characters", async () => {
    const c = await call(emu(), "POST", "/profile/tokens", { body: { label: "ci", scopes: "account:read_only" } });
    expect(c.status).toBe(200);
    expect(c.body.token).toMatch(/^[0-9a-f]{64}$/);
    const v = await call(emu(), "GET", `/profile/tokens/${c.body.id}`);
    expect(v.body.token).toBe(c.body.token.slice(0, 16));
    const list = await call(emu(), "GET", "/profile/tokens");
    expect(list.body.data.every((t: any) => t.token.length === 16)).toBe(true);
    // The new token works, with its scopes.
    expect((await call(emu(), "GET", "/profile/sshkeys", { token: c.body.token })).status).toBe(200);
    expect((await call(emu(), "POST", "/profile/sshkeys", { token: c.body.token, body: { ssh_key: ed25519Key(1) } })).status).toBe(403);
  });

  test("a token can have at most the acting token's scopes", async () => {
    const narrow = await addUser(emu(), "narrow", { scopes: "account:read_write computes:read_only" });
    const up = await call(emu(), "POST", "/profile/tokens", { token: narrow, body: { label: "x", scopes: "computes:read_write" } });
    expect(up.status).toBe(400);
    expect(up.body.errors[0]).toMatchObject({ field: "scopes" });
    const all = await call(emu(), "POST", "/profile/tokens", { token: narrow, body: { label: "x", scopes: "*" } });
    expect(all.status).toBe(400);
    const ok = await call(emu(), "POST", "/profile/tokens", { token: narrow, body: { label: "x", scopes: "computes:read_only" } });
    expect(ok.status).toBe(200);
    // Omitted scopes: the acting token's.
    const dflt = await call(emu(), "POST", "/profile/tokens", { token: narrow, body: { label: "y" } });
    expect(dflt.body.scopes).toBe("account:read_write computes:read_only");
  });

  test("bad labels, scopes and expiry are refused with the field named", async () => {
    const r = await call(emu(), "POST", "/profile/tokens", { body: { label: "x".repeat(101), scopes: "widgets:read_only", expiry: "yesterday" } });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => e.field).sort()).toEqual(["expiry", "label", "scopes"]);
    const past = await call(emu(), "POST", "/profile/tokens", { body: { label: "x", expiry: "2001-01-01T00:00:00" } });
    expect(past.body.errors).toEqual([{ field: "expiry", reason: "Must be in the future" }]);
    expect((await call(emu(), "POST", "/profile/tokens", { body: { label: "" } })).status).toBe(400);
  });

  test("a revoked token is 401 at once; a token can revoke itself", async () => {
    const c = await call(emu(), "POST", "/profile/tokens", { body: { label: "temp" } });
    const t = c.body.token;
    expect((await call(emu(), "GET", "/profile", { token: t })).status).toBe(200);
    expect((await call(emu(), "DELETE", `/profile/tokens/${c.body.id}`, { token: t })).status).toBe(200);
    expect((await call(emu(), "GET", "/profile", { token: t })).status).toBe(401);
  });

  test("an expired token is 401", async () => {
    let now = Date.parse("2026-06-01T00:00:00Z");
    await restart({ now: () => now });
    const c = await call(emu(), "POST", "/profile/tokens", { body: { label: "short", expiry: "2026-06-01T01:00:00" } });
    expect(c.body.expiry).toBe("2026-06-01T01:00:00");
    expect((await call(emu(), "GET", "/profile", { token: c.body.token })).status).toBe(200);
    now += 2 * 3600_000;
    expect((await call(emu(), "GET", "/profile", { token: c.body.token })).status).toBe(401);
  });

  test("PUT changes only the label", async () => {
    const c = await call(emu(), "POST", "/profile/tokens", { body: { label: "a", scopes: "account:read_only" } });
    const u = await call(emu(), "PUT", `/profile/tokens/${c.body.id}`, { body: { label: "b" } });
    expect(u.body).toMatchObject({ label: "b", scopes: "account:read_only" });
    expect((await call(emu(), "PUT", `/profile/tokens/${c.body.id}`, { body: { scopes: "*" } })).status).toBe(400);
  });

  test("users see only their own tokens and keys", async () => {
    const other = await addUser(emu(), "other");
    await call(emu(), "POST", "/profile/sshkeys", { body: { label: "mine", ssh_key: ed25519Key(1) } });
    const list = await call(emu(), "GET", "/profile/sshkeys", { token: other });
    expect(list.body.results).toBe(0);
    expect((await call(emu(), "GET", "/profile/sshkeys/1", { token: other })).status).toBe(404);
  });
});

describe("SSH keys", () => {
  test("create, view, update the label, delete", async () => {
    const key = ed25519Key(7, "me@laptop");
    const c = await call(emu(), "POST", "/profile/sshkeys", { body: { label: "laptop", ssh_key: key } });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ label: "laptop", ssh_key: key });
    expect(c.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const u = await call(emu(), "PUT", `/profile/sshkeys/${c.body.id}`, { body: { label: "work" } });
    expect(u.body.label).toBe("work");
    expect((await call(emu(), "GET", `/profile/sshkeys/${c.body.id}`)).body.label).toBe("work");
    expect((await call(emu(), "DELETE", `/profile/sshkeys/${c.body.id}`)).body).toEqual({});
    expect((await call(emu(), "GET", `/profile/sshkeys/${c.body.id}`)).status).toBe(404);
  });

  test("only the label can change", async () => {
    const c = await call(emu(), "POST", "/profile/sshkeys", { body: { label: "a", ssh_key: ed25519Key(1) } });
    const r = await call(emu(), "PUT", `/profile/sshkeys/${c.body.id}`, { body: { ssh_key: ed25519Key(2) } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("ssh_key");
  });

  test.each([
    [{ label: "x".repeat(65), ssh_key: ed25519Key(1) }, "label", /at most 64/],
    [{ label: "ok" }, "ssh_key", /required/],
    [{ ssh_key: "ssh-foo AAAAB3NzaC1yc2E=" }, "ssh_key", /not supported/],
    [{ ssh_key: "ssh-rsa !!!notbase64" }, "ssh_key", /base64/],
    [{ ssh_key: ed25519Key(1).replace("ssh-ed25519", "ssh-rsa") }, "ssh_key", /does not hold a ssh-rsa key/],
    [{ ssh_key: 42 }, "ssh_key", /must be a string/],
  ])("%j is refused", async (body, field, reason) => {
    const r = await call(emu(), "POST", "/profile/sshkeys", { body });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe(field);
    expect(r.body.errors[0].reason).toMatch(reason);
  });

  test("a 64-character label is accepted; the label is optional", async () => {
    expect((await call(emu(), "POST", "/profile/sshkeys", { body: { label: "x".repeat(64), ssh_key: ed25519Key(1) } })).status).toBe(200);
    const r = await call(emu(), "POST", "/profile/sshkeys", { body: { ssh_key: ed25519Key(2) } });
    expect(r.body.label).toBe("");
  });
});

describe("admin endpoints", () => {
  test("are open to the root token only", async () => {
    const t = await addUser(emu(), "someone");
    expect((await call(emu(), "GET", "/__emulator/log", { token: t })).status).toBe(403);
    expect((await call(emu(), "GET", "/__emulator/log", { token: null })).status).toBe(401);
  });

  test("the request log records method, path, status, arrival time, duration and the answer's body", async () => {
    await call(emu(), "GET", "/profile/sshkeys/5");
    const log = await call(emu(), "GET", "/__emulator/log");
    expect(log.body).toContainEqual({
      method: "GET",
      path: "/v4/profile/sshkeys/5",
      status: 404,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ms: expect.any(Number),
      response: '{"errors":[{"reason":"Not found"}]}',
    });
  });
});

describe("--state FILE", () => {
  test("nothing is lost across a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emu-state-"));
    const file = path.join(dir, "state.json");
    try {
      const a = await emulator({ stateFile: file });
      const k = await call(a, "POST", "/profile/sshkeys", { body: { label: "persisted", ssh_key: ed25519Key(3) } });
      const t = await call(a, "POST", "/profile/tokens", { body: { label: "kept" } });
      await call(a, "DELETE", `/profile/tokens/${t.body.id}`);
      const t2 = await call(a, "POST", "/profile/tokens", { body: { label: "kept2" } });
      await a.close();
      const b = await emulator({ stateFile: file });
      expect((await call(b, "GET", `/profile/sshkeys/${k.body.id}`)).body.label).toBe("persisted");
      expect((await call(b, "GET", "/profile", { token: t2.body.token })).status).toBe(200);
      expect((await call(b, "GET", "/profile", { token: t.body.token })).status).toBe(401);
      // Ids go on from where they were (never one given before: the sequence's block taken at the last start is skipped).
      const k2 = await call(b, "POST", "/profile/sshkeys", { body: { ssh_key: ed25519Key(4) } });
      expect(k2.body.id).toBeGreaterThan(k.body.id);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a JSON state file of a release before the databases loads, its missing collections empty", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emu-state-"));
    const old = path.join(dir, "old.json");
    try {
      // A file of a release before the databases: the upgrade fixture without them.
      const fixture = JSON.parse(readFileSync(path.join(__dirname, "../fixtures/upgrade-0.1.0/emulator.json"), "utf8")) as Record<string, unknown>;
      delete fixture.databases;
      delete fixture.databaseBackups;
      writeFileSync(old, JSON.stringify(fixture));
      const b = await emulator({ stateFile: old, token: "upgrade-fixture-token-0123456789" });
      expect((await call(b, "GET", "/compute/instances")).body.results).toBe(3);
      expect((await call(b, "GET", "/databases/instances")).body.data).toEqual([]);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("API families", () => {
  test("a service is resolved when used, so that families may register in any order", () => {
    const services = new Services();
    const key = serviceKey<(name: string) => string>("greeting");
    const greet = services.use(key);
    expect(() => greet()).toThrow(/No API family provides the service greeting/);
    services.provide(key, (name) => `hello ${name}`);
    expect(greet()("you")).toBe("hello you");
    expect(() => services.provide(key, () => "again")).toThrow(/provided twice/);
  });

  test("each collection of the state file belongs to one family", () => {
    expect(familyCollections(apiFamilies({})).sort()).toEqual(
      [
        ...["sshkeys", "vpcs", "subnets", "images", "instances", "configs", "disks", "backups", "databases", "databaseBackups"],
        ...["logins", "authorizedApps", "trustedDevices", "profileSettings"],
      ].sort(),
    );
    const clash = { name: "clash", state: collectionsOf({ vpcs: z.unknown() }), register: () => undefined };
    expect(() => familyCollections([...apiFamilies({}), clash])).toThrow(/families vpc and clash both keep a collection named vpcs/);
  });

  test("a family's view reads and replaces the store's collections", () => {
    const view = collectionsOf({ vpcs: z.object({ id: z.number() }) })(emu().store);
    view.vpcs = [...view.vpcs, { id: 99 }];
    expect(emu().store.data.vpcs.map((v) => v.id)).toEqual([99]);
    emu().store.data.vpcs = [];
    expect(view.vpcs).toEqual([]);
  });
});
