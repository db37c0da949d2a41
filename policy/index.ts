import { PolicyPack, type ResourceValidationPolicy, type StackValidationPolicy } from "@pulumi/policy";
import { refuseConfigMistakes } from "./config";
import { overBudget, RULES } from "./rules";

/**
 * `@pulumi-compute/policy`: the rules a team keeps for the compute API, run by `pulumi preview --policy-pack
 * <this folder>` (CrossGuard). Each policy's enforcement level is configurable (`--policy-pack-config`), and the
 * budget's amount too: `{ "monthly-budget": { "maxMonthly": 500 }, "instance-backups": "mandatory" }`. A config
 * that names a policy or a setting the pack has not is refused (config.ts), failing the run.
 */
const resourcePolicies: ResourceValidationPolicy[] = RULES.map((rule) => ({
  name: rule.name,
  description: rule.description,
  enforcementLevel: rule.enforcementLevel,
  validateResource: (args, reportViolation) => {
    const message = rule.check({ type: args.type, name: args.name, props: args.props });
    if (message) reportViolation(message);
  },
}));

const budget: StackValidationPolicy = {
  name: "monthly-budget",
  description:
    "The stack's monthly cost (its resources' monthlyPrice) stays within maxMonthly, when one is configured; a priced resource whose price it cannot count fails it too.",
  enforcementLevel: "mandatory",
  configSchema: { properties: { maxMonthly: { type: "number", minimum: 0 } } },
  validateStack: (args, reportViolation) => {
    const max = args.getConfig<{ maxMonthly?: number }>().maxMonthly;
    if (max === undefined) return;
    const message = overBudget(args.resources, max);
    if (message) reportViolation(message);
  },
};

const policies = [...resourcePolicies, budget];
refuseConfigMistakes("compute", policies);
new PolicyPack("compute", { policies });
