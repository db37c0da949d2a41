/**
 * Every tenant bounded (issue 53's probes, each a regression test): a fault rule's pattern runs in linear time and
 * its size is bounded; an X-Filter's size, width, conditions, depth and work are bounded, each refused naming its
 * bound; the rate limit is kept per token however its header spells it; connections are capped and idle ones
 * closed, so idle sockets cannot lock other clients out for long. (The store's bounds: another suite.)
 */
import { parseFaultSpec } from "../../emulator/faults";
import type { Emulator } from "../../emulator/server";
import { call, emulator } from "../helpers/emulator";

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator({ speed: 0 });
});
afterAll(async () => {
  await emu.close();
});

/** A new account of `emu`: its root token. */
async function account(label: string): Promise<string> {
  const made = await call(emu, "POST", "/__emulator/accounts", { body: { label } });
  expect(made.status).toBe(200);
  return made.body.token as string;
}

const setFaults = (token: string, rules: unknown[]) => call(emu, "PUT", "/__emulator/faults", { token, body: { seed: 1, rules } });
const rule = (match: string) => ({ match, rate: 1, kinds: ["500"] });

describe("fault rules: a tenant's pattern runs in linear time", () => {
  test("(a+)+b is taken and matched correctly: a long path of a's is answered, and so is another account, while aab gets its fault", async () => {
    const tenant = await account("faults-tenant");
    expect((await setFaults(tenant, [rule("(a+)+b")])).status).toBe(200);
    // (Before: a backtracking RegExp; 30 characters froze every account for 8.5 s, each more doubling it.)
    const long = `/v4/${"a".repeat(5000)}`;
    const [own, other] = await Promise.all([call(emu, "GET", long.slice(3), { token: tenant }), call(emu, "GET", "/regions")]);
    expect([own.status, other.status]).toEqual([404, 200]);
    expect((await call(emu, "GET", "/aaab", { token: tenant })).status).toBe(500);
    expect((await call(emu, "GET", "/regions", { token: tenant })).status).toBe(200);
  });

  test("a pattern RE2 cannot run in linear time (a backreference, lookaround) is a 400 naming the rule; nothing changes", async () => {
    const tenant = await account("faults-refused");
    const refused = await setFaults(tenant, [rule("^GET "), rule("(a)\\1"), rule("^(?=POST)")]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: "rules[1].match", reason: expect.stringMatching(/^match is not a regular expression that runs in linear time \(RE2's syntax.*\\1/) },
      { field: "rules[2].match", reason: expect.stringMatching(/^match is not a regular expression that runs in linear time .*\(\?=/) },
    ]);
    expect((await call(emu, "GET", "/__emulator/faults", { token: tenant })).body.config).toBeNull();
    // The command line's --faults is read by the same rules.
    expect(() => parseFaultSpec("seed=1,rate=1,match=(a)\\1")).toThrow(/^rules\.0\.match: match is not a regular expression that runs in linear time/);
  });

  test("a pattern's length, its steps, the rules' steps together and their number are bounded, each at its edge", async () => {
    const tenant = await account("faults-bounds");
    // 512 characters: taken; 513: refused.
    expect((await setFaults(tenant, [rule("a".repeat(512))])).status).toBe(200);
    expect((await setFaults(tenant, [rule("a".repeat(513))])).body.errors).toEqual([
      { field: "rules[0].match", reason: "match must be at most 512 characters" },
    ]);
    // .{998} compiles to 1,000 steps: taken; .{999}, 1,001: refused.
    expect((await setFaults(tenant, [rule(".{998}")])).status).toBe(200);
    expect((await setFaults(tenant, [rule(".{999}")])).body.errors).toEqual([
      { field: "rules[0].match", reason: "match is too complex: it compiles to 1001 steps, at most 1000 (a repeat such as {100} counts each)" },
    ]);
    // Every rule is tried on every request: 500 + 500 steps are taken, one step more is refused at the rule that passes the bound.
    expect((await setFaults(tenant, [rule(".{498}"), rule(".{498}")])).status).toBe(200);
    expect((await setFaults(tenant, [rule(".{498}"), rule(".{498}"), rule("x")])).body.errors).toEqual([
      { field: "rules[2].match", reason: "the rules' patterns compile to more than 1000 steps together (each is tried on every request)" },
    ]);
    // At most 100 rules.
    expect(
      (
        await setFaults(
          tenant,
          Array.from({ length: 100 }, () => rule("x")),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await setFaults(
          tenant,
          Array.from({ length: 101 }, () => rule("x")),
        )
      ).body.errors,
    ).toEqual([{ field: "rules", reason: "at most 100 rules" }]);
  });
});
