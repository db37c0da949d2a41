/**
 * The rules of the policy pack `@pulumi-compute/policy` (index.ts registers them with CrossGuard): each a plain
 * function of one resource as the engine sees it (its type token, its name, its properties), which says what is
 * wrong and the fix, or nothing. They read the engine's resources, so they hold for a program in any language:
 * the plugin's types (`compute:index:Instance`) and the dynamic classes' (`pulumi-nodejs:dynamic/compute:Instance`).
 */

/** A resource as a policy sees it. */
export interface Subject {
  type: string;
  name: string;
  props: Record<string, unknown>;
}

/** A rule: its policy's name, what it keeps, its default enforcement level, and its check. */
export interface Rule {
  name: string;
  description: string;
  enforcementLevel: "advisory" | "mandatory";
  check(r: Subject): string | undefined;
}

/** The resource type of this package a token names (`Instance`), whichever front door made it. */
export function computeType(token: string): string | undefined {
  return /(?:^compute:index|\/compute):(\w+)$/.exec(token)?.[1];
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const OPEN = ["0.0.0.0/0", "::/0"];

export const RULES: Rule[] = [
  {
    name: "database-open-to-the-world",
    description: "A managed database's allow list does not admit every address on the internet.",
    enforcementLevel: "mandatory",
    check({ type, name, props }) {
      const t = computeType(type);
      if (t !== "MysqlDatabase" && t !== "PostgresDatabase") return undefined;
      const open = list(props.allowList).filter((a) => OPEN.includes(String(a)));
      if (!open.length) return undefined;
      return `${t} ${name}: allowList has ${open.join(" and ")}, which lets every address on the internet connect: list the addresses that need it instead (an instance's vpcIpv4, or its subnet's range).`;
    },
  },
  {
    name: "token-every-scope",
    description: "An API token has the scopes it needs, not every scope of the account.",
    enforcementLevel: "mandatory",
    check({ type, name, props }) {
      if (computeType(type) !== "Token" || props.scopes !== "*") return undefined;
      return `Token ${name}: scopes is "*", every scope of the account: give only the scopes its user needs (for example "computes:read_only").`;
    },
  },
  {
    name: "token-no-expiry",
    description: "An API token expires.",
    enforcementLevel: "mandatory",
    check({ type, name, props }) {
      if (computeType(type) !== "Token" || (props.expiry !== undefined && props.expiry !== null)) return undefined;
      return `Token ${name}: no expiry, so it is valid until revoked: set expiry (a date, such as "2027-06-30T00:00:00").`;
    },
  },
  {
    name: "instance-backups",
    description: "An instance has the backup service.",
    enforcementLevel: "advisory",
    check({ type, name, props }) {
      if (computeType(type) !== "Instance" || props.backupsEnabled === true) return undefined;
      return `Instance ${name}: no backups: set backupsEnabled: true (the add-on's price shows in its monthlyPrice).`;
    },
  },
  {
    name: "root-password-without-keys",
    description: "An instance deployed from an image can be logged into with an SSH key, not its root password alone.",
    enforcementLevel: "advisory",
    check({ type, name, props }) {
      const t = computeType(type);
      if ((t !== "Instance" && t !== "Disk") || props.image === undefined || props.image === null) return undefined;
      if (list(props.authorizedKeys).length || list(props.authorizedUsers).length) return undefined;
      return `${t} ${name}: deployed from ${String(props.image)} with a root password and no authorizedKeys, so its password alone lets one in: add authorizedKeys (or authorizedUsers).`;
    },
  },
  {
    name: "public-interface-with-vpc",
    description: "An instance that has a VPC reaches the internet through it, not through a public interface of its own.",
    enforcementLevel: "advisory",
    check({ type, name, props }) {
      const t = computeType(type);
      if (t !== "Instance" && t !== "Config") return undefined;
      const purposes = list(props.interfaces).map((i) => (i && typeof i === "object" ? (i as { purpose?: unknown }).purpose : undefined));
      if (!purposes.includes("vpc") || !purposes.includes("public")) return undefined;
      return `${t} ${name}: a public interface beside its vpc interface exposes it outside the VPC: drop the public interface and give the vpc interface ipv4.nat11: "any" for the internet.`;
    },
  },
];

/** The kinds of resource that have a price (`monthlyPrice`), as the cost command counts them. */
export const PRICED = ["Instance", "MysqlDatabase", "PostgresDatabase"];

/**
 * A priced resource's monthly price as the engine gives it to a policy: a number; "none" when it has no
 * `monthlyPrice` (the dynamic classes' preview of a create or an update plans no outputs; a type the catalogue
 * does not price has none, through either front door); "unknown" at preview when it waits on another resource's
 * output (CrossGuard's properties throw when a value is not known yet).
 */
function monthlyOf(r: Subject): number | "none" | "unknown" {
  try {
    const v = r.props.monthlyPrice;
    return typeof v === "number" ? v : "none";
  } catch {
    return "unknown";
  }
}

const names = (list: string[]) => (list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}` : list.join(""));

/** Why the budget could not count a resource. */
type Uncounted = "dynamic" | "unpriced" | "unknown";
const WHY: Record<Uncounted, (n: number) => string> = {
  dynamic: (n) => `${n > 1 ? "have" : "has"} no monthlyPrice (the dynamic classes' preview plans none)`,
  unpriced: (n) =>
    `${n > 1 ? "have" : "has"} no monthlyPrice (the API's catalogue has no price for ${n > 1 ? "their types" : "its type"}, or could not be read)`,
  unknown: (n) => (n > 1 ? "wait on values not known yet for their prices" : "waits on a value not known yet for its price"),
};
/** What to do about each. */
const HOW: Record<Uncounted, (max: number) => string> = {
  dynamic: (max) =>
    `The dynamic classes (pulumi-compute) price a resource after \`pulumi up\` only: check the budget with \`pulumi preview --json --show-sames > preview.json && compute-cost --preview preview.json --fail-over ${max}\` (@pulumi-compute/pipeline), which prices each from its inputs, or use the plugin SDK (@pulumi-compute/plugin-sdk), whose previews plan prices.`,
  unpriced: () => "Choose a type the catalogue prices (getPrice tells), or count it yourself and make monthly-budget advisory.",
  unknown: () => "A price that waits on another resource's output is known after `pulumi up`.",
};

/**
 * The budget's verdict on a stack's priced resources: what the message says, or nothing when they sum to at
 * most `maxMonthly`. A resource it cannot count (no monthlyPrice, or one not known yet) could take the total
 * over, so the budget fails then too, naming each, as `compute-cost --fail-over` does when the cost after a
 * change is not known; the message says how to check it.
 */
export function overBudget(resources: Subject[], maxMonthly: number): string | undefined {
  const priced: Array<{ name: string; type: string; monthly: number }> = [];
  const uncounted: Record<Uncounted, string[]> = { dynamic: [], unpriced: [], unknown: [] };
  for (const r of resources) {
    const type = computeType(r.type);
    if (!type || !PRICED.includes(type)) continue;
    const monthly = monthlyOf(r);
    if (typeof monthly === "number") priced.push({ name: r.name, type, monthly });
    else uncounted[monthly === "unknown" ? "unknown" : r.type.startsWith("compute:index:") ? "unpriced" : "dynamic"].push(`${type} ${r.name}`);
  }
  // The dearest first, then by name: the same message whatever order the program declares them in.
  priced.sort((a, b) => b.monthly - a.monthly || a.name.localeCompare(b.name));
  const whys = (Object.keys(uncounted) as Uncounted[]).filter((k) => uncounted[k].length);
  const notCounted = whys.map((k) => `${names(uncounted[k].sort())} ${WHY[k](uncounted[k].length)}`).join("; ");
  const total = Math.round(priced.reduce((a, r) => a + r.monthly, 0) * 1e6) / 1e6;
  const budget = `the budget of $${maxMonthly.toFixed(2)} (maxMonthly)`;
  if (total > maxMonthly) {
    const each = priced.map((r) => `${r.type} ${r.name} $${r.monthly.toFixed(2)}`).join(", ");
    const more = notCounted ? `; not counted: ${notCounted}` : "";
    return `The stack costs $${total.toFixed(2)} a month, over ${budget}: ${each}${more}. Choose smaller types or fewer resources, or raise the budget.`;
  }
  if (!whys.length) return undefined;
  const count = whys.reduce((a, k) => a + uncounted[k].length, 0);
  return [
    `The stack's monthly cost cannot be checked against ${budget}: ${notCounted}, so the budget cannot count ${count > 1 ? "them" : "it"}, and the rest cost $${total.toFixed(2)} a month.`,
    ...whys.map((k) => HOW[k](maxMonthly)),
  ].join(" ");
}
