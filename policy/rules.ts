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

/**
 * A resource's monthly price as the engine gives it to a policy: a number, none (not a priced resource), or
 * "unknown" at preview (CrossGuard's properties throw when a value is not known yet).
 */
function monthlyOf(r: Subject): number | "unknown" | undefined {
  try {
    const v = r.props.monthlyPrice;
    return typeof v === "number" ? v : undefined;
  } catch {
    return "unknown";
  }
}

/**
 * The priced resources of a stack over a monthly budget: what the message names, or nothing. A price not known
 * yet (at preview) is left out, and named when the known ones are over already; within the budget they say
 * nothing, since the total is not known.
 */
export function overBudget(resources: Subject[], maxMonthly: number): string | undefined {
  const priced: Array<{ name: string; type: string; monthly: number }> = [];
  const unknown: string[] = [];
  for (const r of resources) {
    const monthly = monthlyOf(r);
    const type = computeType(r.type) ?? r.type;
    if (monthly === "unknown") unknown.push(`${type} ${r.name}`);
    else if (monthly !== undefined) priced.push({ name: r.name, type, monthly });
  }
  // The dearest first, then by name: the same message whatever order the program declares them in.
  priced.sort((a, b) => b.monthly - a.monthly || a.name.localeCompare(b.name));
  const total = Math.round(priced.reduce((a, r) => a + r.monthly, 0) * 1e6) / 1e6;
  if (total <= maxMonthly) return undefined;
  const each = priced.map((r) => `${r.type} ${r.name} $${r.monthly.toFixed(2)}`).join(", ");
  const more = unknown.length ? ` (and ${unknown.join(", ")}, whose price is not known yet)` : "";
  return `The stack costs $${total.toFixed(2)} a month${more}, over the budget of $${maxMonthly.toFixed(2)} (maxMonthly): ${each}. Choose smaller types or fewer resources, or raise the budget.`;
}
