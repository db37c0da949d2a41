/**
 * The policy pack's config refused when it names a policy or a setting the pack has not (policy/config.ts): each
 * mistake named, with the names the pack has. The CLI refuses a level that is not one and a setting of the wrong
 * type itself (tests/e2e/policy.e2e.test.ts runs all four through it).
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import { configOf, configProblems, type PolicyInfo } from "../../policy/config";

const POLICIES: PolicyInfo[] = [
  { name: "instance-backups" },
  { name: "token-no-expiry" },
  { name: "monthly-budget", configSchema: { properties: { maxMonthly: { type: "number" } } } },
];
const problems = (config: Record<string, Record<string, unknown>>) => configProblems("compute", POLICIES, config);

test("a config of the pack's names passes: its policies, their settings, and all", () => {
  expect(problems({ "instance-backups": {}, "monthly-budget": { maxMonthly: 50 }, all: {} })).toEqual([]);
});

test("a policy it has not is named, with the nearest and every policy it has", () => {
  expect(problems({ "instance-backup": {} })).toEqual([
    '"instance-backup" is not a policy of compute (did you mean "instance-backups"?): its policies are instance-backups, token-no-expiry, monthly-budget (and "all", for every policy\'s level)',
  ]);
  expect(problems({ budget: {} })[0]).toMatch(/^"budget" is not a policy of compute: its policies are/);
});

test("a setting it has not is named, with the policy's settings; a setting of a policy that has none says so", () => {
  expect(problems({ "monthly-budget": { maxMonthy: 50 } })).toEqual([
    'monthly-budget has no setting "maxMonthy" (did you mean "maxMonthly"?): its settings are maxMonthly (and enforcementLevel)',
  ]);
  expect(problems({ "token-no-expiry": { days: 90 }, all: { maxMonthly: 1 } })).toEqual([
    'token-no-expiry has no settings ("days" given), only a level: give "token-no-expiry": "mandatory" (or "advisory", "disabled")',
    'all has no settings ("maxMonthly" given), only a level: give "all": "mandatory" (or "advisory", "disabled")',
  ]);
});

test("the config is read from the analyzer's Configure request as the CLI sends it", () => {
  const request = new analyzerproto.ConfigureAnalyzerRequest();
  const budget = new analyzerproto.PolicyConfig();
  budget.setEnforcementlevel(analyzerproto.EnforcementLevel.MANDATORY);
  budget.setProperties(structproto.Struct.fromJavaScript({ maxMonthy: 50 }));
  request.getPolicyconfigMap().set("monthly-budget", budget);
  request.getPolicyconfigMap().set("instance-backup", new analyzerproto.PolicyConfig());
  expect(configOf(request)).toEqual({ "instance-backup": {}, "monthly-budget": { maxMonthy: 50 } });
});
