/**
 * A program in each language a user writes one in, run as that user runs it, with the plugin the engine
 * downloads from a loopback release folder (tests/helpers/plugin.ts): TypeScript on the plugin SDK and on the
 * dynamic classes, Python (a `runtime: python` project in a virtual environment with the release's wheel) and
 * YAML through the plain CLI in the program's folder; Go through the Automation API (no Go language host is
 * built here), its `main` the one scripts/generate/go-driver.ts writes. Used by the SDK matrix and the errors-in-every-language
 * suites.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { GO_SDK_IMPORT } from "../../scripts/generate/packages";
import type { MatrixLanguage } from "../../scripts/generate/sdk-matrix";
import { TestStack } from "./pulumi";
import { activated, newestPulumi, pythonWheel, venvWith } from "./python";

const ROOT = path.resolve(__dirname, "..", "..");

/** What one run left: its exit code, what the CLI printed, and (after an up) its outputs and its state's resources. */
export interface LanguageRun {
  code: number;
  output: string;
  outputs?: Record<string, unknown>;
  resources?: Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
}

/** A program of `lang` in `dir` (its files written there already, but Pulumi.yaml for TypeScript and Python), ready to run. */
export class LanguageProgram {
  private stack?: TestStack;
  private built?: string;

  constructor(
    readonly lang: MatrixLanguage,
    readonly dir: string,
    private readonly env: Record<string, string>,
    private readonly timed: <T>(name: string, f: () => Promise<T> | T) => Promise<T> = async (_n, f) => f(),
  ) {}

  /** Installs what the program needs: its packages (TypeScript), its virtual environment (Python), its build (Go). */
  async prepare(): Promise<void> {
    const name = `${path.basename(this.dir)}-${this.lang}`.replace(/[^\w-]/g, "-");
    switch (this.lang) {
      case "typescript":
      case "dynamic":
        // The plugin SDK, pulumi-compute and @pulumi/pulumi as scripts/prepare-examples installs them for tests/programs/plugin.
        symlinkSync(path.join(ROOT, "tests", "programs", "plugin", "node_modules"), path.join(this.dir, "node_modules"), "dir");
        writeFileSync(path.join(this.dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
        writeFileSync(path.join(this.dir, "package.json"), JSON.stringify({ name, private: true }));
        writeFileSync(
          path.join(this.dir, "tsconfig.json"),
          JSON.stringify({
            compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", skipLibCheck: true, types: [] },
            files: ["index.ts"],
          }),
        );
        break;
      case "python": {
        const python = await this.timed("python: the virtual environment", () => pythonWithSdk());
        writeFileSync(path.join(this.dir, "Pulumi.yaml"), `name: ${name}\nruntime: python\n`);
        Object.assign(this.env, activated(python));
        break;
      }
      case "go": {
        const mod = path.dirname(GO_SDK_IMPORT);
        const sdk = path.join(ROOT, ".gen", "sdks", "go");
        const sdkVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(readFileSync(path.join(sdk, "go.mod"), "utf8"))![1];
        writeFileSync(
          path.join(this.dir, "go.mod"),
          `module example.com/${name}\n\ngo 1.25.11\n\nrequire (\n\t${mod} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${sdkVersion}\n)\n\nreplace ${mod} => ${sdk}\n`,
        );
        copyFileSync(path.join(ROOT, "tests", "programs", "go", "go.sum"), path.join(this.dir, "go.sum"));
        await this.timed("go: go build", () => run("go", ["build", "-o", "program", "."], { cwd: this.dir, env: { GOFLAGS: "-mod=mod" } }, true));
        this.built = path.join(this.dir, "program");
        mkdirSync(path.join(this.dir, "state"));
        break;
      }
      case "yaml":
        break;
    }
    if (this.lang !== "go") this.stack = new TestStack(this.dir, `run-${this.lang}`, { env: this.env });
  }

  /**
   * `pulumi preview`, `pulumi up` (without its preview) or `pulumi refresh`, as a user runs it; after an up that
   * worked, the outputs (secrets shown) and the state; after a refresh, the state (not in Go).
   */
  async run(op: "preview" | "up" | "refresh" | "destroy"): Promise<LanguageRun> {
    if (this.built) {
      if (op === "refresh") throw new Error("the Go driver runs preview, up and destroy only");
      const outputs = path.join(this.dir, "outputs.json");
      const r = await run(this.built, [op], {
        cwd: this.dir,
        env: {
          ...this.env,
          STACK: `run-${this.lang}`,
          PULUMI_BACKEND_URL: `file://${path.join(this.dir, "state")}`,
          PULUMI_CONFIG_PASSPHRASE: "language-program",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          OUTPUTS: outputs,
        },
      });
      if (r.code !== 0 || op !== "up") return r;
      const project = /"([^"]+)", program\)/.exec(readFileSync(path.join(this.dir, "main.go"), "utf8"))?.[1] ?? "";
      const checkpoint = JSON.parse(readFileSync(path.join(this.dir, "state", ".pulumi", "stacks", project, `run-${this.lang}.json`), "utf8"));
      return { ...r, outputs: JSON.parse(readFileSync(outputs, "utf8")), resources: checkpoint.checkpoint.latest.resources };
    }
    const stack = this.stack!;
    if (op === "preview") {
      // A preview's text as a user reads it (TestStack asks the CLI for JSON).
      await stack.project.init();
      const p = await stack.project.cli(["preview", "--stack", stack.stack, "--color", "never", "--non-interactive"]);
      return { code: p.code, output: `${p.stdout}\n${p.stderr}` };
    }
    const r = await stack.run(op, { flags: ["--skip-preview"] });
    if (r.code !== 0 || op === "destroy") return { code: r.code, output: r.output };
    if (op === "refresh") return { code: 0, output: r.output, resources: stack.resources() };
    const outputs = await stack.run("outputs", { flags: ["--show-secrets"] });
    return { code: 0, output: r.output, outputs: outputs.json as Record<string, unknown>, resources: stack.resources() };
  }

  /** The CLI stack the program runs in (not in Go, which the Automation API runs). */
  get cliStack(): TestStack | undefined {
    return this.stack;
  }

  /** The program's files written anew (a changed program), and built again (Go). */
  async rewrite(files: Record<string, string>): Promise<void> {
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(this.dir, file), text);
    if (this.built) await run("go", ["build", "-o", "program", "."], { cwd: this.dir, env: { GOFLAGS: "-mod=mod" } }, true);
  }

  cleanup(): void {
    this.stack?.cleanup();
  }
}

let venv: Promise<string> | undefined;
/** The python of a virtual environment with the newest `pulumi` and the SDK's wheel (built once a process, into a folder of its own). */
export function pythonWithSdk(): Promise<string> {
  venv ??= (async () => {
    const wheels = mkdtempSync(path.join(tmpdir(), "pulumi-compute-wheel-"));
    return venvWith(newestPulumi(), pythonWheel(wheels));
  })();
  return venv;
}

/** A command to its end: its exit code and what it printed (`must`: throw when it fails). */
function run(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string> }, must = false): Promise<LanguageRun> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
      if (must && code !== 0) reject(new Error(`${cmd} ${args.join(" ")} failed:\n${stderr}\n${stdout}`.slice(0, 20000)));
      else resolve({ code, output: `${stdout}\n${stderr}` });
    }),
  );
}
