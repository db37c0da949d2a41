/**
 * Runs the plain Pulumi CLI in a program's folder, the way a user types it: `pulumi stack init`,
 * `pulumi config set [--secret]`, `pulumi up --yes`, `pulumi preview [--diff]`, `pulumi refresh --yes`,
 * `pulumi destroy --yes`, `pulumi stack export`, `pulumi stack output --json`, `pulumi stack rm --yes`.
 * The CLI and its language hosts are the ones scripts/ensure-pulumi provides (docs/pulumi-cli.md); the
 * program is the folder's `index.ts`, run by the Node.js language host with the program's own typescript.
 * Used by the tests (tests/helpers/pulumi.ts), the demo and the benchmark; nothing here is a shortcut
 * around the CLI's operations (what one did is read from the file backend's history and checkpoint, the
 * files `pulumi stack history` and `pulumi stack output` read).
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./root";

const ROOT = repoRoot();

let binDir: string | undefined;
/** The folder holding `pulumi` and the language hosts, from scripts/ensure-pulumi (asked once). */
export function pulumiBin(): string {
  binDir ??= execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  return binDir;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a step of the CLI did: `pulumi stack history`'s resource changes, and the stack's outputs. */
export interface OpResult extends CliResult {
  // The CLI's JSON (a preview, an export, the outputs): read by the tests and the bench as they check it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** A state's values as `pulumi stack output --json` prints them: every secret (Pulumi's signature key) as "[secret]". */
function hideSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(hideSecrets);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270") return "[secret]";
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, hideSecrets(x)]));
  }
  return v;
}

export type Op = "up" | "preview" | "refresh" | "destroy" | "export" | "outputs" | "rm" | "import";

/**
 * A stack of a program in `dir`, with a local file backend in `stateDir`. Settings are passed to the CLI
 * through the environment a user's shell would have (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, ...).
 */
export class Project {
  private created = false;
  /** The config the stack holds, as last set through the CLI (a change sets it again). */
  private readonly held = new Map<string, string>();

