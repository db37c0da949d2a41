import { catalog } from "../catalog";
import catalogJson from "../data/catalog.json";
import type { ApiFamily, FamilyContext } from "../family";
import { notFound, paginate } from "../http";

/** Per plan of the premium and gpu classes, the regions that sell it now (the catalogue's `availability`). */
const SOLD_IN: Record<string, string[] | undefined> = catalogJson.availability;

/**
 * The availability records of a region (`{region, plan, available}`, the real API's): one per plan of the
 * premium and gpu classes, the plans sold only in some regions ("premium and GPU plans in select regions").
 * A plan is available where the catalogue sells it and the region is not in an outage.
 */
function availability(regionId: string) {
  const region = catalog.regions.find((r) => r.id === regionId)!;
  return catalog.types
    .filter((t) => t.class === "premium" || t.class === "gpu")
    .map((t) => ({ region: regionId, plan: t.id, available: region.status === "ok" && (SOLD_IN[t.id] ?? []).includes(regionId) }));
}

/** The reference family: regions, plans, database engines and types, and kernels, open to all (it keeps no state). */
export const referenceFamily: ApiFamily = { name: "reference", register: registerReferenceRoutes };

function registerReferenceRoutes({ router }: FamilyContext): void {
  const open = { scope: null, auth: "none" } as const;
  router.add("GET", "/regions", open, (ctx) => paginate(catalog.regions, ctx));
  router.add("GET", "/regions/availability", open, (ctx) =>
    paginate(
      catalog.regions.flatMap((r) => availability(r.id)),
      ctx,
    ),
  );
  router.add("GET", "/regions/{regionId}", open, (ctx) => catalog.regions.find((r) => r.id === ctx.params.regionId) ?? Promise.reject(notFound()));
  router.add("GET", "/regions/{regionId}/availability", open, (ctx) => {
    if (!catalog.regions.some((r) => r.id === ctx.params.regionId)) throw notFound();
    return availability(ctx.params.regionId);
  });
  router.add("GET", "/compute/types", open, (ctx) => paginate(catalog.types, ctx));
  router.add("GET", "/compute/types/{typeId}", open, (ctx) => catalog.types.find((t) => t.id === ctx.params.typeId) ?? Promise.reject(notFound()));
  router.add("GET", "/databases/engines", open, (ctx) => paginate(catalog.engines, ctx));
  router.add("GET", "/databases/engines/{engineId*}", open, (ctx) => catalog.engines.find((e) => e.id === ctx.params.engineId) ?? Promise.reject(notFound()));
  // Not in databases-api.md: served as the real API answered it (recorded: TestDatabase_Type), the prices of a
  // cluster of 1, 2 or 3 nodes per engine.
  router.add("GET", "/databases/types", open, (ctx) => paginate(catalog.database_types, ctx));
  router.add("GET", "/databases/types/{typeId}", open, (ctx) => catalog.database_types.find((t) => t.id === ctx.params.typeId) ?? Promise.reject(notFound()));
  router.add("GET", "/compute/kernels", open, (ctx) => paginate(catalog.kernels, ctx));
  router.add("GET", "/compute/kernels/{kernelId*}", open, (ctx) => catalog.kernels.find((k) => k.id === ctx.params.kernelId) ?? Promise.reject(notFound()));
}
