import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { definitions } from "../../provider/registry";
import { apiFamilies } from "../../emulator/routes";
import ts from "typescript";
import { isCast, nodesOf, projectProgram, sourcesUnder, where } from "../helpers/program";
import { sharedBlocks } from "../helpers/shared-blocks";

/**
 * The house rules a reader relies on (issues 29 and 37): no import circle among our modules (type-only
 * imports counted: a circle of types is still two modules that cannot be read one before the other), no
 * hand-written file over 400 lines, the emulator never imports the provider it judges nor shares a block
 * with it, the plugin never loads the dynamic provider's entry point (which installs the dynamic provider's
 * patches), no list of every resource written by hand where the registry could give it, the core names no
 * field of a particular resource, the core and the resources cast nothing to `Props`, and the hooks' order
 * is written where they are declared.
 */
const ROOT = path.resolve(__dirname, "../..");
const MAX_LINES = 400;

/** Every tracked TypeScript file of ours (no programs' installed packages). */
const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !f.includes("node_modules/") && !f.endsWith(".d.ts") && existsSync(path.join(ROOT, f)));
const source = (f: string) => readFileSync(path.join(ROOT, f), "utf8");
const generated = (f: string) => /^\/\/ (Generated|Code generated)/.test(source(f));

/** The relative modules a file imports or re-exports (type-only too), resolved to repository paths. */
function importsOf(f: string): string[] {
  const out: string[] = [];
  for (const m of source(f).matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|require\("(\.[^"]+)"\)|import\("(\.[^"]+)"\)/g)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const base = path.normalize(path.join(path.dirname(f), spec));
    const hit = [`${base}.ts`, path.join(base, "index.ts")].find((c) => files.includes(c));
    if (hit) out.push(hit);
  }
  return out;
}

/** The strongly connected components of more than one module (or a module importing itself). */
function circles(scope: string[]): string[][] {
  const graph = new Map(scope.map((f) => [f, importsOf(f)]));
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const f of graph.keys()) if (!idx.has(f)) visit(f);
  return found;
}

/** Every module a file reaches through its imports. */
function reach(f: string, seen = new Set<string>()): Set<string> {
  for (const g of importsOf(f)) {
    if (seen.has(g)) continue;
    seen.add(g);
    reach(g, seen);
  }
  return seen;
}

