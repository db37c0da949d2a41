import { markdown, verdictOf } from "../../provider/cost/markdown";
import { costReport, kindOf } from "../../provider/cost/report";
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
  // Priced before: web, old, kept, db; after, with a known price: web, kept, db, new, pg (old deleted, later not known).
  expect(r.counts).toEqual({ before: 4, after: 5 });
  expect([r.stack, r.project]).toEqual(["dev", "app"]);
});

test("without the state, only what the preview lists (and the report says so)", () => {
  const r = costReport(catalog, preview);
  expect(r.resources.map((x) => x.name)).not.toContain("kept");
  expect([r.before.monthly, r.complete]).toEqual([62.2, false]);
  expect(markdown(r)).toMatch(/give `--state`/);
});

test("the Markdown for a pull request: the totals, each resource whose cost changes, and what is not counted", () => {
  const text = markdown(costReport(catalog, preview, stack));
  expect(text.split("\n")[0]).toBe("### Monthly cost of stack `dev`: $78.63 → $165.05 (+$86.42)");
  // It counts what it says it counts: the deleted instance is not priced after, the one not known yet is named apart.
  expect(text).toContain(
    "Prices per month in US dollars from the API's catalogue: 4 priced resources before the change, 5 after it, and 1 resource whose price after it is not known yet.",
  );
  expect(text).toContain("| web (Instance) | update | c1-standard-4 in us-east, with backups | $13.14 | $32.85 | +$19.71 |");
  expect(text).toContain("| old (Instance) | delete | c1-standard-2 in ap-south, with backups | $19.06 | $0.00 | -$19.06 |");
  expect(text).not.toContain("| kept ");
  expect(text).not.toContain("| db ");
  expect(text).toContain("Not known after the change (a price that depends on a value the preview does not know), counted at its price now: later.");
  expect(text).toContain("| later (Instance) | create | its type is not known yet | $0.00 | not known yet |  |");
});

test("the verdict on a budget, first after the totals: over it or within it and by how much, or not known", () => {
  const r = costReport(catalog, preview, stack);
  const over = markdown(r, verdictOf(r, 100)).split("\n");
  expect(over[2]).toBe("**Over the budget**: $165.05 a month after the change is $65.05 over the budget of $100.00.");
  // Within the known figures, but `later`'s price is not known: the budget cannot be checked, and the report says why.
  expect(verdictOf(r, 500)).toEqual({ budget: 500, result: "unknown", waitingOn: ["later"], unpriced: [] });
  expect(markdown(r, verdictOf(r, 500)).split("\n")[2]).toBe(
    "**The budget cannot be checked**: the price after the change of later waits on a value the preview does not know, so the cost after it may be over the budget of $500.00.",
  );
  const known = costReport(catalog, { steps: preview.steps.filter((s) => !s.urn.endsWith("::later")) }, stack);
  expect(markdown(known, verdictOf(known, 200)).split("\n")[2]).toBe(
    "**Within the budget**: $165.05 a month after the change, $34.95 under the budget of $200.00.",
  );
  // Without a budget, no verdict line.
  expect(markdown(known).split("\n")[2]).toBe("| Resource | Change | What | Before | After | Delta |");
});

test("fresh eyes: a priced kind the catalogue has no price for makes the budget unknown (a wrong API URL prices everything at nothing), a budget the cents would hide is shown whole, names cannot forge the table", () => {
  const odd = costReport(catalog, {
    steps: [{ op: "create", urn: urn(I, "odd"), newState: { urn: urn(I, "odd"), type: I, inputs: { type: "c9-none", region: "us-east" } } }],
  });
  expect(verdictOf(odd, 500)).toEqual({ budget: 500, result: "unknown", waitingOn: [], unpriced: ["odd"] });
  expect(markdown(odd, verdictOf(odd, 500)).split("\n")[2]).toBe(
    "**The budget cannot be checked**: the API's catalogue has no price for odd, so the cost after it may be over the budget of $500.00.",
  );
  const near = costReport(catalog, { steps: preview.steps.filter((s) => !s.urn.endsWith("::later")) }, stack);
  expect(markdown(near, verdictOf(near, 165.049)).split("\n")[2]).toBe(
    "**Over the budget**: $165.05 a month after the change is $0.0010 over the budget of $165.0490.",
  );
  const evil = "evil | create | x | $0.00 |\n\n**Within the budget**: all good <!-- @octocat [x](https://e.vil)";
  const forged = markdown(
    costReport(catalog, {
      steps: [{ op: "create", urn: urn(I, evil), newState: { urn: urn(I, evil), type: I, inputs: { type: "c1-standard-2", region: "us-east" } } }],
    }),
  );
  const row = forged.split("\n").find((l) => l.startsWith("| evil"))!;
  expect(row).toBe(
    "| evil \\| create \\| x \\| $0.00 \\| \\*\\*Within the budget\\*\\*: all good \\<\\!-- @\u200boctocat \\[x\\](https://e.vil) (Instance) | create | c1-standard-2 in us-east | $0.00 | $13.14 | +$13.14 |",
  );
  expect(forged.split("\n").filter((l) => l.includes("Within the budget"))).toEqual([row]);
});

