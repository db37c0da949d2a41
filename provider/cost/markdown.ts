import { exact, type Price } from "../resources/price-catalog";
import type { CostReport } from "./report";

/**
 * The cost report as a pull request shows it: the stack, its monthly cost before and after, the verdict on the
 * budget (over or within it, and by how much; or that it cannot be checked, and why), and each resource whose
 * cost changes. A report that could not be made says so in the same place, so that a comment is never empty.
 */

/** The budget's verdict: `over` or `within` it by `by` dollars a month, or `unknown` (a price after the change not known yet). */
export type Verdict = { budget: number; result: "over" | "within"; by: number } | { budget: number; result: "unknown"; waitingOn: string[] };

export function verdictOf(r: CostReport, budget: number): Verdict {
  if (r.after.monthly > budget) return { budget, result: "over", by: exact(r.after.monthly - budget) };
  if (r.unknown.length) return { budget, result: "unknown", waitingOn: r.unknown };
  return { budget, result: "within", by: exact(budget - r.after.monthly) };
}

const dollars = (n: number) => `$${n.toFixed(2)}`;
const signed = (n: number) => (n > 0 ? `+${dollars(n)}` : n < 0 ? `-${dollars(-n)}` : dollars(0));
const cell = (p: Price | null) => (p === null ? "not known yet" : dollars(p.monthly));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const stackName = (stack: string) => (stack ? `stack \`${stack}\`` : "the stack");

/** The verdict as one line: what a reviewer reads first. */
export function verdictLine(v: Verdict, after: number): string {
  if (v.result === "unknown")
    return `**The budget cannot be checked**: the price after the change of ${v.waitingOn.join(", ")} waits on a value the preview does not know, so the cost after it may be over the budget of ${dollars(v.budget)}.`;
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
      lines.push(`| ${x.name} (${x.type.slice(x.type.lastIndexOf(":") + 1)}) | ${x.op} | ${x.what} | ${cell(x.before)} | ${cell(x.after)} | ${delta} |`);
    }
  } else lines.push("No resource's cost changes.");
  lines.push("");
  if (r.unknown.length)
    lines.push(`Not known after the change (a price that depends on a value the preview does not know), counted at its price now: ${r.unknown.join(", ")}.`);
  if (r.unpriced.length) lines.push(`No price in the API's catalogue, counted as nothing: ${r.unpriced.join(", ")}.`);
  if (!r.complete) lines.push("Totals of the resources this preview lists only: give `--state` (`pulumi stack export`) for the whole stack's.");
  const unknown = r.unknown.length ? `, and ${plural(r.unknown.length, "resource")} whose price after it is not known yet` : "";
  lines.push(
    `Prices per month in US dollars from the API's catalogue: ${plural(r.counts.before, "priced resource")} before the change, ${r.counts.after} after it${unknown}.`,
  );
  return lines.join("\n") + "\n";
}

/** What is written where the report would be when it cannot be made: a comment that says so, and why. */
export function failedMarkdown(reason: string, stack?: string): string {
  return [`### No cost report for ${stackName(stack ?? "")}`, "", `\`compute-cost\` could not make it: ${reason}`, ""].join("\n");
}
