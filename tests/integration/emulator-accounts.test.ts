/**
 * Accounts (issue 46): one emulator shared by CI jobs, each job with an account of its own. An account is made
 * with the emulator's root token and answers its own root token; nothing of one account reaches another:
 * records, ids, labels, users, tokens, faults, rate limits, request logs. With --state, accounts are kept.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { MAX_ACCOUNTS } from "../../emulator/admin";
import { call, ed25519Key, useEmulatorPerTest } from "../helpers/emulator";

const PASS = "Str0ng-Passw0rd!";

const { emu, restart } = useEmulatorPerTest({ speed: 0 });

async function newAccount(label: string): Promise<{ id: number; token: string }> {
  const made = await call(emu(), "POST", "/__emulator/accounts", { body: { label } });
  expect(made.status).toBe(200);
  expect(made.body).toEqual({ id: expect.any(Number), label, created: expect.any(String), token: expect.stringMatching(/^[0-9a-f]{64}$/) });
  return made.body;
}

/** The same records made in an account: an SSH key, a VPC with a subnet, an instance; all labelled "same". */
async function fill(token: string) {
  const key = await call(emu(), "POST", "/profile/sshkeys", { token, body: { label: "same", ssh_key: ed25519Key(7) } });
  const vpc = await call(emu(), "POST", "/vpcs", { token, body: { label: "same", region: "us-east", subnets: [{ label: "same", ipv4: "10.0.0.0/24" }] } });
  const inst = await call(emu(), "POST", "/compute/instances", {
    token,
    body: { label: "same", region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS },
  });
  expect([key.status, vpc.status, inst.status]).toEqual([200, 200, 200]);
  return { key: key.body.id as number, vpc: vpc.body.id as number, instance: inst.body.id as number };
}

test("two accounts side by side: the same labels in each, ids of their own, and nothing of one seen, changed or deleted from the other", async () => {
  const a = await newAccount("job-a");
  const b = await newAccount("job-b");
  const inA = await fill(a.token);
  const inB = await fill(b.token);
  const inMain = await fill(emu().token);
  // Ids of a kind are unique across the emulator, as the real API's are.
  for (const kind of ["key", "vpc", "instance"] as const) expect(new Set([inA[kind], inB[kind], inMain[kind]]).size).toBe(3);
  for (const [token, mine, others] of [
    [a.token, inA, [inB, inMain]],
    [b.token, inB, [inA, inMain]],
  ] as const) {
    for (const path of ["/profile/sshkeys", "/vpcs", "/compute/instances"]) {
      const listed = (await call(emu(), "GET", path, { token })).body.data.map((x: { id: number }) => x.id);
      expect([path, listed]).toEqual([path, [path === "/profile/sshkeys" ? mine.key : path === "/vpcs" ? mine.vpc : mine.instance]]);
    }
    for (const other of others) {
      expect((await call(emu(), "GET", `/compute/instances/${other.instance}`, { token })).status).toBe(404);
      expect((await call(emu(), "PUT", `/vpcs/${other.vpc}`, { token, body: { label: "taken" } })).status).toBe(404);
      expect((await call(emu(), "DELETE", `/profile/sshkeys/${other.key}`, { token })).status).toBe(404);
      expect((await call(emu(), "POST", `/compute/instances/${other.instance}/shutdown`, { token, body: {} })).status).toBe(404);
    }
  }
  // The other accounts' records are as they were.
  expect((await call(emu(), "GET", `/vpcs/${inMain.vpc}`)).body.label).toBe("same");
  expect((await call(emu(), "GET", `/profile/sshkeys/${inB.key}`, { token: b.token })).status).toBe(200);
});

test("an account's token is its own: the profile, users, tokens and the admin endpoints it reaches are its account's", async () => {
  const a = await newAccount("job-a");
  expect((await call(emu(), "GET", "/profile", { token: a.token })).body.username).toBe("admin");
  // Users and tokens made in one account are not in another.
  const user = await call(emu(), "POST", "/__emulator/users", { token: a.token, body: { username: "dev", restricted: false } });
  expect(user.status).toBe(200);
  expect((await call(emu(), "GET", "/profile", { token: user.body.token })).body.username).toBe("dev");
  const again = await call(emu(), "POST", "/__emulator/users", { body: { username: "dev", restricted: false } });
  expect(again.status).toBe(200); // a "dev" of the main account: another user
  const made = await call(emu(), "POST", "/profile/tokens", { token: a.token, body: { label: "ci", scopes: "*" } });
  const mainTokens = (await call(emu(), "GET", "/profile/tokens")).body.data.map((t: { label: string }) => t.label);
  expect(mainTokens).not.toContain("ci");
  expect((await call(emu(), "GET", "/vpcs", { token: made.body.token })).status).toBe(200);
  // Only the emulator's root token makes, lists and deletes accounts.
  const refused = await call(emu(), "POST", "/__emulator/accounts", { token: a.token, body: { label: "x" } });
  expect([refused.status, refused.body.errors[0].reason]).toEqual([403, "Only the emulator's root token (--token) makes, lists and deletes accounts"]);
  expect((await call(emu(), "GET", "/__emulator/accounts", { token: a.token })).status).toBe(403);
  // Another token of the account is not its root token.
  expect((await call(emu(), "GET", "/__emulator/log", { token: made.body.token })).status).toBe(403);
  const listed = (await call(emu(), "GET", "/__emulator/accounts")).body.data;
  expect(listed.map((x: { id: number; label: string }) => [x.id, x.label])).toEqual([
    [1, "main"],
    [a.id, "job-a"],
  ]);
  expect(listed.every((x: object) => !("token" in x))).toBe(true);
});

