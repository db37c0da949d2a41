import { createHash } from "node:crypto";
import { BUSY_TEXT } from "../../../api/contract/instances";
import { catalog } from "../../catalog";
import type { InstanceType } from "../../../api/contract/reference";
import type { FamilyContext } from "../../family";
import { badRequest } from "../../http";
import { apiTime } from "../../state";
import { BASE_MS, scaled } from "../../timing";
import { computeState, GONE, type InstanceRecord } from "./records";

/** What every compute module shares: small checks, and the base of the context (the store, the clock, the catalogue). */

export { GONE };

/** VPC addresses handed out in the current request, not yet saved in any profile (a handler's local). */
export type TakenAddresses = string[];

export const hash = (s: string) => createHash("sha256").update(s).digest("hex");

/** The real API's refusal while an instance has running or queued actions (api/contract/instances.ts). */
export const busyError = () => badRequest(BUSY_TEXT);

/** An instance type's specs as an instance shows them. */
export const specsOf = (t: InstanceType) => ({ disk: t.disk, gpus: t.gpus, memory: t.memory, transfer: t.transfer, vcpus: t.vcpus });

/** The base of the compute context: the store and the compute collections in it, the clock and speed, the catalogue's types and regions. */
export type ComputeBase = ReturnType<typeof computeBase>;

export function computeBase({ store, now, timing }: FamilyContext) {
  const d = computeState(store);
  const dur = (k: keyof typeof BASE_MS) => scaled(BASE_MS[k], timing);
  const stamp = () => apiTime(now());
  const typeOf = (id: string) => catalog.types.find((t) => t.id === id);
  const regionOf = (id: string) => catalog.regions.find((r) => r.id === id);
  /** An instance's type (the family's references hold every instance to a type of the catalogue). */
  const typeOfInstance = (inst: InstanceRecord): InstanceType => {
    const t = typeOf(inst.type);
    if (!t) throw new Error(`instance ${inst.id} is of type ${inst.type}, which the catalogue lacks`);
    return t;
  };
  return { store, d, now, timing, dur, stamp, typeOf, regionOf, typeOfInstance };
}
