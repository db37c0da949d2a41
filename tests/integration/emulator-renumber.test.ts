/**
 * Ids unique across accounts and imports (issue 53): a fixture's record keeps its id only where it is free (the
 * account's own, loaded back; or one no account had, near where the ids have gone), else it is given a new one and
 * what points to it follows: one export loaded into two accounts holds no id, and no public address, of another.
 */
import type { Emulator } from "../../emulator/server";
import { addUser, call, ed25519Key, emulator, list } from "../helpers/emulator";
import { fixtures } from "../helpers/spec-endpoints";

const CLOCK = Date.parse("2026-03-10T12:00:00Z");
let emu: Emulator;
beforeEach(async () => {
  emu = await emulator({ now: () => CLOCK, speed: 0 });
});
afterEach(async () => {
  await emu.close();
});

type Rec = Record<string, any>;

/** Every id an account's records answer, by kind, and its instances' public addresses (as its root token reads them). */
async function idsOf(token: string): Promise<Record<string, Array<number | string>>> {
  const get = async (path: string) => list(emu, path, { token });
  const instances = await get("/compute/instances");
  const configs = (await Promise.all(instances.map((i) => get(`/compute/instances/${i.id}/configs`)))).flat();
  const disks = (await Promise.all(instances.map((i) => get(`/compute/instances/${i.id}/disks`)))).flat();
  const backups = await Promise.all(instances.map(async (i) => (await call(emu, "GET", `/compute/instances/${i.id}/backups`, { token })).body.snapshot));
  const vpcs = await get("/vpcs");
  const databases = await get("/databases/instances");
  const dbBackups = (await Promise.all(databases.map((d) => get(`/databases/${d.engine}/instances/${d.id}/backups`)))).flat();
  const events = (await call(emu, "GET", "/account/events?page_size=500", { token })).body.data as Rec[];
  return {
    instance: instances.map((i) => i.id),
    ipv4: instances.flatMap((i) => i.ipv4.filter((a: string) => !a.startsWith("192.168."))),
    ipv6: instances.map((i) => i.ipv6),
    config: configs.map((c) => c.id),
    interface: configs.flatMap((c) => c.interfaces.map((i: Rec) => i.id)),
    disk: disks.map((d) => d.id),
    backup: backups.flatMap((b) => [b.current?.id, b.in_progress?.id].filter((x) => x != null)),
    vpc: vpcs.map((v) => v.id),
    subnet: vpcs.flatMap((v) => v.subnets.map((s: Rec) => s.id)),
    image: (await get("/images")).filter((i) => !i.is_public).map((i) => i.id),
    sshkey: (await get("/profile/sshkeys")).map((k) => k.id),
    database: databases.map((d) => d.id),
    dbbackup: dbBackups.map((b) => b.id),
    event: events.map((e) => e.id),
  };
}