describe("the structure of the code", () => {
  it("has no import circle (type-only imports counted)", () => {
    const code = files.filter((f) => /^(provider|emulator|sdk|scripts|tests\/helpers)\//.test(f));
    expect(code.length).toBeGreaterThan(100);
    expect(circles(code).map((c) => c.join(" -> "))).toEqual([]);
  });

  it(`has no hand-written file over ${MAX_LINES} lines`, () => {
    const long = files
      .filter((f) => !generated(f) && statSync(path.join(ROOT, f)).size > 0)
      .map((f) => ({ f, lines: source(f).split("\n").length - 1 }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines} lines`);
    expect(long).toEqual([]);
  });

  it("keeps the emulator free of the provider it judges", () => {
    const emulator = files.filter((f) => f.startsWith("emulator/"));
    const leaks = emulator.flatMap((f) => [...reach(f)].filter((g) => g.startsWith("provider/")).map((g) => `${f} reaches ${g}`));
    expect(leaks).toEqual([]);
  });

  it("keeps the emulator's database in emulator/db/: no other file speaks to SQLite or PostgreSQL, and no route to the store's database", () => {
    const database = /from "pg"|require\("pg"\)|node:sqlite/;
    const speakers = files.filter((f) => !f.startsWith("emulator/db/") && (f.startsWith("emulator/") || f.startsWith("provider/")) && database.test(source(f)));
    expect(speakers).toEqual([]);
    const routes = files.filter((f) => f.startsWith("emulator/routes/"));
    expect(
      routes.flatMap((f) =>
        importsOf(f)
          .filter((g) => g.startsWith("emulator/db/"))
          .map((g) => `${f} imports ${g}`),
      ),
    ).toEqual([]);
  });

  it("has every API family that keeps records name their ids and references once (its renumber), which fixtures and counters read", () => {
    const keeping = apiFamilies({}).filter((f) => (f.state?.names.length ?? 0) > 0);
    expect(keeping.length).toBeGreaterThan(4);
    expect(keeping.filter((f) => !f.renumber).map((f) => f.name)).toEqual([]);
    // Nothing else renumbers or counts a family's ids: the fixture loader and the counters go through the hook.
    const readers = files.filter((f) => f.startsWith("emulator/") && !f.startsWith("emulator/routes/") && /\.renumber\?\.\(/.test(source(f)));
    expect(readers.sort()).toEqual(["emulator/family.ts", "emulator/renumber.ts"]);
  });

  it("keeps the API's facts (api/) on the ground floor: they import neither the emulator nor the provider", () => {
    const facts = files.filter((f) => f.startsWith("api/"));
    expect(facts.length).toBeGreaterThan(0);
    const leaks = facts.flatMap((f) => [...reach(f)].filter((g) => !g.startsWith("api/")).map((g) => `${f} reaches ${g}`));
    expect(leaks).toEqual([]);
  });

  it("keeps the plugin from loading the dynamic provider's entry point", () => {
    const plugin = files.filter((f) => f.startsWith("provider/plugin/"));
    expect(plugin.length).toBeGreaterThan(0);
    const leaks = plugin.filter((f) => reach(f).has("provider/index.ts")).map((f) => `${f} reaches provider/index.ts`);
    expect(leaks).toEqual([]);
  });

  it("shares no block of six lines between emulator/ and provider/", () => {
    // The emulator judges the provider from the spec: a rule written once and copied into both could not catch its own mistake.
    const emulator = files.filter((f) => f.startsWith("emulator/"));
    const provider = files.filter((f) => f.startsWith("provider/"));
    expect(emulator.length).toBeGreaterThan(10);
    expect(provider.length).toBeGreaterThan(10);
    expect(sharedBlocks(emulator, provider, source)).toEqual([]);
  });

  it("has no list of every resource written by hand, but where the registry is checked against it", () => {
    // A file naming most resource types (quoted, as an object key, or as compute.<Type>) is a list a new
    // resource must join: it derives from provider/registry.ts instead, or it is here with what names a
    // type it lacks (or why it lists the types it does).
    const HAND_LISTS: Record<string, string> = {
      "examples/all/index.ts": "tests/unit/registry-coverage.test.ts names a type it does not construct",
      "tests/helpers/bad-input-cases.ts": "tests/unit/registry-coverage.test.ts names a type without a case",
      "tests/helpers/lost-answer-cases.ts": "tests/unit/registry-coverage.test.ts names a type without a case",
      "tests/integration/plugin-plan.test.ts": "its last test names a type without a plan case",
      "tests/integration/plugin.test.ts": "the import through gRPC of records made by hand, one per type the emulator makes at once",
      "tests/integration/real-answers-provider.test.ts": "the real API's recorded answers: one case per record tests/fixtures/real-answers holds",
      "tests/e2e/imports.e2e.test.ts": "the real API's recorded answers: one import per record tests/fixtures/real-answers holds",
      "tests/programs/upgrade/index.ts": "the program of an earlier release, kept as it was",
      "tests/fixtures/upgrade-plugin-52033be/program/index.ts": "the program of an earlier release, kept as it was",
      "tests/fixtures/upgrade-plugin-6ed01f0/program/index.ts": "the program of an earlier release, kept as it was",
      "tests/unit/safety.test.ts": "the rules of particular types, one test each",
      "scripts/bench/requests.ts": "the requests the bench counts, for the types it measures (bench/results.md)",
      "provider/adopt/discover.ts": "how each type is listed and what cannot be adopted; tests/unit/adopt-program.test.ts names a type it does not find",
    };
    const types = definitions.map((d) => d.spec.type);
    const named = (text: string) => types.filter((t) => new RegExp(`["'\`]${t}["'\`]|\\b${t}\\s*:|compute\\.${t}\\b`).test(text));
    const lists = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.py", "*.go", "*.yaml"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((f) => f && !f.includes("node_modules/") && !f.startsWith("sdk/") && existsSync(path.join(ROOT, f)) && !generated(f))
      .filter((f) => named(source(f)).length >= Math.ceil((types.length * 2) / 3));
    const unsaid = lists.filter((f) => !(f in HAND_LISTS));
    expect(
      unsaid.map(
        (f) =>
          `${f} names ${named(source(f)).length} of the ${types.length} resource types by hand: derive it from provider/registry.ts, or say in HAND_LISTS what names a type it lacks`,
      ),
    ).toEqual([]);
  });

  it("keeps resource knowledge with its resource: the core names no field of a particular resource", () => {
    // A field fewer than half the resources have, or a nested key a table renames (apiKeys), is a particular
    // resource's: the core (model, lifecycle, plugin, transport, the definitions and the session) reads table
    // facts instead. The same words meaning something else there:
    const OTHER_MEANING: Record<string, string> = {
      status: "the API's status field of any record (the waits; the table's waits name the values)",
      type: "a resource's type name (spec.type)",
      region: "a region in the API's reference data",
      description: "a row's or a function's description",
      token: "the provider's setting compute:token",
      version: "the package's version",
      ipv4: "ipaddr.js's address kind",
      metadata: "gRPC metadata",
      computes: "the spec's scope group of the token rules",
    };
    const count = new Map<string, number>();
    for (const d of definitions) for (const f of d.spec.fields) count.set(f.name, (count.get(f.name) ?? 0) + 1);
    const apiKeys = definitions.flatMap((d) => d.spec.fields.flatMap((f) => Object.entries(f.apiKeys ?? {}).flat()));
    const particular = [...[...count].filter(([, c]) => c < definitions.length / 2).map(([n]) => n), ...apiKeys].filter((n) => !(n in OTHER_MEANING));
    expect(particular).toEqual(expect.arrayContaining(["booted", "nat11", "nat_1_1", "interfaces"]));
    const core = files.filter((f) => /^provider\/(model|lifecycle|plugin|transport)\/|^provider\/(definition|registry|session|index)\.ts$/.test(f));
    const code = (f: string) =>
      source(f)
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
    const found = core.flatMap((f) =>
      particular.filter((n) => new RegExp(`["'\`]${n}["'\`]|\\.${n}\\b`).test(code(f))).map((n) => `${f} names ${n}, a field of a particular resource`),
    );
    expect(found).toEqual([]);
  });

  it("casts nothing to Props in the core and the resources, and gives the engine's props a table's types in one place (provider/definition.ts)", () => {
    // By the compiler's view: the type each cast names, whatever it is spelt (an alias of Record<string, unknown> too).
    const { checker } = projectProgram();
    const TABLE_TYPES = new Set(["StateOf", "InputsOf", "RawInputsOf", "OutputsOf", "ProviderHooks", "HookContext"]);
    const found: string[] = [];
    for (const { file, source } of sourcesUnder(["provider"])) {
      for (const cast of nodesOf(source, isCast)) {
        const type = checker.getTypeFromTypeNode(cast.type);
        const index = checker.getIndexInfosOfType(type);
        const props =
          index.length === 1 && index[0].keyType.flags & ts.TypeFlags.String && index[0].type.flags & ts.TypeFlags.Unknown && type.getProperties().length === 0;
        const named = [type.aliasSymbol?.name, type.getSymbol()?.name].find((n) => n !== undefined && TABLE_TYPES.has(n));
        const core = /^provider\/(model|lifecycle|resources|functions|plugin|transport)\//.test(file);
        if (props && core) found.push(`${where(file, source, cast)}: a cast to Props (${checker.typeToString(type)})`);
        if (named && file !== "provider/definition.ts") found.push(`${where(file, source, cast)}: a cast to the table's ${named}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("reads request bodies in the emulator without casting them, and asserts no signed-in user", () => {
    // By the compiler's view: a cast (or a `!`) of anything read from a request, whatever the variables are called.
    const { checker } = projectProgram();
    const REQUEST_TYPES = new Set(["Req", "RequestContext", "SignedInContext"]);
    const fromRequest = (n: ts.Node): boolean => {
      if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) {
        const t = checker.getTypeAtLocation(ts.isPropertyAccessExpression(n) ? n.expression : n);
        if ([t.aliasSymbol?.name, t.getSymbol()?.name].some((name) => name !== undefined && REQUEST_TYPES.has(name))) return true;
      }
      return ts.forEachChild(n, fromRequest) ?? false;
    };
    const found: string[] = [];
    for (const { file, source } of sourcesUnder(["emulator"])) {
      for (const n of nodesOf(source, (x): x is ts.Expression => isCast(x) || ts.isNonNullExpression(x))) {
        if (fromRequest(n)) found.push(`${where(file, source, n)}: ${n.getText(source).slice(0, 80)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("casts at most 20 times in provider/ and in emulator/ (type assertions, by the compiler's parser; 57 and 82 before issue 52)", () => {
    const MAX_CASTS = 20;
    for (const folder of ["provider", "emulator"]) {
      const casts = sourcesUnder([folder]).flatMap(({ file, source }) =>
        nodesOf(source, isCast).map((c) => `${where(file, source, c)}: ${c.getText(source).slice(0, 60)}`),
      );
      expect({ folder, casts: casts.length <= MAX_CASTS ? casts.length : casts }).toEqual({ folder, casts: casts.length });
    }
  });

  it("declares no API record with an index signature: a misspelt field of a record does not compile", () => {
    // The records are the contract's (api/contract: strict schemas, whose types have none); a type of provider/ or
    // emulator/ that reads records takes any name with `[k: string]: unknown`.
    const found: string[] = [];
    for (const { file, source } of sourcesUnder(["api", "provider/resources", "provider/functions", "emulator/routes"])) {
      for (const sig of nodesOf(source, ts.isIndexSignatureDeclaration)) {
        if (sig.type.kind === ts.SyntaxKind.UnknownKeyword || sig.type.kind === ts.SyntaxKind.AnyKeyword)
          found.push(`${where(file, source, sig)}: ${sig.getText(source)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("writes the order the hooks run in where they are declared", () => {
    const text = source("provider/lifecycle/hooks.ts");
    const start = text.indexOf("export interface ProviderHooks");
    const body = text.slice(start, text.indexOf("\n}\n", start));
    const hooks = [...body.matchAll(/^ {2}(\w+)\?\(/gm)].map((m) => m[1]);
    expect(hooks.length).toBeGreaterThanOrEqual(11);
    const doc = text.slice(text.lastIndexOf("/**", start), start);
    const order = doc.slice(doc.indexOf("The order they run in"));
    expect(hooks.filter((h) => !order.includes(`\`${h}\``))).toEqual([]);
  });
});
