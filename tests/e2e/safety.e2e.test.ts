/**
 * Issue 10 through the real Pulumi CLI (tests/programs/safety): auto-naming kept across runs, create-first
 * replacements (a fresh name, or a pinned label handed over), lost create answers adopted, never made twice, a replacement named in `preview --diff`,
 * removed tags cleared, preview-time refusals, and a read function on the stack's settings alone.
 */
import type { Emulator } from "../../emulator/server";
import { call, emulator, get } from "../helpers/emulator";
import { waitUntil } from "../helpers/wait";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(600_000);

const ROOT_PASS = "Saf3ty-R00t-Pass!";
let emu: Emulator;
let stack: TestStack;

beforeAll(async () => {
  emu = await emulator();
  stack = new TestStack("tests/programs/safety", `e2e-${process.pid}`, {
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, "safety-program:rootPass": ROOT_PASS },
  });
});
afterAll(async () => {
  stack?.cleanup();
  await emu?.close();
});

const instances = async () => (await call(emu, "GET", "/compute/instances")).body.data as Array<{ id: number; label: string; region: string; tags: string[] }>;
const AUTO = (name: string) => new RegExp(`^${name}-[0-9a-f]{7}$`);
/** The line of `up --json`'s output (its engine events, one a line) of the first `kind` event of `op` on the resource `name`. */
const eventAt = (stdout: string, kind: "resourcePreEvent" | "resOutputsEvent", op: string, name: string) =>
  stdout.split("\n").findIndex((line) => {
    const meta = line.startsWith('{"sequence"') ? JSON.parse(line)[kind]?.metadata : undefined;
    return meta?.op === op && String(meta.urn).endsWith(`::${name}`);
  });

