import { costReport, kindOf, markdown } from "../../provider/cost/report";
import { PriceCatalog } from "../../provider/resources/price-catalog";
import { UNKNOWN } from "../../provider/model/unknown";

// Two types and a database type, as the API lists them; every figure below is summed by hand from these.
const catalog = new PriceCatalog(
  [
    {
      id: "c1-standard-2",
      price: { hourly: 0.018, monthly: 13.14 },
      region_prices: [{ id: "ap-south", hourly: 0.0216, monthly: 15.77 }],
      addons: { backups: { price: { hourly: 0.0045, monthly: 3.29 }, region_prices: [] } },
    },
    { id: "c1-standard-4", price: { hourly: 0.036, monthly: 26.28 }, region_prices: [], addons: { backups: { price: { hourly: 0.009, monthly: 6.57 } } } },
  ],
  [
    {
      id: "c1-standard-2",
      engines: { mysql: [{ quantity: 1, price: { hourly: 0.045, monthly: 30 } }], postgresql: [{ quantity: 3, price: { hourly: 0.105, monthly: 70 } }] },
    },
  ],
);

const urn = (type: string, name: string) => `urn:pulumi:dev::app::${type}::${name}`;
const I = "compute:index:Instance";
const state = (type: string, name: string, outputs: Record<string, unknown>) => ({ urn: urn(type, name), type, inputs: {}, outputs });

// The resources of a stack (`pulumi stack export`), and a preview of a change to it (`pulumi preview --json`).
const stack = {
  deployment: {
    resources: [
      { urn: "urn:pulumi:dev::app::pulumi:pulumi:Stack::app-dev", type: "pulumi:pulumi:Stack" },
      state(I, "web", { type: "c1-standard-2", region: "us-east", backupsEnabled: false }),
      state(I, "old", { type: "c1-standard-2", region: "ap-south", backupsEnabled: true }),
      state(I, "kept", { type: "c1-standard-2", region: "us-east", backupsEnabled: true }),
      state("compute:index:MysqlDatabase", "db", { type: "c1-standard-2", clusterSize: 1 }),
      state("compute:index:Vpc", "net", { region: "us-east" }),
    ],
  },
};
const step = (op: string, type: string, name: string, inputs?: Record<string, unknown>) => ({
  op,
  urn: urn(type, name),
  ...(op === "create" ? {} : { oldState: stack.deployment.resources.find((r) => r.urn === urn(type, name)) }),
  ...(inputs ? { newState: { urn: urn(type, name), type, inputs } } : {}),
});
const preview = {
  steps: [
    step("same", "pulumi:pulumi:Stack", "app-dev", {}),
    // A resize with backups added; a new instance; a deletion; a database replaced by a 3-node PostgreSQL.
    step("update", I, "web", { type: "c1-standard-4", region: "us-east", backupsEnabled: true }),
    step("create", I, "new", { type: "c1-standard-2", region: "ap-south" }),
    step("delete", I, "old"),
    step("create-replacement", "compute:index:MysqlDatabase", "db", { type: "c1-standard-2", clusterSize: 1, engine: "mysql/8" }),
    step("replace", "compute:index:MysqlDatabase", "db", { type: "c1-standard-2", clusterSize: 1, engine: "mysql/8" }),
    step("delete-replaced", "compute:index:MysqlDatabase", "db"),
    step("create", "pulumi-nodejs:dynamic/compute:PostgresDatabase", "pg", { type: "c1-standard-2", clusterSize: 3 }),
    step("create", I, "later", { type: UNKNOWN, region: "us-east" }),
  ],
};

test("the stack's monthly cost before and after, each resource priced by the catalogue", () => {
  const r = costReport(catalog, preview, stack);
  const byName = Object.fromEntries(r.resources.map((x) => [x.name, [x.op, x.before?.monthly ?? null, x.after?.monthly ?? null]]));
  expect(byName).toEqual({
    web: ["update", 13.14, 32.85], // c1-standard-2 -> c1-standard-4 (26.28) with backups (6.57)
    old: ["delete", 19.06, 0], // ap-south's own 15.77, with the add-on's default 3.29
    kept: ["same", 16.43, 16.43], // not in the preview: as the state has it
    db: ["create-replacement", 30, 30],
    new: ["create", 0, 15.77],
    pg: ["create", 0, 70],
    later: ["create", 0, null],
  });
  // Before: 13.14 + 19.06 + 16.43 + 30 = 78.63; after: 32.85 + 16.43 + 30 + 15.77 + 70 = 165.05.
  expect([r.before.monthly, r.after.monthly, r.delta.monthly]).toEqual([78.63, 165.05, 86.42]);
  expect([r.unknown, r.complete]).toEqual([["later"], true]);
});

test("without the state, only what the preview lists (and the report says so)", () => {
  const r = costReport(catalog, preview);
  expect(r.resources.map((x) => x.name)).not.toContain("kept");
  expect([r.before.monthly, r.complete]).toEqual([62.2, false]);
  expect(markdown(r)).toMatch(/give `--state`/);
});

test("the Markdown for a pull request: the totals, each resource whose cost changes, and what is not counted", () => {
  const text = markdown(costReport(catalog, preview, stack));
  expect(text.split("\n")[0]).toBe("### Monthly cost: $78.63 → $165.05 (+$86.42)");
  expect(text).toContain("| web (Instance) | update | c1-standard-4 in us-east, with backups | $13.14 | $32.85 | +$19.71 |");
  expect(text).toContain("| old (Instance) | delete | c1-standard-2 in ap-south, with backups | $19.06 | $0.00 | -$19.06 |");
  expect(text).not.toContain("| kept ");
  expect(text).not.toContain("| db ");
  expect(text).toContain("Not counted after the change (a price that depends on a value the preview does not know): later.");
});

test("the priced types: the plugin's and the dynamic classes', nothing else", () => {
  expect(["compute:index:Instance", "pulumi-nodejs:dynamic/compute:MysqlDatabase", "compute:index:Vpc", "aws:ec2/instance:Instance"].map(kindOf)).toEqual([
    "Instance",
    "MysqlDatabase",
    undefined,
    undefined,
  ]);
});
