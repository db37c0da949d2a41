import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { FAULT_KINDS, Faults, parseFaultSpec, type FaultRule } from "../../emulator/faults";
import { mysqlProvider } from "../../provider/resources/database";
import { imageProvider } from "../../provider/resources/image";
import { instanceProvider } from "../../provider/resources/instance";
import { call, list, useEmulatorPerTest } from "../helpers/emulator";
import { expectFaultFired, faultsInLog } from "../helpers/faults";
import { useProviderSuite } from "../helpers/provider-suite";

describe("the fault injector", () => {
  test("is reproducible for a seed, and keeps to its rate", () => {
    const run = (seed: number) => {
      const f = new Faults();
      f.set({ seed, rules: [{ match: "^GET ", rate: 0.3, kinds: [...FAULT_KINDS] }] });
      return Array.from({ length: 2000 }, (_, i) => f.pick("GET", `/v4/x/${i}`) ?? "-");
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    const share = run(7).filter((x) => x !== "-").length / 2000;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(new Set(run(7))).toEqual(new Set(["-", ...FAULT_KINDS]));
  });

  test("matches its pattern only, and stops at its limit", () => {
    const f = new Faults();
    f.set({ seed: 1, rules: [{ match: "^POST /v4/a$", rate: 1, kinds: ["500"], limit: 2 }] });
    expect(f.pick("GET", "/v4/a")).toBeUndefined();
    expect([f.pick("POST", "/v4/a"), f.pick("POST", "/v4/a"), f.pick("POST", "/v4/a")]).toEqual(["500", "500", undefined]);
  });

  test("the --faults spec", () => {
    expect(parseFaultSpec("seed=3,rate=0.2,kinds=429+lost,slow=50,retryAfter=2,match=^POST /v4/(a|b),c")).toEqual({
      seed: 3,
      rules: [{ match: "^POST /v4/(a|b),c", rate: 0.2, kinds: ["429", "lost"] }],
      slowMs: 50,
      retryAfterSeconds: 2,
    });
    expect(() => parseFaultSpec("seed=1")).toThrow(/rate/);
    expect(() => new Faults().set(parseFaultSpec("rate=0.1,kinds=boom"))).toThrow(/unknown fault kind "boom"/);
  });
});

describe("each fault, as the client sees it", () => {
  const { emu } = useEmulatorPerTest();
  const only = (rule: Partial<FaultRule>) =>
    call(emu(), "PUT", "/__emulator/faults", {
      body: { seed: 1, rules: [{ match: "^POST /v4/profile/sshkeys$", rate: 1, kinds: ["500"], limit: 1, ...rule }] },
    });
  const keys = () => list(emu(), "/profile/sshkeys");
  const post = () =>
    fetch(`${emu().url}/profile/sshkeys`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu().token}`, "content-type": "application/json" },
      body: JSON.stringify({ label: "k", ssh_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrZ6J1lCqW6l0p6h9bP8y4i0v4r3D1b9nV1bq7z2cXk" }),
    });

  test("429 carries Retry-After and does nothing", async () => {
    await only({ kinds: ["429"] });
    const r = await post();
    expect([r.status, r.headers.get("retry-after")]).toEqual([429, "1"]);
    expect(await keys()).toHaveLength(0);
  });

  test.each(["500", "502", "503"])("%s does nothing", async (k) => {
    await only({ kinds: [k as "500"] });
    expect((await post()).status).toBe(Number(k));
    expect(await keys()).toHaveLength(0);
  });

  test("drop: no answer, nothing done", async () => {
    await only({ kinds: ["drop"] });
    await expect(post()).rejects.toThrow();
    expect(await keys()).toHaveLength(0);
  });

  test("lost: no answer, but the key was made", async () => {
    await only({ kinds: ["lost"] });
    await expect(post()).rejects.toThrow();
    expect(await keys()).toHaveLength(1);
    expectFaultFired(emu(), "POST", "/v4/profile/sshkeys", "lost", 1);
  });

  test("slow: the answer comes late", async () => {
    await call(emu(), "PUT", "/__emulator/faults", { body: { seed: 1, slowMs: 300, rules: [{ match: "^POST ", rate: 1, kinds: ["slow"], limit: 1 }] } });
    const t0 = Date.now();
    expect((await post()).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  });

  test("the log records the faults; GET /__emulator/faults counts them; DELETE clears them", async () => {
    await only({ kinds: ["503"] });
    await post();
    await post();
    expect(
      emu()
        .log.filter((l) => l.path === "/v4/profile/sshkeys")
        .map((l) => [l.status, l.fault]),
    ).toEqual([
      [503, "503"],
      [200, undefined],
    ]);
    expect((await call(emu(), "GET", "/__emulator/faults")).body.counts).toEqual({ "503": 1 });
    await call(emu(), "DELETE", "/__emulator/faults");
    expect((await call(emu(), "GET", "/__emulator/faults")).body.config).toBeNull();
    expect((await call(emu(), "PUT", "/__emulator/faults", { body: { seed: 1, rules: [{ match: "x", rate: 2, kinds: ["500"] }] } })).status).toBe(400);
  });
});

describe("the provider when an answer is lost after the request took effect", () => {
  const emu = useProviderSuite();
  const lose = (match: string, limit = 1) => emu.faults.set({ seed: 1, rules: [{ match, rate: 1, kinds: ["lost"], limit }] });
  const posts = (re: RegExp) => emu.log.filter((l) => l.method === "POST" && re.test(l.path)).length;
  const inst = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: "Str0ng-Passw0rd!", label: "lost-1" };

  test("an instance create is adopted, not made twice", async () => {
    lose("^POST /v4/compute/instances$");
    const c = await instanceProvider.create((await instanceProvider.check({}, inst)).inputs);
    expect((await list(emu, "/compute/instances")).map((i) => String(i.id))).toEqual([c.id]);
    expect(posts(/^\/v4\/compute\/instances$/)).toBe(1);
    expect(c.outs.status).toBe("running");
    expectFaultFired(emu, "POST", "/v4/compute/instances", "lost", 1);
  });

  test("a resize whose answer is lost is not sent again (it is under way)", async () => {
    const c = await instanceProvider.create((await instanceProvider.check({}, inst)).inputs);
    lose("^POST /v4/compute/instances/\\d+/resize$");
    const news = (await instanceProvider.check({}, { ...inst, type: "c1-standard-4" })).inputs;
    const u = await instanceProvider.update(c.id, c.outs, news);
    expect(u.outs.type).toBe("c1-standard-4");
    expect(posts(/\/resize$/)).toBe(1);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${c.id}/resize`, "lost", 1);
  });

  test("a lost boot and shutdown are recognised from the instance's status", async () => {
    const c = await instanceProvider.create((await instanceProvider.check({}, { ...inst, booted: true })).inputs);
    lose("^POST /v4/compute/instances/\\d+/(shutdown|boot)$", 2);
    const off = await instanceProvider.update(c.id, c.outs, (await instanceProvider.check({}, { ...inst, booted: false })).inputs);
    const on = await instanceProvider.update(c.id, off.outs, (await instanceProvider.check({}, { ...inst, booted: true })).inputs);
    expect([off.outs.status, on.outs.status]).toEqual(["offline", "running"]);
    expect([posts(/\/shutdown$/), posts(/\/boot$/)]).toEqual([1, 1]);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${c.id}/shutdown`, "lost", 1);
    expectFaultFired(emu, "POST", `/v4/compute/instances/${c.id}/boot`, "lost", 1);
  });

  test("a database create is adopted", async () => {
    lose("^POST /v4/databases/mysql/instances$");
    const c = await mysqlProvider.create(
      (await mysqlProvider.check({}, { label: "lost-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" })).inputs,
    );
    expect((await list(emu, "/databases/instances")).map((d) => String(d.id))).toEqual([c.id]);
    expectFaultFired(emu, "POST", "/v4/databases/mysql/instances", "lost", 1);
    expect(posts(/^\/v4\/databases\/mysql\/instances$/)).toBe(1);
  });

  test("an upload request whose answer (with the upload URL) is lost: the stray image is deleted and it is asked again", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lost-"));
    try {
      const file = path.join(dir, "disk.img");
      writeFileSync(file, randomBytes(5000));
      lose("^POST /v4/images/upload$");
      const c = await imageProvider.create((await imageProvider.check({}, { file, region: "us-east", label: "lost-upload" })).inputs);
      expect((await list(emu, "/images")).filter((i) => !i.is_public).map((i) => [i.id, i.status])).toEqual([[c.id, "available"]]);
      expect(posts(/\/images\/upload$/)).toBe(2);
      // The first was lost (its stray image deleted), the second answered.
      expectFaultFired(emu, "POST", "/v4/images/upload", "lost", 1);
      expect(emu.log.filter((l) => l.method === "POST" && l.path === "/v4/images/upload").map((l) => [l.status, l.fault])).toEqual([
        [0, "lost"],
        [200, undefined],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("reads, updates and deletes retry through 5xx and dropped connections; other 4xx are final", async () => {
    emu.faults.set({ seed: 5, rules: [{ match: "^(GET|PUT|DELETE) /v4/", rate: 1, kinds: ["502", "drop", "503"], limit: 6 }] });
    const c = await instanceProvider.create((await instanceProvider.check({}, inst)).inputs);
    await instanceProvider.delete(c.id, c.outs);
    // (Read with the faults used up: the limit of 6 was reached before the first answer the provider got.)
    expect(await list(emu, "/compute/instances")).toEqual([]);
    const err = await instanceProvider.update("999", { ...c.outs }, (await instanceProvider.check({}, { ...inst, label: "other-1" })).inputs).catch((e) => e);
    expect(err.message).toMatch(/^cannot update instance 999: the API answered HTTP 404: Not found/);
    expect(emu.log.filter((l) => l.path === "/v4/compute/instances/999").length).toBe(1);
    // Every fault fired: with rate 1 the seed's first six picks are 503, drop, drop, drop, 502, 503, whatever
    // the requests' order; each on a GET, PUT or DELETE, the drops unanswered.
    expect(faultsInLog(emu)).toEqual({ "502": 1, "503": 2, drop: 3 });
    const faulted = emu.log.filter((l) => l.fault);
    expect(faulted.filter((l) => !/^(GET|PUT|DELETE) \/v4\//.test(`${l.method} ${l.path}`))).toEqual([]);
    expect(faulted.map((l) => [l.fault, l.status])).toEqual(faulted.map((l) => [l.fault, l.fault === "drop" ? 0 : Number(l.fault)]));
  });
});
