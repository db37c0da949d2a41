/**
 * The examples in schema.json's resource descriptions (scripts/generate/examples.ts): every resource type of
 * provider/registry.ts has one in TypeScript, Python, Go and YAML, and each is checked against the SDKs
 * generated from the schema (scripts/gen-sdks), each language in one run for every example at once:
 *
 * - TypeScript: one `tsc --noEmit` over every example, against the generated Node.js SDK;
 * - Go: every example as a function of one package, one `go vet` (a full type-check, no link) against the
 *   generated Go SDK, and gofmt-clean;
 * - Python: one `python3 -m py_compile` of every example, and every class and keyword it uses is in the
 *   generated Python SDK (each example also runs, in one preview through the plugin against the emulator, on
 *   the SDK's wheel in a virtual environment: tests/e2e/plugin-python.e2e.test.ts);
 * Every example also runs, in every language, in the SDK matrix (tests/e2e/sdk-matrix.e2e.test.ts: one `pulumi
 * up` of every example at once per language). And the generators keep each language's block in their SDK's doc
 * comments, and only it; and every name the docs give a type or a function in TypeScript, Python or Go is one the
 * SDK of that language declares.
 *
 * The SDKs are .gen/sdks (npm test makes them before Jest); when they are older than schema.json (or absent)
 * they are generated anew into a temporary folder. Needs Go: without it the suite fails, naming Go, as
 * sdkgen.test.ts does (`COMPUTE_SKIP_GO=1` skips it outside CI: tests/helpers/go.ts).
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { specs } from "../../provider/registry";
import { EXAMPLE_LANGUAGES, type ExampleLanguage } from "../../scripts/generate/examples";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, PYTHON_SDK_PACKAGE } from "../../scripts/generate/packages";
import { describeWithGo } from "../helpers/go";

const ROOT = path.resolve(__dirname, "..", "..");
const SCHEMA_FILE = path.join(ROOT, "schema.json");
const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as { resources: Record<string, { description: string }> };
const TYPES = specs.map((s) => s.type);

/** The fenced blocks of a resource's `{{% examples %}}` section, in order, as `[language, code]`. */
function blocksOf(type: string): Array<[string, string]> {
  const description = schema.resources[`compute:index:${type}`]?.description ?? "";
  const section = /\n\{\{% examples %\}\}\n## Example Usage\n\{\{% example %\}\}\n### [^\n]+\n\n([\s\S]*?)\n\{\{% \/example %\}\}\n\{\{% \/examples %\}\}/.exec(
    description,
  );
  return [...(section?.[1] ?? "").matchAll(/^```(\w+)\n([\s\S]*?)\n```$/gm)].map((m) => [m[1], m[2]]);
}
const example = (type: string, lang: ExampleLanguage): string => blocksOf(type).find(([l]) => l === lang)?.[1] ?? "";

/** The whole programs of the hand-written pages (README.md, docs/*.md but the generated ones) in a language's fences. */
function handWritten(fences: string[], whole: RegExp): Array<{ file: string; code: string }> {
  const pages = [
    "README.md",
    ...readdirSync(path.join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md") && f !== "functions.md")
      .map((f) => path.join("docs", f)),
  ];
  return pages.flatMap((page) =>
    [...readFileSync(path.join(ROOT, page), "utf8").matchAll(/^```(\w+)\n([\s\S]*?)\n```$/gm)]
      .filter(([, fence, code]) => fences.includes(fence) && whole.test(code))
      .map(([, , code]) => ({ file: page, code })),
  );
}
const kebab = (type: string) => type.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

test("every resource type of provider/registry.ts has an example in TypeScript, Python, Go and YAML, in Pulumi's examples form", () => {
  const missing = TYPES.filter((t) => blocksOf(t).length === 0);
  expect({ missing }).toEqual({ missing: [] });
  for (const type of TYPES) {
    // One block per language, in order, each making the resource it documents.
    expect([type, blocksOf(type).map(([lang]) => lang)]).toEqual([type, [...EXAMPLE_LANGUAGES]]);
    const makes: Record<ExampleLanguage, string> = {
      typescript: `new compute.${type}(`,
      python: `compute.${type}(\n`,
      go: `compute.New${type}(ctx, `,
      yaml: `type: compute:index:${type}\n`,
    };
    for (const lang of EXAMPLE_LANGUAGES) expect([type, lang, example(type, lang).includes(makes[lang])]).toEqual([type, lang, true]);
    expect(example(type, "typescript")).toContain(`import * as compute from "${NODE_SDK_PACKAGE}";`);
    expect(example(type, "python")).toContain(`import ${PYTHON_SDK_PACKAGE} as compute`);
    expect(example(type, "go")).toContain(`"${GO_SDK_IMPORT}"`);
  }
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}
const timings: string[] = [];
/** Runs a command to its end; throws with its output when it fails. Every step's time is printed at the end. */
function step(name: string, cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const done = (code: number | null, extra = "") => {
      const r = { code, stdout, stderr: stderr + extra, ms: Date.now() - t0 };
      timings.push(`${name}: ${(r.ms / 1000).toFixed(1)}s`);
      if (code === 0) resolve(r);
      else reject(new Error(`${name} failed (exit ${code}):\n${r.stderr}\n${r.stdout}`.slice(0, 12000)));
    };
    p.on("error", (e) => done(-1, String(e)));
    p.on("close", (code) => done(code));
  });
}

