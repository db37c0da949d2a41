import { createHmac } from "node:crypto";
import { profileSecurityFamily, profileSecurityState } from "../../emulator/routes/profile-security";
import { addUser, call, useClockedEmulator } from "../helpers/emulator";

const { emu, tick, now } = useClockedEmulator();
const DAY = 86_400_000;

const fields = (r: { body: any }) => r.body.errors.map((e: any) => e.field);

/** RFC 6238 (HMAC-SHA1, 30-second steps, 6 digits) from a base32 secret, written here apart from the emulator's. */
function totp(secret: string, ms: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...secret].map((c) => alphabet.indexOf(c).toString(2).padStart(5, "0")).join("");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[19] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

describe("logins", () => {
  test("a user has the login that made its token, with the real API's fields, for 90 days", async () => {
    const list = await call(emu(), "GET", "/profile/logins");
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 1 });
    const login = list.body.data[0];
    expect(login).toEqual({
      id: expect.any(Number),
      datetime: "2026-03-10T12:00:00",
      ip: expect.any(String),
      restricted: false,
      status: "successful",
      username: "admin",
    });
    expect((await call(emu(), "GET", `/profile/logins/${login.id}`)).body).toEqual(login);
    tick(89 * DAY);
    expect((await call(emu(), "GET", "/profile/logins")).body.results).toBe(1);
    tick(2 * DAY);
    expect((await call(emu(), "GET", "/profile/logins")).body.results).toBe(0);
    expect((await call(emu(), "GET", `/profile/logins/${login.id}`)).status).toBe(404);
  });

  test("each user sees its own logins only; account:read_only is needed", async () => {
    const other = await addUser(emu(), "other", { restricted: true });
    const mine = (await call(emu(), "GET", "/profile/logins")).body.data[0];
    const theirs = (await call(emu(), "GET", "/profile/logins", { token: other })).body.data;
    expect(theirs).toEqual([expect.objectContaining({ username: "other", restricted: true })]);
    expect((await call(emu(), "GET", `/profile/logins/${mine.id}`, { token: other })).status).toBe(404);
    const narrow = await addUser(emu(), "narrow", { scopes: "computes:read_only" });
    expect((await call(emu(), "GET", "/profile/logins", { token: narrow })).status).toBe(403);
  });
});

describe("authorized apps and trusted devices", () => {
  test("read and revoke; a device's session ends after 30 days", async () => {
    const apps = (await call(emu(), "GET", "/profile/apps")).body.data;
    expect(apps).toEqual([
      {
        id: expect.any(Number),
        label: expect.any(String),
        scopes: "*",
        created: "2026-03-10T12:00:00",
        expiry: null,
        thumbnail_url: null,
        website: expect.any(String),
      },
    ]);
    expect((await call(emu(), "DELETE", `/profile/apps/${apps[0].id}`)).body).toEqual({});
    expect((await call(emu(), "GET", `/profile/apps/${apps[0].id}`)).status).toBe(404);
    expect((await call(emu(), "GET", "/profile/apps")).body.results).toBe(0);

    const devices = (await call(emu(), "GET", "/profile/devices")).body.data;
    expect(devices).toEqual([
      {
        id: expect.any(Number),
        created: "2026-03-10T12:00:00",
        expiry: "2026-04-09T12:00:00",
        last_authenticated: "2026-03-10T12:00:00",
        last_remote_addr: expect.any(String),
        user_agent: expect.any(String),
      },
    ]);
    expect((await call(emu(), "GET", `/profile/devices/${devices[0].id}`)).body).toEqual(devices[0]);
    tick(30 * DAY);
    expect((await call(emu(), "GET", "/profile/devices")).body.results).toBe(0);
  });

  test("a revoked device is gone; revoking needs account:read_write", async () => {
    const ro = await addUser(emu(), "reader", { scopes: "account:read_only" });
    const id = (await call(emu(), "GET", "/profile/devices", { token: ro })).body.data[0].id;
    expect((await call(emu(), "DELETE", `/profile/devices/${id}`, { token: ro })).status).toBe(403);
    expect((await call(emu(), "DELETE", `/profile/devices/${id}`)).status).toBe(404); // another user's device
    const rw = await addUser(emu(), "writer", { scopes: "account:read_write" });
    const own = (await call(emu(), "GET", "/profile/devices", { token: rw })).body.data[0].id;
    expect((await call(emu(), "DELETE", `/profile/devices/${own}`, { token: rw })).status).toBe(200);
    expect((await call(emu(), "GET", `/profile/devices/${own}`, { token: rw })).status).toBe(404);
  });
});

