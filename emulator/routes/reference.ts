import {
  databaseEnginesApi,
  databaseTypesApi,
  kernelsApi,
  LIMITED_CLASSES,
  regionsApi,
  typesApi,
  type Region,
  type RegionAvailability,
} from "../../api/contract/reference";
import { catalog } from "../catalog";
import type { ApiFamily } from "../family";
import { notFound, paginate } from "../http";
import { rowsOf } from "../router";

/** The reference family: regions, plans, database engines and types, and kernels, open to all (it keeps no state). */
export const referenceFamily: ApiFamily = { name: "reference", register: ({ router }) => router.serve(ROWS, undefined) };

const limited = new Set<string>(LIMITED_CLASSES);
/** The plans sold only in some regions ("premium and GPU plans in select regions"). */
const LIMITED_PLANS = catalog.types.filter((t) => limited.has(t.class));

/**
 * The availability records of a region (`{region, plan, available}`, the real API's): one per plan of the
 * premium and gpu classes. A plan is available where the catalogue sells it and the region is not in an outage.
 */
const availability = (r: Region): RegionAvailability[] =>
  LIMITED_PLANS.map((t) => ({ region: r.id, plan: t.id, available: r.status === "ok" && (catalog.availability[t.id] ?? []).includes(r.id) }));

/** The entry of `id` in a list of the catalogue, or 404. */
function entry<T extends { id: string }>(list: readonly T[], id: string): T {
  const found = list.find((x) => x.id === id);
  if (!found) throw notFound();
  return found;
}

const row = rowsOf<undefined>();

const ROWS = [
  row(regionsApi.list, (_c, req) => paginate(catalog.regions, req)),
  row(regionsApi.availability, (_c, req) => paginate(catalog.regions.flatMap(availability), req)),
  row(regionsApi.get, (_c, { params }) => entry(catalog.regions, params.regionId)),
  row(regionsApi.availabilityOf, (_c, { params }) => availability(entry(catalog.regions, params.regionId))),
  row(typesApi.list, (_c, req) => paginate(catalog.types, req)),
  row(typesApi.get, (_c, { params }) => entry(catalog.types, params.typeId)),
  row(databaseEnginesApi.list, (_c, req) => paginate(catalog.engines, req)),
  row(databaseEnginesApi.get, (_c, { params }) => entry(catalog.engines, params.engineId)),
  // Not in databases-api.md: served as the real API answered it (recorded: TestDatabase_Type), the prices of a
  // cluster of 1, 2 or 3 nodes per engine.
  row(databaseTypesApi.list, (_c, req) => paginate(catalog.database_types, req)),
  row(databaseTypesApi.get, (_c, { params }) => entry(catalog.database_types, params.typeId)),
  row(kernelsApi.list, (_c, req) => paginate(catalog.kernels, req)),
  row(kernelsApi.get, (_c, { params }) => entry(catalog.kernels, params.kernelId)),
];
