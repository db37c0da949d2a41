/**
 * The tests follow the one list of resources (provider/registry.ts): every resource type must be in
 * examples/all (the program of the chaos run, tests/e2e/chaos.e2e.test.ts), have a bad-input case (the
 * property test, tests/integration/bad-input.property.test.ts) and a lost-answer case (the chaos run).
 * A type missing from one of them fails here, named with the file to add it to, instead of being silently
 * left out of those tests. The tables are read from their modules (tests/helpers/), the program with the
 * TypeScript parser: nothing runs. And the chaos run's counts (tests/helpers/api-records.ts), which read the
 * API from the definitions, are held to a recorded stack.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { definitions } from "../../provider/registry";
import { accountBefore, apiCounts, apiRecords, collectionsOf, stackCounts } from "../helpers/api-records";
import { badInputCases } from "../helpers/bad-input-cases";
import { call, emulator } from "../helpers/emulator";
import { lostAnswerCases } from "../helpers/lost-answer-cases";

const ROOT = path.resolve(__dirname, "..", "..");
const ALL = "examples/all/index.ts";
const BAD_INPUT = "tests/helpers/bad-input-cases.ts";
const LOST_ANSWER = "tests/helpers/lost-answer-cases.ts";
const TYPES = definitions.map((d) => d.spec.type);

/** The classes a program constructs from the package (`new compute.Disk(...)`, whatever the namespace is called). */
function constructedClasses(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  const namespaces = new Set<string>();
  const classes = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && node.importClause?.namedBindings && ts.isNamespaceImport(node.importClause.namedBindings)) {
      const from = (node.moduleSpecifier as ts.StringLiteral).text;
      if (from === "pulumi-compute" || from === "@pulumi-compute/plugin-sdk") namespaces.add(node.importClause.namedBindings.name.text);
    }
    if (ts.isNewExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression)) {
      if (namespaces.has(node.expression.expression.text)) classes.add(node.expression.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...classes];
}

interface Coverage {
  /** The classes examples/all constructs. */
  example: string[];
  /** The types of the bad-input cases, and of the lost-answer cases. */
  badInput: string[];
  lostAnswer: string[];
}

/** What each resource type lacks, one sentence each, naming the file to add it to. */
function missing(types: string[], c: Coverage): string[] {
  return types.flatMap((t) => [
    ...(c.example.includes(t) ? [] : [`${t} has no example in ${ALL} (new compute.${t}(...): the chaos run, tests/e2e/chaos.e2e.test.ts, runs that program)`]),
    ...(c.badInput.includes(t) ? [] : [`${t} has no bad-input case in ${BAD_INPUT} (tests/integration/bad-input.property.test.ts)`]),
    ...(c.lostAnswer.includes(t) ? [] : [`${t} has no lost-answer case in ${LOST_ANSWER} (the chaos run loses its create's answer)`]),
  ]);
}

/** Entries that name no resource type of the registry (a type renamed or removed). */
function unknown(types: string[], c: Coverage): string[] {
  const stray = (named: string[]) => [...new Set(named.filter((t) => !types.includes(t)))];
  return [
    ...stray(c.badInput).map((t) => `the bad-input cases of ${t} in ${BAD_INPUT} name no resource type of provider/registry.ts`),
    ...stray(c.lostAnswer).map((t) => `the lost-answer cases of ${t} in ${LOST_ANSWER} name no resource type of provider/registry.ts`),
  ];
}

const coverage: Coverage = {
  example: constructedClasses(ALL),
  badInput: badInputCases.map((c) => c.type),
  lostAnswer: lostAnswerCases.map((c) => c.type),
};

test("every resource type of provider/registry.ts is in examples/all, the bad-input cases and the lost-answer cases", () => {
  expect(TYPES.length).toBeGreaterThan(0);
  expect(missing(TYPES, coverage)).toEqual([]);
  expect(unknown(TYPES, coverage)).toEqual([]);
  // examples/all constructs nothing but the registry's resources (a class renamed shows here).
  expect(coverage.example.filter((c) => !TYPES.includes(c))).toEqual([]);
});

