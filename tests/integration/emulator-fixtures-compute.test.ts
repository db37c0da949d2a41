/**
 * A fixture's compute records must be what the API could have made (issue 52, the fresh-eyes findings): an
 * instance's label, tags and alerts by the API's rules, no two instances of one label, its region and type the
 * catalogue's; an interface's VPC its subnet's, its address an IPv4 address of the subnet held by no other
 * interface; a pending status change due at a time the clock reaches. Each refused with its place before anything is
 * loaded; and what is made after a load takes new ids and addresses, whatever the fixture's counters say.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countersOf, type StateHolder } from "../../emulator/family";
import { computeFamily } from "../../emulator/routes/compute";
import { privateIp, privateIpNumber, publicIp, publicIpNumber } from "../../emulator/routes/compute/network";
import { storedBackup, storedConfig, storedDisk, storedInstance } from "../../emulator/routes/compute/records";
import { call, emulator, useEmulatorPerTest } from "../helpers/emulator";

const CLOCK = Date.parse("2026-03-10T12:00:00Z");
const PASS = "teh83fx4tkoy4tfjzfycyhjk1b307op0ls7h1b3bt8kzxbngadj72jtomtjpybul";
const I = (id: number) => `/compute/instances/${id}`;

const { emu } = useEmulatorPerTest({ now: () => CLOCK, speed: 0 });

type Doc = { format: string; version: number; records: Record<string, any[]>; counters?: Record<string, number> };

async function ok(method: string, path: string, body?: unknown, on = emu()) {
  const r = await call(on, method, path, { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An account with a VPC, two instances in it (one with a private address) and a backup: its export. */
async function account(): Promise<Doc> {
  const net = await ok("POST", "/vpcs", { label: "net", region: "us-east", subnets: [{ label: "apps", ipv4: "10.0.1.0/24" }] });
  const interfaces = [{ purpose: "public" }, { purpose: "vpc", subnet_id: net.subnets[0].id }];
  const base = { region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: PASS, interfaces };
  const web = await ok("POST", "/compute/instances", { ...base, label: "web-1", private_ip: true, backups_enabled: true });
  await ok("POST", "/compute/instances", { ...base, label: "web-2" });
  await ok("POST", `${I(web.id)}/backups`, { label: "snap" });
  return ok("GET", "/__emulator/export");
}

const load = (doc: unknown, on = emu()) => call(on, "POST", "/__emulator/import", { body: doc });
/** The refusals of a load: each `[field, reason]` (the reason without its place). */
const refusals = async (doc: unknown) => {
  const r = await load(doc);
  expect(r.status).toBe(400);
  return (r.body.errors as Array<{ field: string; reason: string }>).map((e) => [e.field, e.reason.slice(e.field.length + 2)]);
};
const changed = (doc: Doc, change: (records: Record<string, any[]>) => void): Doc => {
  const copy = structuredClone(doc);
  change(copy.records);
  return copy;
};

