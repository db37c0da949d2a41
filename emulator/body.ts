import { z } from "zod";
import { jsonObject, type FieldErrors } from "./http";
import { type RequestContext } from "./router";

/**
 * Request bodies read by zod schemas, one per field, each carrying the API's text for a value it refuses:
 * what a handler reads is typed (no cast of a body), and what it refuses is said under the field's name, in
 * the order the fields are given (the order of the API's list of errors).
 */

/** The fields a shape reads, typed by their schemas; a field absent or refused is left out. */
export type Fields<S extends Record<string, z.ZodType>> = { [K in keyof S]?: z.output<S[K]> };

/**
 * Reads the fields of `shape` from `body`: each value its schema refuses adds the schema's message under the
 * field (`prefix` before it for a nested object, `updates.duration`).
 */
export function readFields<S extends Record<string, z.ZodType>>(body: Record<string, unknown>, shape: S, errors: FieldErrors, prefix = ""): Fields<S> {
  const read: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(shape)) {
    const r = schema.safeParse(body[field]);
    if (!r.success) errors.add(`${prefix}${field}`, r.error.issues[0].message);
    else if (r.data !== undefined) read[field] = r.data;
  }
  // Each entry is its schema's output: the type says so field by field.
  return read as Fields<S>;
}

/** A JSON object (a nested one, an item of a list), or undefined. */
export const asObject = (v: unknown): Record<string, unknown> | undefined => {
  const r = z.record(z.string(), z.unknown()).safeParse(v);
  return r.success && !Array.isArray(v) ? r.data : undefined;
};

/** An optional boolean, refused with the API's text. */
export const optionalBoolean = z.boolean({ error: "Must be a boolean" }).optional();

/** One of `values`, refused with "Must be one of ...". */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, text = `Must be one of ${values.join(", ")}`) =>
  z.enum(values, { error: text });

/** An integer within `[least, most]`, refused with `text`. */
export const intWithin = (least: number, most: number, text: string) => z.number({ error: text }).int(text).min(least, text).max(most, text);

/** A body that may be left out (`{}` then), else a JSON object (400 otherwise). */
export const objectOrEmpty = (ctx: RequestContext): Record<string, unknown> => (ctx.body === undefined || ctx.body === null ? {} : jsonObject(ctx));

/**
 * A text field checked by one of the API's rules (api/): the rule's text, after `name`, is said under `field`
 * (`Label must be 1 to 48 characters (got 49)`); a value that is not text says `notText`.
 */
export function readText(
  value: unknown,
  field: string,
  rule: (text: string) => string | undefined,
  errors: FieldErrors,
  { name = "Label", notText = "must be a string" }: { name?: string; notText?: string } = {},
): string | undefined {
  const e = typeof value === "string" ? rule(value) : notText;
  if (e) return void errors.add(field, `${name} ${e}`);
  return typeof value === "string" ? value : undefined;
}
