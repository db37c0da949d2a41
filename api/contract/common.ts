import { z } from "zod";
import { checkText, type LengthLimit } from "../text";

/**
 * The pieces every family's schemas are made of: times, ids, the list envelope and its query, and fields refused
 * with the API's texts. An issue a schema raises carries two texts: its message, the API's reason as the emulator
 * answers it (`Label must be at most 64 characters (got 65)`), and `params.rule`, the rule alone, which the
 * provider says after the property's name at preview (`label: must be at most 64 characters (got 65)`).
 */

const TIME_TEXT = "Must be an ISO 8601 date-time in UTC with no zone suffix";

/** compute-api.md: "Timestamps are ISO 8601 date-time strings in UTC, with no zone suffix" (a time there is: not `9999-99-99T99:99:99`). */
export const apiTime = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, TIME_TEXT)
  .refine((t) => {
    const d = new Date(`${t}Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === t;
  }, TIME_TEXT);

/** A whole number. */
export const int = z.number().int();

/**
 * The largest id a record may have: one a path can name (PATH_PARAMS' ids are at most 15 digits), far below where
 * numbers lose their precision (2^53).
 */
export const MAX_ID = 999_999_999_999_999;

/** A record's id the API numbers: 1 or more, one a path can name. */
export const recordId = z.number().int().min(1).max(MAX_ID);

/** A list's envelope: compute-api.md "List operations return an envelope: `data` (array), `page`, `pages`, `results`". */
export const page = <T extends z.ZodType>(item: T) => z.strictObject({ data: z.array(item), page: int, pages: int, results: int });

/** The items of a list endpoint's envelope. */
export type ItemOf<A> = A extends { data: Array<infer T> } ? T : never;

/**
 * compute-api.md: "List operations accept query parameters `page` (integer >= 1, default 1) and `page_size`
 * (integer 25..500, default 100)" (the bounds stated for VPC lists, taken for every list: docs/spec-gaps.md).
 */
export const PAGE_SIZE = { min: 25, max: 500, default: 100 } as const;

const queryInt = (least: number, most: number, fallback: number) => {
  const text = `Must be an integer from ${least} to ${most}`;
  return z
    .string()
    .regex(/^\d{1,16}$/, text)
    .transform(Number)
    .refine((n) => n >= least && n <= most, text)
    .optional()
    .transform((n) => n ?? fallback);
};

export const pageQuery = z.object({ page: queryInt(1, Number.MAX_SAFE_INTEGER, 1), page_size: queryInt(PAGE_SIZE.min, PAGE_SIZE.max, PAGE_SIZE.default) });

/** Raises an issue with the API's reason (`message`) and the rule alone (`rule`, what the provider says after the field's name). */
export function refuse(ctx: z.core.$RefinementCtx, message: string, rule = message, path?: PropertyKey[]): void {
  ctx.addIssue({ code: "custom", message, params: { rule }, ...(path ? { path } : {}) });
}

/** The rule alone of an issue (what the provider says after the property's name): its `params.rule`, else its message. */
export const ruleOf = (issue: { message: string; params?: Record<string, unknown> }): string => {
  const rule = issue.params?.rule;
  return typeof rule === "string" ? rule : issue.message;
};

/**
 * The text of a value that is not of its field's type, or left out: `Must be a string` (the field's type), or
 * `missing` when given (a field the API requires). What an id or a name of the right type names that is not there is
 * the account's (or the catalogue's) to say: `Region nope not found`.
 */
export const typeText =
  (type: "a string" | "an integer" | "a boolean" | "an object", missing?: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined && missing !== undefined ? missing : `Must be ${type}`;

/** An error map: `missing` when the value is left out (a field the API requires), else `otherwise`. */
export const needs =
  (missing: string, otherwise: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? missing : otherwise;

/** How a rule's field is refused: the words before the rule's text, the text for a value not a string, and for one left out. */
export interface RuledTexts {
  /** Said before the rule's text in the API's reason (default `Label`). */
  subject?: string;
  /** The reason for a value that is not a string (default `${subject} must be a string`). */
  notString?: string;
  /** The reason for a value left out, where the field is required. */
  missing?: string;
}

/**
 * A string one of the API's rules checks (api/labels.ts, api/text.ts...): refused with `${subject} ${text}` (the
 * API's reason) and the text alone (the rule).
 */
export function ruled(check: (v: string) => string | undefined, { subject = "Label", notString, missing }: RuledTexts = {}): z.ZodString {
  const other = notString ?? `${subject} must be a string`;
  return z.string({ error: missing ? needs(missing, other) : other }).check(
    z.superRefine((v, ctx) => {
      const e = check(v);
      if (e) refuse(ctx, `${subject} ${e}`, e);
    }),
  );
}

/** A free-text field of a row of api/text.ts's LENGTH_LIMITS (its length, then its characters). */
export const text = (limit: LengthLimit, opts: RuledTexts & { multiline?: boolean } = {}) => ruled((v) => checkText(v, limit, opts.multiline), opts);

/** A boolean, refused with the API's text. */
export const bool = z.boolean({ error: "Must be a boolean" });

/** One of `values`, refused with "Must be one of ...". */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, message = `Must be one of ${values.join(", ")}`) =>
  z.enum(values, { error: message });

/** An integer within `[least, most]`, refused with `message`. */
export const intWithin = (least: number, most: number, message = `Must be an integer from ${least} to ${most}`) =>
  z.number({ error: message }).int(message).min(least, message).max(most, message);

/** A whole number, 0 or more. */
export const count = (message = "Must be a whole number, 0 or more") => z.number({ error: message }).int(message).min(0, message);