describe("an instance's fields by the API's rules", () => {
  test("a label, tags and alerts the API refuses are refused with their place; what the API takes loads", async () => {
    const doc = await account();
    expect(
      await refusals(
        changed(doc, (r) => {
          r.instances[0].label = "a";
          r.instances[1].label = "wéb-😀";
          r.instances[0].tags = ["a"];
          r.instances[1].alerts.cpu = -5;
          r.instances[1].alerts.transfer_quota = 101;
        }),
      ),
    ).toEqual([
      ["records.instances[0].label", "Label must be 3 to 64 characters (got 1)"],
      ["records.instances[0].tags", "Must be an array of tags of 3 to 50 characters"],
      ["records.instances[1].label", "Label must use only ASCII letters, digits, '-', '_' and '.', and start and end with a letter or digit"],
      ["records.instances[1].alerts.cpu", "Must be a whole number, 0 or more"],
      ["records.instances[1].alerts.transfer_quota", "Must be a percentage, 0 to 100"],
    ]);
    // Such a label would have made a later update that keeps it fail: the API refuses it in a PUT.
    const [web] = doc.records.instances;
    expect((await call(emu(), "PUT", I(web.id), { body: { label: "a" } })).body.errors[0].reason).toBe("Label must be 3 to 64 characters (got 1)");
    expect((await load(changed(doc, (r) => (r.instances[0].tags = ["alpha", "b-2_c"])))).status).toBe(200);
  });

  test("two instances of one label are refused: an update keeping its label would be", async () => {
    const doc = await account();
    const twice = changed(doc, (r) => (r.instances[1].label = "web-1"));
    expect(await refusals(twice)).toEqual([["records.instances[1].label", "Label must be unique among your instances: records.instances[0] has it"]]);
    const [, second] = (await call(emu(), "GET", "/compute/instances")).body.data;
    expect((await call(emu(), "PUT", I(second.id), { body: { label: "web-1" } })).body.errors[0].reason).toBe("Label must be unique among your instances");
  });

  test("a region or type the catalogue has not, a maker who is not a user, an address of another instance", async () => {
    const doc = await account();
    const bad = changed(doc, (r) => {
      r.instances[0].region = "nope";
      r.instances[1].type = "c9-none";
      r.instances[1]._owner = "ghost";
      r.instances[1].ipv4 = [r.instances[0].ipv4[0]];
    });
    expect(await refusals(bad)).toEqual([
      ["records.instances[0].region", "no region nope in the catalogue"],
      ["records.instances[1].type", "no type c9-none in the catalogue"],
      ["records.instances[1]._owner", "no user ghost in the account"],
      ["records.instances[1].ipv4[0]", `the address ${doc.records.instances[0].ipv4[0]} is also records.instances[0]'s`],
      ["records.configs[0].interfaces[1].subnet_id", `subnet ${doc.records.subnets[0].id} is in region us-east, not nope`],
    ]);
  });

  test("disks larger than the type's, and a type resize under way (the disk grows as the type changes)", async () => {
    const doc = await account();
    const [, disk] = doc.records.disks;
    expect(await refusals(changed(doc, (r) => (r.disks[0].size = 99_999_999)))).toEqual([
      ["records.instances[0].type", "its disks take 100000511 MB, more than the 25600 MB of type g6-nanode-1"],
    ]);
    expect(await refusals(changed(doc, (r) => (r.disks[0].size = 0)))).toEqual([["records.disks[0].size", "must be a whole number of MB, 1 or more"]]);
    const resizing = changed(doc, (r) => {
      r.instances[0]._queue = [{ status: "running", at: CLOCK + 10_000, patch: { type: "g6-standard-1" } }];
      r.disks[0]._queue = [{ status: "ready", at: CLOCK + 10_000, patch: { size: 51200 - disk.size } }];
    });
    expect((await load(resizing)).status).toBe(200);
  });
});

describe("a pending status change", () => {
  test("due at a time the clock never reaches is refused (it would leave the instance busy for ever)", async () => {
    const doc = await account();
    const due = (at: number) => changed(doc, (r) => (r.instances[0]._queue = [{ status: "running", at }]));
    const text = "must be a time in ms: an integer from -8640000000000000 to 8640000000000000";
    expect(await refusals(due(1e308))).toEqual([["records.instances[0]._queue[0].at", text]]);
    expect(await refusals(due(2 ** 53))).toEqual([["records.instances[0]._queue[0].at", text]]);
    expect(await refusals(due(CLOCK + 0.5))).toEqual([["records.instances[0]._queue[0].at", text]]);
    expect(await refusals(changed(doc, (r) => (r.instances[0]._clones = [1e300])))).toEqual([["records.instances[0]._clones[0]", text]]);
    expect((await load(due(CLOCK + 1000))).status).toBe(200);
  });
});

