import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Project, type Op } from "../../scripts/pulumi";

const ROOT = path.resolve(__dirname, "..", "..");

export interface PulumiResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Everything the CLI printed (the engine prints progress on stdout, errors on stderr). */
  output: string;
  json: any;
}

/**
 * A stack of a program (an example, or a test program), with its own file backend, run with the plain
 * Pulumi CLI in the program's folder (scripts/pulumi.ts): `pulumi stack init`, `pulumi config set`, ...
 */
export class TestStack {
  readonly stateDir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-e2e-"));
  readonly dir: string;
  readonly project: Project;
  /** Everything the CLI printed in this stack's runs, for secret audits. */
  readonly transcript: string[] = [];
  /** `example`: a folder of examples/, a path from the repository's root (tests/programs/...), or an absolute path. */
  constructor(
    example: string,
    readonly stack: string,
    private readonly base: { config?: Record<string, string>; secrets?: Record<string, string>; env?: Record<string, string> } = {},
  ) {
    this.dir = path.isAbsolute(example) ? example : path.join(ROOT, example.includes("/") ? example : path.join("examples", example));
    // A program that installs packages (the examples, the TypeScript test programs) must have them installed.
    const manifest = path.join(this.dir, "package.json");
    if (
      existsSync(manifest) &&
      !existsSync(path.join(this.dir, "node_modules", readFileSync(manifest, "utf8").includes('"pulumi-compute"') ? "pulumi-compute" : "@pulumi"))
    ) {
      throw new Error(`${path.relative(ROOT, this.dir)} is not prepared: run scripts/prepare-examples (npm test does)`);
    }
    this.project = new Project(this.dir, stack, this.stateDir, base.env);
  }

  /**
   * Sets the config that differs (`pulumi config set [--secret]`; a key given as undefined is removed
   * with `pulumi config rm`), then runs the operation.
   */
  async run(
    op: Op,
    extra: { config?: Record<string, string | undefined>; secrets?: Record<string, string>; env?: Record<string, string>; flags?: string[] } = {},
  ): Promise<PulumiResult> {
    await this.project.configure({ ...this.base.config, ...extra.config }, { ...this.base.secrets, ...extra.secrets });
    const r = await this.project.run(op, extra.flags ?? [], { env: extra.env });
    // A --show-secrets export is decrypted on purpose: it is not part of what the audit reads.
    if (!extra.flags?.includes("--show-secrets")) this.transcript.push(r.stdout, r.stderr);
    return { ...r, output: `${r.stdout}\n${r.stderr}` };
  }

  async ok(op: Op, extra: Parameters<TestStack["run"]>[1] = {}): Promise<any> {
    const r = await this.run(op, extra);
    if (r.code !== 0) throw new Error(`pulumi ${op} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r.json;
  }

  /**
   * `pulumi preview`, then `pulumi up` with the same settings: the up must make exactly the steps the
   * preview planned (each resource's operation but `same`), else this fails naming the difference.
   * Returns both runs; the up's `json` is `{ summary, outputs, steps }` (its steps but `same`).
   */
  async upAsPlanned(extra: Parameters<TestStack["run"]>[1] = {}): Promise<{ preview: PulumiResult; up: PulumiResult }> {
    const preview = await this.run("preview", extra);
    if (preview.code !== 0) throw new Error(`pulumi preview failed (${preview.code}):\n${preview.stderr}\n${preview.stdout}`);
    const up = await this.run("up", { ...extra, flags: [...(extra.flags ?? []), "--json"] });
    if (up.code !== 0) throw new Error(`pulumi up failed (${up.code}):\n${up.stderr}\n${up.stdout}`);
    // What changes: a preview lists a resource left as it is only with --show-sames, and the reads of
    // --refresh not at all; a replacement is one step in a preview (`replace`), three in the up's events.
    const planned = previewSteps(preview.json).filter((x) => !/^(same|refresh) /.test(x));
    const made = upSteps(up.stdout).filter((x) => !/^(same|refresh|create-replacement|delete-replaced) /.test(x));
    expect({ planned: planned.filter((s) => !made.includes(s)), made: made.filter((s) => !planned.includes(s)) }).toEqual({ planned: [], made: [] });
    up.json.steps = made;
    return { preview, up };
  }

  /** The stack's config file (Pulumi.<stack>.yaml) as written by the CLI. */
  configFile(): string {
    return readFileSync(path.join(this.dir, `Pulumi.${this.stack}.yaml`), "utf8");
  }

  /**
   * The resources of the stack's last checkpoint, read from the file backend (`.pulumi/stacks/<project>/<stack>.json`),
   * without a CLI run: what `pulumi stack export` lists, secrets encrypted.
   */
  resources(): Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> {
    const project = /^name:\s*["']?([^"'\s#]+)/m.exec(readFileSync(path.join(this.dir, "Pulumi.yaml"), "utf8"))?.[1];
    const file = path.join(this.stateDir, ".pulumi", "stacks", project ?? "", `${this.stack}.json`);
    return JSON.parse(readFileSync(file, "utf8")).checkpoint?.latest?.resources ?? [];
  }

  /** Removes the stack's config file and backend. */
  cleanup(): void {
    rmSync(path.join(this.dir, `Pulumi.${this.stack}.yaml`), { force: true });
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

/** The resources of a stack export, by type suffix. */
export function resourcesOf(exported: any, typeSuffix: string): any[] {
  return (exported.deployment.resources ?? []).filter((r: any) => r.type.endsWith(typeSuffix));
}

/** `<op> <resource name> (<type>)` for each step of a `pulumi preview --json`, sorted. */
export function previewSteps(preview: any): string[] {
  return ((preview?.steps ?? []) as Array<{ op: string; urn: string }>).map((s) => stepName(s.op, s.urn)).sort();
}

/** The same for the steps an `up --json` made: its engine events, one a line after the preview it prints first. */
export function upSteps(stdout: string): string[] {
  const steps: string[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith('{"sequence"')) continue;
    const pre = JSON.parse(line).resourcePreEvent?.metadata;
    if (pre) steps.push(stepName(pre.op, pre.urn));
  }
  return steps.sort();
}

const stepName = (op: string, urn: string) => {
  const parts = urn.split("::");
  return `${op} ${parts.slice(3).join("::")} (${(parts[2] ?? "").split("$").pop()})`;
};