describe("phone verification", () => {
  /** not shown by the API: the code is sent by SMS, so the emulator's record of it is read. */
  const code = () => emu().store.data.profileSettings.find((s) => s.username === "admin")?.phone?.code;

  test("a code valid 10 minutes, sent again unchanged; verified, then deleted", async () => {
    expect(fields(await call(emu(), "POST", "/profile/phone-number", { body: { iso_code: "USA" } }))).toEqual(["iso_code", "phone_number"]);
    const send = () => call(emu(), "POST", "/profile/phone-number", { body: { iso_code: "us", phone_number: "555-555-5555" } });
    expect((await send()).body).toEqual({});
    const first = code();
    tick(5 * 60_000);
    await send();
    expect(code()).toBe(first);
    expect(fields(await call(emu(), "POST", "/profile/phone-number/verify", { body: { otp_code: first === "000000" ? "111111" : "000000" } }))).toEqual([
      "otp_code",
    ]);
    expect((await call(emu(), "POST", "/profile/phone-number/verify", { body: { otp_code: first } })).body).toEqual({});
    expect((await call(emu(), "GET", "/profile")).body.verified_phone_number).toBe("555-555-5555");
    // To change it: delete it first.
    expect((await send()).status).toBe(400);
    expect((await call(emu(), "DELETE", "/profile/phone-number")).body).toEqual({});
    expect((await call(emu(), "GET", "/profile")).body.verified_phone_number).toBeNull();
    expect((await call(emu(), "DELETE", "/profile/phone-number")).status).toBe(400);
  });

  test("an expired code verifies nothing", async () => {
    await call(emu(), "POST", "/profile/phone-number", { body: { iso_code: "US", phone_number: "5555555555" } });
    const first = code();
    tick(10 * 60_000);
    expect((await call(emu(), "POST", "/profile/phone-number/verify", { body: { otp_code: first } })).status).toBe(400);
    await call(emu(), "POST", "/profile/phone-number", { body: { iso_code: "US", phone_number: "5555555555" } });
    expect(code()).toBeDefined();
  });
});

describe("preferences", () => {
  test("any JSON object, replaced whole, at most 65,535 characters", async () => {
    expect((await call(emu(), "GET", "/profile/preferences")).body).toEqual({});
    expect((await call(emu(), "PUT", "/profile/preferences", { body: { theme: "dark", sort: { by: "label" } } })).body).toEqual({
      theme: "dark",
      sort: { by: "label" },
    });
    expect((await call(emu(), "PUT", "/profile/preferences", { body: { theme: "light" } })).body).toEqual({ theme: "light" });
    expect((await call(emu(), "GET", "/profile/preferences")).body).toEqual({ theme: "light" });
    expect((await call(emu(), "PUT", "/profile/preferences", { body: { big: "x".repeat(65_535) } })).status).toBe(400);
    expect((await call(emu(), "PUT", "/profile/preferences", { body: ["not", "an", "object"] })).status).toBe(400);
  });
});

