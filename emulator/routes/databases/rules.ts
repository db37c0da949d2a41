import type { Engine } from "../../../api/contract/databases";
import { catalog } from "../../catalog";

/**
 * What a cluster's region, type, engine and label must be, beside the body's schema: the catalogue's, and unique
 * among the account's clusters. A create refuses a body by them (clusters.ts), a fixture's records by them too
 * (references.ts), with the same texts.
 */

/** "label | ... | User-defined, unique" (across both engines): the refusal of a label another cluster has. */
export const LABEL_TAKEN = "Label must be unique among your databases";

/** Why a cluster cannot be in a region: one the catalogue has not, or one without managed databases (undefined: it can). */
export function regionRefusal(id: string): string | undefined {
  const region = catalog.regions.find((r) => r.id === id);
  if (!region) return `Region ${id} not found`;
  return region.capabilities.includes("Managed Databases") ? undefined : `Region ${region.id} does not offer managed databases`;
}

/** The instance type of the catalogue a cluster's nodes are (docs/spec-gaps.md "Types"), if any. */
export const typeOf = (id: string) => catalog.types.find((t) => t.id === id);

/** The refusal of a type the catalogue has not. */
export const typeNotFound = (id: string): string => `Type ${id} not found`;

/** The catalogue's engine `id` (`mysql/8.0.35`) of `engine`, if any (`/databases/engines`). */
export const engineOf = (engine: Engine, id: string) => catalog.engines.find((e) => e.id === id && e.engine === engine);

/** The refusal of an engine id the catalogue has not for `engine`. */
export const engineNotFound = (engine: Engine, id: string): string => `Engine ${id} is not a ${engine} engine; see /databases/engines`;
