/**
 * Naming policies (`pulumi:autonaming`) at check: a proposed or enforced name is the label of a new
 * resource whose program leaves it out; `disable` makes the label required; a name the API would refuse
 * fails naming the rule and the setting; an existing resource keeps its label; a name with no random part
 * is held as a pinned one (a replacement cannot take it beside the old resource).
 */
import { AUTONAMED, AUTONAMING, RESOURCE_NAME } from "../../provider/model/marks";
import { checkInputs, deletesFirst } from "../../provider/model/check";
import { nameFromPattern } from "../../provider/model/naming";
import { mysqlSpec } from "../../provider/resources/database";
import { mysqlDatabaseSnapshot } from "../../provider/resources/databaseSnapshot";
import { sshKeySpec } from "../../provider/resources/sshKey";
import { vpcSpec } from "../../provider/resources/vpc";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrZ6J1lCqW6l0p6h9bP8y4i0v4r3D1b9nV1bq7z2cXk demo@pulumi-compute";

test("a proposed or enforced name is the label of a new resource; a label the program gives wins", () => {
  const proposed = checkInputs(vpcSpec, { region: "us-east", [RESOURCE_NAME]: "net", [AUTONAMING]: { mode: "propose", proposedName: "prod-net-a1b2" } });
  expect(proposed).toEqual({ inputs: { region: "us-east", label: "prod-net-a1b2", [AUTONAMED]: true }, failures: [] });
  const enforced = checkInputs(vpcSpec, { region: "us-east", label: "mine", [AUTONAMING]: { mode: "enforce", proposedName: "net" } });
  expect(enforced.inputs.label).toBe("mine");
  // An existing resource keeps the label it has, whatever the policy proposes now.
  const kept = checkInputs(
    vpcSpec,
    { region: "us-east", [AUTONAMING]: { mode: "propose", proposedName: "other" } },
    { region: "us-east", label: "net-1234567", [AUTONAMED]: true },
  );
  expect(kept.inputs).toMatchObject({ label: "net-1234567", [AUTONAMED]: true });
});

test("disabled: the label is required, and the message says which setting made it so", () => {
  const r = checkInputs(sshKeySpec, { sshKey: KEY, [AUTONAMING]: { mode: "disable", setting: "pulumi:autonaming, mode disabled" } });
  expect(r.failures).toEqual([
    { property: "label", reason: "label: required: auto-naming is disabled by pulumi:autonaming, mode disabled; give the label, or change the setting" },
  ]);
});

test("a name the API would refuse fails at preview naming the rule and the setting", () => {
  const vpc = checkInputs(vpcSpec, { region: "us-east", [AUTONAMING]: { mode: "enforce", proposedName: "my_net" } });
  expect(vpc.failures).toEqual([
    {
      property: "label",
      reason: expect.stringMatching(
        /^label: .*letters, numbers, and dashes.* \(the name "my_net" comes from the pulumi:autonaming setting: change the setting, or give the label\)$/,
      ),
    },
  ]);
  const long = checkInputs(mysqlSpec, {
    region: "us-east",
    type: "c1-standard-2",
    engine: "mysql/8.0.35",
    [AUTONAMING]: {
      mode: "propose",
      pattern: "${name}-production-database-${hex(8)}",
      setting: 'pulumi:autonaming, pattern "${name}-production-database-${hex(8)}"',
    },
    [RESOURCE_NAME]: "orders",
  });
  expect(long.failures[0].reason).toMatch(/^label: must be 3 to 32 characters.*comes from pulumi:autonaming, pattern/);
  // Database snapshots take letters and digits only.
  const snap = checkInputs(mysqlDatabaseSnapshot.spec, { databaseId: 1, [AUTONAMING]: { mode: "enforce", proposedName: "nightly-1" } });
  expect(snap.failures.map((f) => f.property)).toEqual(["label"]);
  expect(snap.failures[0].reason).toMatch(/nightly-1.*pulumi:autonaming/);
});

test("a pattern's random parts are filled in; without one, the name is held as pinned (a replacement deletes first)", () => {
  expect(nameFromPattern("${name}-${hex(6)}", "web")).toEqual({ name: expect.stringMatching(/^web-[0-9a-f]{6}$/), random: true });
  expect(nameFromPattern("${name}-${alphanum(4)}-${num(2)}-${string(3)}", "db")).toEqual({
    name: expect.stringMatching(/^db-[a-z0-9]{4}-[0-9]{2}-[a-z]{3}$/),
    random: true,
  });
  expect(nameFromPattern("svc-${uuid}", "x").name).toMatch(/^svc-[0-9a-f-]{36}$/);
  expect(nameFromPattern("${name}", "net")).toEqual({ name: "net", random: false });
  const verbatim = checkInputs(sshKeySpec, { sshKey: KEY, [RESOURCE_NAME]: "deploy", [AUTONAMING]: { mode: "enforce", pattern: "${name}" } });
  expect(verbatim.inputs).toMatchObject({ label: "deploy", [AUTONAMED]: false });
  // VPC labels are unique: a name held as pinned is freed first; one with a random part is made anew beside it.
  expect(deletesFirst(vpcSpec, ["region"], ["region"], { label: "net", [AUTONAMED]: false })).toBe(true);
  expect(deletesFirst(vpcSpec, ["region"], ["region"], { label: "net-1a2b", [AUTONAMED]: true })).toBe(false);
  const withRandom = checkInputs(sshKeySpec, { sshKey: KEY, [RESOURCE_NAME]: "deploy", [AUTONAMING]: { mode: "propose", pattern: "${name}-${hex(4)}" } });
  expect(withRandom.inputs).toMatchObject({ label: expect.stringMatching(/^deploy-[0-9a-f]{4}$/), [AUTONAMED]: true });
});
