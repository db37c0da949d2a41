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
 * - YAML: every example merged into one program (resources and outputs renamed `<type>-<name>`), one
 *   `pulumi preview` through the plugin against the emulator: every resource of every example is planned.
 *
 * And the generators keep each language's block in their SDK's doc comments, and only it.
 *
 * The SDKs are .gen/sdks (npm test makes them before Jest); when they are older than schema.json (or absent)
 * they are generated anew into a temporary folder. Needs Go: without it the suite fails, naming Go, as
 * sdkgen.test.ts does (`COMPUTE_SKIP_GO=1` skips it outside CI: tests/helpers/go.ts).
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { specs } from "../../provider/registry";
import { EXAMPLE_LANGUAGES, type ExampleLanguage } from "../../scripts/generate/examples";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, PROJECT, PYTHON_SDK_PACKAGE } from "../../scripts/generate/packages";
import { emulator } from "../helpers/emulator";
import { describeWithGo } from "../helpers/go";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { previewSteps, TestStack } from "../helpers/pulumi";

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

/**
 * Every example's YAML program as one: each resource, variable and output renamed `<type>-<name>` (and
 * the references to them), so that the parents each example makes for itself do not clash. The first
 * resource names the plugin's version and server (what tests/programs/yaml does): the engine finds the
 * plugin from them.
 */
function mergedYaml(): { program: string; creates: string[] } {
  const sections: Record<string, string[][]> = { variables: [], resources: [], outputs: [] };
  for (const type of TYPES) {
    const prefix = kebab(type);
    const lines = example(type, "yaml").split("\n");
    const declared = new Set(lines.filter((l) => /^ {2}[\w-]+:/.test(l)).map((l) => /^ {2}([\w-]+):/.exec(l)![1]));
    const rename = (l: string) => l.replace(/\$\{([\w-]+)/g, (m, n: string) => (declared.has(n) ? `\${${prefix}-${n}` : m));
    let section: string[][] | undefined;
    for (const line of lines) {
      const top = /^(\w+):\s*$/.exec(line);
      if (top) {
        section = sections[top[1]];
        if (!section) throw new Error(`${type}: the YAML example has a top-level "${top[1]}" this merge does not know`);
      } else if (/^ {2}[\w-]+:/.test(line)) section!.push([rename(line.replace(/^ {2}/, `  ${prefix}-`))]);
      else if (line.trim()) section!.at(-1)!.push(rename(line));
    }
  }
  const download = PROJECT.pluginDownloadURL.replace("${VERSION}", PLUGIN_VERSION);
  sections.resources[0].push("    options:", `      version: ${PLUGIN_VERSION}`, `      pluginDownloadURL: ${download}`);
  const out = ["name: compute-examples", "runtime: yaml", "description: Every resource example of schema.json, merged (tests/integration/examples.test.ts)."];
  for (const [name, entries] of Object.entries(sections)) if (entries.length) out.push(`${name}:`, ...entries.flat());
  // What a preview plans for it: `create <name> (<type>)`, as previewSteps writes the steps.
  const creates = sections.resources.map((r) => `create ${/^ {2}([\w-]+):/.exec(r[0])![1]} (${/^ {4}type: (\S+)/m.exec(r.join("\n"))![1]})`);
  return { program: out.join("\n") + "\n", creates: creates.sort() };
}

describeWithGo("examples.test")("the examples compile against the generated SDKs, and the YAML ones run through the CLI", () => {
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

  test("TypeScript: one tsc over every example, against the generated Node.js SDK", async () => {
    const dir = path.join(tmp, "typescript");
    mkdirSync(path.join(dir, "node_modules", ...NODE_SDK_PACKAGE.split("/").slice(0, -1)), { recursive: true });
    // The SDK as it is published (bin/, with its package.json); it finds @pulumi/pulumi through its own link.
    symlinkSync(path.join(sdks, "nodejs", "bin"), path.join(dir, "node_modules", ...NODE_SDK_PACKAGE.split("/")), "dir");
    for (const type of TYPES) writeFileSync(path.join(dir, `${type}.ts`), example(type, "typescript") + "\n");
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "commonjs", moduleResolution: "node", target: "ES2022", types: [], skipLibCheck: true },
        files: TYPES.map((t) => `${t}.ts`),
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

  describe("YAML: every example in one program, one pulumi preview through the plugin against the emulator", () => {
    let emu: Emulator;
    let plugin: AcquiredPlugin;
    let stack: TestStack;

    beforeAll(async () => {
      emu = await emulator();
      const t0 = Date.now();
      plugin = await acquirePlugin();
      timings.push(`the plugin's release folder and server (acquirePlugin): ${((Date.now() - t0) / 1000).toFixed(1)}s`);
      const dir = path.join(tmp, "yaml");
      mkdirSync(dir);
      writeFileSync(path.join(dir, "Pulumi.yaml"), mergedYaml().program);
      stack = new TestStack(dir, `examples-${process.pid}`, { env: { ...plugin.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token } });
    }, 300_000);
    afterAll(async () => {
      stack?.cleanup();
      await plugin?.cleanup();
      await emu?.close();
    });

    test("pulumi preview plans every resource of every example, and the provider accepts every input", async () => {
      const { creates } = mergedYaml();
      const t0 = Date.now();
      const preview = await stack.run("preview");
      timings.push(`pulumi stack init, pulumi preview of the merged YAML program: ${((Date.now() - t0) / 1000).toFixed(1)}s`);
      if (preview.code !== 0) throw new Error(`pulumi preview failed (${preview.code}):\n${preview.stderr}\n${preview.stdout}`.slice(0, 12000));
      expect(previewSteps(preview.json).filter((s) => /\(compute:index:\w+\)$/.test(s))).toEqual(creates);
      // Each example's own resource among them.
      for (const type of TYPES)
        expect([type, creates.some((s) => new RegExp(`^create ${kebab(type)}-[\\w-]+ \\(compute:index:${type}\\)$`).test(s))]).toEqual([type, true]);
    }, 300_000);
  });
});
