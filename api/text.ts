/**
 * Lengths and characters of the API's text fields: the spec's "Limits" tables (one row each, quoted), and what
 * a free-text label may hold. Read by the provider (to refuse at preview) and the emulator (to answer as the
 * API). A limit written wrong here shows in the replay of the real API's recorded conversations.
 */

/**
 * Character counts, `[least, most]`, one entry a row of the spec's "Limits" tables (or of a body table
 * where "Limits" has no row). A least of 0 is "at most". Counted in UTF-16 code units (JavaScript's `length`).
 */
export const LENGTH_LIMITS = {
  /** compute-api.md "Limits": "Instance label | 3..64 chars". */
  instanceLabel: [3, 64],
  /** compute-api.md "Limits": "Config label | 1..48 chars". */
  configLabel: [1, 48],
  /** compute-api.md "Limits": "Disk label | 1..48 chars". */
  diskLabel: [1, 48],
  /** compute-api.md "Limits": "Snapshot label | 1..255 chars". */
  snapshotLabel: [1, 255],
  /** compute-api.md "Limits": "VPC and subnet label | 1..64 chars". */
  vpcLabel: [1, 64],
  /** compute-api.md "Limits": "root_pass | 7..128 chars". */
  rootPass: [7, 128],
  /** compute-api.md "Interface": "label | string or null, 1..64 | ... used by `vlan`". */
  interfaceLabel: [1, 64],
  /** Not shown in compute-api.md: docs/spec-gaps.md "Image labels". */
  imageLabel: [1, 128],
  /** compute-api.md "Limits": "Image description | 1..65000 chars". */
  imageDescription: [1, 65000],
  /** databases-api.md "Limits": "Database label | 3..32 chars". */
  databaseLabel: [3, 32],
  /** databases-api.md "Limits": "Snapshot label | 1..30 chars". */
  databaseSnapshotLabel: [1, 30],
  /** compute-api.md "Limits": "VPC description | at most 255 chars". */
  vpcDescription: [0, 255],
  /** compute-api.md "Limits": "script_data | at most 65535 chars" (counted as JSON). */
  scriptData: [0, 65535],
  /** profile-api.md "Limits": "Preferences body | at most 65,535 characters" (counted as JSON). */
  preferences: [0, 65535],
  /** profile-api.md "Limits": "Token label | 1..100 chars". */
  tokenLabel: [1, 100],
  /** profile-api.md "Limits": "SSH key label | at most 64 chars". */
  sshKeyLabel: [0, 64],
  /** Not shown: the real API's tags are 3 to 50 characters (docs/spec-gaps.md). */
  tag: [3, 50],
} as const satisfies Record<string, readonly [number, number]>;

export type LengthLimit = keyof typeof LENGTH_LIMITS;

/** The text for a value whose length is outside `[least, most]` (a least of 0: "at most"). */
export function lengthError(value: string, least: number, most: number): string | undefined {
  if (value.length >= least && value.length <= most) return undefined;
  return least === 0 ? `must be at most ${most} characters (got ${value.length})` : `must be ${least} to ${most} characters (got ${value.length})`;
}

/** A label's bounds as `{ min, max }` (the provider's auto-naming fits a made label in them). */
export const labelBounds = (limit: LengthLimit): { min: number; max: number } => ({ min: Math.max(1, LENGTH_LIMITS[limit][0]), max: LENGTH_LIMITS[limit][1] });

/** The text for a value whose length is outside its row of `LENGTH_LIMITS`. */
export const checkLength = (value: string, limit: LengthLimit): string | undefined => lengthError(value, LENGTH_LIMITS[limit][0], LENGTH_LIMITS[limit][1]);

/**
 * Text a label (or a description, `multiline`) may hold: no control character (C0, DEL, C1; a description may
 * hold tabs and line breaks), no bidirectional control (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069: they
 * make a label read as another), no lone surrogate (not text). The spec gives labels' lengths, and for some
 * labels their characters (instance and VPC labels); for the free-text labels the rule is docs/spec-gaps.md's.
 */
export function checkPrintable(value: string, multiline = false): string | undefined {
  const controls = multiline ? value.replace(/[\t\n\r]/g, "") : value;
  if (/\p{Cc}/u.test(controls)) return "must not hold control characters";
  if (/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(value)) return "must not hold bidirectional text controls";
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) return "must be well-formed Unicode text (a lone surrogate is not)";
  return undefined;
}

/** A free-text label's (or description's) length, then its characters. */
export const checkText = (value: string, limit: LengthLimit, multiline = false): string | undefined =>
  checkLength(value, limit) ?? checkPrintable(value, multiline);
