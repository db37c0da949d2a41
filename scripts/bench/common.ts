/**
 * What the benchmark's sections share: running the CLI in a program's folder with the peak memory of each
 * process kind, the plugins installed as a user installs them, and how state entries are measured.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { packageNoopPlugin, packagePlugin } from "../package-plugin";
import { NOOP_VERSION } from "../noop-plugin";
import { Project, pulumiBin, type Op } from "../pulumi";
import { repoRoot } from "../root";

export const ROOT = repoRoot();
export type Props = Record<string, unknown>;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
export const fmt = (n: number, d = 0) => n.toFixed(d);

/** Peak resident memory (kB) of each kind of process a run starts. */
export interface Peaks {
  cli: number;
  provider: number;
  program: number;
}

/** Which kind of the run's processes a command line is, if any. */
function kindOf(cmdline: string[]): keyof Peaks | undefined {
  if (path.basename(cmdline[0] ?? "") === "pulumi") return "cli";
  if (cmdline.some((a) => /pulumi-resource-(compute|noop)$/.test(a) || a.includes("cmd/dynamic-provider"))) return "provider";
  if (cmdline.some((a) => /[/\\]cmd[/\\]run([/\\]|$)/.test(a))) return "program";
  return undefined;
}

/**
 * Samples /proc every 200 ms: the largest peak resident set (VmHWM) of each kind of process (the CLI, the
 * provider process, the program's Node.js). Linux only; elsewhere every figure stays 0.
 */
export class PeakSampler {
  readonly peaks: Peaks = { cli: 0, provider: 0, program: 0 };
  private timer: NodeJS.Timeout | undefined;
  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), 200);
  }
  stop(): Peaks {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    return this.peaks;
  }
  private sample(): void {
    if (!existsSync("/proc/self/status")) return;
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const kind = kindOf(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"));
        if (!kind) continue;
        const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
        this.peaks[kind] = Math.max(this.peaks[kind], hwm);
      } catch {
        // the process ended meanwhile
      }
    }
  }
}

/** One CLI step in the program's folder (scripts/pulumi.ts): its time, the peaks of its processes, and its output. */
export async function runCli(
  op: Op,
  dir: string,
  stack: string,
  stateDir: string,
  config: Record<string, string>,
  secrets: Record<string, string>,
  env: Record<string, string> = {},
  flags: string[] = [],
): Promise<{ ms: number; peaks: Peaks; stdout: string; stderr: string }> {
  const project = new Project(dir, stack, stateDir, env);
  await project.configure(config, secrets);
  const sampler = new PeakSampler();
  sampler.start();
  const t0 = Date.now();
  const r = await project.run(op, flags, { timeoutMs: 3_600_000 });
  const ms = Date.now() - t0;
  const peaks = sampler.stop();
  if (r.code !== 0) throw new Error(`${op} failed: ${r.stderr.slice(-2000)}`);
  return { ms, peaks, stdout: r.stdout, stderr: r.stderr };
}

/** The plugin SDK's tarball (bench/scale installs it), made by scripts/gen-sdks when missing or older than schema.json. */
export function ensurePluginSdk(): void {
  const tgz = path.join(ROOT, ".gen", "sdks", "compute-plugin-sdk.tgz");
  if (existsSync(tgz) && statSync(tgz).mtimeMs >= statSync(path.join(ROOT, "schema.json")).mtimeMs) return;
  console.error("bench: .gen/sdks/compute-plugin-sdk.tgz missing or older than schema.json, running scripts/gen-sdks...");
  execFileSync(path.join(ROOT, "scripts", "gen-sdks"), { stdio: ["ignore", "ignore", "inherit"] });
}

let home: string | undefined;
/**
 * The environment every CLI run of the benchmark uses: a PULUMI_HOME of its own where `pulumi plugin install`
 * put pulumi-resource-compute (`npm run package:plugin`'s archive) and the do-nothing pulumi-resource-noop,
 * and a PATH with the CLI and Node only. The same for every kind, the dynamic ones included.
 */
export function pluginEnv(): Record<string, string> {
  if (!home) {
    home = mkdtempSync(path.join(tmpdir(), "bench-pulumi-home-"));
    const archives = mkdtempSync(path.join(tmpdir(), "bench-archives-"));
    const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const install = (name: string, v: string, archive: string) =>
      execFileSync(path.join(pulumiBin(), "pulumi"), ["plugin", "install", "resource", name, v, "--file", archive], {
        env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
        stdio: "ignore",
      });
    install("compute", version, packagePlugin(archives)[0]);
    install("noop", NOOP_VERSION, packageNoopPlugin(archives, NOOP_VERSION));
  }
  return { PULUMI_HOME: home, PATH: [pulumiBin(), path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(path.delimiter) };
}

export interface StateResource {
  type: string;
  urn: string;
  inputs?: Props & { __provider?: string };
  outputs?: Props;
}
export interface Exported {
  deployment: { resources?: StateResource[] };
}
export const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/** Where the bytes of state entries go (compact JSON), summed over the entries given. */
export function breakdown(rs: StateResource[]): { total: number; provider: number; declared: number; data: number; engine: number; trace: number } {
  const field = (o: Props | undefined, k: string) => (o && k in o ? bytes({ [k]: o[k] }) - 1 : 0); // `"k":v,`
  const out = { total: 0, provider: 0, declared: 0, data: 0, engine: 0, trace: 0 };
  for (const r of rs) {
    const total = bytes(r);
    const props = bytes(r.inputs ?? {}) + bytes(r.outputs ?? {});
    const provider = field(r.inputs, "__provider") + field(r.outputs, "__provider");
    const declared = field(r.inputs, "__declared") + field(r.outputs, "__declared");
    out.total += total;
    out.provider += provider;
    out.declared += declared;
    out.data += props - provider - declared;
    out.engine += total - props;
    out.trace += field(r as unknown as Props, "sourcePosition") + field(r as unknown as Props, "stackTrace");
  }
  return out;
}
