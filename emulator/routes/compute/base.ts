import { createHash } from "node:crypto";
import { BUSY_TEXT } from "../../../api/contract/instances";
import { catalog } from "../../catalog";
import type { FamilyContext } from "../../family";
import { badRequest } from "../../http";
import { apiTime } from "../../state";
import { BASE_MS, scaled } from "../../timing";
import { computeState } from "./records";

/** What every compute module shares: the scopes of its routes, small checks, and the base of the context (the store, the clock). */

export type Body = Record<string, unknown>;

/** VPC addresses handed out in the current request, not yet saved in any profile (a handler's local). */
export type TakenAddresses = string[];

export const ro = { group: "computes", level: "read_only" } as const;
export const rw = { group: "computes", level: "read_write" } as const;

/** The status a record reaches when its delete has finished: it is then removed. */
export const GONE = "__gone";

export const hash = (s: string) => createHash("sha256").update(s).digest("hex");
export const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
/** The real API's refusal while an instance has running or queued actions (api/contract/instances.ts). */
export const busyError = () => badRequest(BUSY_TEXT);

/** The base of the compute context: the store and the compute collections in it, the clock and speed, the catalogue's types and regions. */
export type ComputeBase = ReturnType<typeof computeBase>;

export function computeBase({ store, now, timing }: FamilyContext) {
  const d = computeState(store);
  const dur = (k: keyof typeof BASE_MS) => scaled(BASE_MS[k], timing);
  const stamp = () => apiTime(now());
  const typeOf = (id: string) => catalog.types.find((t) => t.id === id);
  const regionOf = (id: string) => catalog.regions.find((r) => r.id === id);
  return { store, d, now, timing, dur, stamp, typeOf, regionOf };
}
