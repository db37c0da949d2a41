/**
 * Root password strength, as the API judges it (a fact both the provider, at preview, and the emulator, as the
 * API, read). The spec gives the length (7..128) and the error text (compute-api.md, Instances rule 7); the
 * rule itself is "calculated internally by the API" (the API's reference), and Cloud Manager's meter is
 * zxcvbn. Calibrated on what real clients send and the real API accepted (docs/spec-gaps.md): the weakest
 * password ever recorded accepted is `b4d_p455` (linodego's cassettes, before 2023), zxcvbn score 2; so a
 * score of 2 or more is strong enough. Terraform's acceptance tests (64 random lowercase letters and digits)
 * score 4. zxcvbn: @zxcvbn-ts (dictionaries of common passwords, names and words, repeats, sequences,
 * keyboard patterns, l33t), loaded at the first check, not at start (its dictionaries take about 70 ms).
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { checkLength } from "./text";

/** compute-api.md, Instances rule 7: "an insufficient password strength returns the error text `Password does not meet strength requirement`". */
export const WEAK_PASSWORD_TEXT = "Password does not meet strength requirement";

/** The least zxcvbn score (0..4) the API accepts. */
export const LEAST_PASSWORD_SCORE = 2;

let estimator: ZxcvbnFactory | undefined;

/** zxcvbn's score of a password: 0 (guessed in under 10^3 tries) to 4 (10^10 or more). */
export function passwordScore(password: string): number {
  if (!estimator) {
    // Loaded when first needed: the dictionaries are large.
    const { ZxcvbnFactory } = require("@zxcvbn-ts/core") as typeof import("@zxcvbn-ts/core");
    const common = require("@zxcvbn-ts/language-common") as typeof import("@zxcvbn-ts/language-common");
    const en = require("@zxcvbn-ts/language-en") as typeof import("@zxcvbn-ts/language-en");
    estimator = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
  }
  return estimator.check(password).score;
}

/** True when the API would answer WEAK_PASSWORD_TEXT for this password (its length checked apart). */
export const isWeakPassword = (password: string): boolean => passwordScore(password) < LEAST_PASSWORD_SCORE;

/** compute-api.md: "root_pass | string 7..128", and strong enough (the text alone, as the spec gives it). */
export const rootPasswordError = (password: string): string | undefined =>
  checkLength(password, "rootPass") ?? (isWeakPassword(password) ? WEAK_PASSWORD_TEXT : undefined);
