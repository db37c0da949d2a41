import type { ApiFamily } from "../../family";
import { BACKUP_ROWS } from "./backups";
import { CLONE_ROWS } from "./clone";
import { CONFIG_ROWS } from "./configs";
import { createComputeContext } from "./context";
import { DISK_ROWS } from "./disks";
import { INSTANCE_ROWS } from "./instances";
import { INTERFACE_ROWS } from "./interfaces";
import { IPS_ROWS } from "./ips";
import { MIGRATE_ROWS } from "./migrate";
import { POWER_ROWS } from "./power";
import { computeState, type ComputeState } from "./records";
import { renumberCompute } from "./renumber";
import { computeReferences } from "./references";
import { USAGE_ROWS } from "./usage";

/** The compute durations, here too for the tests that read them from the compute routes. */
export { BASE_MS } from "../../timing";

/** Every row of the compute family (api/contract: instances, instance actions, backups, configs, interfaces, disks). */
const ROWS = [
  ...INSTANCE_ROWS,
  ...POWER_ROWS,
  ...MIGRATE_ROWS,
  ...CLONE_ROWS,
  ...USAGE_ROWS,
  ...IPS_ROWS,
  ...BACKUP_ROWS,
  ...CONFIG_ROWS,
  ...INTERFACE_ROWS,
  ...DISK_ROWS,
];

/**
 * The compute family (`/compute/instances...`): instances with their profiles, interfaces, disks and backups.
 * One context is shared by the rows, made here once; it uses the subnets of the VPC family and the images of the
 * image family (services).
 *
 * This folder holds the whole family: its records and collections (`records.ts`) and what they must hold between
 * them (`references.ts`), the ids its records hold, renumbered (`renumber.ts`), its rows (`instances.ts`, `power.ts`, `migrate.ts`, `clone.ts`, `usage.ts`, `ips.ts`,
 * `backups.ts`, `configs.ts`, `interfaces.ts`, `disks.ts`), and the context they share (`context.ts`, made of
 * `base.ts`, `access.ts`, `views.ts`, `network.ts`, `checks.ts`, `provisioning.ts`, `events.ts`).
 */
export const computeFamily: ApiFamily<ComputeState> = {
  name: "compute",
  state: computeState,
  register: (family) => family.router.serve(ROWS, createComputeContext(family)),
  references: computeReferences,
  renumber: renumberCompute,
};
