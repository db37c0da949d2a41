/**
 * The Token resource against the emulator: its value kept from the create answer only, a label changed in
 * place, expiry and scopes checked, a scope wider than the acting token's refused by the API naming the
 * field, revoke on delete, a lost create answer, a read without the value (an import), and the lookups
 * getProfile and getTokens.
 */
import { invoke } from "../../provider/functions";
import { tokenProvider as p } from "../../provider/resources/token";
import { client } from "../../provider/transport/settings";
import { addUser, call, get, list, useEmulator } from "../helpers/emulator";
import { useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();

const checked = async (news: Record<string, unknown>, olds: Record<string, unknown> = {}) => {
  const r = await p.check(olds, { __resourceName: "agent", ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
};
/** Whether a token value works against the API (a read its scopes allow). */
const works = async (token: string) => (await call(emu, "GET", "/profile", { token })).status === 200;

test("create keeps the full value, read and update keep it, delete revokes it", async () => {
  const inputs = await checked({ scopes: "  computes:read_only   databases:read_only ", expiry: "2099-01-01T00:00:00Z" });
  // Normalized as the API writes them: no diff against what a read shows.
  expect(inputs).toMatchObject({
    label: expect.stringMatching(/^agent-[0-9a-f]{7}$/),
    scopes: "computes:read_only databases:read_only",
    expiry: "2099-01-01T00:00:00",
  });
  const c = await p.create(inputs);
  expect(c.outs.token).toMatch(/^[0-9a-f]{64}$/);
  expect(await works(c.outs.token as string)).toBe(true);
  expect((await get(emu, `/profile/tokens/${c.id}`)).token).toHaveLength(16);

  const r = await p.read(c.id, c.outs);
  expect(r.props?.token).toBe(c.outs.token);
  expect(await p.diff(c.id, r.props!, inputs)).toMatchObject({ changes: false });

  const news = await checked({ ...inputs, label: "monitoring" }, inputs);
  const d = await p.diff(c.id, c.outs, news);
  expect(d).toMatchObject({ changes: true, replaces: [], changed: ["label"] });
  const u = await p.update(c.id, c.outs, news);
  expect(u.outs).toMatchObject({ label: "monitoring", token: c.outs.token });
  expect((await get(emu, `/profile/tokens/${c.id}`)).label).toBe("monitoring");

  expect((await p.diff(c.id, u.outs, await checked({ ...news, scopes: "computes:read_only" }, news))).replaces).toEqual(["scopes"]);

  await p.delete(c.id, u.outs);
  expect(await works(c.outs.token as string)).toBe(false);
  expect((await list(emu, "/profile/tokens")).map((t) => t.id)).not.toContain(Number(c.id));
});

test("at preview: a bad scope and a past expiry name their field; a kept token may outlive its expiry", async () => {
  const bad = await p.check({}, { scopes: "computes:everything" });
  expect(bad.failures).toEqual([{ property: "scopes", reason: expect.stringContaining('scopes: "computes:everything" is not a scope') }]);
  const past = await p.check({}, { scopes: "*", expiry: "2001-01-01T00:00:00Z" });
  expect(past.failures).toEqual([{ property: "expiry", reason: "expiry: 2001-01-01T00:00:00Z is not in the future" }]);
  expect((await p.check({}, { scopes: "*", expiry: "not a date" })).failures[0]).toMatchObject({ property: "expiry" });
  // A token in the state whose expiry has passed is not refused: nothing is asked of the API.
  const old = { label: "old", scopes: "*", expiry: "2001-01-01T00:00:00", token: "x", __provider: "p" };
  expect((await p.check(old, { label: "old", scopes: "*", expiry: "2001-01-01T00:00:00Z" })).failures).toEqual([]);
});

test("a scope wider than the acting token's is refused by the API, naming the field", async () => {
  const narrow = await addUser(emu, "agent", { scopes: "computes:read_only account:read_write" });
  await useEmulator(emu, narrow);
  await expect(p.create(await checked({ scopes: "databases:read_write" }))).rejects.toThrow(
    /cannot create token: the API answered HTTP 400: scopes: Cannot grant scopes that the acting token does not have/,
  );
});

test("a lost create answer: the token found has no value, so it is revoked and made again; one token remains", async () => {
  emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/profile/tokens$", rate: 1, kinds: ["lost"], limit: 1 }] });
  const c = await p.create(await checked({ scopes: "computes:read_only" }));
  expect(c.outs.token).toMatch(/^[0-9a-f]{64}$/);
  expect(await works(c.outs.token as string)).toBe(true);
  const mine = (await list(emu, "/profile/tokens")).filter((t) => t.scopes === "computes:read_only");
  expect(mine.map((t) => String(t.id))).toEqual([c.id]);
  expect(emu.log.filter((l) => l.method === "POST" && l.path === "/v4/profile/tokens")).toHaveLength(2);
});

test("a read without the value (an import, a get) leaves the token empty and says why", async () => {
  const made = await call(emu, "POST", "/profile/tokens", { body: { label: "by-hand", scopes: "*" } });
  const said: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (s: string | Uint8Array) => said.push(String(s)) > 0;
  try {
    const r = await p.read(String(made.body.id), {});
    expect(r.props).toMatchObject({ label: "by-hand", scopes: "*" });
    expect(r.props).not.toHaveProperty("token");
  } finally {
    process.stderr.write = write;
  }
  expect(said.join("")).toMatch(/token \d+ is read without its value .* its `token` output stays empty/);
});

test("getProfile and getTokens read the profile and its tokens (never their values)", async () => {
  const profile = await invoke(client(), "getProfile", {});
  expect(profile).toMatchObject({ username: "admin", restricted: false, uid: expect.any(Number) });
  await call(emu, "POST", "/profile/tokens", { body: { label: "agent", scopes: "computes:read_only" } });
  const { tokens } = await invoke(client(), "getTokens", { filters: [{ name: "label", values: ["agent"] }] });
  expect(tokens).toEqual([expect.objectContaining({ label: "agent", scopes: "computes:read_only" })]);
  expect(tokens as object[]).toEqual([expect.not.objectContaining({ token: expect.anything() })]);
});
