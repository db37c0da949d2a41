import type { ApiFamily } from "../../family";
import { registerActionRoutes } from "./actions";
import { registerBackupRoutes } from "./backups";
import { registerConfigRoutes } from "./configs";
import { createComputeContext } from "./context";
import { registerDiskRoutes } from "./disks";
import { registerInstanceRoutes } from "./instances";
import { computeState, type ComputeState } from "./records";

/** The compute durations, here too for the tests that read them from the compute routes. */
export { BASE_MS } from "../../timing";

/**
 * The compute family (`/compute/instances...`): instances with their profiles, disks and backups. One
 * context is shared by the route modules, made here once; it uses the subnets of the VPC family and the
 * images of the image family (services).
 *
 * This folder holds the whole family: its records and collections (`records.ts`), its routes (`instances.ts`,
 * `actions.ts`, `backups.ts`, `configs.ts`, `disks.ts`), and the context they share (`context.ts`, made of
 * `base.ts`, `access.ts`, `views.ts`, `network.ts`, `checks.ts`, `provisioning.ts`).
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
