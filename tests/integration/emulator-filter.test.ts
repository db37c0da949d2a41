/**
 * The emulator's `X-Filter` header (emulator/filter.ts), as the real API filters and orders its lists: equality
 * (a list field holds the value), `+and` and `+or`, the operators, `+order_by` and `+order`, the paging of what
 * is left, and the 400s on `X-Filter` (the one the real API's recorded answers show, and the texts chosen in
 * docs/spec-gaps.md).
 */
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator } from "../helpers/emulator";

let emu: Emulator;
// One day passes between two records, so that each has its own `created`.
let clock = Date.UTC(2024, 0, 1, 12);
const keys: { id: number; label: string; created: string }[] = [];

beforeAll(async () => {
  emu = await emulator({ now: () => clock });
  const labels = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];
  for (const [i, label] of labels.entries()) {
    clock += 86_400_000;
    const r = await call(emu, "POST", "/profile/sshkeys", { body: { label, ssh_key: ed25519Key(100 + i) } });
    expect(r.status).toBe(200);
    keys.push(r.body);
  }
  for (const [label, region, tags] of [
    ["web-a", "us-east", ["web", "prod"]],
    ["web-b", "eu-central", ["web"]],
    ["db-a", "us-east", ["dbs"]],
  ] as const) {
    const r = await call(emu, "POST", "/compute/instances", { body: { label, region, type: "c1-standard-2", tags } });
    expect(r.status).toBe(200);
  }
});
afterAll(async () => {
  await emu.close();
});