describe("interfaces and their VPC addresses", () => {
  test("a vpc_id not the subnet's VPC's, an address not IPv4, outside its subnet or held twice, an id twice", async () => {
    const doc = await account();
    const [subnet] = doc.records.subnets;
    // A record's schema first (nothing else is looked at then), then what holds between the records.
    expect(await refusals(changed(doc, (r) => (r.configs[1].interfaces[1].ipv4.vpc = "zzz")))).toEqual([
      ["records.configs[1].interfaces[1].ipv4.vpc", "Must be an IPv4 address"],
    ]);
    expect(await refusals(changed(doc, (r) => (r.configs[0].interfaces[1].vpc_id = 999)))).toEqual([
      ["records.configs[0].interfaces[1].vpc_id", `subnet ${subnet.id} is VPC ${subnet.vpc_id}'s, not 999's`],
    ]);
    const outside = changed(doc, (r) => {
      r.configs[0].interfaces[1].ipv4.vpc = "172.16.0.5";
      r.configs[1].interfaces[1].ipv4.vpc = "10.0.1.255";
    });
    expect(await refusals(outside)).toEqual([
      ["records.configs[0].interfaces[1].ipv4.vpc", "172.16.0.5 is outside the subnet's range 10.0.1.0/24"],
      ["records.configs[1].interfaces[1].ipv4.vpc", "10.0.1.255 is reserved in 10.0.1.0/24 (its first two addresses and its last)"],
    ]);
    const first = doc.records.configs[0].interfaces[1];
    const twice = changed(doc, (r) => {
      r.configs[1].interfaces[1].ipv4.vpc = first.ipv4.vpc;
      r.configs[1].interfaces[0].id = first.id;
    });
    expect(await refusals(twice)).toEqual([
      ["records.configs[1].interfaces[0].id", `the interface id ${first.id} is also records.configs[0].interfaces[1]'s`],
      ["records.configs[1].interfaces[1].ipv4.vpc", `${first.ipv4.vpc} is also records.configs[0].interfaces[1]'s, in subnet ${subnet.id}`],
    ]);
    const shapes = changed(doc, (r) => {
      r.configs[0].interfaces[0].subnet_id = subnet.id;
      r.configs[1].interfaces[1].ipv4 = null;
      r.configs[1].interfaces.push({ ...r.configs[1].interfaces[0], id: 90 }, { ...r.configs[1].interfaces[0], id: 91 });
    });
    expect(await refusals(shapes)).toEqual([
      ["records.configs[0].interfaces[0].subnet_id", "must be null for a public interface"],
      ["records.configs[1].interfaces[1].ipv4", "must not be null for a vpc interface"],
      ["records.configs[1].interfaces", "must have at most 3 interfaces"],
    ]);
  });

  test("the API refuses a VPC address that is not the subnet's or is held, as the fixture's records are", async () => {
    const doc = await account();
    const [web, other] = doc.records.instances;
    const [cfg, otherCfg] = doc.records.configs;
    const held = otherCfg.interfaces[1].ipv4.vpc;
    const add = (vpc: string) =>
      call(emu(), "POST", `${I(web.id)}/configs/${cfg.id}/interfaces`, { body: { purpose: "vpc", subnet_id: doc.records.subnets[0].id, ipv4: { vpc } } });
    expect((await add("10.0.1")).body.errors).toEqual([{ field: "ipv4.vpc", reason: "Must be an IPv4 address" }]);
    expect((await add("10.0.2.9")).body.errors[0]).toEqual({ field: "interface.ipv4.vpc", reason: "10.0.2.9 is outside the subnet's range 10.0.1.0/24" });
    expect((await add(held)).body.errors[0].reason).toBe(`${held} is already in use in subnet ${doc.records.subnets[0].id}`);
    const put = (vpc: string) => call(emu(), "PUT", `${I(web.id)}/configs/${cfg.id}/interfaces/${cfg.interfaces[1].id}`, { body: { ipv4: { vpc } } });
    expect((await put(held)).body.errors).toEqual([{ field: "ipv4.vpc", reason: `${held} is already in use in subnet ${doc.records.subnets[0].id}` }]);
    expect((await put(cfg.interfaces[1].ipv4.vpc)).status).toBe(200);
    expect((await put("10.0.1.77")).body.ipv4.vpc).toBe("10.0.1.77");
    // A profile's update that keeps its interfaces keeps their addresses (the ones it replaces are free).
    const keep = cfg.interfaces.map(({ id, purpose, subnet_id }: any) => ({
      id,
      purpose,
      subnet_id,
      ...(purpose === "vpc" ? { ipv4: { vpc: "10.0.1.77" } } : {}),
    }));
    expect((await call(emu(), "PUT", `${I(web.id)}/configs/${cfg.id}`, { body: { interfaces: keep } })).status).toBe(200);
    expect(other.id).toBeGreaterThan(web.id);
  });

  test("a clone's and a restore's VPC interfaces take an address of their own (the source keeps its); the state loads", async () => {
    const doc = await account();
    const [web] = doc.records.instances;
    const held = doc.records.configs.map((c) => c.interfaces[1].ipv4.vpc);
    const copy = await ok("POST", `${I(web.id)}/clone`, { region: "us-east", type: "g6-nanode-1", label: "copy-1" });
    const [backup] = doc.records.backups;
    const restored = await ok("POST", "/compute/instances", { region: "us-east", type: "g6-nanode-1", label: "from-backup", backup_id: backup.id });
    const configsOf = async (id: number) => (await ok("GET", `${I(id)}/configs`)).data;
    const copied = [...(await configsOf(copy.id)), ...(await configsOf(restored.id))].map((c: any) => c.interfaces[1].ipv4.vpc);
    expect(copied).toEqual(["10.0.1.4", "10.0.1.5"]);
    expect(copied.some((a: string) => held.includes(a))).toBe(false);
    // Restored over itself (overwrite), an instance keeps its address: nothing else holds it then.
    await ok("POST", `${I(web.id)}/backups/${backup.id}/restore`, { compute_id: web.id, overwrite: true });
    expect((await configsOf(web.id)).map((c: any) => c.interfaces[1].ipv4.vpc)).toEqual([held[0]]);
    expect((await load(await ok("GET", "/__emulator/export"))).status).toBe(200);
  });
});

