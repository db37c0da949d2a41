import { z } from "zod";
import { clusterPrice, databaseType, instanceType, price as apiPrice, regionPrice, type Price } from "../../api/contract/reference";

/**
 * What a resource costs, from the API's own catalogue: the instance types (`GET /compute/types`: `price`, the
 * `region_prices` that differ, and the backups add-on's) and the database types (`GET /databases/types`: the
 * price of a cluster of each size per engine; the real API's list, docs/spec-gaps.md), and the price
 * outputs it gives. prices.ts reads it (once per session, into the program's context); the cost report
 * (provider/cost/) prices a preview by it.
 */

/** A price in US dollars (api/contract/reference.ts). */
export type { Price };

// Each priced part read as the contract names its fields, other fields let be (the lists hold more than prices).
const price = z.object(apiPrice.shape);
/** `region_prices`: a list the older recordings of the real API leave out. */
const regionPrices = z.array(z.object(regionPrice.shape)).optional();
type RegionPrices = z.infer<typeof regionPrices>;

/** The priced part of an instance type, as `/compute/types` lists it (api/contract/reference.ts `instanceType`). */
export const typePrices = z.object({
  id: instanceType.shape.id,
  price,
  region_prices: regionPrices,
  addons: z.object({ backups: z.object({ price, region_prices: regionPrices }).nullish() }).nullish(),
});

/** The priced part of a database type, as `/databases/types` lists it (api/contract/reference.ts `databaseType`): the price of a cluster of each size, per engine. */
export const databaseTypePrices = z.object({
  id: databaseType.shape.id,
  engines: z.record(z.string(), z.array(z.object({ quantity: clusterPrice.shape.quantity, price }))),
});

/** Sums kept to a millionth of a dollar: 0.018 + 0.0045 is 0.0225, not 0.022499999999999996. */
export const exact = (n: number) => Math.round(n * 1e6) / 1e6;
export const ZERO: Price = { hourly: 0, monthly: 0 };
/** The sum of prices (each figure to a millionth). */
export const addPrices = (...ps: Price[]): Price => ({
  hourly: exact(ps.reduce((a, p) => a + p.hourly, 0)),
  monthly: exact(ps.reduce((a, p) => a + p.monthly, 0)),
});
/** `a` less `b` (each figure to a millionth). */
export const subtractPrice = (a: Price, b: Price): Price => ({ hourly: exact(a.hourly - b.hourly), monthly: exact(a.monthly - b.monthly) });

/** The price in a region: the region's own where the list gives one, else the default. */
const inRegion = (p: { price: Price; region_prices?: RegionPrices }, region: string): Price => {
  const own = p.region_prices?.find((r) => r.id === region);
  return own ? { hourly: own.hourly, monthly: own.monthly } : { hourly: p.price.hourly, monthly: p.price.monthly };
};

/** The items that have what `schema` reads. */
const priced = <T>(schema: z.ZodType<T>, items: readonly unknown[]): T[] =>
  items.flatMap((i) => {
    const r = schema.safeParse(i);
    return r.success ? [r.data] : [];
  });

export class PriceCatalog {
  private readonly types: Map<string, z.infer<typeof typePrices>>;
  private readonly databaseTypes: Map<string, z.infer<typeof databaseTypePrices>>;

  /** The lists' items as the API gives them, each read for its priced fields; an item without them is left out (its type has no price). */
  constructor(types: readonly unknown[], databaseTypes: readonly unknown[]) {
    this.types = new Map(priced(typePrices, types).map((t) => [t.id, t]));
    this.databaseTypes = new Map(priced(databaseTypePrices, databaseTypes).map((t) => [t.id, t]));
  }

  /** An instance of `type` in `region`, with the backups add-on when `backups`; undefined for a type not listed. */
  instance(type: string, region: string, backups: boolean): Price | undefined {
    const t = this.types.get(type);
    if (!t) return undefined;
    const base = inRegion(t, region);
    const addon = t.addons?.backups;
    return backups && addon ? addPrices(base, inRegion(addon, region)) : base;
  }

  /** A database cluster of `size` nodes of `type` running `engine`; undefined when the list has no such price. */
  database(type: string, engine: string, size: number): Price | undefined {
    const p = this.databaseTypes.get(type)?.engines[engine]?.find((e) => e.quantity === size)?.price;
    return p && { hourly: p.hourly, monthly: p.monthly };
  }
}

/** The `hourlyPrice` and `monthlyPrice` outputs of a price (both left out when there is none). */
export const priceOutputs = (p: Price | undefined): { hourlyPrice?: number; monthlyPrice?: number } =>
  p ? { hourlyPrice: p.hourly, monthlyPrice: p.monthly } : {};

/** A price output's row. */
export interface PriceRow<N extends string, W extends string[]> {
  name: N;
  kind: "output";
  outputType: "number";
  changesWith: W;
  plannedFrom: string;
  presentWhen: string;
  description: string;
}

/** The price output fields' rows, for a table: `what` says what the price is of. */
export function priceFields<const W extends string[]>(what: string, changesWith: W): [PriceRow<"hourlyPrice", W>, PriceRow<"monthlyPrice", W>] {
  const tail =
    "from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift).";
  const common = {
    kind: "output",
    outputType: "number",
    changesWith,
    plannedFrom: "the API's catalogue",
    presentWhen: "the API's catalogue lists a price for it",
  } as const;
  return [
    { name: "hourlyPrice", ...common, description: `What it costs an hour: ${what}, ${tail}` },
    { name: "monthlyPrice", ...common, description: `What it costs a month: ${what}, ${tail}` },
  ];
}
