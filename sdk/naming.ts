import * as pulumi from "@pulumi/pulumi";
import type { NamingPolicy } from "../provider/model/naming";

/**
 * Pulumi's naming policies (`pulumi:autonaming` in the stack's config) for the dynamic classes. The engine
 * hands them only to providers that say they take them, which Pulumi's dynamic provider server does not;
 * a program can read the setting, so each class resolves it here as the engine does (a type's own entry,
 * else the `compute` provider's, else the program-wide one) and hands the policy to the provider's check.
 */

interface NamingJson {
  mode?: string;
  pattern?: string;
  enforce?: boolean;
}
interface SectionJson extends NamingJson {
  providers?: Record<string, NamingJson & { resources?: Record<string, NamingJson> }>;
}

const has = (n: NamingJson | undefined): n is NamingJson => Boolean(n && (n.mode !== undefined || n.pattern !== undefined));

/** `${organization}`, `${project}`, `${stack}` and `${config.<key>}` of a pattern, as the engine fills them before anything else. */
function resolveStackParts(pattern: string): string {
  return pattern.replace(/\$\{(organization|project|stack|config\.([^}]+))\}/g, (_m, what: string, key?: string) => {
    if (what === "organization") return pulumi.getOrganization();
    if (what === "project") return pulumi.getProject();
    if (what === "stack") return pulumi.getStack();
    const [ns, k] = key!.includes(":") ? key!.split(":", 2) : [pulumi.getProject(), key!];
    return new pulumi.Config(ns).get(k) ?? "";
  });
}

/** The naming policy for a resource of `type` (undefined: the provider's own `<name>-<suffix>`). */
export function namingPolicy(type: string): NamingPolicy | undefined {
  const section = new pulumi.Config("pulumi").getObject<SectionJson>("autonaming");
  if (!section) return undefined;
  const token = `compute:index:${type}`;
  const provider = section.providers?.compute;
  const [chosen, where] = has(provider?.resources?.[token])
    ? [provider.resources[token], `pulumi:autonaming (providers.compute.resources["${token}"])`]
    : has(provider)
      ? [provider, "pulumi:autonaming (providers.compute)"]
      : [section as NamingJson, "pulumi:autonaming"];
  if (chosen.pattern !== undefined) {
    return { mode: chosen.enforce ? "enforce" : "propose", pattern: resolveStackParts(chosen.pattern), setting: `${where}, pattern "${chosen.pattern}"` };
  }
  if (chosen.mode === "verbatim") return { mode: "enforce", pattern: "${name}", setting: `${where}, mode verbatim` };
  if (chosen.mode === "disabled") return { mode: "disable", setting: `${where}, mode disabled` };
  return undefined;
}
