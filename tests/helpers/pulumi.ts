import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const RUNNER = path.join(ROOT, "dist", "scripts", "pulumi.js");

export interface PulumiResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** A stack of an example, with its own file backend; `run` drives the real CLI through scripts/pulumi.ts. */
export class TestStack {
  readonly stateDir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-e2e-"));
  readonly dir: string;
  /** Everything the CLI printed in this stack's runs, for secret audits. */
  readonly transcript: string[] = [];
  /** `example`: a folder of examples/, or a path from the repository's root (tests/programs/...). */
  constructor(
    example: string,
    readonly stack: string,
    private readonly base: { config?: Record<string, string>; secrets?: Record<string, string> } = {},
  ) {
    this.dir = path.join(ROOT, example.includes("/") ? example : path.join("examples", example));
    if (!existsSync(path.join(this.dir, "node_modules", "pulumi-compute"))) {
      throw new Error(`${path.relative(ROOT, this.dir)} is not prepared: run scripts/prepare-examples (npm test does)`);
    }
  }

  run(op: string, extra: { config?: Record<string, string>; secrets?: Record<string, string>; env?: Record<string, string>; flags?: string[] } = {}): Promise<PulumiResult> {
    const args = [RUNNER, op, "--dir", this.dir, "--stack", this.stack, "--state", this.stateDir, "--json", ...(extra.flags ?? [])];
    for (const [k, v] of Object.entries({ ...this.base.config, ...extra.config })) args.push("--config", `${k}=${v}`);
    for (const [k, v] of Object.entries({ ...this.base.secrets, ...extra.secrets })) args.push("--secret", `${k}=${v}`);
    return new Promise((resolve) => {
      execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...extra.env }, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        let json: unknown;
        try {
          json = JSON.parse(stdout.trim().split("\n").pop() ?? "");
        } catch {
          json = undefined;
        }
        // A --show-secrets export is decrypted on purpose: it is not part of what the audit reads.
        if (!extra.flags?.includes("--show-secrets")) this.transcript.push(stdout, stderr);
        resolve({ code: typeof code === "number" ? code : 1, stdout, stderr, json });
      });
    });
  }

  async ok(op: string, extra: Parameters<TestStack["run"]>[1] = {}): Promise<any> {
    const r = await this.run(op, extra);
    if (r.code !== 0) throw new Error(`pulumi ${op} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r.json;
  }

  /** The stack's config file (Pulumi.<stack>.yaml) as written by the CLI. */
  configFile(): string {
    return readFileSync(path.join(this.dir, `Pulumi.${this.stack}.yaml`), "utf8");
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