/** The SDKs generated from this schema.json: .gen/sdks unless it is absent or older than schema.json. */
function freshSdks(): string | undefined {
  const dir = path.join(ROOT, ".gen", "sdks");
  const marks = [path.join(dir, "nodejs", "bin", "index.d.ts"), path.join(dir, "go", "go.mod"), path.join(dir, "python", "pyproject.toml")];
  const schemaTime = statSync(SCHEMA_FILE).mtimeMs;
  return marks.every((f) => existsSync(f) && statSync(f).mtimeMs >= schemaTime) ? dir : undefined;
}

/** A file's lines without their comment marks and indentation (a doc comment's text). */
const commentLines = (file: string) =>
  new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .map((l) => l.replace(/^\s*(\/\/|\*(?!\/)|#)?\s*/, "").trimEnd()),
  );

describeWithGo("examples.test")("the examples compile against the generated SDKs, and the docs name what the SDKs declare", () => {
  let tmp: string;
  let sdks: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "compute-examples-"));
    const fresh = freshSdks();
    sdks = fresh ?? path.join(tmp, "sdks");
    if (!fresh) await step("scripts/gen-sdks (.gen/sdks is absent or older than schema.json)", path.join(ROOT, "scripts", "gen-sdks"), [sdks]);
  }, 900_000);

  afterAll(() => {
    process.stderr.write(`examples.test timings (SDKs: ${sdks ? path.relative(ROOT, sdks) : "none"}):\n  ${timings.join("\n  ")}\n`);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("the generators keep each language's block in their SDK's doc comments, and only it", () => {
    const snake = (t: string) => kebab(t).replace(/-/g, "_");
    const files: Record<"typescript" | "python" | "go", (t: string) => string> = {
      typescript: (t) => path.join(sdks, "nodejs", `${t === "Config" ? "config_" : t.charAt(0).toLowerCase() + t.slice(1)}.ts`),
      python: (t) => path.join(sdks, "python", PYTHON_SDK_PACKAGE, `${t === "Config" ? "config_" : snake(t)}.py`),
      go: (t) => path.join(sdks, "go", "compute", `${t.charAt(0).toLowerCase() + t.slice(1)}.go`),
    };
    for (const type of TYPES) {
      for (const [lang, file] of Object.entries(files) as Array<[keyof typeof files, (t: string) => string]>) {
        const text = readFileSync(file(type), "utf8");
        const fences = [...text.matchAll(/```(\w+)/g)].map((m) => m[1]);
        expect([type, lang, [...new Set(fences)]]).toEqual([type, lang, [lang]]);
        const lines = commentLines(file(type));
        const lost = example(type, lang)
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l && !lines.has(l));
        expect([type, lang, lost]).toEqual([type, lang, []]);
      }
    }
  });

  test("every name the docs give a type or function in TypeScript, Python or Go is declared in that SDK", () => {
    const read = (dir: string, ext: string): string =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(ext) && !f.includes("node_modules"))
        .map((f) => readFileSync(path.join(dir, f), "utf8"))
        .join("\n");
    const sources = {
      typescript: read(path.join(sdks, "nodejs"), ".ts"),
      python: read(path.join(sdks, "python", PYTHON_SDK_PACKAGE), ".py"),
      go: read(path.join(sdks, "go", "compute"), ".go"),
    };
    const declared: Record<keyof typeof sources, (name: string) => boolean> = {
      typescript: (n) => new RegExp(`export (interface|function|const|type) ${n}\\b`).test(sources.typescript),
      python: (n) => new RegExp(`^(class|def) ${n}\\b`, "m").test(sources.python),
      go: (n) => new RegExp(`^(type|func) ${n}\\b`, "m").test(sources.go),
    };
    // The identifiers of a cell's code spans that are the SDK's own (not Pulumi's: `pulumi.StringInput`, `Sequence[...]`).
    const names = (lang: keyof typeof sources, text: string): string[] =>
      [...text.matchAll(/`([^`]+)`/g)].flatMap(([, span]) =>
        [...span.matchAll(/(?<![\w.])(?:compute\.|inputs\.|outputs\.|\*compute\.)?([A-Za-z_]\w*)/g)]
          .filter(
            (m) =>
              !/^(pulumi|Sequence|Mapping|Union|Optional|Any|str|int|float|bool|string|number|boolean|any|key|compute|inputs|outputs|fn|invoke|index|interface|map|name|values|ctx)$/.test(
                m[1],
              ),
          )
          .filter((m) => !span.slice(0, m.index).endsWith("pulumi."))
          .map((m) => m[1]),
      );
    const found: Record<keyof typeof sources, Set<string>> = { typescript: new Set(), python: new Set(), go: new Set() };
    const docs = [
      ...readdirSync(path.join(ROOT, "docs", "resources")).map((f) => path.join(ROOT, "docs", "resources", f)),
      path.join(ROOT, "docs", "functions.md"),
    ];
    for (const file of docs) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        // A row of a "Types in each language" table: | property | as | TypeScript | Python | Go |
        const cells = line.startsWith("| `") ? line.split(/(?<!\\)\|/).slice(1, -1) : [];
        if (cells.length === 5 && /^ (argument|output) $/.test(cells[1])) {
          names("typescript", cells[2]).forEach((n) => found.typescript.add(n));
          names("python", cells[3]).forEach((n) => found.python.add(n));
          names("go", cells[4]).forEach((n) => found.go.add(n));
        }
        // A named type's line: **X** (TypeScript `...`, Python `...`, Go `...`):
        const named = /^\*\*\w+\*\* \(TypeScript (.*?), Python (.*?), Go (.*?)\):$/.exec(line);
        if (named) (["typescript", "python", "go"] as const).forEach((lang, i) => names(lang, named[i + 1]).forEach((n) => found[lang].add(n)));
        // A function's row: | TypeScript | the call | a filter | the result |
        const fn = /^\| (TypeScript|Python|Go) \|(.*)$/.exec(line);
        if (fn) {
          const lang = fn[1].toLowerCase() as keyof typeof sources;
          names(lang, fn[2]).forEach((n) => found[lang].add(n));
        }
      }
    }
    for (const lang of ["typescript", "python", "go"] as const) {
      expect([lang, found[lang].size > 50]).toEqual([lang, true]);
      expect([lang, [...found[lang]].filter((n) => !declared[lang](n))]).toEqual([lang, []]);
    }
  });

  test("TypeScript: one tsc over every example, against the generated Node.js SDK", async () => {
    const dir = path.join(tmp, "typescript");
    mkdirSync(path.join(dir, "node_modules", ...NODE_SDK_PACKAGE.split("/").slice(0, -1)), { recursive: true });
    // The SDK as it is published (bin/, with its package.json); it finds @pulumi/pulumi through its own link.
    symlinkSync(path.join(sdks, "nodejs", "bin"), path.join(dir, "node_modules", ...NODE_SDK_PACKAGE.split("/")), "dir");
    for (const type of TYPES) writeFileSync(path.join(dir, `${type}.ts`), example(type, "typescript") + "\n");
    // The hand-written pages' TypeScript programs on the plugin SDK too (those on the dynamic classes: below).
    const pages = handWritten(["ts", "typescript"], new RegExp(`^import \\* as compute from "${NODE_SDK_PACKAGE}";\\n\\n`));
    pages.forEach(({ code }, i) => writeFileSync(path.join(dir, `page_${i}.ts`), code + "\n"));
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "commonjs", moduleResolution: "node", target: "ES2022", types: [], skipLibCheck: true },
        files: [...TYPES.map((t) => `${t}.ts`), ...pages.map((_, i) => `page_${i}.ts`)],
      }),
    );
    await step("tsc --noEmit of every TypeScript example", path.join(ROOT, "node_modules", ".bin", "tsc"), ["-p", dir]);
  }, 300_000);

  test("Go: every example as a function of one package, one go vet against the generated Go SDK; gofmt-clean", async () => {
    const dir = path.join(tmp, "go");
    mkdirSync(dir);
    const mod = path.dirname(GO_SDK_IMPORT);
    const goMod = readFileSync(path.join(sdks, "go", "go.mod"), "utf8");
    expect(goMod).toContain(`module ${mod}\n`);
    const sdkVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(goMod)![1];
    writeFileSync(
      path.join(dir, "go.mod"),
      `module example.com/compute-examples\n\ngo 1.25.11\n\nrequire (\n\t${mod} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${sdkVersion}\n)\n\nreplace ${mod} => ${path.join(sdks, "go")}\n`,
    );
    // The Go test program's sums (the Pulumi Go SDK's dependencies): fewer to look up.
    const sums = path.join(ROOT, "tests", "programs", "go", "go.sum");
    if (existsSync(sums)) copyFileSync(sums, path.join(dir, "go.sum"));
    writeFileSync(path.join(dir, "main.go"), "package main\n\nfunc main() {}\n");
    // The hand-written pages' Go programs too (README.md, docs/_index.md), each as a function of the package.
    const pages = handWritten(["go"], /^package main$/m);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach(({ code }, i) => writeFileSync(path.join(dir, `page_${i}.go`), code.replace("\nfunc main() {\n", `\nfunc page${i}() {\n`) + "\n"));
    for (const type of TYPES) {
      const code = example(type, "go");
      expect([type, code.split("\nfunc main() {\n").length]).toEqual([type, 2]);
      writeFileSync(path.join(dir, `example_${type.toLowerCase()}.go`), code.replace("\nfunc main() {\n", `\nfunc example${type}() {\n`) + "\n");
    }
    const unformatted = await step("gofmt -l", "gofmt", ["-l", "."], { cwd: dir });
    expect(unformatted.stdout.trim()).toBe("");
    // -mod=mod fills go.sum from the module cache (the proxy only for what is not there yet: a first run).
    await step("go vet of every Go example", "go", ["vet", "."], { cwd: dir, env: { GOFLAGS: "-mod=mod" } });
  }, 600_000);

  test("Python: one py_compile of every example; every class and keyword it uses is in the generated Python SDK", async () => {
    const dir = path.join(tmp, "python");
    mkdirSync(dir);
    const files = TYPES.map((t) => path.join(dir, `${kebab(t).replace(/-/g, "_")}.py`));
    TYPES.forEach((t, i) => writeFileSync(files[i], example(t, "python") + "\n"));
    await step("python3 -m py_compile of every Python example", "python3", ["-m", "py_compile", ...files]);
    // The names, against the SDK's sources (the examples run in tests/e2e/plugin-python.e2e.test.ts).
    const pkg = path.join(sdks, "python", PYTHON_SDK_PACKAGE);
    const sources = readdirSync(pkg)
      .filter((f) => f.endsWith(".py"))
      .map((f) => readFileSync(path.join(pkg, f), "utf8"))
      .join("\n");
    for (const type of TYPES) {
      const code = example(type, "python").replace(/"(?:[^"\\]|\\.)*"/g, '""'); // without its strings
      const classes = [...new Set([...code.matchAll(/\bcompute\.(\w+)\(/g)].map((m) => m[1]))].filter((c) => !new RegExp(`\\nclass ${c}\\b[(:]`).test(sources));
      const keywords = [...new Set([...code.matchAll(/[(,\s](\w+)=(?!=)/g)].map((m) => m[1]))].filter((k) => !new RegExp(`\\b${k}: `).test(sources));
      expect([type, classes, keywords]).toEqual([type, [], []]);
    }
  });
});
