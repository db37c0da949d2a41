/**
 * A fixture's SSH keys and profile security records must be records the API could have made (issue 52, the
 * fresh-eyes findings): a key's line and label by the API's rules; preferences within the API's length; answers
 * to questions that exist, none or three, each by the answer rule; a pending phone code and two-factor secret as the
 * emulator issues them; logins and devices from addresses, apps with scopes; one settings record a user. The
 * families' counters follow their records' ids. A record that is not so is refused with its place and the rule,
 * before anything is loaded.
 */
import { countersOf, type StateHolder } from "../../emulator/family";
import type { Emulator } from "../../emulator/server";
import { profileFamily } from "../../emulator/routes/profile";
import { profileSecurityFamily } from "../../emulator/routes/profile-security";
import { parseScopes } from "../../api/scopes";
import { sshKeyError } from "../../api/ssh-keys";
import { addUser, call, ed25519Key, emulator, list } from "../helpers/emulator";

const CLOCK = Date.parse("2026-03-10T12:00:00Z");

type Records = Record<string, Array<Record<string, any>>>;
interface Fixture {
  format: string;
  version: number;
  records: Records;
  counters?: Record<string, number>;
}

let emu: Emulator;
/** The export of an account with two SSH keys, preferences, three answers, a phone code and a two-factor secret pending. */
let base: Fixture;

beforeAll(async () => {
  emu = await emulator({ now: () => CLOCK, speed: 0 });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await call(emu, method, path, { body });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok("POST", "/profile/sshkeys", { label: "ci-key", ssh_key: ed25519Key(1) });
  await ok("POST", "/profile/sshkeys", { ssh_key: ed25519Key(2) });
  await ok("PUT", "/profile/preferences", { theme: "dark", sortKeys: { instances: ["label", "region"] } });
  const answers = [3, 7, 12].map((question_id) => ({ question_id, response: `answer ${question_id}` }));
  await ok("POST", "/profile/security-questions", { security_questions: answers });
  await ok("POST", "/profile/phone-number", { iso_code: "us", phone_number: "+1 555-0100" });
  await ok("POST", "/profile/tfa-enable");
  base = (await call(emu, "GET", "/__emulator/export")).body;
});
afterAll(async () => {
  await emu.close();
});

/** The base export changed by `change` (a copy), imported into the main account. */
async function load(change: (records: Records, fixture: Fixture) => void = () => undefined) {
  const fixture = structuredClone(base);
  change(fixture.records, fixture);
  return call(emu, "POST", "/__emulator/import", { body: fixture });
}

/** A refusal as a fixture's load answers it: under its place, saying its place and the rule. */
const refusal = (field: string, reason: string) => ({ field, reason: `${field}: ${reason}` });

test("the export of an account with keys and every profile security record loads (into another account too)", async () => {
  expect(Object.keys(base.records.profileSettings[0]).sort()).toEqual(["answers", "phone", "preferences", "tfa", "username"]);
  expect([base.records.logins.length, base.records.authorizedApps.length, base.records.trustedDevices.length]).toEqual([1, 1, 1]);
  expect((await load()).status).toBe(200);
  const other = await call(emu, "POST", "/__emulator/accounts", { body: { label: "copy", fixture: base } });
  expect(other.status).toBe(200);
  expect((await call(emu, "GET", "/profile/preferences", { token: other.body.token })).body).toEqual({
    theme: "dark",
    sortKeys: { instances: ["label", "region"] },
  });
});

describe("SSH keys", () => {
  test("a key line the API refuses, labels with control characters, bidirectional controls, a lone surrogate or over 64 characters", async () => {
    const refused = await load((r) => {
      const [key] = r.sshkeys;
      r.sshkeys = [
        { ...key, ssh_key: "hello" },
        { ...key, id: 11, label: "a\u0000b" },
        { ...key, id: 12, label: "abc\u202edef" },
        { ...key, id: 13, label: "\ud800" },
        { ...key, id: 14, label: "k".repeat(65) },
      ];
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      refusal("records.sshkeys[0].ssh_key", `Invalid SSH key: ${sshKeyError("hello")}`),
      refusal("records.sshkeys[1].label", "Label must not hold control characters"),
      refusal("records.sshkeys[2].label", "Label must not hold bidirectional text controls"),
      refusal("records.sshkeys[3].label", "Label must be well-formed Unicode text (a lone surrogate is not)"),
      refusal("records.sshkeys[4].label", "Label must be at most 64 characters (got 65)"),
    ]);
    expect((await list(emu, "/profile/sshkeys")).map((k) => k.label)).toEqual(["ci-key", ""]);
  });

  test("the sshkey and token counters follow the records' ids, whatever the fixture's counters say", async () => {
    const token = { id: 5, label: "t", scopes: "*", created: "2026-03-10T12:00:00", expiry: null, token: "t".repeat(64), username: "admin" };
    const state: StateHolder = { data: { version: 1, nextId: {}, users: [], events: [], ...base.records, tokens: [token] } };
    expect(countersOf([profileFamily], state)).toEqual({ sshkey: 2 });
    const loaded = await load((r, fixture) => {
      r.sshkeys[1].id = 20;
      fixture.counters = {};
    });
    expect(loaded.status).toBe(200);
    expect((await call(emu, "POST", "/profile/sshkeys", { body: { ssh_key: ed25519Key(3) } })).body.id).toBe(21);
  });
});