  constructor(
    readonly dir: string,
    readonly stack: string,
    readonly stateDir: string,
    private readonly baseEnv: Record<string, string> = {},
  ) {
    mkdirSync(stateDir, { recursive: true });
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const bin = pulumiBin();
    return {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${this.stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "pulumi-compute-local",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // The CLI and its hosts first; the plugin scripts run `node`, which must be this Node (22).
      PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
      ...this.baseEnv,
      ...extra,
    };
  }

  /** `pulumi <args>` in the program's folder. `wrap` runs it under another command (`/usr/bin/time`). */
  cli(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; wrap?: string[] } = {}): Promise<CliResult> {
    const pulumi = path.join(pulumiBin(), "pulumi");
    const [cmd, ...argv] = opts.wrap ? [...opts.wrap, pulumi, ...args] : [pulumi, ...args];
    return new Promise((resolve) => {
      execFile(
        cmd,
        argv,
        { cwd: this.dir, env: this.env(opts.env), maxBuffer: 256 * 1024 * 1024, timeout: opts.timeoutMs ?? 300_000 },
        (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  private async must(args: string[], env?: Record<string, string>): Promise<CliResult> {
    const r = await this.cli(args, { env });
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    return r;
  }

  /** `pulumi stack init` once (a stack already in the backend, a fixture's, is selected instead). */
  async init(): Promise<void> {
    if (this.created) return;
    const r = await this.cli(["stack", "init", this.stack]);
    if (r.code !== 0 && !/already exists/.test(r.stderr)) throw new Error(`pulumi stack init ${this.stack} failed:\n${r.stderr}`);
    this.created = true;
  }

  /**
   * `pulumi config set-all` for the values that differ from what the stack holds (`--secret` for secrets),
   * `pulumi config rm-all` for the keys given as undefined.
   */
  async configure(config: Record<string, string | undefined> = {}, secrets: Record<string, string> = {}): Promise<void> {
    await this.init();
    const wanted: Array<[string, string | undefined, boolean]> = [
      ...Object.entries(config).map(([k, v]) => [k, v, false] as [string, string | undefined, boolean]),
      ...Object.entries(secrets).map(([k, v]) => [k, v, true] as [string, string, boolean]),
    ];
    // What differs, in one `pulumi config set-all` and one `pulumi config rm-all` (each CLI run costs about
    // a second of CPU; a value that looks like a secret is set with --plaintext, as the CLI asks).
    const set: string[] = [];
    const rm: string[] = [];
    for (const [key, value, secret] of wanted) {
      const mark = value === undefined ? undefined : `${secret ? "s" : "p"}:${value}`;
      if (this.held.get(key) === mark) continue;
      if (value === undefined) rm.push(key);
      else set.push(secret ? "--secret" : "--plaintext", `${key}=${value}`);
    }
    if (rm.length) await this.must(["config", "rm-all", ...rm, "--stack", this.stack]);
    if (set.length) await this.must(["config", "set-all", "--stack", this.stack, ...set]);
    for (const [key, value, secret] of wanted) {
      if (value === undefined) this.held.delete(key);
      else this.held.set(key, `${secret ? "s" : "p"}:${value}`);
    }
  }

  /**
   * One value inside a structured config key, as `pulumi config set --path` sets it (`pulumi:autonaming.mode
   * verbatim`); undefined removes the key with `pulumi config rm --path`.
   */
  async configurePath(key: string, value: string | undefined): Promise<void> {
    await this.init();
    if (value === undefined) await this.must(["config", "rm", "--path", key, "--stack", this.stack]);
    else await this.must(["config", "set", "--path", key, "--stack", this.stack, "--", value]);
  }

  /**
   * The file backend's own files for this stack (`.pulumi/history/<project>/<stack>/` and
   * `.pulumi/stacks/<project>/<stack>.json`), when the stack lives in `stateDir` and they are there: what
   * `pulumi stack history --json` and `pulumi stack output --json` print is read from them, without two more
   * CLI runs (each about a second of CPU) after every operation. Else undefined: the CLI is asked.
   */
  private stateFiles(): { history: string; checkpoint: string } | undefined {
    if (this.baseEnv.PULUMI_BACKEND_URL !== undefined || this.stack.includes("/")) return undefined;
    const manifest = path.join(this.dir, "Pulumi.yaml");
    const name = existsSync(manifest) ? /^name:\s*["']?([^"'\s#]+)/m.exec(readFileSync(manifest, "utf8"))?.[1] : undefined;
    if (!name) return undefined;
    const root = path.join(this.stateDir, ".pulumi");
    const files = { history: path.join(root, "history", name, this.stack), checkpoint: path.join(root, "stacks", name, `${this.stack}.json`) };
    return existsSync(files.history) && existsSync(files.checkpoint) ? files : undefined;
  }

  /** The resource changes of the newest entry of `pulumi stack history`. */
  async lastChanges(): Promise<Record<string, number>> {
    const files = this.stateFiles();
    if (files) {
      const stamp = (f: string) => BigInt(/-(\d+)\.history\.json$/.exec(f)?.[1] ?? "0");
      const newest = readdirSync(files.history)
        .filter((f) => f.endsWith(".history.json"))
        .sort((a, b) => (stamp(b) > stamp(a) ? 1 : stamp(b) < stamp(a) ? -1 : 0))[0];
      if (newest)
        return (JSON.parse(readFileSync(path.join(files.history, newest), "utf8")) as { resourceChanges?: Record<string, number> }).resourceChanges ?? {};
    }
    const r = await this.must(["stack", "history", "--json", "--stack", this.stack]);
    const history = JSON.parse(r.stdout) as Array<{ resourceChanges?: Record<string, number> }>;
    return history[0]?.resourceChanges ?? {};
  }

  /** `pulumi stack output --json`: secret outputs read "[secret]", as a user sees them. */
  async outputs(): Promise<Record<string, unknown>> {
    const files = this.stateFiles();
    if (files) {
      const state = JSON.parse(readFileSync(files.checkpoint, "utf8")) as {
        checkpoint?: { latest?: { resources?: Array<{ type: string; outputs?: unknown }> } };
      };
      const root = state.checkpoint?.latest?.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
      return (root ? hideSecrets(root.outputs ?? {}) : {}) as Record<string, unknown>;
    }
    return JSON.parse((await this.must(["stack", "output", "--json", "--stack", this.stack])).stdout) as Record<string, unknown>;
  }

  /**
   * One operation as a user types it, plus what tests read back: `json` is `{ summary, outputs }` after
   * up and refresh, `{ summary }` after destroy, the `--json` preview (unless `--diff` asks for the text),
   * the exported state, or the outputs.
   */
  async run(op: Op, flags: string[] = [], opts: { env?: Record<string, string>; timeoutMs?: number; wrap?: string[] } = {}): Promise<OpResult> {
    await this.init();
    const s = ["--stack", this.stack];
    const common = [...s, "--color", "never", "--non-interactive"];
    let args: string[];
    switch (op) {
      case "up":
      case "refresh":
      case "destroy":
        args = [op, "--yes", ...common, ...flags];
        break;
      case "preview":
        // A policy pack's findings are printed as text only (the JSON leaves them out).
        args = ["preview", ...common, ...(flags.includes("--diff") || flags.includes("--policy-pack") ? [] : ["--json"]), ...flags];
        break;
      case "import":
        args = ["import", "--yes", ...common, ...flags];
        break;
      case "export":
        args = ["stack", "export", ...s, ...flags];
        break;
      case "outputs":
        args = ["stack", "output", "--json", ...s, ...flags];
        break;
      case "rm":
        args = ["stack", "rm", "--yes", ...s, ...flags];
        break;
    }
    const r = await this.cli(args, opts);
    let json: unknown;
    if (r.code === 0) {
      if (op === "up" || op === "refresh" || op === "import") json = { summary: await this.lastChanges(), outputs: await this.outputs() };
      else if (op === "destroy") json = { summary: await this.lastChanges() };
      else if (op === "rm") json = {};
    }
    if (json === undefined && ["preview", "export", "outputs"].includes(op)) {
      try {
        json = JSON.parse(r.stdout) as unknown;
      } catch {
        json = undefined;
      }
    }
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- OpResult.json: the CLI's JSON, any by design (above).
    return { ...r, json: json as OpResult["json"] };
  }
}
