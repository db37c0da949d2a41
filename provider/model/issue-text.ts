import type { z } from "zod";
import { ruleOf } from "../../api/contract/common";

/**
 * What the preview says of an input a schema refuses, after the property's name: the rule alone (the contract's
 * `params.rule`), in words rather than zod's own (`must be a boolean`, not `Invalid input: expected boolean, received
 * string`), and without the property's name said twice (`label: must be a string`, not `label: Label must be a string`).
 */

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "a list",
  record: "an object",
  bigint: "an integer",
};

/** zod's own words for an issue, said plainly; undefined when the schema gave its own text. */
function plain(issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (!issue.message.startsWith("Invalid input")) return undefined;
      // (An issue carries its input only when asked to: zod's own message says what it received.)
      return issue.message.endsWith("received undefined") ? "is required" : `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case "unrecognized_keys":
      return issue.message.startsWith("Unrecognized key") ? `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}` : undefined;
    case "invalid_value":
      return issue.message.startsWith("Invalid option") ? `must be one of ${issue.values.map(String).join(", ")}` : undefined;
    case "too_small":
    case "too_big": {
      if (!/^Too (small|big)/.test(issue.message)) return undefined;
      const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      const what = issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : "";
      if (issue.code === "too_small" && bound === 1 && what) return "must not be empty";
      return `must be ${issue.code === "too_small" ? "at least" : "at most"} ${bound}${what}`;
    }
    case "invalid_union":
      return issue.message === "Invalid input" ? "is none of the values it may be" : undefined;
    default:
      return undefined;
  }
}

/** Letters and digits only, lower case: `SSH key` and `sshKey` are one name. */
const bare = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The text of an issue of property `name`: its rule, plainly, without the name said again at its start. */
export function issueText(issue: z.core.$ZodIssue, name: string): string {
  const text = plain(issue) ?? ruleOf(issue);
  const words = text.split(" ");
  // "Label must be a string" of `label`, "ipv4 must be a string" of `ipv4`: the property is named once, before.
  for (let n = 1; n <= Math.min(3, words.length - 1); n++) {
    if (bare(words.slice(0, n).join(" ")) === bare(name) && /^(must|is|are|cannot|needs?)$/.test(words[n])) return words.slice(n).join(" ");
  }
  return text;
}
