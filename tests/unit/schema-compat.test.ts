/**
 * The compatibility gate (scripts/schema-compat.ts): this tree against the last release kept in
 * releases/last/ (the CI gate: a breaking change needs a new major version), and each kind of breaking
 * change the gate must see, made on a copy of the schema and the facts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { asNextRelease, compare, formatReport, lastRelease, thisTree, type Release } from "../../scripts/schema-compat";

const copy = (r: Release): Release => JSON.parse(JSON.stringify(r)) as Release;
const res = (r: Release, t: string): any => (r.schema as any).resources[`compute:index:${t}`];

test("this tree against the last release: no breaking change the next release's version cannot carry", () => {
  // A tree still at the last release's version is judged as the release `npm run release` makes of it next.
  const last = lastRelease();
  const report = compare(last, asNextRelease(last, thisTree()));
  expect({ refused: report.refused, breaking: report.refused ? report.breaking : [] }).toEqual({ refused: false, breaking: [] });
});

test("before 1.0 a new minor version may break, a patch may not; a function's first arguments are breaking", () => {
  const old = thisTree();
  const cur = copy(old);
  const fn = (cur.schema as any).functions["compute:index:getProfile"];
  fn.inputs = { properties: { detail: { type: "boolean" } } };
  for (const [from, to, refused] of [
    ["0.1.0", "0.1.1", true],
    ["0.1.0", "0.2.0", false],
    ["1.2.0", "1.3.0", true],
    ["1.2.0", "2.0.0", false],
  ] as const) {
    (old.schema as any).version = from;
    (cur.schema as any).version = to;
    const report = compare(old, cur);
    expect([from, to, report.refused]).toEqual([from, to, refused]);
    expect(report.breaking).toEqual([expect.stringMatching(/^compute:index:getProfile: takes arguments now: Node\.js and Go callers/)]);
  }
});

test("each kind of breaking change is named; additions are listed apart", () => {
  const old = thisTree();
  const cur = copy(old);
  delete res(cur, "Instance").inputProperties.tags; // an input removed
  delete res(cur, "Vpc").properties.created; // an output removed
  res(cur, "Disk").inputProperties.size = { type: "string" }; // a type changed
  res(cur, "SshKey").requiredInputs.push("label"); // an input newly required
  res(cur, "Vpc").required = res(cur, "Vpc").required.filter((k: string) => k !== "region"); // an output no longer always set
  cur.facts.replaces["compute:index:Instance"].push("group"); // an in-place input now replaces
  cur.facts.values["compute:index:Disk.filesystem"] = cur.facts.values["compute:index:Disk.filesystem"].filter((v) => v !== "ext3");
  delete (cur.schema as any).functions["compute:index:getRegions"];
  res(cur, "Vpc").inputProperties.note = { type: "string" }; // an addition
  const report = compare(old, cur);
  expect(report.breaking.sort()).toEqual(
    [
      "compute:index:Instance: input `tags` removed",
      "compute:index:Vpc: property `created` removed",
      "compute:index:Disk: `size` changes type, integer -> string",
      "compute:index:SshKey: input `label` is now required",
      "compute:index:Vpc: `region` is no longer always set",
      "compute:index:Instance: a change of `group` now replaces the resource",
      'compute:index:Disk.filesystem: value "ext3" no longer allowed',
      "function `compute:index:getRegions` removed",
    ].sort(),
  );
  expect(report.additions).toEqual(["compute:index:Vpc: input `note` added"]);
  expect(report.refused).toBe(true);
  expect(formatReport(report)).toMatch(/Refused: 8 breaking change\(s\) from 0\.1\.0 to 0\.1\.0 need a new major version \(before 1\.0, a new minor one\)/);

  // The same changes with a new major version pass the gate, still listed (for the CHANGELOG).
  (cur.schema as any).version = "1.0.0";
  expect(compare(old, cur)).toMatchObject({ refused: false, breaking: expect.arrayContaining(["function `compute:index:getRegions` removed"]) });
});

test("an untyped value given its type is named as such (issue 44: a nullable string typed Any)", () => {
  const cur = thisTree();
  const old = copy(cur);
  (old.schema as any).functions["compute:index:getImage"].outputs.properties.vendor = { $ref: "pulumi.json#/Any" };
  expect(compare(old, cur).breaking).toEqual([
    "compute:index:getImage (outputs): `vendor` changes type, pulumi.json#/Any -> string (typed now: the same values, a narrower type in the SDKs)",
  ]);
});

test("what widens passes: an integer input that takes any number, a renamed resource that keeps an alias", () => {
  const old = thisTree();
  const cur = copy(old);
  res(cur, "Disk").inputProperties.size = { type: "number" };
  const schema = cur.schema as any;
  schema.resources["compute:index:Key"] = { ...res(cur, "SshKey"), aliases: [{ type: "compute:index:SshKey" }] };
  delete schema.resources["compute:index:SshKey"];
  expect(compare(old, cur)).toMatchObject({ breaking: [], refused: false, additions: ["resource `compute:index:Key` added"] });
});

test("npm run schema:compat fails on a branch whose schema removes a property, and says which", () => {
  const schema = thisTree().schema as any;
  delete schema.resources["compute:index:Instance"].properties.ipv4;
  schema.version = "0.1.1"; // a patch release of the branch: no breaking change allowed
  const file = path.join(mkdtempSync(path.join(tmpdir(), "schema-compat-")), "schema.json");
  writeFileSync(file, JSON.stringify(schema));
  const cli = path.resolve(__dirname, "..", "..", "dist", "scripts", "schema-compat.js");
  const r = spawnSync(process.execPath, [cli, "--schema", file], { encoding: "utf8", timeout: 60_000 });
  expect(r.status).toBe(1);
  expect(r.stdout).toContain("- compute:index:Instance: property `ipv4` removed");
  const ok = spawnSync(process.execPath, [cli], { encoding: "utf8", timeout: 60_000 });
  // (This tree is unreleased: judged as 0.2.0, the next release before 1.0, which may break.)
  expect([ok.status, ok.stdout]).toEqual([0, expect.stringContaining("OK: 0.1.0 -> 0.2.0.")]);
});
