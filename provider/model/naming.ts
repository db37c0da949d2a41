import { z } from "zod";
import { NAME_SUFFIX, PROVIDER_REF, RESOURCE_NAME } from "./marks";
import { randomBytes, randomUUID } from "node:crypto";

/**
 * Auto-naming, the Pulumi convention: a resource whose label the program leaves out gets
 * `<resource name>-<7 random hex characters>`, made to fit the API's label rules (the name part is cleaned
 * and truncated, never the suffix). Check keeps the label once made; a replacement gets a fresh one.
 */
export interface NameRule {
  /** The property that holds the name (`label`). */
  field: string;
  /** Label length bounds of the API. */
  min: number;
  max: number;
  /** One character the label may hold (others in the resource name become `-`). */
  allowed: RegExp;
  /** Characters that may not come two in a row, nor start or end the label. */
  separators: string;
  /** What joins the name and the suffix, and stands for a character the label may not hold (default `-`). */
  joiner?: string;
}

export const SUFFIX_LENGTH = 7;

const escapeClass = (s: string) => s.replace(/[\]\\^-]/g, "\\$&");

/** `<name>-<suffix>` within the rule; `suffix` is random unless given (tests). */
export function autoName(rule: NameRule, resourceName: string, suffix = randomBytes(4).toString("hex").slice(0, SUFFIX_LENGTH)): string {
  const seps = escapeClass(rule.separators);
  const joiner = rule.joiner ?? "-";
  let base = [...resourceName].map((c) => (rule.allowed.test(c) ? c : joiner)).join("");
  if (seps) {
    // "-" is always a separator (it joins the suffix): runs of separators collapse to their first one.
    base = base.replace(new RegExp(`[${seps}]{2,}`, "g"), (m) => m[0]).replace(new RegExp(`^[${seps}]+|[${seps}]+$`, "g"), "");
  }
  const room = rule.max - SUFFIX_LENGTH - joiner.length;
  base = base.slice(0, Math.max(0, room));
  if (seps) base = base.replace(new RegExp(`[${seps}]+$`), "");
  const name = base ? `${base}${joiner}${suffix}` : suffix;
  return name.length >= rule.min ? name : `${name}${"0".repeat(rule.min - name.length)}`;
}

/** True when the check's `olds` describe an existing resource (not a create, nor a replacement's re-check). */
export const isExisting = (olds: Record<string, unknown>): boolean =>
  Object.keys(olds).some((k) => k !== PROVIDER_REF && k !== RESOURCE_NAME && k !== NAME_SUFFIX);

/**
 * A naming policy (Pulumi's `pulumi:autonaming` setting) for a resource whose label the program leaves out:
 * the plugin gets it from the engine (CheckRequest.autonaming: the proposed name and a mode), the dynamic
 * classes from the stack's config (sdk/naming.ts: the pattern with `${stack}`, `${project}`... resolved).
 */
export interface NamingPolicy {
  /** `propose` or `enforce`: use the proposed name (or the pattern's); `disable`: no auto-naming at all. */
  mode: "propose" | "enforce" | "disable";
  /** The name the engine proposes (the plugin). */
  proposedName?: string;
  /** A pattern whose random parts (`${hex(n)}`, `${alphanum(n)}`...) are still to fill in (the dynamic classes). */
  pattern?: string;
  /** Words for messages: where the policy comes from (`pulumi:autonaming pattern "${name}-${hex(4)}"`). */
  setting?: string;
}

const namingPolicy = z.object({
  mode: z.enum(["propose", "enforce", "disable"]),
  proposedName: z.string().optional(),
  pattern: z.string().optional(),
  setting: z.string().optional(),
}) satisfies z.ZodType<NamingPolicy>;

/** The naming policy the inputs carry (`__autonaming`, set by the sdk or the plugin), if they carry one. */
export function readPolicy(given: unknown): NamingPolicy | undefined {
  const r = namingPolicy.safeParse(given);
  return r.success ? r.data : undefined;
}

const RANDOM_PARTS: Array<[RegExp, (n: number) => string]> = [
  [
    /\$\{hex\((\d+)\)\}/g,
    (n) =>
      randomBytes(Math.ceil(n / 2) + 1)
        .toString("hex")
        .slice(0, n),
  ],
  [/\$\{alphanum\((\d+)\)\}/g, (n) => randomChars("abcdefghijklmnopqrstuvwxyz0123456789", n)],
  [/\$\{string\((\d+)\)\}/g, (n) => randomChars("abcdefghijklmnopqrstuvwxyz", n)],
  [/\$\{num\((\d+)\)\}/g, (n) => randomChars("0123456789", n)],
];
function randomChars(chars: string, n: number): string {
  return [...randomBytes(n)].map((b) => chars[b % chars.length]).join("");
}

/**
 * A pattern's name for a resource, as Pulumi's engine makes it (`${name}`, then the random parts and
 * `${uuid}`), and whether it has a random part (without one, a replacement cannot hold the name beside the
 * old resource: it is treated as a name the program pins).
 */
export function nameFromPattern(pattern: string, resourceName: string): { name: string; random: boolean } {
  let name = pattern.split("${name}").join(resourceName);
  let random = false;
  for (const [re, make] of RANDOM_PARTS) {
    name = name.replace(re, (_m, n: string) => {
      random = true;
      return make(Number(n));
    });
  }
  if (name.includes("${uuid}")) {
    random = true;
    name = name.split("${uuid}").join(randomUUID());
  }
  return { name, random };
}
