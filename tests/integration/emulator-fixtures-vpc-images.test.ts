/**
 * A fixture's VPCs, subnets and private images must be records the API could have made (issue 52, the fresh-eyes
 * findings): their labels and descriptions by the API's rules, a VPC's region one of the catalogue's that takes VPCs,
 * an upload's region the catalogue's, an image being made with its step to available; the families' counters follow
 * their records' ids. A record that is not so is refused with its place and the rule, before anything is loaded.
 */
import { gzipSync } from "node:zlib";
import { countersOf, type StateHolder } from "../../emulator/family";
import type { Emulator } from "../../emulator/server";
import { imageFamily } from "../../emulator/routes/images";
import { vpcFamily } from "../../emulator/routes/vpc";
import { call, emulator, list } from "../helpers/emulator";

const CLOCK = Date.parse("2026-03-10T12:00:00Z");

type Records = Record<string, Array<Record<string, any>>>;
interface Fixture {
  format: string;
  version: number;
  records: Records;
  counters?: Record<string, number>;
}

let emu: Emulator;
/** The export of an account with two VPCs (three subnets) and three private images: pending upload, being made, available. */
let base: Fixture;

beforeAll(async () => {
  emu = await emulator({ now: () => CLOCK, speed: 0 });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await call(emu, method, path, { body });
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await ok("POST", "/vpcs", {
    label: "net-1",
    region: "us-east",
    description: "the CI network",
    subnets: [
      { label: "apps", ipv4: "10.0.1.0/24" },
      { label: "db", ipv4: "10.0.2.0/24" },
    ],
  });
  await ok("POST", "/vpcs", { label: "net-2", region: "eu-central", subnets: [{ label: "apps", ipv4: "192.168.0.0/24" }] });
  await ok("POST", "/images/upload", { label: "waiting", region: "us-east", description: "Golden\timage\nv1" });
  const made = await ok("POST", "/images/upload", { label: "uploaded", region: "eu-central" });
  const put = await fetch(made.upload_to, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: gzipSync(Buffer.alloc(1000, 7)) });
  expect(put.status).toBe(200);
  base = (await call(emu, "GET", "/__emulator/export")).body;
});
afterAll(async () => {
  await emu.close();
});

/** The base export changed by `change` (a copy), imported into the main account. */
async function load(change: (records: Records, fixture: Fixture) => void = () => undefined) {
  const fixture = structuredClone(base);
  change(fixture.records, fixture);
  return call(emu, "POST", "/__emulator/import", { body: fixture });
}

/** A refusal as a fixture's load answers it: under its place, saying its place and the rule. */
const refusal = (field: string, reason: string) => ({ field, reason: `${field}: ${reason}` });

test("the export of an account with VPCs, subnets and images of each status loads (into another account too)", async () => {
  expect(base.records.images.map((i) => i.status)).toEqual(["pending_upload", "creating"]);
  expect((await load()).status).toBe(200);
  const other = await call(emu, "POST", "/__emulator/accounts", { body: { label: "copy", fixture: base } });
  expect(other.status).toBe(200);
  expect((await list(emu, "/vpcs", { token: other.body.token })).map((v) => v.label)).toEqual(["net-1", "net-2"]);
});

