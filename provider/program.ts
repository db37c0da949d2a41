import type { PriceCatalog } from "./resources/price-catalog";

/**
 * What one resource of a program learns for another, as the engine checks and diffs them: what the program
 * declares across its resources, refused at preview rather than by the API halfway through an `up`. One typed
 * record per session (`Session.program`), handed to the hooks (`program` in their contexts); each resource
 * reads and writes its part through its own functions. The engine checks and diffs a child after its parent
 * (the child's inputs wait for the parent's outputs), so what a parent records is there when its child reads.
 */
export class ProgramContext {
  /** The API's price catalogue, once read (resources/prices.ts `loadPrices`): what a plan prices resources by. */
  prices?: PriceCatalog;
  /** The one read of it in this session (undefined once it failed). */
  pricesRead?: Promise<PriceCatalog | undefined>;
  /** An instance's one snapshot slot: who of this program takes it, by instance id (instance/declared.ts). */
  readonly snapshotSlots = new Map<string, string>();
  /** An Instance's planned backup service, by instance id: its diff records it before the update enabling it. */
  readonly plannedBackups = new Map<string, boolean>();
  /** An Instance's `snapshotBeforeChange`, by instance id: its diff records it before its disks' steps run. */
  readonly preChangeSnapshots = new Map<string, boolean>();
  /** Who manages a profile's interfaces as a list (an Instance or a Config), by `<instance>/<profile>` (instance/interfaces.ts). */
  readonly interfacesAsList = new Map<string, string>();
  /** Who manages a profile's interfaces one by one (Interface resources), by `<instance>/<profile>`. */
  readonly interfacesOneByOne = new Map<string, string>();
  /** The subnets the program declares in each VPC, by resource name: their labels and ranges (subnet.ts). */
  readonly subnets = new Map<string, Map<string, { label: string; ipv4: string }>>();
  /** The snapshot resources the program declares on each database, by resource name (databaseSnapshot.ts). */
  readonly databaseSnapshots = new Map<string, Set<string>>();
}