test("one export loaded into two accounts: no account holds another's id or public address, and what points to a record points to the account's own", async () => {
  const maker = await addUser(emu, "maker", { restricted: true, global: { add_computes: true } });
  expect((await call(emu, "POST", "/compute/instances", { token: maker, body: { label: "theirs", region: "us-east", type: "c1-nano-1" } })).status).toBe(200);
  await fixtures(emu, () => undefined);
  const exported = (await call(emu, "GET", "/__emulator/export")).body;
  const made = await Promise.all(
    ["a", "b"].map(async (label) => (await call(emu, "POST", "/__emulator/accounts", { body: { label, fixture: exported } })).body as Rec),
  );
  const accounts = [emu.token, ...made.map((m) => m.token as string)];
  const ids = await Promise.all(accounts.map(idsOf));
  for (const kind of Object.keys(ids[0])) {
    expect([kind, ids[0][kind].length > 0]).toEqual([kind, true]);
    // The same records in each account (as many of each kind), none of one id or address.
    expect(ids.map((x) => x[kind].length)).toEqual([ids[0][kind].length, ids[0][kind].length, ids[0][kind].length]);
    const all = ids.flatMap((x) => x[kind]);
    expect([kind, new Set(all).size]).toEqual([kind, all.length]);
  }
  // Each copy's answer says what each of the original's ids became.
  for (const [i, m] of made.entries()) {
    expect(Object.keys(m.loaded.renumbered).sort()).toEqual(
      expect.arrayContaining(["config", "database", "disk", "event", "instance", "interface", "subnet", "vpc"]),
    );
    expect(ids[0].instance.map((id) => m.loaded.renumbered.instance[String(id)])).toEqual(ids[i + 1].instance);
  }
  const [a] = made;
  const get = async (path: string) => (await call(emu, "GET", path, { token: a.token })).body;
  for (const inst of await list(emu, "/compute/instances", { token: a.token })) {
    // The instance's IPv6 address is its own (made of its id, as every instance's).
    expect(inst.ipv6).toBe(`2001:db8::${inst.id.toString(16)}/128`);
    const disks = (await list(emu, `/compute/instances/${inst.id}/disks`, { token: a.token })).map((d) => d.id);
    for (const cfg of await list(emu, `/compute/instances/${inst.id}/configs`, { token: a.token })) {
      // A profile's devices are its instance's disks, its VPC interface in the account's subnet of the account's VPC.
      for (const dev of Object.values(cfg.devices as Record<string, Rec | null>)) if (dev?.disk_id) expect(disks).toContain(dev.disk_id);
      for (const iface of cfg.interfaces.filter((x: Rec) => x.purpose === "vpc")) {
        expect((await call(emu, "GET", `/vpcs/${iface.vpc_id}/subnets/${iface.subnet_id}`, { token: a.token })).status).toBe(200);
      }
    }
  }
  // Events are about the account's own records, their urls too.
  const events = (await get("/account/events?page_size=500")).data as Rec[];
  for (const e of events.filter((x) => x.entity?.type === "compute")) {
    expect(ids[1].instance).toContain(e.entity.id);
    expect(e.entity.url).toBe(`/v4/compute/instances/${e.entity.id}`);
  }
  for (const e of events.filter((x) => x.entity?.type === "database")) expect(e.entity.url).toMatch(new RegExp(`/instances/${e.entity.id}$`));
  // A restricted user's grants are on the account's instance, not the original's; users keep the account's ids.
  const copy = (await call(emu, "GET", "/__emulator/export", { token: a.token })).body.records;
  const theirs = copy.users.find((u: Rec) => u.username === "maker");
  expect(theirs.grants.compute.map((g: Rec) => g.id)).toEqual([
    ids[1].instance.find((id) => !ids[0].instance.includes(id) && copy.instances.find((x: Rec) => x.id === id)?._owner === "maker"),
  ]);
  // Users are merged by name: the account's keep their ids, the fixture's others are given new ones.
  const uids = await Promise.all(
    accounts.map(async (token) => (await call(emu, "GET", "/__emulator/export", { token })).body.records.users.map((u: Rec) => u.uid)),
  );
  expect(new Set(uids.flat()).size).toBe(uids.flat().length);
});

test("an account's own export loaded back keeps its ids (a restore)", async () => {
  await fixtures(emu, () => undefined);
  const exported = (await call(emu, "GET", "/__emulator/export")).body;
  const before = await idsOf(emu.token);
  const [key] = await list(emu, "/profile/sshkeys");
  expect((await call(emu, "DELETE", `/profile/sshkeys/${key.id}`)).status).toBe(200);
  await call(emu, "POST", "/profile/sshkeys", { body: { label: "after", ssh_key: ed25519Key(9) } });
  const loaded = await call(emu, "POST", "/__emulator/import", { body: exported });
  expect(loaded.status).toBe(200);
  // The deleted key is no longer the account's: its id is given anew; every other record keeps its own.
  expect(loaded.body.loaded.renumbered).toEqual({ sshkey: { [String(key.id)]: expect.any(Number) } });
  const after = await idsOf(emu.token);
  for (const kind of Object.keys(before)) if (kind !== "sshkey") expect([kind, after[kind]]).toEqual([kind, before[kind]]);
});

test("an id no account had is kept when within the account's records quota of where the ids have gone; one past it is renumbered", async () => {
  const other = await emulator({ now: () => CLOCK, speed: 0, quotas: { records: 50 } });
  try {
    const made = await call(other, "POST", "/profile/sshkeys", { body: { label: "first", ssh_key: ed25519Key(1) } });
    const head = made.body.id as number;
    const key = (id: number, n: number) => ({ id, created: "2026-03-10T12:00:00", label: `k${n}`, ssh_key: ed25519Key(n + 10), username: "admin" });
    // The emulator takes ids a block at a time (8 at first): the block is where the ids have gone.
    const near = head + 7 + 50;
    const far = head + 7 + 60;
    const doc = { format: "compute-emulator-account", version: 1, records: { sshkeys: [key(near, 1), key(far, 2)] } };
    const loaded = await call(other, "POST", "/__emulator/import", { body: doc });
    expect(loaded.status).toBe(200);
    expect(loaded.body.loaded.renumbered).toEqual({ sshkey: { [String(far)]: near + 1 } });
    expect((await list(other, "/profile/sshkeys")).map((k) => k.id)).toEqual([near, near + 1]);
  } finally {
    await other.close();
  }
});
