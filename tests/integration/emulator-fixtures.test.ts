/**
 * Fixtures (issue 46, docs/fixtures.md): an account exported and loaded into another account, or another
 * emulator, answers every read of the spec as the original does; a fixture written by hand (API requests) makes
 * what it says; a fixture refused changes nothing; a later version is refused by its number, and the version-1
 * file kept here loads (a later emulator reads an earlier file); `--fixture FILE` starts the command from one.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Emulator } from "../../emulator/server";
import { call, emulator, list, ROOT_TOKEN, useEmulatorPerTest } from "../helpers/emulator";
import { fill, fixtures, specEndpoints } from "../helpers/spec-endpoints";

const SEED = join(__dirname, "../fixtures/emulator/seed-v1.json");
const CLOCK = Date.parse("2026-03-10T12:00:00Z");
const reads = specEndpoints().filter((e) => e.method === "GET");

const { emu } = useEmulatorPerTest({ now: () => CLOCK, speed: 0 });

/** Every GET of the spec, with the ids of the fixture records, as `token` sees them (its own tokens left out). */
async function answers(target: Emulator, ids: Record<string, string>, token: string): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const e of reads) {
    if (e.path.startsWith("/profile/tokens")) continue; // each account's own
    const path = fill(e.path, ids, new Date(CLOCK));
    const answer = await call(target, "GET", path, { token });
    seen[path] = [answer.status, answer.body];
  }
  const events = await call(target, "GET", "/account/events?page_size=500", { token });
  seen["/account/events"] = [events.status, events.body];
  return seen;
}

/** The kind of id (as an import's `renumbered` names it) of each of the fixtures' ids. */
const KINDS: Record<string, string> = {
  sshKeyId: "sshkey",
  loginId: "login",
  appId: "app",
  deviceId: "device",
  vpcId: "vpc",
  vpcSubnetId: "subnet",
  computeId: "instance",
  configId: "config",
  diskId: "disk",
  interfaceId: "interface",
  computeBackupId: "backup",
  imageId: "image",
  mysqlId: "database",
  postgresqlId: "database",
  databaseBackupId: "dbbackup",
};

/** The fixtures' ids as an import renumbered them. */
function renamed(ids: Record<string, string>, renumbered: Record<string, Record<string, number>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ids).map(([name, id]) => {
      const kind = KINDS[name];
      const n = kind === "image" ? id.replace("private/", "") : id;
      const to = kind ? renumbered[kind]?.[n] : undefined;
      return [name, to === undefined ? id : kind === "image" ? `private/${to}` : String(to)];
    }),
  );
}

/** Answers with what differs between two accounts of one emulator left out: ids, and what is made of them (paths, addresses). */
const IDS_AND_ADDRESSES = /^(id|uid|\w+_id|url|instance_uri|image|ipv4|ipv6|address|gateway|rdns|vpc_nat_1_1|nat_1_1|linode_id|members)$/;
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, IDS_AND_ADDRESSES.test(k) && v !== null ? "(id)" : withoutIds(v)]));
}

