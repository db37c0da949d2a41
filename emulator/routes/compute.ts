import { createComputeContext } from "../compute-context";
import type { ApiFamily } from "../family";
import { registerActionRoutes } from "./actions";
import { registerBackupRoutes } from "./backups";
import { computeState, type ComputeState } from "./compute-records";
import { registerConfigRoutes } from "./configs";
import { registerDiskRoutes } from "./disks";
import { registerInstanceRoutes } from "./instances";

/** The compute durations, here too for the tests that read them from the compute routes. */
export { BASE_MS } from "../timing";

/**
 * The compute family (`/compute/instances...`): instances with their profiles, disks and backups. One
 * context is shared by the route modules, made here once; it uses the subnets of the VPC family and the
 * images of the image family (services).
 */
export const computeFamily: ApiFamily<ComputeState> = {
  name: "compute",
  state: computeState,
  register(ctx) {
    const compute = createComputeContext(ctx);
    registerInstanceRoutes(ctx.router, compute);
    registerActionRoutes(ctx.router, compute);
    registerBackupRoutes(ctx.router, compute);
    registerConfigRoutes(ctx.router, compute);
    registerDiskRoutes(ctx.router, compute);
  },
};
