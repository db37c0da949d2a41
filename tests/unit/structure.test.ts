import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { sharedBlocks } from "../helpers/shared-blocks";

/**
 * The house rules a reader relies on (issue 29): no import circle among our modules (type-only imports
 * counted: a circle of types is still two modules that cannot be read one before the other), no
 * hand-written file over 400 lines, the emulator never imports the provider it judges, and the plugin
 * never loads the dynamic provider's entry point (which patches console.error when loaded).
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
});