test("an account exported, then loaded into a new account (its ids renumbered) and into another emulator (kept), answers every read as the original", async () => {
  const ids = await fixtures(emu(), () => undefined);
  const exported = await call(emu(), "GET", "/__emulator/export");
  expect(exported.status).toBe(200);
  expect(exported.body).toMatchObject({ format: "compute-emulator-account", version: 1, records: expect.any(Object), counters: expect.any(Object) });
  expect(exported.body.records.tokens).toBeUndefined();
  const original = await answers(emu(), ids, emu().token);

  const made = await call(emu(), "POST", "/__emulator/accounts", { body: { label: "copy", fixture: exported.body } });
  expect(made.status).toBe(200);
  // Every id the original holds is its own: the copy's records are given new ones, and what points to them follows.
  const renumbered = made.body.loaded.renumbered;
  const copy = renamed(ids, renumbered);
  for (const name of Object.keys(KINDS)) expect([name, copy[name] === ids[name]]).toEqual([name, false]);
  const copied = await answers(emu(), copy, made.body.token);
  const statuses = (seen: Record<string, unknown>) => Object.values(seen).map((answer) => (Array.isArray(answer) ? answer[0] : undefined));
  expect(statuses(copied)).toEqual(statuses(original));
  // An instance's statistics and transfer are made of its id (emulator/routes/compute/usage.ts): its other reads are compared.
  const reads = (seen: Record<string, unknown>) =>
    Object.entries(seen).flatMap(([path, answer]) => (/\/(stats|transfer)/.test(path) ? [] : [withoutIds(answer)]));
  expect(reads(copied)).toEqual(reads(original));
  // The original's reads are unchanged, and the copy holds none of its ids.
  expect(await answers(emu(), ids, emu().token)).toEqual(original);
  const instances = async (token: string) => (await list(emu(), "/compute/instances", { token })).map((i) => [i.id, i.ipv4]);
  const theirs = (await instances(emu().token)).flat(2);
  expect((await instances(made.body.token)).flat(2).filter((x) => theirs.includes(x))).toEqual([]);

  const other = await emulator({ now: () => CLOCK, speed: 0 });
  try {
    const loaded = await call(other, "POST", "/__emulator/import", { body: exported.body });
    expect(loaded.status).toBe(200);
    expect(await answers(other, ids, other.token)).toEqual(original);
    // What is made afterwards takes new ids, not a loaded record's.
    const key = await call(other, "POST", "/profile/sshkeys", { body: { label: "after", ssh_key: (await list(emu(), "/profile/sshkeys"))[0].ssh_key } });
    expect(Number(key.body.id)).toBeGreaterThan(Number(ids.sshKeyId));
  } finally {
    await other.close();
  }
});

test("a fixture written by hand (API requests, later ones using earlier answers) makes what it says", async () => {
  const seed = JSON.parse(readFileSync(SEED, "utf8"));
  const made = await call(emu(), "POST", "/__emulator/accounts", { body: { label: "seeded", fixture: seed } });
  expect(made.status).toBe(200);
  const token = made.body.token as string;
  const [web] = await list(emu(), "/compute/instances", { token });
  const [net] = await list(emu(), "/vpcs", { token });
  expect([web.label, web.tags]).toEqual(["web-1", ["seeded", `vpc-${net.id}`]]);
  const config = (await call(emu(), "GET", `/compute/instances/${web.id}/configs`, { token })).body.data[0];
  expect(config.interfaces.map((i: { purpose: string; subnet_id: number | null }) => [i.purpose, i.subnet_id])).toEqual([
    ["public", null],
    ["vpc", net.subnets[0].id],
  ]);
  expect((await list(emu(), "/images", { token })).filter((i) => !i.is_public).map((i) => [i.label, i.status])).toEqual([["golden", "pending_upload"]]);
  expect((await list(emu(), "/databases/instances", { token })).map((d) => d.label)).toEqual(["orders"]);
  expect((await list(emu(), "/profile/sshkeys", { token })).map((k) => k.label)).toEqual(["ci-key"]);
});

test("a fixture refused changes nothing: a request the API refuses, an unknown collection, a later version", async () => {
  await call(emu(), "POST", "/vpcs", { body: { label: "before", region: "us-east" } });
  const bad = {
    format: "compute-emulator-account",
    version: 1,
    requests: [
      { name: "net", method: "POST", path: "/vpcs", body: { label: "made-then-undone", region: "us-east" } },
      { method: "POST", path: "/compute/instances", body: { region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: "password" } },
    ],
  };
  const refused = await call(emu(), "POST", "/__emulator/import", { body: bad });
  expect(refused.status).toBe(400);
  expect(refused.body.errors[0]).toMatchObject({
    field: "requests[1]",
    reason: expect.stringMatching(/^requests\[1\] \(POST \/compute\/instances\) was answered 400: .*Password does not meet strength requirement/),
  });
  expect((await list(emu(), "/vpcs")).map((v) => v.label)).toEqual(["before"]);
  // An account made with a refused fixture is not made.
  const account = await call(emu(), "POST", "/__emulator/accounts", { body: { label: "never", fixture: bad } });
  expect([account.status, account.body.errors[0].reason]).toEqual([400, expect.stringMatching(/^fixture: requests\[1\]/)]);
  expect((await call(emu(), "GET", "/__emulator/accounts")).body.data.map((a: { label: string }) => a.label)).toEqual(["main"]);
  const unknown = await call(emu(), "POST", "/__emulator/import", { body: { format: "compute-emulator-account", version: 1, records: { volumes: [] } } });
  expect([unknown.status, unknown.body.errors[0].field]).toEqual([400, "records.volumes"]);
  const later = await call(emu(), "POST", "/__emulator/import", { body: { format: "compute-emulator-account", version: 2, records: {} } });
  expect(later.body.errors[0]).toEqual({ field: "version", reason: "The fixture is version 2; this emulator reads versions 1 to 1: use a later emulator" });
  const notOne = await call(emu(), "POST", "/__emulator/import", { body: { format: "something else", version: 1 } });
  expect([notOne.status, notOne.body.errors[0].field]).toEqual([400, "format"]);
  // Another account's token cannot export this one.
  const other = (await call(emu(), "POST", "/__emulator/accounts", { body: { label: "other" } })).body.token;
  expect((await call(emu(), "GET", "/__emulator/export", { token: other })).body.records.vpcs).toEqual([]);
});