describe("counters", () => {
  test("a fixture with low counters (or none): new instances, profiles, interfaces and addresses are not a loaded record's", async () => {
    const doc = await account();
    for (const counters of [{}, Object.fromEntries(Object.keys(doc.counters ?? {}).map((k) => [k, 0]))]) {
      const other = await emulator({ now: () => CLOCK, speed: 0 });
      try {
        expect((await load({ ...doc, counters }, other)).status).toBe(200);
        const made = await ok(
          "POST",
          "/compute/instances",
          { region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: PASS, private_ip: true },
          other,
        );
        const loaded = doc.records.instances.flatMap((i) => i.ipv4);
        expect(made.id).toBeGreaterThan(Math.max(...doc.records.instances.map((i) => i.id)));
        expect(made.ipv4).toEqual([publicIp(3), privateIp(2)]);
        expect(made.ipv4.filter((a: string) => loaded.includes(a))).toEqual([]);
        const [cfg] = (await ok("GET", `${I(made.id)}/configs`, undefined, other)).data;
        const iface = await ok("POST", `${I(made.id)}/configs/${cfg.id}/interfaces`, { purpose: "public" }, other);
        const ids = [...doc.records.configs, ...doc.records.backups.flatMap((b) => b._source.configs)].flatMap((c) => c.interfaces.map((i: any) => i.id));
        expect(iface.id).toBeGreaterThan(Math.max(...ids));
        expect(cfg.id).toBeGreaterThan(Math.max(...doc.records.configs.map((c) => c.id)));
      } finally {
        await other.close();
      }
    }
  });

  test("the family's counters read the addresses back (the n-th public and private address)", () => {
    for (const n of [1, 254, 255, 1000]) {
      expect(publicIpNumber(publicIp(n))).toBe(n);
      expect(privateIpNumber(privateIp(n))).toBe(n);
    }
    expect([publicIpNumber("198.51.100.7"), publicIpNumber("203.0.113.0"), privateIpNumber("203.0.113.1")]).toEqual([undefined, undefined, undefined]);
    const instance = { id: 4, ipv4: [publicIp(9), privateIp(3)], ipv6: null, image: null, _lastBootedConfig: null, _activeInterfaces: [] };
    const data = { users: [], instances: [instance], configs: [], disks: [], backups: [] };
    expect(countersOf([computeFamily], { data } as unknown as StateHolder)).toEqual({ instance: 4, ipv4: 9, private_ip: 3 });
  });
});