test("auto-naming, create-first replacements, cleared tags, preview refusals", async () => {
  // A private image made out of band: the program's getImages() sees it with compute:token from the stack only.
  expect(process.env.COMPUTE_TOKEN).toBeUndefined();
  const oob = await call(emu, "POST", "/compute/instances", {
    body: { region: "us-east", type: "c1-nano-1", image: "compute/debian12", root_pass: ROOT_PASS, label: "oob-1" },
  });
  const oobDisk = (await call(emu, "GET", `/compute/instances/${oob.body.id}/disks`)).body.data[0];
  // (The disk takes the image once it is ready.)
  const diskReady = async () => (await get(emu, `/compute/instances/${oob.body.id}/disks/${oobDisk.id}`)).status === "ready";
  await waitUntil(diskReady, { timeoutMs: 20_000, what: `disk ${oobDisk.id} ready` });
  expect((await call(emu, "POST", "/images", { body: { disk_id: oobDisk.id, label: "oob-image" } })).status).toBe(200);

  // Every create of an instance, a VPC or a disk loses its answer after taking effect: each is found by
  // its (auto-)label and adopted, never made twice.
  emu.faults.set({ seed: 1, rules: [{ match: "^POST /v4/(compute/instances|vpcs|compute/instances/\\d+/disks)$", rate: 1, kinds: ["lost"], limit: 5 }] });
  // (The web instance is made with tags, which a later update clears.)
  const up = await stack.ok("up", { config: { tags: '["web","prod"]' } });
  emu.faults.set(undefined);
  expect(up.summary).toEqual({ create: 6 });
  expect(
    emu.log
      .filter((l) => l.fault === "lost")
      .map((l) => l.path.replace(/\/\d+\//g, "/N/"))
      .sort(),
  ).toEqual(["/v4/compute/instances", "/v4/compute/instances", "/v4/compute/instances", "/v4/compute/instances/N/disks", "/v4/vpcs"]);
  expect((await instances()).length).toBe(4);
  expect((await call(emu, "GET", "/vpcs")).body.data).toHaveLength(1);
  expect((await call(emu, "GET", `/compute/instances/${up.outputs.ids.host}/disks`)).body.data).toHaveLength(1);
  const { labels, ids } = up.outputs;
  expect(labels).toMatchObject({
    net: expect.stringMatching(AUTO("net")),
    web: expect.stringMatching(AUTO("web")),
    db: "safety-db",
    host: expect.stringMatching(AUTO("host")),
    data: expect.stringMatching(AUTO("data")),
  });
  expect((await call(emu, "GET", `/vpcs/${ids.net}`)).body.label).toBe(labels.net);
  expect(up.outputs.privateImages).toEqual(["oob-image"]);

  expect((await instances()).find((i) => String(i.id) === ids.web)!.tags.sort()).toEqual(["prod", "web"]);

  // The names are kept: nothing to do; and swapSize set to the size it already has plans nothing either.
  expect((await stack.ok("preview", { config: { swapSize: "512" } })).changeSummary).toEqual({ same: 6 });

  // The tags removed from the program and a new swapSize (in one update): the tags are cleared in the API,
  // the swap disk is resized in place (the image deploy left no room to grow it: shrink it). The names stay.
  const tagged = await stack.upAsPlanned({ config: { tags: "", swapSize: "256" } });
  expect(tagged.up.json.summary).toMatchObject({ update: 1, same: 5 });
  expect(tagged.up.json.steps).toEqual(["update web (pulumi-nodejs:dynamic/compute:Instance)"]);
  expect(tagged.up.json.outputs.labels).toEqual(labels);
  expect((await instances()).find((i) => String(i.id) === ids.web)!.tags).toEqual([]);
  const swapDisk = (await call(emu, "GET", `/compute/instances/${ids.web}/disks`)).body.data.find((d: { filesystem: string }) => d.filesystem === "swap");
  expect(swapDisk.size).toBe(256);

  // Two replacements in one up, both create-first. The auto-named web instance gets a fresh name; the preview
  // names the field that forces it (what `preview --diff` prints as `~ region: "us-east" => "eu-central"`).
  // The db instance's pinned label: the new one is made first (under a temporary label), then takes the label.
  const base = { webRegion: "eu-central" };
  const db = await stack.upAsPlanned({ config: { ...base, dbRegion: "eu-central" } });
  const step = db.preview.json.steps.find((x: { op: string; urn: string }) => x.op === "replace" && x.urn.endsWith("::web"));
  expect(step).toMatchObject({ replaceReasons: ["region"], oldState: { inputs: { region: "us-east" } }, newState: { inputs: { region: "eu-central" } } });
  const moved = db.up.json;
  expect(moved.summary).toMatchObject({ replace: 2 });
  expect(moved.steps).toEqual(["replace db (pulumi-nodejs:dynamic/compute:Instance)", "replace web (pulumi-nodejs:dynamic/compute:Instance)"]);
  expect(moved.outputs.labels.web).toMatch(AUTO("web"));
  expect(moved.outputs.labels.web).not.toBe(labels.web);
  expect((await instances()).filter((i) => /^web-/.test(i.label)).map((i) => [i.label, i.region])).toEqual([[moved.outputs.labels.web, "eu-central"]]);
  const dbs = (await instances()).filter((i) => i.label.startsWith("safety-db"));
  expect(dbs.map((i) => [i.label, i.region, String(i.id)])).toEqual([["safety-db", "eu-central", moved.outputs.ids.db]]);
  expect(moved.outputs.ids.db).not.toBe(ids.db);
  // The old one was deleted after the new one existed (the engine's order: create, then delete).
  const created = eventAt(db.up.stdout, "resOutputsEvent", "create-replacement", "db");
  const deleting = eventAt(db.up.stdout, "resourcePreEvent", "delete-replaced", "db");
  expect([created >= 0, deleting >= 0, created < deleting]).toEqual([true, true, true]);
  // Nothing planned afterwards (the hand-over leaves no difference).
  expect((await stack.ok("preview", { config: { ...base, dbRegion: "eu-central" } })).changeSummary).toEqual({ same: 6 });

  // Refused at preview, naming the field and the rule: nothing is sent.
  emu.log.length = 0;
  const swap = await stack.run("preview", { config: { ...base, dbRegion: "eu-central", swapSize: "4096" } });
  expect(swap.code).not.toBe(0);
  expect(swap.output).toMatch(/swapSize: 4096 MB does not fit/);
  // Said once, by the engine: no second copy from the dynamic provider server, and no stack trace of ours.
  expect(swap.output.split("swapSize: 4096 MB does not fit").length - 1).toBe(1);
  expect(swap.output).not.toMatch(/\n\s+at .*:\d+:\d+/);
  const timeouts = await stack.run("preview", { config: { ...base, dbRegion: "eu-central", swapSize: "256", diskTimeouts: '{"create":"10 min"}' } });
  expect(timeouts.code).not.toBe(0);
  expect(timeouts.output).toMatch(/timeouts\.create: must be a duration such as 90s, 15m or 1h30m/);
  // Script data over 65535 characters (as JSON).
  const script = await stack.run("preview", { config: { ...base, dbRegion: "eu-central", diskTimeouts: "", scriptDataSize: "65600" } });
  expect(script.code).not.toBe(0);
  expect(script.output).toMatch(/scriptData: must be at most 65535 characters as JSON/);
  // A type the web instance's disks do not fit (resize rule 6: its image deploy fills c1-nano-1's 25600 MB,
  // and c1-highmem-24 has 20480).
  const shrink = await stack.run("preview", { config: { ...base, dbRegion: "eu-central", scriptDataSize: "", webType: "c1-highmem-24" } });
  expect(shrink.code).not.toBe(0);
  expect(shrink.output).toMatch(/type: the disks of instance \d+ use \d+ MB, more than the 20480 MB of type c1-highmem-24/);
  expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);

  // Nothing made twice, nothing left behind: the API holds the instances, the VPC and the disk the stack holds
  // (what a destroy would delete, by their ids), and the instance made out of band.
  const held = db.up.json.outputs.ids;
  expect((await instances()).map((i) => String(i.id)).sort()).toEqual([String(oob.body.id), held.web, held.db, held.host].sort());
  expect((await call(emu, "GET", "/vpcs")).body.data.map((v: { id: number }) => String(v.id))).toEqual([held.net]);
  expect((await call(emu, "GET", `/compute/instances/${held.host}/disks`)).body.data.map((d: { id: number }) => String(d.id))).toEqual([held.data]);
});
