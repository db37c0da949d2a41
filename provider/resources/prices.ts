/**
 * The API's price catalogue (price-catalog.ts), read once per session when a priced resource is checked, so
 * that its plan (the preview) knows the price without a request, and again by each create, update and
 * refresh that found none.
 */
import { API } from "../../api/contract";
import type { ApiClient } from "../transport/client";
import { PriceCatalog } from "./price-catalog";

/** Reads both lists (every page). */
export async function readPriceCatalog(client: ApiClient): Promise<PriceCatalog> {
  const [types, databaseTypes] = await Promise.all([client.all(API.types.list, {}), client.all(API.databaseTypes.list, {})]);
  return new PriceCatalog(types, databaseTypes);
}

/**
 * The session's catalogue, read on first use and kept in the program's context: `prices` once read (what a plan
 * reads, without waiting), `pricesRead` the one read every caller of the session waits for. A read that fails is
 * not tried again in the session (an API that cannot be read would hold every check up): the prices are then
 * unknown at preview and left out of the outputs, until a refresh in a later run reads them.
 */
export async function loadPrices(
  program: { prices?: PriceCatalog; pricesRead?: Promise<PriceCatalog | undefined> },
  client: ApiClient,
): Promise<PriceCatalog | undefined> {
  program.pricesRead ??= readPriceCatalog(client).then(
    (catalog) => (program.prices = catalog),
    () => undefined,
  );
  return program.pricesRead;
}
