/**
 * Against the emulator: an Instance made with `cloneFrom` (the source's tags, offline until `booted`, clone
 * rule 4 at preview, a lost answer adopted), a database's `passwordRotation` (a credentials reset in place,
 * refused during a restore), and the lookups getProfile and getTokens.
 */
import type { Emulator } from "../../emulator/server";
import { invoke } from "../../provider/functions";
import { mysqlProvider as db } from "../../provider/resources/database";
import { instanceProvider as inst } from "../../provider/resources/instance";
import { client } from "../../provider/transport/settings";
import { call, emulator, get, list, useEmulator } from "../helpers/emulator";
import { resetSession } from "../../provider/session";

let emu: Emulator;
beforeEach(async () => {
  emu = await emulator();
  await useEmulator(emu);
});
afterEach(async () => {
  await emu.close();
  resetSession();
});

const checked = async (p: typeof inst, news: Record<string, unknown>, olds: Record<string, unknown> = {}) => {
  const r = await p.check(olds, { __resourceName: "x", ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
};
const source = async (extra: Record<string, unknown> = {}) =>
  inst.create(
    await checked(inst, {
      label: "prod",
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      rootPass: "Str0ng-Passw0rd!",
      tags: ["app", "prod"],
      ...extra,
    }),
  );

describe("cloneFrom", () => {
  test("a clone carries the source's tags, boots when asked, and plans no change afterwards", async () => {
    const src = await source();
    const ins = await checked(inst, { label: "staging", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, booted: true });
    const c = await inst.create(ins);
    expect(c.outs).toMatchObject({ label: "staging", tags: ["app", "prod"], status: "running", booted: true });
    expect(emu.log.some((l) => l.method === "POST" && l.path === `/v4/compute/instances/${src.id}/clone`)).toBe(true);
    expect(await list(emu, `/compute/instances/${c.id}/disks`)).toHaveLength(2);
    // The API shows the source's image on the clone: not an input the program gave, so not a change.
    expect((await get(emu, `/compute/instances/${c.id}`)).image).toBe("compute/debian12");
    const r = await inst.read(c.id, c.outs);
    const again = await checked(inst, { label: "staging", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, booted: true }, ins);
    expect(await inst.diff(c.id, r.props!, again)).toMatchObject({ changes: false });
    // A new source makes a new clone.
    expect((await inst.diff(c.id, r.props!, { ...again, cloneFrom: { computeId: Number(src.id) + 1 } })).replaces).toEqual(["cloneFrom"]);
  });

  test("left offline without booted; tags given replace the source's", async () => {
    const src = await source();
    const c = await inst.create(
      await checked(inst, { label: "copy-1", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, tags: ["staging"] }),
    );
    expect(c.outs).toMatchObject({ status: "offline", tags: ["staging"] });
  });

  test("at preview: inputs a clone cannot take, and a source with user data without metadata, name their field", async () => {
    const src = await source({ metadata: { userData: Buffer.from("#cloud-config\n").toString("base64") } });
    const r = await inst.check({}, { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id }, image: "compute/debian12", swapSize: 256 });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["image", "swapSize"]);
    const ud = await inst.check({}, { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id } });
    expect(ud.failures).toEqual([
      { property: "metadata", reason: expect.stringMatching(/instance \d+ was made with user data: its clone needs metadata.userData/) },
    ]);
    const gone = await inst.check({}, { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: 9999 } });
    expect(gone.failures).toEqual([{ property: "cloneFrom", reason: "cloneFrom.computeId: instance 9999 not found" }]);
  });

  test("a lost clone answer adopts the clone by its label, never makes two", async () => {
    const src = await source();
    emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/compute/instances/\\d+/clone$", rate: 1, kinds: ["lost"], limit: 1 }] });
    const c = await inst.create(await checked(inst, { label: "lost-clone", region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: src.id } }));
    expect((await list(emu, "/compute/instances")).filter((i) => i.label === "lost-clone").map((i) => String(i.id))).toEqual([c.id]);
  });
});

describe("passwordRotation", () => {
  const base = { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" };
  const password = async (id: string) => (await get(emu, `/databases/mysql/instances/${id}/credentials`)).password;

  test("a new value resets the root credentials in place: same id, the output is the API's new password", async () => {
    const ins = await checked(db, { ...base, passwordRotation: "2026-11" });
    const c = await db.create(ins);
    const first = c.outs.password;
    expect(first).toBe(await password(c.id));
    // The same value: no change.
    expect((await db.diff(c.id, c.outs, await checked(db, { ...base, passwordRotation: "2026-11" }, ins))).changes).toBe(false);
    const news = await checked(db, { ...base, passwordRotation: "2026-12" }, ins);
    const d = await db.diff(c.id, c.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [], changed: ["passwordRotation"] });
    const u = await db.update(c.id, c.outs, news);
    expect(u.outs.password).not.toBe(first);
    expect(u.outs.password).toBe(await password(c.id));
    expect(emu.log.filter((l) => l.path.endsWith("/credentials/reset"))).toHaveLength(1);
    // Removed: nothing is reset.
    await db.update(c.id, u.outs, await checked(db, base, news));
    expect(emu.log.filter((l) => l.path.endsWith("/credentials/reset"))).toHaveLength(1);
  });

  test("refused at preview while the cluster restores a backup (a reset then would leave it failed)", async () => {
    const c = await db.create(await checked(db, { ...base, passwordRotation: "1" }));
    await call(emu, "POST", `/databases/mysql/instances/${c.id}/backups`, { body: { label: "b1" } });
    await new Promise((r) => setTimeout(r, 300));
    const [b] = await list(emu, `/databases/mysql/instances/${c.id}/backups`);
    expect((await call(emu, "POST", `/databases/mysql/instances/${c.id}/backups/${b.id}/restore`, { body: {} })).status).toBe(200);
    await expect(db.diff(c.id, c.outs, await checked(db, { ...base, passwordRotation: "2" }))).rejects.toThrow(
      /passwordRotation: database \d+ is restoring a backup, and a credentials reset during a restore leaves it failed/,
    );
  });
});

test("getProfile and getTokens read the profile and its tokens (never their values)", async () => {
  const profile = await invoke(client(), "getProfile", {});
  expect(profile).toMatchObject({ username: "admin", restricted: false, uid: expect.any(Number) });
  await call(emu, "POST", "/profile/tokens", { body: { label: "agent", scopes: "computes:read_only" } });
  const { tokens } = await invoke(client(), "getTokens", { filters: [{ name: "label", values: ["agent"] }] });
  expect(tokens).toEqual([expect.objectContaining({ label: "agent", scopes: "computes:read_only" })]);
  expect(tokens as object[]).toEqual([expect.not.objectContaining({ token: expect.anything() })]);
});
