import { z } from "zod";
import { API } from "../../api/contract";
import { pathOf } from "../../api/contract/endpoint";
import { DATABASE_ENGINES } from "../../api/contract/reference";
import type { ApiClient } from "../transport/client";
import { out, type FunctionSpec, type ItemType } from "./function-table";
import { PriceCatalog } from "../resources/price-catalog";
import type { Props } from "../model/table";

/**
 * The price lookup: what a resource of a type costs, computed as the resources' `hourlyPrice` and
 * `monthlyPrice` outputs are (provider/resources/prices.ts), from the one type's catalogue entry.
 */

export const PriceItem: ItemType = {
  description: "What a resource costs, in US dollars.",
  fields: [
    { ...out("hourly", "number", "An hour."), required: true },
    { ...out("monthly", "number", "A month."), required: true },
  ],
};

/** Reads the type's entry (`/compute/types/{typeId}`, or `/databases/types/{typeId}` for a cluster) and prices it. */
async function readPrice(c: ApiClient, _path: string, args: Props): Promise<Props> {
  const typeId = String(args.type);
  const engine = typeof args.engine === "string" ? args.engine : undefined;
  const entry = engine ? await c.find(API.databaseTypes.get, { params: { typeId } }) : await c.find(API.types.get, { params: { typeId } });
  const list = engine ? "getDatabaseTypes" : "getTypes";
  if (entry === undefined)
    throw new Error(`getPrice: type ${typeId} is not in the API's catalogue of ${engine ? "database" : "instance"} types (${list} lists them)`);
  // The entry as the catalogue holds it: the same rules as the resources' prices.
  const catalog = engine ? new PriceCatalog([], [entry]) : new PriceCatalog([entry], []);
  const size = typeof args.clusterSize === "number" ? args.clusterSize : 1;
  const price = engine ? catalog.database(typeId, engine, size) : catalog.instance(typeId, String(args.region), args.backupsEnabled === true);
  if (!price) throw new Error(`getPrice: the API lists no price for a ${engine} cluster of ${size} node(s) of type ${typeId}`);
  return { hourly: price.hourly, monthly: price.monthly };
}

export const getPrice: FunctionSpec = {
  name: "getPrice",
  description:
    "What a resource of a type costs, from the API's catalogue, as the resources' `hourlyPrice` and `monthlyPrice` outputs give it: an instance of `type` in `region` (the region's own price where the catalogue gives one), with the backups add-on when `backupsEnabled`; with `engine`, a database cluster of `clusterSize` nodes of `type`.",
  inputs: [
    { name: "type", kind: "input", required: true, schema: z.string().min(1), description: "The type's id, e.g. `c1-standard-2`." },
    { name: "region", kind: "input", required: true, schema: z.string().min(1), description: "The region's id, e.g. `us-east`." },
    { name: "backupsEnabled", kind: "input", schema: z.boolean(), description: "An instance with the backup service (its add-on's price added)." },
    {
      name: "engine",
      kind: "input",
      schema: z.enum(DATABASE_ENGINES),
      description: "A database cluster of this engine (`mysql` or `postgresql`), priced by `/databases/types`, not an instance.",
    },
    { name: "clusterSize", kind: "input", schema: z.number().int().min(1).max(3), description: "The cluster's nodes (with `engine`); 1 unless given." },
  ],
  item: "Price",
  path: () => pathOf(API.types.list, {}),
  read: readPrice,
  scope: "none (no token needed)",
  example: {
    title: "What a `c1-standard-2` costs in `ap-south` with backups",
    args: () => ({ type: "c1-standard-2", region: "ap-south", backupsEnabled: true }),
  },
};
