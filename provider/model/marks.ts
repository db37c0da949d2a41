/**
 * The marks: keys the provider keeps beside a table's fields in the props that travel through the engine
 * (the inputs the sdk classes pass, the checked inputs, the state), each named here once. The engine's own
 * `__provider` (the provider reference it adds to the inputs) is among them. `Marks` types them all.
 */

/** The provider reference the engine adds to a resource's inputs. */
export const PROVIDER_REF = "__provider";

/** The Pulumi resource name, passed by the sdk classes; check reads it and drops it. */
export const RESOURCE_NAME = "__resourceName";

/** The naming policy passed along with a resource's inputs to check (which reads it and drops it). */
export const AUTONAMING = "__autonaming";

/** The auto-name suffix, when the caller chooses it (the plugin derives it from the engine's random seed for the resource). */
export const NAME_SUFFIX = "__nameSuffix";

/** Marks checked inputs whose label the provider made (not pinned by the program). */
export const AUTONAMED = "__autonamed";

/**
 * The `replaceOnChanges` resource option of a dynamic resource, passed along with its inputs by the sdk
 * classes and kept with its checked inputs, so that its diff applies it (see diffInputs).
 */
export const REPLACE_ON_CHANGES = "__replaceOnChanges";

/**
 * The names of the inputs the user declared, kept in the outputs as `__declared`: `read` only gets the
 * old outputs, and must report as inputs just these (a server-filled default the user never declared is
 * not drift, and must not show as an added input on refresh).
 */
export const DECLARED = "__declared";

/**
 * Outputs of a resource read by an import (the plugin's Read with no state): its write-only inputs are
 * unknown, and are not a change until the next update sends them.
 */
export const IMPORTED = "__imported";

/**
 * Outputs of a data-holding resource made under a temporary label (it replaces one that still held its
 * pinned label): the temporary label, kept until the next update or refresh. The pinned label is what the
 * outputs say, since the old resource's delete gives it to this one.
 */
export const REPLACEMENT_LABEL = "__replacementLabel";

/**
 * check: the pinned label an existing resource of a type replaced this way holds, kept with its checked
 * inputs. A create with it is a replacement, including one the engine forces without the provider's diff
 * (`replaceOnChanges`, `replaceWith`, `replacementTrigger`). The engine checks a replacement again with no
 * old inputs, so the label the resource held at its first check is remembered by its name in the program
 * (the URN's, or the sdk class's `__resourceName`) for that second check.
 */
export const HELD_LABEL = "__heldLabel";

/** Every mark, with the value it holds in the props (unknown: each is read where it is set). */
export type Marks = {
  [
    K in
      | typeof PROVIDER_REF
      | typeof RESOURCE_NAME
      | typeof AUTONAMING
      | typeof NAME_SUFFIX
      | typeof AUTONAMED
      | typeof REPLACE_ON_CHANGES
      | typeof DECLARED
      | typeof IMPORTED
      | typeof REPLACEMENT_LABEL
      | typeof HELD_LABEL
  ]?: unknown;
};