test("each type's first lost-answer case is its create: the POST to its collection (spec.collectionPath)", () => {
  const wrong = definitions.flatMap((d) => {
    const first = lostAnswerCases.find((c) => c.type === d.spec.type);
    if (!first) return []; // named by the test above
    const parents = Object.fromEntries(d.spec.fields.filter((f) => f.inPath).map((f) => [f.name, 12]));
    const create = `POST /v4${d.spec.collectionPath(parents)}`;
    return new RegExp(first.request).test(create) ? [] : [`${d.spec.type}: the lost-answer case ${first.request} does not match its create, ${create}`];
  });
  expect(wrong).toEqual([]);
});

test("a type missing from any of them is named, with the file to add it to", () => {
  // Every type covered, then a registry with one more type, Widget, that nothing covers, and Token taken out
  // of the bad-input cases.
  const full: Coverage = { example: TYPES, badInput: TYPES, lostAnswer: TYPES };
  expect(missing(TYPES, full)).toEqual([]);
  const without = { ...full, badInput: TYPES.filter((t) => t !== "Token") };
  expect(missing([...TYPES, "Widget"], without)).toEqual([
    "Token has no bad-input case in tests/helpers/bad-input-cases.ts (tests/integration/bad-input.property.test.ts)",
    "Widget has no example in examples/all/index.ts (new compute.Widget(...): the chaos run, tests/e2e/chaos.e2e.test.ts, runs that program)",
    "Widget has no bad-input case in tests/helpers/bad-input-cases.ts (tests/integration/bad-input.property.test.ts)",
    "Widget has no lost-answer case in tests/helpers/lost-answer-cases.ts (the chaos run loses its create's answer)",
  ]);
  expect(unknown(TYPES.slice(1), { ...full, badInput: [...TYPES, TYPES[0]], lostAnswer: [TYPES[0], ...TYPES] })).toEqual([
    `the bad-input cases of ${TYPES[0]} in tests/helpers/bad-input-cases.ts name no resource type of provider/registry.ts`,
    `the lost-answer cases of ${TYPES[0]} in tests/helpers/lost-answer-cases.ts name no resource type of provider/registry.ts`,
  ]);
});

test("the chaos counts, read from the definitions, find one API record per resource of a recorded stack", async () => {
  // The plugin fixture of 52033be: examples/all then (16 resources of 13 types), its emulator's state beside it.
  const fixture = path.join(ROOT, "tests", "fixtures", "upgrade-plugin-52033be");
  const entries = JSON.parse(readFileSync(path.join(fixture, "state", ".pulumi", "stacks", "all-example", "upgrade.json"), "utf8")).checkpoint.latest.resources;
  const inStack = stackCounts(entries);
  expect([Object.keys(inStack), Object.values(inStack).reduce((a, b) => a + b)]).toEqual([TYPES, 16]);
  expect(inStack.Instance).toBe(3);

  const fresh = await emulator();
  const before = await accountBefore(fresh);
  await fresh.close();
  const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-coverage-"));
  copyFileSync(path.join(fixture, "emulator.json"), path.join(dir, "emulator.json"));
  // Three days on: the databases have automatic backups too (the API's own, not counted).
  const emu = await emulator({ token: "upgrade-fixture-token-0123456789", stateFile: path.join(dir, "emulator.json"), now: () => Date.now() + 3 * 86_400_000 });
  try {
    const collections = collectionsOf(entries);
    // A child type's collections are its parents' the stack's resources are in: the disks of host only.
    const host = entries.find((e: { urn: string }) => e.urn.endsWith("compute:index:Instance::host"));
    expect(collections.Disk).toEqual([`/compute/instances/${host.id}/disks`]);
    expect(await apiCounts(emu, collections, before)).toEqual(inStack);
    const [mysqlBackups] = collections.MysqlDatabaseSnapshot;
    expect((await call(emu, "GET", mysqlBackups)).body.data.map((b: { type: string }) => b.type)).toEqual(expect.arrayContaining(["auto", "snapshot"]));
    // What the account held before the program (the emulator's token, the public images) is left out.
    const all = await apiRecords(emu, collections);
    expect([all.Token.length, all.Image.length > 1]).toEqual([2, true]);
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
