import { checkLength } from "./text";

/**
 * Labels whose characters the API rules, beyond their length (api/text.ts has the lengths and the free-text
 * rule). The texts are the API's (the emulator answers them; the provider refuses with them at preview).
 */

/**
 * compute-api.md "Compute instance": "label | string, 3..64 chars"; what else a label may hold is "not shown",
 * and docs/spec-gaps.md fills it in: ASCII letters, digits, `-`, `_` and `.`, starting and ending with a letter
 * or digit, never two of `-`, `_`, `.` side by side.
 */
export function instanceLabelError(label: string): string | undefined {
  const length = checkLength(label, "instanceLabel");
  if (length) return length;
  if (!/^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(label)) {
    return "must use only ASCII letters, digits, '-', '_' and '.', and start and end with a letter or digit";
  }
  return /[-_.]{2}/.test(label) ? "must not have two of '-', '_' or '.' in a row" : undefined;
}

/** compute-api.md "VPC and subnet": a character a VPC's or a subnet's label may hold ("ASCII letters, digits and hyphens"). */
export const VPC_LABEL_CHARACTER = /[A-Za-z0-9-]/;

/**
 * compute-api.md "VPC and subnet": "label (string 1..64)" for both, and "Labels: ASCII letters, digits and
 * hyphens; no two consecutive hyphens." The text is the real API's (recorded: TestVPC_Create_Invalid).
 */
export function vpcLabelError(label: string): string | undefined {
  const length = checkLength(label, "vpcLabel");
  if (length) return length;
  if (!Array.from(label).every((c) => VPC_LABEL_CHARACTER.test(c))) return "must include only ASCII letters, numbers, and dashes";
  return label.includes("--") ? "must not have two hyphens in a row" : undefined;
}

/** A character a database's label may hold (docs/spec-gaps.md "Labels"): the provider's auto-naming keeps to it. */
export const DATABASE_LABEL_CHAR = /[A-Za-z0-9_-]/;

/**
 * databases-api.md "Limits": "Database label | 3..32 chars"; what else it may hold is "not shown", and
 * docs/spec-gaps.md "Labels" fills it in: ASCII letters, digits, `-` and `_`, starting with a letter or digit.
 */
export function databaseLabelError(label: string): string | undefined {
  const length = checkLength(label, "databaseLabel");
  if (length) return length;
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(label) ? undefined : "must use letters, digits, '-' and '_', starting with a letter or digit";
}

/** A character a database snapshot's label may hold: an ASCII letter or digit. */
export const DATABASE_SNAPSHOT_LABEL_CHAR = /[A-Za-z0-9]/;

/**
 * databases-api.md "Limits": "Snapshot label | 1..30 chars"; "Database backup": "label | string, at most 30
 * chars | ASCII letters and digits only".
 */
export function databaseSnapshotLabelError(label: string): string | undefined {
  return checkLength(label, "databaseSnapshotLabel") ?? (/^[A-Za-z0-9]+$/.test(label) ? undefined : "must use only ASCII letters and digits");
}
