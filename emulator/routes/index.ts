import type { FamiliesState } from "../family";
import type { EmulatorOptions } from "../options";
import type { CoreState } from "../state";
import { computeFamily } from "./compute";
import { databaseFamily } from "./databases";
import { eventsFamily } from "./events";
import { imageFamily } from "./images";
import { profileFamily } from "./profile";
import { profileSecurityFamily } from "./profile-security";
import { referenceFamily } from "./reference";
import { vpcFamily } from "./vpc";

/**
 * The API families the emulator serves, in one list: the router, the collections of the state file and the
 * type of the state (`EmulatorState`) all derive from it. A new family is a routes module (or a folder of them,
 * as compute and databases) listed here.
 * The order is the routes' registration order; the families' services do not depend on it.
 */
export const apiFamilies = (opts: EmulatorOptions) =>
  [referenceFamily, profileFamily, profileSecurityFamily, vpcFamily, imageFamily(opts.images ?? {}), computeFamily, databaseFamily, eventsFamily] as const;

/** The whole state (and state file): the core and every family's collections. */
export type EmulatorState = CoreState & FamiliesState<ReturnType<typeof apiFamilies>>;
