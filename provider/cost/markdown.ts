import { exact, type Price } from "../resources/price-catalog";
import type { CostReport } from "./report";
import { plural } from "./words";

/**
 * The cost report as a pull request shows it: the stack, its monthly cost before and after, the verdict on the
 * budget (over or within it, and by how much; or that it cannot be checked, and why), and each resource whose
 * cost changes. A report that could not be made says so in the same place, so that a comment is never empty.
 */

/** The budget's verdict: `over` or `within` it by `by` dollars a month, or `unknown` (a price after the change not known yet). */
export type Verdict =
  { budget: number; result: "over" | "within"; by: number } | { budget: number; result: "unknown"; waitingOn: string[]; unpriced: string[] };

/** Over, within, or unknown: a price after the change not known yet, or a priced kind the catalogue has no price for (a wrong API URL would price everything at nothing). */
export function verdictOf(r: CostReport, budget: number): Verdict {
  if (r.after.monthly > budget) return { budget, result: "over", by: exact(r.after.monthly - budget) };
  if (r.unknown.length || r.unpriced.length) return { budget, result: "unknown", waitingOn: r.unknown, unpriced: r.unpriced };
  return { budget, result: "within", by: exact(budget - r.after.monthly) };
}

/** Dollars to the cent, or to the hundredth of a cent where the cents would hide a difference (a budget of 96.279). */
const dollars = (n: number) => `$${Math.abs(n * 100 - Math.round(n * 100)) < 1e-6 ? n.toFixed(2) : n.toFixed(4)}`;
/** A resource's name in a table's cell: nothing in it can end the cell, start a line, or mark it up. */
const cellText = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/[\\`*_[\]<>|#!~]/g, (c) => `\\${c}`)
    .replace(/@(?=\w)/g, "@\u200b");
const signed = (n: number) => (n > 0 ? `+${dollars(n)}` : n < 0 ? `-${dollars(-n)}` : dollars(0));
const cell = (p: Price | null) => (p === null ? "not known yet" : dollars(p.monthly));
const stackName = (stack: string) => (stack ? `stack \`${stack.replace(/`/g, "")}\`` : "the stack");
/** A reason in prose: on one line, with no link, HTML or mention in it (its own code spans kept). */
const proseText = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/[\\<>[\]|]/g, (c) => `\\${c}`)
    .replace(/@(?=\w)/g, "@\u200b");

/** The verdict as one line: what a reviewer reads first. */
export function verdictLine(v: Verdict, after: number): string {
  if (v.result === "unknown") {
    const why = [
      ...(v.waitingOn.length ? [`the price after the change of ${v.waitingOn.map(cellText).join(", ")} waits on a value the preview does not know`] : []),
      ...(v.unpriced.length ? [`the API's catalogue has no price for ${v.unpriced.map(cellText).join(", ")}`] : []),
    ];
    return `**The budget cannot be checked**: ${why.join(", and ")}, so the cost after it may be over the budget of ${dollars(v.budget)}.`;
  }
  if (v.result === "over")
    return `**Over the budget**: ${dollars(after)} a month after the change is ${dollars(v.by)} over the budget of ${dollars(v.budget)}.`;
  return `**Within the budget**: ${dollars(after)} a month after the change, ${dollars(v.by)} under the budget of ${dollars(v.budget)}.`;
}

/** The report as Markdown, for a pull request's comment: the totals, the verdict, then each resource whose cost changes. */
export function markdown(r: CostReport, verdict?: Verdict): string {
  const lines = [`### Monthly cost of ${stackName(r.stack)}: ${dollars(r.before.monthly)} → ${dollars(r.after.monthly)} (${signed(r.delta.monthly)})`, ""];
  if (verdict) lines.push(verdictLine(verdict, r.after.monthly), "");
  const named = new Set([...r.unknown, ...r.unpriced]);
  const changed = r.resources.filter((x) => named.has(x.name) || x.before === null || x.after === null || x.before.monthly !== x.after.monthly);
  if (changed.length) {
    lines.push("| Resource | Change | What | Before | After | Delta |", "|---|---|---|---:|---:|---:|");
    for (const x of changed) {
      const delta = x.before && x.after ? signed(exact(x.after.monthly - x.before.monthly)) : "";
      lines.push(
        `| ${cellText(x.name)} (${x.type.slice(x.type.lastIndexOf(":") + 1)}) | ${x.op} | ${cellText(x.what)} | ${cell(x.before)} | ${cell(x.after)} | ${delta} |`,
      );
    }
  } else lines.push("No resource's cost changes.");
  lines.push("");
  if (r.unknown.length)
    lines.push(
      `Not known after the change (a price that depends on a value the preview does not know), counted at its price now: ${r.unknown.map(cellText).join(", ")}.`,
    );
  if (r.unpriced.length) lines.push(`No price in the API's catalogue, counted as nothing: ${r.unpriced.map(cellText).join(", ")}.`);
  if (!r.complete) lines.push("Totals of the resources this preview lists only: give `--state` (`pulumi stack export`) for the whole stack's.");
  const unknown = r.unknown.length ? `, and ${plural(r.unknown.length, "resource")} whose price after it is not known yet` : "";
  lines.push(
    `Prices per month in US dollars from the API's catalogue: ${plural(r.counts.before, "priced resource")} before the change, ${r.counts.after} after it${unknown}.`,
  );
  return lines.join("\n") + "\n";
}

/** What is written where the report would be when it cannot be made: a comment that says so, and why. */
export function failedMarkdown(reason: string, stack?: string): string {
  return [`### No cost report for ${stackName(stack ?? "")}`, "", `\`compute-cost\` could not make it: ${proseText(reason)}`, ""].join("\n");
}