describe("the profile's security records", () => {
  test("preferences over the API's length are refused: loaded, reading them and writing them back was refused", async () => {
    const big = { a: "x".repeat(100_000) };
    expect((await call(emu, "PUT", "/profile/preferences", { body: big })).body.errors).toEqual([{ reason: "Preferences must be at most 65535 characters" }]);
    const refused = await load((r) => {
      r.profileSettings[0].preferences = big;
    });
    expect(refused.body.errors).toEqual([refusal("records.profileSettings[0].preferences", "Preferences must be at most 65535 characters")]);
    // What a fixture loads, a client can read and write back.
    expect((await load()).status).toBe(200);
    const read = await call(emu, "GET", "/profile/preferences");
    expect((await call(emu, "PUT", "/profile/preferences", { body: read.body })).status).toBe(200);
  });

  test("answers to a question that does not exist (or __proto__), of another count than none or three, an empty answer", async () => {
    const refused = await load((r) => {
      r.profileSettings[0].answers = { "3": "a", "7": "b", "999": "c" };
    });
    expect(refused.body.errors).toEqual([refusal("records.profileSettings[0].answers.999", "No security question 999: the questions are 1 to 19")]);
    const proto = await load((r) => {
      r.profileSettings[0].answers = JSON.parse('{"3": "a", "7": "b", "__proto__": "c"}');
    });
    expect(proto.body.errors).toEqual([refusal("records.profileSettings[0].answers.__proto__", "No security question __proto__: the questions are 1 to 19")]);
    const some = await load((r) => {
      r.profileSettings[0].answers = { "3": "a", "7": "" };
    });
    expect(some.body.errors).toEqual([
      refusal("records.profileSettings[0].answers.7", "Must be an answer of 1 to 255 characters"),
      refusal("records.profileSettings[0].answers", "Answers are none or exactly 3 (got 2)"),
    ]);
  });

  test("a phone code, a two-factor secret, a login's or a device's address, an app's scopes the emulator could not have made; two settings of a user", async () => {
    const refused = await load((r) => {
      r.profileSettings[0].phone.code = "abc";
      r.profileSettings[0].tfa.secret = "not base32";
      r.logins[0].ip = "zzz";
      r.trustedDevices[0].last_remote_addr = "nope";
      r.authorizedApps[0].scopes = "bogus";
    });
    expect(refused.body.errors).toEqual([
      refusal("records.logins[0].ip", "Must be an IP address"),
      refusal("records.authorizedApps[0].scopes", String(parseScopes("bogus"))),
      refusal("records.trustedDevices[0].last_remote_addr", "Must be an IP address"),
      refusal("records.profileSettings[0].phone.code", "Must be a 6-digit code"),
      refusal("records.profileSettings[0].tfa.secret", "Must be 16 base32 characters"),
    ]);
    const twice = await load((r) => {
      r.profileSettings.push({ username: "admin", preferences: {}, answers: {} });
    });
    expect(twice.body.errors).toEqual([refusal("records.profileSettings[1].username", "user admin has settings already")]);
  });

  test("the login, device and app counters follow the records' ids, whatever the fixture's counters say", async () => {
    const state: StateHolder = { data: { version: 1, nextId: {}, users: [], tokens: [], events: [], ...base.records } };
    expect(countersOf([profileSecurityFamily], state)).toEqual({ login: 1, device: 1, app: 1 });
    const loaded = await load((r, fixture) => {
      r.logins[0].id = 30;
      r.trustedDevices[0].id = 40;
      r.authorizedApps[0].id = 50;
      fixture.counters = {};
    });
    expect(loaded.status).toBe(200);
    // A user first seen gets its sign-in's login, device and app: each the next id.
    const bob = await addUser(emu, "bob");
    const ids = await Promise.all(["/profile/logins", "/profile/devices", "/profile/apps"].map(async (p) => (await list(emu, p, { token: bob }))[0].id));
    expect(ids).toEqual([31, 41, 51]);
  });
});
