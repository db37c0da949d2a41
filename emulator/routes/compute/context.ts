import type { FamilyContext } from "../../family";
import { rowsOf } from "../../router";
import { computeAccess } from "./access";
import { computeBase } from "./base";
import { computeChecks } from "./checks";
import { computeEvents } from "./events";
import { computeNetwork } from "./network";
import { computeProvisioning } from "./provisioning";
import { computeViews } from "./views";

/**
 * What the compute rows (instances, actions, backups, configs, interfaces, disks) share: the store and the
 * compute collections in it, the clock and speed, the services of other families (subnets, images), and the
 * helpers that find (access.ts), check (checks.ts, network.ts), build (provisioning.ts, network.ts) and show
 * (views.ts) records. Made once per emulator by `createComputeContext`. It holds no request state: what one
 * request needs (for example the VPC addresses it has handed out so far) is a local of its handler, passed
 * as an argument.
 */
export type ComputeContext = ReturnType<typeof createComputeContext>;

export function createComputeContext(family: FamilyContext) {
  const base = computeBase(family);
  const network = computeNetwork(base, family.services);
  return {
    ...base,
    ...computeAccess(base),
    ...computeViews,
    ...network,
    ...computeChecks(base, family.services),
    ...computeProvisioning(base, network),
    ...computeEvents(base),
  };
}

/** `row(API.instances.get, (c, req) => ...)`: a row of the compute family. */
export const row = rowsOf<ComputeContext>();