test("the priced types: the plugin's and the dynamic classes', nothing else", () => {
  expect(["compute:index:Instance", "pulumi-nodejs:dynamic/compute:MysqlDatabase", "compute:index:Vpc", "aws:ec2/instance:Instance"].map(kindOf)).toEqual([
    "Instance",
    "MysqlDatabase",
    undefined,
    undefined,
  ]);
});

describe("what a preview's JSON holds besides", () => {
  const web = state(I, "web", { type: "c1-standard-2", region: "us-east", backupsEnabled: true });
  const withState = (...resources: Array<{ urn: string; type: string }>) => ({ deployment: { resources } });

  test("an update's planned outputs: a known one counts, one not known yet never hides the inputs or the state", () => {
    const r = costReport(
      catalog,
      {
        steps: [
          {
            op: "update",
            urn: web.urn,
            oldState: web,
            // The plugin plans the outputs; backupsEnabled left out of the inputs keeps the state's true.
            newState: {
              urn: web.urn,
              type: I,
              inputs: { type: "c1-standard-4", region: "us-east" },
              outputs: { type: "c1-standard-4", backupsEnabled: UNKNOWN },
            },
          },
        ],
      },
      withState(web),
    );
    expect(r.resources.map((x) => [x.name, x.before?.monthly, x.after?.monthly])).toEqual([["web", 16.43, 32.85]]);
  });

  test("a price not known after the change counts at its price now, and is named; a type without a price counts as nothing, named", () => {
    const r = costReport(
      catalog,
      {
        steps: [
          { op: "update", urn: web.urn, oldState: web, newState: { urn: web.urn, type: I, inputs: { type: UNKNOWN, region: "us-east" } } },
          { op: "create", urn: urn(I, "odd"), newState: { urn: urn(I, "odd"), type: I, inputs: { type: "c9-none", region: "us-east" } } },
        ],
      },
      withState(web),
    );
    expect([r.before.monthly, r.after.monthly, r.delta.monthly, r.unknown, r.unpriced]).toEqual([16.43, 16.43, 0, ["web"], ["odd"]]);
    const text = markdown(r);
    expect(text).toContain("Not known after the change (a price that depends on a value the preview does not know), counted at its price now: web.");
    expect(text).toContain("No price in the API's catalogue, counted as nothing: odd.");
    expect(text).toContain("| odd (Instance) | create | c9-none in us-east (no price in the catalogue) | $0.00 | $0.00 | $0.00 |");
  });

  test("a resource the program only reads (Instance.get) is not the stack's cost; a renamed one (an alias) counts once", () => {
    const external = { ...state(I, "theirs", { type: "c1-standard-4", region: "us-east" }), external: true };
    const renamedTo = urn(I, "web-renamed");
    const r = costReport(
      catalog,
      {
        steps: [
          { op: "read", urn: external.urn, newState: { ...external } },
          {
            op: "same",
            urn: renamedTo,
            oldState: web,
            newState: { urn: renamedTo, type: I, inputs: { type: "c1-standard-2", region: "us-east", backupsEnabled: true } },
          },
        ],
      },
      withState(web, external),
    );
    expect(r.resources.map((x) => [x.name, x.op, x.before?.monthly, x.after?.monthly])).toEqual([["web-renamed", "same", 16.43, 16.43]]);
    expect([r.before.monthly, r.after.monthly]).toEqual([16.43, 16.43]);
  });
});
