/**
 * The API's price catalogue (price-catalog.ts), read once per session when a priced resource is checked, so
 * that its plan (the preview) knows the price without a request, and again by each create, update and
 * refresh that found none.
 */
import type { ApiClient } from "../transport/client";
import { PriceCatalog } from "./price-catalog";

/** Reads both lists (every page). */
export async function readPriceCatalog(client: ApiClient): Promise<PriceCatalog> {
  const [types, databaseTypes] = await Promise.all([client.list<unknown>("/compute/types"), client.list<unknown>("/databases/types")]);
  return new PriceCatalog(types, databaseTypes);
}

/**
 * The session's catalogue, read on first use and kept in the program's context (`prices`); a read that fails
 * is not kept, so the next one tries again. Undefined when the API cannot be read (a preview then plans the
 * prices unknown, and the create reads them).
 */
export async function loadPrices(program: { prices?: PriceCatalog }, client: ApiClient): Promise<PriceCatalog | undefined> {
  if (program.prices) return program.prices;
  try {
    program.prices = await readPriceCatalog(client);
  } catch {
    return undefined;
  }
  return program.prices;
}