describe("VPCs and subnets", () => {
  test("a VPC's region the catalogue has not, or one without VPCs, is refused by its place", async () => {
    const nowhere = await load((r) => {
      r.vpcs[0].region = "nope";
      r.vpcs[1].region = "ap-south";
    });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.errors).toEqual([
      refusal("records.vpcs[0].region", "Region nope not found"),
      refusal("records.vpcs[1].region", "Region ap-south does not support VPCs"),
    ]);
    // Nothing was loaded: the account's VPCs are the ones it had.
    expect((await list(emu, "/vpcs")).map((v) => v.region)).toEqual(["us-east", "eu-central"]);
  });

  test("labels and descriptions the API's rules refuse", async () => {
    const refused = await load((r) => {
      r.vpcs[0].label = "net_1";
      r.vpcs[1].description = "x".repeat(256);
      r.subnets[0].label = "a--b";
      r.subnets[1].label = "";
    });
    expect(refused.body.errors).toEqual([
      refusal("records.vpcs[0].label", "Label must include only ASCII letters, numbers, and dashes"),
      refusal("records.vpcs[1].description", "Must be a string of at most 255 characters"),
      refusal("records.subnets[0].label", "Label must not have two hyphens in a row"),
      refusal("records.subnets[1].label", "Label must be 1 to 64 characters (got 0)"),
    ]);
  });

  test("the VPC and subnet counters follow the records' ids, whatever the fixture's counters say", async () => {
    const state: StateHolder = { data: { version: 1, nextId: {}, users: [], tokens: [], events: [], ...base.records } };
    expect(countersOf([vpcFamily], state)).toEqual({ vpc: 2, subnet: 3 });
    const loaded = await load((r, fixture) => {
      r.vpcs[1].id = 40;
      for (const s of r.subnets) if (s.vpc_id === 2) s.vpc_id = 40;
      r.subnets[2].id = 70;
      fixture.counters = {};
    });
    expect(loaded.status).toBe(200);
    const made = await call(emu, "POST", "/vpcs", { body: { label: "net-3", region: "us-east", subnets: [{ label: "apps", ipv4: "10.9.0.0/24" }] } });
    expect([made.body.id, made.body.subnets[0].id]).toEqual([41, 71]);
  });
});

describe("private images", () => {
  test("a label or description the API's rules refuse, an id the image counter could not have given", async () => {
    const refused = await load((r) => {
      r.images[0].label = "a\u0000b";
      r.images[0].description = "x\u202ey";
      r.images[1].id = "private/0";
      r.images[1].label = "\ud800";
    });
    expect(refused.body.errors).toEqual([
      refusal("records.images[0].label", "Label must not hold control characters"),
      refusal("records.images[0].description", "Description must not hold bidirectional text controls"),
      refusal("records.images[1].id", "must be a private image's id: private/<number>"),
      refusal("records.images[1].label", "Label must be well-formed Unicode text (a lone surrogate is not)"),
    ]);
  });

  test("an upload in a region the catalogue has not or at another's URL, an image being made with no step to available", async () => {
    const refused = await load((r) => {
      r.images[0]._upload.region = "nope";
      r.images[1]._queue = [];
      r.images.push({ ...r.images[0], id: "private/3", _upload: { ...r.images[0]._upload, region: "us-east" } });
    });
    expect(refused.body.errors).toEqual([
      refusal("records.images[0]._upload.region", "Region nope not found"),
      refusal("records.images[1]._queue", "an image being made (creating) has its step to available to come"),
      refusal("records.images[2]._upload.token", "the upload URL is also records.images[0]'s"),
    ]);
    // An image stuck creating would never be deployed from: the one loaded instead becomes available.
    expect((await load()).status).toBe(200);
    expect((await call(emu, "GET", `/images/${base.records.images[1].id}`)).body.status).toBe("available");
  });

  test("the image counter follows the numbers of the images' ids", async () => {
    const state: StateHolder = { data: { version: 1, nextId: {}, users: [], tokens: [], events: [], ...base.records } };
    expect(countersOf([imageFamily({})], state)).toEqual({ image: 2 });
    expect(
      (
        await load((r, fixture) => {
          // An id no image has had yet (this emulator's images are numbered below 90): kept.
          r.images[1].id = "private/90";
          fixture.counters = {};
        })
      ).status,
    ).toBe(200);
    expect((await call(emu, "GET", "/images/private/90")).status).toBe(200);
    const made = await call(emu, "POST", "/images/upload", { body: { label: "next", region: "us-east" } });
    expect(made.body.image.id).toBe("private/91");
  });
});
