/**
 * The provider's own input rules. The API's rules (limits, patterns, texts) are api/'s, which the emulator
 * reads too: api/text.ts, api/labels.ts, api/passwords.ts, api/ssh-keys.ts, api/scopes.ts, api/network.ts,
 * api/interfaces.ts.
 */

/** An id input: the API's integer id, given as a number or as the string Pulumi ids are. */
export const ID_PATTERN = /^\d+$/;
