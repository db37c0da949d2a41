import { z } from "zod";

/**
 * The provider's own input rules. The API's rules (limits, patterns, texts) are api/'s, which the emulator
 * reads too: api/text.ts, api/labels.ts, api/passwords.ts, api/ssh-keys.ts, api/scopes.ts, api/network.ts,
 * api/interfaces.ts.
 */

/** An id input: the API's integer id, given as a number or as the string Pulumi ids are. */
export const ID_PATTERN = /^\d+$/;

/** Clock skew allowed between this machine and the API when telling what a create made (a minute). */
export const CLOCK_SKEW_MS = 60_000;

/**
 * Whether an API record was made no earlier than `since` (when a create began), less the clock skew: what
 * a lost create answer may have made, never an older resource that happens to match.
 */
export const madeSince = (created: unknown, since: number): boolean => Date.parse(`${String(created)}Z`) >= since - CLOCK_SKEW_MS;

/** A zod string schema from one of the API's rules (api/): the rule's text is the message. */
export const rule = (check: (v: string) => string | undefined): z.ZodType<string> =>
  z.string().superRefine((v, ctx) => {
    const e = check(v);
    if (e) ctx.addIssue({ code: "custom", message: e });
  });

/** A parent's or another resource's id as an input: a number, or a string of digits (`resource.id`). */
export const idInput = z.union([z.number().int().positive(), z.string().regex(ID_PATTERN, "must be an id (digits)").transform(Number)], {
  error: "must be an id: a whole number, or its digits",
});
/** A backup's id: the API's integer, or the string a lookup's item or a snapshot resource's id carries (kept as given). */
export const backupIdInput = z.union([z.number().int().positive(), z.string().regex(/^\d+$/, "must be a backup id (digits)")], {
  error: "must be a backup id: a whole number, or its digits",
});
