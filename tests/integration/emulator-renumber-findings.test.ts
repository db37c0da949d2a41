/**
 * A fresh-eyes review of ids kept where free, else renumbered (issue 53), as a user of the emulator finds it through
 * its HTTP API: an export loaded into other accounts, and a tenant trying to use up what every account shares. Each
 * test is a finding; a `test.failing` one is left open, its comment saying why.
 */
import { gzipSync } from "node:zlib";
import type { Emulator } from "../../emulator/server";
import { addUser, call, ed25519Key, emulator } from "../helpers/emulator";

let emu: Emulator;
beforeEach(async () => {
  emu = await emulator({ speed: 0 });
});
afterEach(async () => {
  await emu.close();
});

type Rec = Record<string, any>;

/** A request that must answer 200: its body. */
async function ok(method: string, path: string, body?: unknown, token?: string): Promise<Rec> {
  const r = await call(emu, method, path, { body, token });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const exportOf = (token?: string) => ok("GET", "/__emulator/export", undefined, token);
const newAccount = (label: string, fixture?: unknown) => ok("POST", "/__emulator/accounts", { label, fixture });
const instance = (label: string, token?: string) => ok("POST", "/compute/instances", { label, region: "us-east", type: "c1-nano-1" }, token);
const imageNumber = (id: string) => Number(id.replace("private/", ""));

/**
 * The n-th public address the emulator hands out (docs/spec-gaps.md "Addresses"): .2 to .254 of 203.0.113.0/24,
 * then of 192.0.2.0/24, then of each /24 of 198.18.0.0/15.
 */
function nth(n: number): string {
  const block = Math.floor((n - 1) / 253);
  const host = ((n - 1) % 253) + 2;
  if (block === 0) return `203.0.113.${host}`;
  if (block === 1) return `192.0.2.${host}`;
  return `198.${18 + Math.floor((block - 2) / 256)}.${(block - 2) % 256}.${host}`;
}
const FIRST = Array.from({ length: 50 }, (_, i) => nth(i + 1));

test("a restricted user's grant on a private image follows the image when it is renumbered", async () => {
  // Found: the grants on instances, VPCs and databases followed their records; those on images kept the original's
  // number, so that the copy's user held a grant on the first account's image and none on its own.
  const maker = await addUser(emu, "maker", { restricted: true, global: { add_images: true } });
  const upload = await ok("POST", "/images/upload", { label: "golden", region: "us-east" }, maker);
  const doc = await exportOf();
  doc.records.users.find((u: Rec) => u.username === "maker").grants.image = [{ id: imageNumber(upload.image.id), label: "golden", permissions: "read_write" }];
  const copy = await newAccount("copy", doc);
  expect(copy.loaded.renumbered.image).toEqual({ [String(imageNumber(upload.image.id))]: expect.any(Number) });
  const records = (await exportOf(copy.token)).records;
  const grants = records.users.find((u: Rec) => u.username === "maker").grants.image;
  expect(grants.map((g: Rec) => g.id)).toEqual(records.images.map((i: Rec) => imageNumber(i.id)));
  expect(grants.map((g: Rec) => g.id)).not.toContain(imageNumber(upload.image.id));
});

test("a pending upload copied into another account waits at a URL of its own: data sent there reaches the copy, the original's the original", async () => {
  // Found: the copy kept the original's upload URL, which stays the original's (the first account to hold it), so
  // that the copy waited for data that could never reach it.
  const upload = await ok("POST", "/images/upload", { label: "golden", region: "us-east" });
  const copy = await newAccount("copy", await exportOf());
  const copied = (await exportOf(copy.token)).records.images[0];
  const base = emu.url.replace(/\/v4$/, "");
  const put = (url: string) => fetch(url, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: gzipSync(Buffer.alloc(1024)) });
  expect((await put(`${base}/upload/${copied._upload.token}`)).status).toBe(200);
  expect((await ok("GET", `/images/${copied.id}`, undefined, copy.token)).status).toBe("available");
  expect((await ok("GET", `/images/${upload.image.id}`)).status).toBe("pending_upload");
  expect((await put(upload.upload_to)).status).toBe(200);
  expect((await ok("GET", `/images/${upload.image.id}`)).status).toBe("available");
});

