import { createComputeContext } from "../compute-context";
import type { Router } from "../http";
import type { ImageFinder, SubnetLookup } from "../lookups";
import type { Store } from "../state";
import type { Timing } from "../timing";
import { registerActionRoutes } from "./actions";
import { registerBackupRoutes } from "./backups";
import { registerConfigRoutes } from "./configs";
import { registerDiskRoutes } from "./disks";
import { registerInstanceRoutes } from "./instances";

/** The compute durations, here too for the tests that read them from the compute routes. */
export { BASE_MS } from "../timing";

/**
 * The compute routes (`/compute/instances...`): one context shared by the route modules, made here once.
 * `subnet` comes from the VPC routes, `findImage` from the image routes.
 */
export function registerComputeRoutes(router: Router, store: Store, now: () => number, timing: Timing, subnet: SubnetLookup, findImage: ImageFinder): void {
  const compute = createComputeContext(store, now, timing, subnet, findImage);
  registerInstanceRoutes(router, compute);
  registerActionRoutes(router, compute);
  registerBackupRoutes(router, compute);
  registerConfigRoutes(router, compute);
  registerDiskRoutes(router, compute);
}
