import { PriceCatalog, priceOutputs } from "../../provider/resources/price-catalog";
import { loadPrices } from "../../provider/resources/prices";
import type { AnyEndpoint } from "../../api/contract/endpoint";
import type { ApiClient } from "../../provider/transport/client";

// Entries as the API lists them (emulator/data/catalog.json holds the same), the sums done by hand.
const nano = {
  id: "c1-nano-1",
  label: "Nano 1 GB",
  price: { hourly: 0.0075, monthly: 5.47 },
  region_prices: [{ id: "ap-south", hourly: 0.009, monthly: 6.56 }],
  addons: { backups: { price: { hourly: 0.0019, monthly: 1.37 }, region_prices: [{ id: "ap-south", hourly: 0.0022, monthly: 1.64 }] } },
};
const standard = {
  id: "c1-standard-2",
  price: { hourly: 0.018, monthly: 13.14 },
  region_prices: [],
  addons: { backups: { price: { hourly: 0.0045, monthly: 3.29 }, region_prices: [] } },
};
const noAddon = { id: "c1-bare", price: { hourly: 0.01, monthly: 7 }, region_prices: [], addons: null };
const db = {
  id: "c1-standard-2",
  engines: {
    mysql: [
      { quantity: 1, price: { hourly: 0.045, monthly: 30 } },
      { quantity: 3, price: { hourly: 0.105, monthly: 70 } },
    ],
    postgresql: [{ quantity: 1, price: { hourly: 0.045, monthly: 31 } }],
  },
};
const catalog = new PriceCatalog([nano, standard, noAddon], [db]);

describe("what an instance costs", () => {
  test("its type's default price outside the regions priced apart", () => {
    expect(catalog.instance("c1-nano-1", "us-east", false)).toEqual({ hourly: 0.0075, monthly: 5.47 });
  });
  test("the region's own price where the type lists one, for the type and for the add-on", () => {
    expect(catalog.instance("c1-nano-1", "ap-south", false)).toEqual({ hourly: 0.009, monthly: 6.56 });
    expect(catalog.instance("c1-nano-1", "ap-south", true)).toEqual({ hourly: 0.0112, monthly: 8.2 });
  });
  test("the backups add-on added, with no floating-point residue", () => {
    // 0.018 + 0.0045 is 0.022499999999999996 in floating point.
    expect(catalog.instance("c1-standard-2", "us-east", true)).toEqual({ hourly: 0.0225, monthly: 16.43 });
    expect(catalog.instance("c1-nano-1", "us-east", true)).toEqual({ hourly: 0.0094, monthly: 6.84 });
  });
  test("a type without the add-on costs its own price with backups; a type not listed has no price", () => {
    expect(catalog.instance("c1-bare", "us-east", true)).toEqual({ hourly: 0.01, monthly: 7 });
    expect(catalog.instance("c9-none", "us-east", false)).toBeUndefined();
  });
});

describe("what a database cluster costs", () => {
  test("the price of its size for its engine", () => {
    expect(catalog.database("c1-standard-2", "mysql", 1)).toEqual({ hourly: 0.045, monthly: 30 });
    expect(catalog.database("c1-standard-2", "mysql", 3)).toEqual({ hourly: 0.105, monthly: 70 });
    expect(catalog.database("c1-standard-2", "postgresql", 1)).toEqual({ hourly: 0.045, monthly: 31 });
  });
  test("none for a size, engine or type the list does not price", () => {
    expect(catalog.database("c1-standard-2", "postgresql", 3)).toBeUndefined();
    expect(catalog.database("c1-standard-2", "redis", 1)).toBeUndefined();
    expect(catalog.database("g6-nope", "mysql", 1)).toBeUndefined();
  });
});

test("the outputs of a price, and none without one", () => {
  expect(priceOutputs({ hourly: 0.0225, monthly: 16.43 })).toEqual({ hourlyPrice: 0.0225, monthlyPrice: 16.43 });
  expect(priceOutputs(undefined)).toEqual({});
});

test("an entry without a price is left out (its type has no price, never a price of zero); the others stay", () => {
  const c = new PriceCatalog([{ id: "x" }, nano], [{ id: "y", engines: null }, db]);
  expect([c.instance("x", "us-east", false), c.instance("c1-nano-1", "us-east", false)]).toEqual([undefined, { hourly: 0.0075, monthly: 5.47 }]);
  expect([c.database("y", "mysql", 1), c.database("c1-standard-2", "mysql", 1)]).toEqual([undefined, { hourly: 0.045, monthly: 30 }]);
});

describe("the session's one read of the catalogue (loadPrices)", () => {
  /** A client that counts the lists it is asked for (the contract's rows: `all`), answering them or failing. */
  const client = (fail: boolean) => {
    const asked: string[] = [];
    const all = async (e: AnyEndpoint) => {
      asked.push(e.path);
      if (fail) throw new Error("the API is down");
      return e.path === "/compute/types" ? [nano] : [db];
    };
    return { asked, client: { all } as unknown as ApiClient };
  };

  test("every check of a session waits for one read: two lists, once", async () => {
    const program: Parameters<typeof loadPrices>[0] = {};
    const c = client(false);
    const [a, b] = await Promise.all([loadPrices(program, c.client), loadPrices(program, c.client)]);
    await loadPrices(program, c.client);
    expect(c.asked).toEqual(["/compute/types", "/databases/types"]);
    expect([a, b, program.prices]).toEqual([program.prices, program.prices, expect.any(PriceCatalog)]);
    expect(program.prices?.database("c1-standard-2", "mysql", 1)).toEqual({ hourly: 0.045, monthly: 30 });
  });

  test("a read that fails leaves the prices unknown and is not tried again in the session (no check waits on a down API twice)", async () => {
    const program: Parameters<typeof loadPrices>[0] = {};
    const c = client(true);
    expect(await loadPrices(program, c.client)).toBeUndefined();
    expect(await loadPrices(program, c.client)).toBeUndefined();
    expect([c.asked.length, program.prices]).toEqual([2, undefined]);
  });
});