describe("security questions and two-factor authentication", () => {
  const answer = (ids: number[]) =>
    call(emu(), "POST", "/profile/security-questions", { body: { security_questions: ids.map((id) => ({ question_id: id, response: `answer ${id}` })) } });

  test("exactly three different questions; earlier answers are reset", async () => {
    const all = (await call(emu(), "GET", "/profile/security-questions")).body.security_questions;
    expect(all).toHaveLength(19);
    expect(all[0]).toEqual({ id: 1, question: "What was the name of your first pet?", response: null });
    expect((await answer([1, 2])).status).toBe(400);
    expect((await answer([1, 1, 2])).status).toBe(400);
    const r = await answer([1, 2, 3]);
    expect(r.body.security_questions.map((q: any) => [q.id, q.response])).toEqual([
      [1, "answer 1"],
      [2, "answer 2"],
      [3, "answer 3"],
    ]);
    await answer([4, 5, 6]);
    const after = (await call(emu(), "GET", "/profile/security-questions")).body.security_questions;
    expect(after.filter((q: any) => q.response !== null).map((q: any) => q.id)).toEqual([4, 5, 6]);
  });

  test("a secret after the questions, confirmed with a current code; then disabled", async () => {
    expect((await call(emu(), "POST", "/profile/tfa-enable")).status).toBe(400);
    await answer([1, 2, 3]);
    const secret = await call(emu(), "POST", "/profile/tfa-enable");
    expect(secret.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{16}$/), expiry: "2026-03-10T12:10:00" });
    expect(fields(await call(emu(), "POST", "/profile/tfa-enable-confirm", { body: {} }))).toEqual(["tfa_code"]);
    const wrong = totp(secret.body.secret, now() + 10 * 60_000);
    expect((await call(emu(), "POST", "/profile/tfa-enable-confirm", { body: { tfa_code: wrong } })).status).toBe(400);
    const ok = await call(emu(), "POST", "/profile/tfa-enable-confirm", { body: { tfa_code: totp(secret.body.secret, now()) } });
    expect(ok.body).toEqual({ scratch: expect.any(String) });
    expect((await call(emu(), "GET", "/profile")).body.two_factor_auth).toBe(true);
    expect((await call(emu(), "POST", "/profile/tfa-disable")).body).toEqual({});
    expect((await call(emu(), "GET", "/profile")).body.two_factor_auth).toBe(false);
  });
});

describe("the records it keeps", () => {
  test("are its collections' stored schemas (what a fixture's records of them must be)", async () => {
    await call(emu(), "GET", "/profile/logins");
    await call(emu(), "PUT", "/profile/preferences", { body: { theme: "dark" } });
    await call(emu(), "POST", "/profile/phone-number", { body: { iso_code: "US", phone_number: "5555555555" } });
    const { schemas } = profileSecurityState;
    const data = profileSecurityState(emu().store);
    const issues = (schema: { safeParse(v: unknown): { error?: { issues: unknown[] } } } | undefined, records: unknown[]) =>
      records.map((r) => (schema ? (schema.safeParse(r).error?.issues ?? "read") : "no schema"));
    expect([
      issues(schemas?.logins, data.logins),
      issues(schemas?.authorizedApps, data.authorizedApps),
      issues(schemas?.trustedDevices, data.trustedDevices),
      issues(schemas?.profileSettings, data.profileSettings),
    ]).toEqual([["read"], ["read"], ["read"], ["read"]]);
    // An app as the API shows it has no user; as kept, it has one (a record with neither is refused).
    const { username: _u, ...app } = data.authorizedApps[0];
    expect(schemas?.authorizedApps.safeParse(app).success).toBe(false);
  });

  test("name users of the account (the family's references): a record of no user is refused with its place", async () => {
    await call(emu(), "GET", "/profile/devices");
    expect(profileSecurityFamily.references?.(emu().store)).toEqual([]);
    const data = profileSecurityState(emu().store);
    data.trustedDevices.push({ ...data.trustedDevices[0], id: 99, username: "ghost" });
    data.profileSettings.push({ username: "nobody", preferences: {}, answers: {} });
    expect(profileSecurityFamily.references?.(emu().store)).toEqual([
      { field: "records.trustedDevices[1].username", reason: "no user ghost in the account" },
      { field: "records.profileSettings[0].username", reason: "no user nobody in the account" },
    ]);
  });
});

test("an answer that is not an object is refused under its place, with the others", async () => {
  const r = await call(emu(), "POST", "/profile/security-questions", {
    body: { security_questions: ["first pet", { question_id: 2, response: "b" }, { question_id: 20, response: " " }] },
  });
  expect(r.body.errors).toEqual([
    { field: "security_questions[0]", reason: "Must be an object with question_id and response" },
    { field: "security_questions[2].question_id", reason: "Must be a question id from 1 to 19" },
    { field: "security_questions[2].response", reason: "Must be an answer of 1 to 255 characters" },
  ]);
});

test("a body that is not a JSON object is refused on every row, those that read none too (the router reads it before the handler)", async () => {
  for (const path of ["/profile/tfa-enable", "/profile/tfa-disable", "/profile/phone-number/verify"]) {
    const r = await call(emu(), "POST", path, { body: ["not", "an", "object"] });
    expect([path, r.status, r.body.errors]).toEqual([path, 400, [{ reason: "Request body must be a JSON object" }]]);
  }
  expect((await call(emu(), "GET", "/profile")).body.two_factor_auth).toBe(false);
});
