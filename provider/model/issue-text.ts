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

/** `a`, `a or b`, `a, b or c`. */
const orList = (parts: string[]) => (parts.length > 1 ? `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}` : parts.join(""));

/** What each alternative of a union refused at its root takes: its values (`1`, `3`) or its type (`a list`). */
function alternatives(issue: z.core.$ZodIssueInvalidUnion): string[] {
  const parts = issue.errors
    .flat()
    .filter((i) => i.path.length === 0)
    .flatMap((i) => (i.code === "invalid_value" ? i.values.map(String) : i.code === "invalid_type" ? [ARTICLE[i.expected] ?? i.expected] : []));
  return [...new Set(parts)];
}

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
      // zod's "Invalid input: expected 3" (a literal) and "Invalid option: expected one of ..." (an enum).
      if (!/^Invalid (input|option)/.test(issue.message)) return undefined;
      return issue.values.length > 1 ? `must be one of ${issue.values.map(String).join(", ")}` : `must be ${String(issue.values[0])}`;
    case "invalid_format":
      if (!issue.message.startsWith("Invalid")) return undefined;
      return issue.format === "regex" && "pattern" in issue
        ? `must match ${String(issue.pattern)}`
        : `must be ${issue.format === "regex" ? "of its pattern" : `a valid ${issue.format}`}`;
    case "too_small":
    case "too_big": {
      if (!/^Too (small|big)/.test(issue.message)) return undefined;
      const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      const what = issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : "";
      if (issue.code === "too_small" && bound === 1 && what) return "must not be empty";
      return `must be ${issue.code === "too_small" ? "at least" : "at most"} ${bound}${what}`;
    }
    case "invalid_union": {
      if (issue.message !== "Invalid input") return undefined;
      // What `expandUnions` left: every alternative refused the value's type or value (`1 or 3`, `a list`).
      const parts = alternatives(issue);
      return parts.length ? `must be ${orList(parts)}` : "is none of the values it may be";
    }
    default:
      return undefined;
  }
}

/** Whether an alternative of a union refused the value outright: its type, or a value not its literal's. */
const refusedOutright = (alt: readonly z.core.$ZodIssue[]) => alt.some((i) => i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value"));
/** How deep an alternative's refusals go: the one that took the value furthest says the most. */
const depth = (alt: readonly z.core.$ZodIssue[]) => Math.max(0, ...alt.map((i) => i.path.length));

/**
 * A union's refusal in zod's own words ("Invalid input") is the refusals of the alternative that took the value
 * furthest (one of whose type it is, refusing it deeper or by a rule: `interfaces[0].purpose: must be one of ...`),
 * at their paths; left as it is when every alternative refused its type or value outright, which `plain` lists
 * (`must be 1 or 3`, `must be an integer or a string`). A union that gave its own text keeps it.
 */
export function expandUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue): z.core.$ZodIssue[] => {
    if (issue.code !== "invalid_union" || issue.message !== "Invalid input" || !issue.errors.length) return [issue];
    const taken = issue.errors.filter((alt) => !refusedOutright(alt));
    if (!taken.length) return [issue];
    const closest = taken.reduce((best, alt) => (depth(alt) > depth(best) ? alt : best));
    return expandUnions(closest.map((i) => ({ ...i, path: [...issue.path, ...i.path] })));
  });
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

/** The path of an issue under its field: `interfaces[1].subnetId`. */
const issuePath = (field: string, path: readonly PropertyKey[]) =>
  path.length ? `${field}${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}` : field;

/** Each refusal of a field's value by its schema, as the preview says it: `interfaces[1].subnetId: must be ...`. */
export function refusals(field: string, issues: readonly z.core.$ZodIssue[]): string[] {
  return expandUnions(issues).map((issue) => {
    const last = issue.path.length ? String(issue.path[issue.path.length - 1]) : field;
    return `${issuePath(field, issue.path)}: ${issueText(issue, last)}`;
  });
}