test("an instance of a fixture holds no more public addresses than the API gives one: 30,000 are refused, not drawn from the pool every account shares", async () => {
  // Found: an instance's addresses were only checked to be strings held by no other instance; one import of an
  // instance with 30,000 took as many of the emulator's 130,042 public addresses (renumbered or kept), five
  // such imports every one.
  const tenant = await newAccount("tenant");
  await instance("one-1", tenant.token);
  const doc = await exportOf(tenant.token);
  doc.records.instances[0].ipv4 = Array.from({ length: 30_000 }, (_, i) => nth(i + 1));
  const answer = await call(emu, "POST", "/__emulator/accounts", { body: { label: "greedy", fixture: doc } });
  expect(answer.status).toBe(400);
  expect(answer.body.errors).toEqual([
    {
      field: "records.instances[0].ipv4",
      reason: "fixture: records.instances[0].ipv4: an instance has at most one public IPv4 address and one private (the API gives no more), not 30000 and 0",
    },
  ]);
  expect(FIRST).toContain((await instance("after-1")).ipv4[0]);
});

test("imports of a one-instance fixture whose address is far past the last one given do not use up the public address pool", async () => {
  // Found: an address no account had was kept when within the records quota (20,000) past the last one given,
  // as an id is; the pool is 130,042 addresses, so that seven imports of a one-instance fixture, each a little
  // under 20,000 further, left none: every account's next create was refused ("No public IPv4 address is left").
  // Now a pool's window is as many addresses as the fixture holds: an import takes no more than renumbering would.
  const tenant = await newAccount("tenant");
  await instance("one-1", tenant.token);
  const doc = await exportOf(tenant.token);
  let n = FIRST.indexOf(doc.records.instances[0].ipv4[0]) + 1;
  for (let round = 0; round < 7; round++) {
    n = Math.min(n + 19_990, 130_042);
    doc.records.instances[0].ipv4 = [nth(n)];
    const loaded = await call(emu, "POST", "/__emulator/import", { token: tenant.token, body: doc });
    expect(loaded.status).toBe(200);
  }
  const victim = await newAccount("victim");
  expect(FIRST).toContain((await instance("victim-1", victim.token)).ipv4[0]);
});

// Left open: a public address that is not one the emulator hands out today (an earlier release gave 203.0.113.1, the
// /24's gateway now, and, in a second account, malformed ones such as 203.0.39483.21) has no number, so renumbering
// leaves it as it is: an export of an account an earlier release made, loaded into a second account, gives both the
// same public address. Renumbering it needs a key for such an address in the `renumbered` answer (whose `ipv4` is
// by number), or a refusal, which would make the account's own export unloadable (a restore): a choice for the lead.
test.failing("an address an earlier release gave (outside today's pool) is not carried into a second account", async () => {
  await instance("old-1");
  const doc = await exportOf();
  doc.records.instances[0].ipv4 = ["203.0.113.1"];
  const first = await newAccount("first", doc);
  const second = await newAccount("second", doc);
  const addresses = await Promise.all([first, second].map(async (a) => (await exportOf(a.token)).records.instances[0].ipv4[0]));
  expect(addresses[0]).not.toBe(addresses[1]);
});

// Left open: every import may keep ids up to the records quota past where the shared sequences are (docs/fixtures.md
// "Ids: kept where free"), so that repeated imports of a one-record fixture walk a sequence every account shares
// toward its end (2,147,483,647), a quota's length each time; there, every account's next record of that kind is
// refused (507). With the default quota (20,000) that is about 107,000 imports, some fifteen minutes at the 121
// imports a second measured on this machine; with a quota of 2^30 (below), two. Bounding it needs the moves kept
// per account (reset would have to keep them), or kept ids held as taken without moving the sequence: a design
// change in emulator/db/ids.ts and the databases' schema.
test.failing("repeated imports do not walk a sequence every account shares to its end", async () => {
  await emu.close();
  emu = await emulator({ speed: 0, quotas: { records: 2 ** 30 } });
  const tenant = await newAccount("tenant");
  const key = (id: number) => ({ id, created: "2026-03-10T12:00:00", label: `k${id}`, ssh_key: ed25519Key(3), username: "admin" });
  // Each within the quota of where the sequence is (the first of a new emulator's), once the one before moved it.
  for (const id of [2 ** 30 - 3, 2 ** 31 - 3]) {
    const doc = { format: "compute-emulator-account", version: 1, records: { sshkeys: [key(id)] } };
    const loaded = await call(emu, "POST", "/__emulator/import", { token: tenant.token, body: doc });
    expect([loaded.status, loaded.body.loaded.renumbered]).toEqual([200, undefined]);
  }
  const victim = await newAccount("victim");
  const made = [];
  for (let i = 0; i < 5; i++)
    made.push((await call(emu, "POST", "/profile/sshkeys", { token: victim.token, body: { label: `v${i}`, ssh_key: ed25519Key(10 + i) } })).status);
  expect(made).toEqual([200, 200, 200, 200, 200]);
});