test("the command starts its main account from --fixture FILE", async () => {
  const child = spawn(process.execPath, [join(__dirname, "../../dist/emulator/cli.js"), "--token", ROOT_TOKEN, "--speed", "0", "--fixture", SEED], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
    });
    const started = { url: (JSON.parse(line) as { url: string }).url, token: ROOT_TOKEN } as Emulator;
    expect((await list(started, "/compute/instances")).map((i) => i.label)).toEqual(["web-1"]);
  } finally {
    child.kill("SIGTERM");
  }
});

describe("a fixture's records are checked before anything is loaded (issue 52)", () => {
  const doc = (records: Record<string, unknown[]>) => ({ format: "compute-emulator-account", version: 1, records });
  const key = (over: Record<string, unknown> = {}) => ({ id: 7, label: "k", ssh_key: ED25519, created: "2026-03-10T12:00:00", username: "admin", ...over });
  const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ7eWnQ9DqKj8XdLrUuNYsPqkBnY3mOFDS6oUd8K5S7a ci@example";

  test("a record its collection's schema refuses: every field named by its place, nothing loaded, later requests unharmed", async () => {
    const empty = await call(emu(), "POST", "/__emulator/import", { body: doc({ sshkeys: [{}] }) });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual([
      "records.sshkeys[0].id",
      "records.sshkeys[0].label",
      "records.sshkeys[0].ssh_key",
      "records.sshkeys[0].created",
      "records.sshkeys[0].username",
    ]);
    expect(empty.body.errors[0].reason).toMatch(/^records\.sshkeys\[0\]\.id: /);
    const wrong = await call(emu(), "POST", "/__emulator/import", { body: doc({ sshkeys: [key({ id: "abc", extra: 1 })] }) });
    expect(wrong.body.errors.map((e: { field: string }) => e.field)).toEqual(["records.sshkeys[0].id", "records.sshkeys[0].extra"]);
    const users = await call(emu(), "POST", "/__emulator/import", { body: doc({ users: [{ username: "x" }] }) });
    expect([users.status, users.body.errors[0].field]).toEqual([400, "records.users[0].uid"]);
    expect((await call(emu(), "GET", "/profile/sshkeys")).body.data).toEqual([]);
    expect((await call(emu(), "GET", "/profile")).status).toBe(200);
  });

  test("two records of one id, and a record pointing to what is not there, are refused by their place", async () => {
    const twice = await call(emu(), "POST", "/__emulator/import", { body: doc({ sshkeys: [key(), key({ label: "other" })] }) });
    expect(twice.body.errors).toEqual([{ field: "records.sshkeys[1].id", reason: "records.sshkeys[1].id: the id 7 is also records.sshkeys[0]'s" }]);
    const nobody = await call(emu(), "POST", "/__emulator/import", { body: doc({ sshkeys: [key({ username: "ghost" })] }) });
    expect(nobody.body.errors).toEqual([{ field: "records.sshkeys[0].username", reason: "records.sshkeys[0].username: no user ghost in the account" }]);
    expect((await call(emu(), "GET", "/profile/sshkeys")).body.data).toEqual([]);
    const good = await call(emu(), "POST", "/__emulator/import", { body: doc({ sshkeys: [key()] }) });
    expect(good.status).toBe(200);
    expect((await call(emu(), "GET", "/profile/sshkeys")).body.data.map((k: { id: number }) => k.id)).toEqual([7]);
  });
});
