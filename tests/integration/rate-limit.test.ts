/**
 * The API's rate limit: the emulator's (`--rate-limit N`: N requests per second per token, a burst of N,
 * 429 with Retry-After beyond it; docs/spec-gaps.md), and the provider's one budget per API and token, which
 * queues its requests once the API has said 429 instead of collecting more.
 */
import { sshKeyProvider as p } from "../../provider/resources/sshKey";
import { addUser, call, ed25519Key, list } from "../helpers/emulator";
import { useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite({ options: { rateLimit: 5 } });

test("the emulator: a burst of N per token, then 429 with Retry-After; another token has its own", async () => {
  const other = await addUser(emu, "other"); // an admin request: not limited
  const answers = await Promise.all(Array.from({ length: 7 }, () => call(emu, "GET", "/profile/sshkeys")));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  const refused = answers.find((a) => a.status === 429)!;
  expect(refused.body).toEqual({ errors: [{ reason: "Too many requests" }] });
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  // The other token's bucket is full.
  expect((await call(emu, "GET", "/profile/sshkeys", { token: other })).status).toBe(200);
  // What the limit refused, and the limit, as the admin endpoint says it; it can be lifted at run time.
  expect((await call(emu, "GET", "/__emulator/rate-limit")).body).toEqual({ perSecond: 5, limited: 2 });
  expect((await call(emu, "PUT", "/__emulator/rate-limit", { body: { perSecond: null } })).body).toEqual({ perSecond: null, limited: 0 });
  const free = await Promise.all(Array.from({ length: 20 }, () => call(emu, "GET", "/profile/sshkeys")));
  expect(free.every((a) => a.status === 200)).toBe(true);
  expect((await call(emu, "PUT", "/__emulator/rate-limit", { body: { perSecond: 0 } })).status).toBe(400);
});

test("64 concurrent creates against a limit of 5 per second all succeed, each key made once, queued rather than refused again and again", async () => {
  const made = await Promise.all(
    Array.from({ length: 64 }, async (_, i) => {
      const { inputs } = await p.check({}, { label: `rl-${i}`, sshKey: ed25519Key(1000 + i) });
      return p.create(inputs);
    }),
  );
  expect(made).toHaveLength(64);
  const keys = await list(emu, "/profile/sshkeys");
  expect(keys.map((k) => k.label).sort()).toEqual(made.map((m) => m.outs.label).sort());
  expect(new Set(keys.map((k) => k.id)).size).toBe(64);
  // The first wave found the limit (what the burst did not take was refused once); after it the creates
  // queued at the learnt rate. Without the shared budget each create is refused again every second (and
  // some give up after 10 attempts: docs/reliability.md has the figures).
  const refused = emu.log.filter((l) => l.status === 429).length;
  expect(refused).toBeGreaterThan(0);
  expect(refused).toBeLessThan(64);
});
