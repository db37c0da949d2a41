import type { ApiClient } from "../transport/client";
import { findInstance } from "./instance-power";

/**
 * Whether the instances using a subnet (or a VPC's subnets) are all going away (deleting, or gone): a delete
 * of the subnet, or of its VPC, is then worth waiting for (their interfaces go with them).
 */
export async function usersLeaving(c: ApiClient, computes: ReadonlyArray<{ id: number }>): Promise<boolean> {
  for (const i of computes) {
    const inst = await findInstance(c, i.id);
    if (inst && inst.status !== "deleting") return false;
  }
  return true;
}