test("faults, rate limits and request logs are per account", async () => {
  const a = await newAccount("flaky");
  const b = await newAccount("calm");
  expect(
    (await call(emu(), "PUT", "/__emulator/faults", { token: a.token, body: { seed: 1, rules: [{ match: "^GET /v4/", rate: 1, kinds: ["503"] }] } })).status,
  ).toBe(200);
  expect((await call(emu(), "PUT", "/__emulator/rate-limit", { token: b.token, body: { perSecond: 2 } })).status).toBe(200);
  expect((await call(emu(), "GET", "/vpcs", { token: a.token })).status).toBe(503);
  const calm = [];
  for (let i = 0; i < 4; i++) calm.push((await call(emu(), "GET", "/vpcs", { token: b.token })).status);
  expect(calm).toEqual([200, 200, 429, 429]);
  // The main account has neither.
  for (let i = 0; i < 4; i++) expect((await call(emu(), "GET", "/vpcs")).status).toBe(200);
  const logOf = async (token: string) =>
    (await call(emu(), "GET", "/__emulator/log", { token })).body
      .filter((l: { path: string }) => l.path === "/v4/vpcs")
      .map((l: { status: number }) => l.status);
  expect(await logOf(a.token)).toEqual([503]);
  expect(await logOf(b.token)).toEqual([200, 200, 429, 429]);
  expect(
    emu()
      .log.filter((l) => l.path === "/v4/vpcs")
      .map((l) => l.status),
  ).toEqual([200, 200, 200, 200]);
});

test("an image upload URL reaches the account whose image it is", async () => {
  const a = await newAccount("uploader");
  const upload = await call(emu(), "POST", "/images/upload", { token: a.token, body: { label: "mine", region: "us-east" } });
  expect(upload.status).toBe(200);
  const res = await fetch(upload.body.upload_to, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream" },
    body: gzipSync(Buffer.alloc(1024)),
  });
  expect(res.status).toBe(200);
  const image = await call(emu(), "GET", `/images/${upload.body.image.id}`, { token: a.token });
  expect(image.body.status).toBe("available");
  expect((await call(emu(), "GET", `/images/${upload.body.image.id}`)).status).toBe(404);
});

test("with --state, accounts and their records are kept; a deleted account is gone, its token refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-accounts-"));
  const file = join(dir, "state.json");
  try {
    await restart({ stateFile: file, speed: 0 });
    const a = await newAccount("kept");
    const b = await newAccount("dropped");
    const inA = await fill(a.token);
    await restart({ stateFile: file, speed: 0 });
    expect((await call(emu(), "GET", `/compute/instances/${inA.instance}`, { token: a.token })).body.label).toBe("same");
    expect((await call(emu(), "DELETE", `/__emulator/accounts/${b.id}`)).status).toBe(200);
    expect((await call(emu(), "GET", "/profile", { token: b.token })).status).toBe(401);
    expect((await call(emu(), "DELETE", "/__emulator/accounts/1")).status).toBe(400);
    await restart({ stateFile: file, speed: 0 });
    expect((await call(emu(), "GET", "/__emulator/accounts")).body.data.map((x: { id: number }) => x.id)).toEqual([1, a.id]);
    expect((await call(emu(), "GET", "/profile", { token: b.token })).status).toBe(401);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an emulator holds at most 1,000 accounts (each costs memory), the main one counted", async () => {
  for (let i = 2; i <= MAX_ACCOUNTS; i++) expect((await call(emu(), "POST", "/__emulator/accounts", { body: {} })).status).toBe(200);
  const refused = await call(emu(), "POST", "/__emulator/accounts", { body: {} });
  expect([refused.status, refused.body.errors[0].reason]).toEqual([400, "The emulator holds at most 1000 accounts: delete one first"]);
  expect((await call(emu(), "DELETE", "/__emulator/accounts/2")).status).toBe(200);
  expect((await call(emu(), "POST", "/__emulator/accounts", { body: {} })).status).toBe(200);
}, 60_000);