/** A list read with the header (an object is sent as JSON, a string as it is). */
async function list(path: string, filter: unknown, query = ""): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emu.url}${path}${query}`, {
    headers: { authorization: `Bearer ${emu.token}`, "x-filter": typeof filter === "string" ? filter : JSON.stringify(filter) },
  });
  return { status: res.status, body: await res.json() };
}
const labels = async (filter: unknown, path = "/profile/sshkeys") => {
  const r = await list(path, filter);
  expect(r.status).toBe(200);
  return (r.body.data as { label: string }[]).map((x) => x.label);
};
const sorted = (xs: string[]) => [...xs].sort();

test("equality on a field, and on a list field (the list holds the value)", async () => {
  expect(await labels({ label: "gamma" })).toEqual(["gamma"]);
  expect(await labels({ label: "nope" })).toEqual([]);
  expect(await labels({ id: keys[3].id })).toEqual(["delta"]);
  expect(sorted(await labels({ tags: "web" }, "/compute/instances"))).toEqual(["web-a", "web-b"]);
  expect(await labels({ tags: "prod" }, "/compute/instances")).toEqual(["web-a"]);
  // Several keys of one object must all hold.
  expect(await labels({ tags: "web", region: "us-east" }, "/compute/instances")).toEqual(["web-a"]);
});

test("a list of labelled objects is matched by an item's label (a profile's interfaces, as the real API answered)", async () => {
  const own = await emulator();
  try {
    const body = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: "Str0ng-Passw0rd!" };
    const inst = (
      await call(own, "POST", "/compute/instances", { body: { ...body, interfaces: [{ purpose: "public" }, { purpose: "vlan", label: "ipam-net" }] } })
    ).body;
    const configs = async (filter: unknown) => {
      const res = await fetch(`${own.url}/compute/instances/${inst.id}/configs`, {
        headers: { authorization: `Bearer ${own.token}`, "x-filter": JSON.stringify(filter) },
      });
      return ((await res.json()) as { data: unknown[] }).data.length;
    };
    expect([await configs({ interfaces: "ipam-net" }), await configs({ interfaces: "other-net" })]).toEqual([1, 0]);
  } finally {
    await own.close();
  }
});

test("+and and +or, nested", async () => {
  expect(sorted(await labels({ "+or": [{ label: "beta" }, { label: "eta" }, { label: "nope" }] }))).toEqual(["beta", "eta"]);
  expect(await labels({ "+and": [{ tags: "web" }, { region: "eu-central" }] }, "/compute/instances")).toEqual(["web-b"]);
  expect(
    sorted(
      await labels(
        { "+and": [{ "+or": [{ region: "us-east" }, { region: "eu-central" }] }, { "+or": [{ tags: "dbs" }, { tags: "prod" }] }] },
        "/compute/instances",
      ),
    ),
  ).toEqual(["db-a", "web-a"]);
});

test("each operator: +gt, +gte, +lt, +lte on numbers and timestamps, +neq, +contains", async () => {
  const ids = keys.map((k) => k.id);
  expect(await labels({ id: { "+gt": ids[7] } })).toEqual(["iota", "kappa"]);
  expect(await labels({ id: { "+gte": ids[7] } })).toEqual(["theta", "iota", "kappa"]);
  expect(await labels({ id: { "+lt": ids[2] } })).toEqual(["alpha", "beta"]);
  expect(await labels({ id: { "+lte": ids[2] } })).toEqual(["alpha", "beta", "gamma"]);
  // Timestamps as text (the recorded event filters: `{"created":{"+gte":"2018-01-02T03:04:05"}}`).
  expect(await labels({ created: { "+gte": keys[8].created } })).toEqual(["iota", "kappa"]);
  expect(await labels({ created: { "+gt": keys[0].created, "+lt": keys[3].created } })).toEqual(["beta", "gamma"]);
  expect(await labels({ label: { "+neq": "alpha" } })).toHaveLength(9);
  expect(await labels({ label: { "+contains": "ta" } })).toEqual(["beta", "delta", "zeta", "eta", "theta", "iota"]);
  expect(await labels({ label: { "+contains": "TA" } })).toEqual([]);
  expect(sorted(await labels({ tags: { "+neq": "web" } }, "/compute/instances"))).toEqual(["db-a"]);
});

test("+order_by with +order asc (the default) and desc, after the filter", async () => {
  const all = keys.map((k) => k.label);
  expect(await labels({ "+order_by": "label" })).toEqual(sorted(all));
  expect(await labels({ "+order_by": "label", "+order": "asc" })).toEqual(sorted(all));
  expect(await labels({ "+order_by": "label", "+order": "desc" })).toEqual(sorted(all).reverse());
  expect(await labels({ "+order_by": "created", "+order": "desc", label: { "+contains": "ta" } })).toEqual(["iota", "theta", "eta", "zeta", "delta", "beta"]);
  expect(await labels({ "+order_by": "region", "+order": "desc" }, "/compute/instances")).toEqual(["web-a", "db-a", "web-b"]);
});

test("results and pages count what is left; the pages are of the filtered list", async () => {
  const filter = { label: { "+neq": "alpha" }, "+order_by": "label" };
  const first = await list("/profile/sshkeys", filter, "?page=1&page_size=25");
  expect(first.body).toMatchObject({ page: 1, pages: 1, results: 9 });
  expect(first.body.data).toHaveLength(9);
  const types = await list("/compute/types", { vcpus: { "+gte": 1 } }, "?page_size=25");
  const total = types.body.results as number;
  const few = await list("/compute/types", { "+or": [{ class: "standard" }, { class: "nanode" }] }, "?page=2&page_size=25");
  expect(few.status).toBe(200);
  expect(few.body.results).toBeLessThan(total);
  expect(few.body.pages).toBe(Math.max(1, Math.ceil(few.body.results / 25)));
  const unfiltered = await call(emu, "GET", "/compute/types?page_size=25");
  expect(unfiltered.body.results).toBe(total);
  // Paging after filtering: more than one page of filtered keys, read with the smallest page.
  for (let i = 0; i < 30; i++)
    expect((await call(emu, "POST", "/profile/sshkeys", { body: { label: `many-${i}`, ssh_key: ed25519Key(500 + i) } })).status).toBe(200);
  const p1 = await list("/profile/sshkeys", { label: { "+contains": "many-" }, "+order_by": "id", "+order": "desc" }, "?page=1&page_size=25");
  const p2 = await list("/profile/sshkeys", { label: { "+contains": "many-" }, "+order_by": "id", "+order": "desc" }, "?page=2&page_size=25");
  expect(p1.body).toMatchObject({ page: 1, pages: 2, results: 30 });
  expect(p2.body).toMatchObject({ page: 2, pages: 2, results: 30 });
  expect(p1.body.data[0].label).toBe("many-29");
  expect(p2.body.data.map((k: { label: string }) => k.label)).toEqual(["many-4", "many-3", "many-2", "many-1", "many-0"]);
});

test("a field that cannot be filtered is the real API's 400 (ExampleListImages_badfilter.yaml)", async () => {
  const r = await list("/images", { foo: "bar" }, "?page=1");
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ errors: [{ reason: "Cannot filter on foo", field: "X-Filter" }] });
  // A field that holds objects, inside +or too.
  expect((await list("/compute/instances", { "+or": [{ specs: 1 }] })).body.errors).toEqual([{ reason: "Cannot filter on specs", field: "X-Filter" }]);
});

test("a header that is not a filter is a 400 on X-Filter, with the texts of docs/spec-gaps.md", async () => {
  const bad = async (filter: unknown) => {
    const r = await list("/profile/sshkeys", filter);
    expect(r.status).toBe(400);
    return r.body.errors as { reason: string; field: string }[];
  };
  expect(await bad("{label: x")).toEqual([{ reason: "X-Filter is not valid JSON", field: "X-Filter" }]);
  expect(await bad("[1]")).toEqual([{ reason: "X-Filter must be a JSON object", field: "X-Filter" }]);
  expect(await bad({ "+order_by": "nope" })).toEqual([{ reason: "Cannot order by nope", field: "X-Filter" }]);
  expect(await bad({ "+order_by": "label", "+order": "up" })).toEqual([{ reason: "+order must be asc or desc", field: "X-Filter" }]);
  expect(await bad({ "+or": { label: "x" } })).toEqual([{ reason: "+or must be a list of filter objects", field: "X-Filter" }]);
  expect(await bad({ label: { "+like": "x" } })).toEqual([{ reason: "Unknown filter operator +like on label", field: "X-Filter" }]);
  expect(await bad({ label: { "+contains": 1 } })).toEqual([{ reason: "+contains on label needs a string", field: "X-Filter" }]);
  expect(await bad({ label: ["a", "b"] })).toEqual([{ reason: "Invalid filter value for label", field: "X-Filter" }]);
  // Without the header, the list is whole.
  expect((await call(emu, "GET", "/profile/sshkeys")).body.results).toBeGreaterThanOrEqual(10);
});