describe("what the emulator makes is what its stored schemas hold", () => {
  const SAVED = ["upgrade-0.1.0", "upgrade-52033be", "upgrade-abb54eb", "upgrade-plugin-52033be", "upgrade-plugin-6ed01f0"];
  test.each(SAVED)("the compute records %s saved are the stored schemas', and hold together", (name) => {
    const data = JSON.parse(readFileSync(join(__dirname, "../fixtures", name, "emulator.json"), "utf8"));
    for (const [schema, items] of [
      [storedInstance, data.instances],
      [storedConfig, data.configs],
      [storedDisk, data.disks],
      [storedBackup, data.backups],
    ] as const)
      for (const item of items) expect(schema.safeParse(item).error?.issues).toBeUndefined();
    expect(computeFamily.references?.({ data })).toEqual([]);
  });

  test("labels made from a long image label fit (cut), a swap disk larger than the type's is refused, a restore too large", async () => {
    const body = { region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: PASS, swap_size: 25_000 };
    const made = await call(emu(), "POST", "/compute/instances", { body });
    expect(made.body.errors).toEqual([
      { field: "swap_size", reason: "A swap disk of 25000 MB leaves 600 MB of type g6-nanode-1's 25600 MB: image compute/debian12 needs 1500 MB" },
    ]);
    const doc = await account();
    const [web] = doc.records.instances;
    const big = await ok("POST", "/compute/instances", {
      region: "us-east",
      type: "g6-standard-1",
      image: "compute/debian12",
      root_pass: PASS,
      backups_enabled: true,
    });
    const snap = await ok("POST", `${I(big.id)}/backups`, { label: "big" });
    const restore = await call(emu(), "POST", `${I(big.id)}/backups/${snap.id}/restore`, { body: { compute_id: web.id, overwrite: true } });
    expect(restore.body.errors).toEqual([
      { field: "compute_id", reason: "The backup's disks take 51200 MB, more than the 25600 MB of the target's type g6-nanode-1" },
    ]);
    // An image's label is up to 128 characters; a profile's 48 and a disk's 48: the labels made from it are cut.
    const image = await ok("POST", "/images", { disk_id: doc.records.disks[0].id, label: `Golden ${"x".repeat(100)}` });
    const deployed = await ok("POST", "/compute/instances", { region: "us-east", type: "g6-standard-1", image: image.id, root_pass: PASS });
    const [cfg] = (await ok("GET", `${I(deployed.id)}/configs`)).data;
    const disks = (await ok("GET", `${I(deployed.id)}/disks`)).data.map((x: { label: string }) => x.label);
    expect([cfg.label, disks[0]]).toEqual([`My Golden ${"x".repeat(25)} Disk Profile`, `Golden ${"x".repeat(36)} Disk`]);
    expect((await load(await ok("GET", "/__emulator/export"))).status).toBe(200);
  });
});
