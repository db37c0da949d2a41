#!/usr/bin/env node
/**
 * Runs a real Pulumi CLI operation on a stack program in a folder (an example, or a user's project):
 *
 *   node dist/scripts/pulumi.js <up|preview|refresh|destroy|export|outputs|rm> --dir DIR [--stack NAME]
 *        [--config key=value]... [--secret key=value]... [--state DIR] [--json] [--show-secrets] [--diff]
 *
 * The CLI is the one scripts/ensure-pulumi provides (built from the Go module proxy when needed). The
 * Node.js language host of the CLI cannot be had from the module proxy, so the program runs in this
 * process through the CLI's `--client` mode, as the Automation API runs inline programs: the CLI engine,
 * the state, the diff, the dynamic-provider plugin and its process are all the real ones (docs/pulumi-cli.md).
 * The program's module is loaded like `pulumi up` loads it: its exports become the stack outputs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "./root";

const ROOT = repoRoot();
const OPS = ["up", "preview", "refresh", "destroy", "export", "outputs", "rm"] as const;
type Op = (typeof OPS)[number];

export interface RunOptions {
  op: Op;
  dir: string;
  stack: string;
  config?: Record<string, string>;
  secrets?: Record<string, string>;
  /** Folder of the local file backend (default: DIR/.pulumi-state). */
  stateDir?: string;
  /** Print only a JSON result on stdout. */
  json?: boolean;
  /** export: decrypt secrets, as `pulumi stack export --show-secrets` (never the default). */
  showSecrets?: boolean;
  /** preview: print the full property diff, as `pulumi preview --diff`. */
  diff?: boolean;
}

function keyValues(items: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items ?? []) {
    const i = item.indexOf("=");
    if (i <= 0) throw new Error(`${flag} takes key=value, got "${item}"`);
    out[item.slice(0, i)] = item.slice(i + 1);
  }
  return out;
}

/** The folder holding bin/pulumi, from scripts/ensure-pulumi. */
export function pulumiRoot(): string {
  const bin = execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  return path.dirname(bin);
}

export async function run(opts: RunOptions): Promise<Record<string, unknown>> {
  const dir = path.resolve(opts.dir);
  if (!existsSync(path.join(dir, "Pulumi.yaml"))) throw new Error(`${dir} has no Pulumi.yaml`);
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { main?: string };
  const entry = path.resolve(dir, pkg.main ?? "index.js");
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: build the program first (scripts/prepare-examples)`);

  // The program and the language server must share one @pulumi/pulumi: take the program's own.
  const pulumiPkg = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [dir] }));
  const auto = require(path.join(pulumiPkg, "automation")) as typeof import("@pulumi/pulumi/automation");

  const stateDir = path.resolve(opts.stateDir ?? path.join(dir, ".pulumi-state"));
  mkdirSync(stateDir, { recursive: true });
  const root = pulumiRoot();
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "pulumi-compute-local",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The dynamic-provider plugin beside the CLI runs `node`, which must be the Node this runs on.
    PATH: [path.join(root, "bin"), path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
  };
  for (const [k, v] of Object.entries(envVars)) process.env[k] = v;

  const pulumiCommand = await auto.PulumiCommand.get({ root, skipVersionCheck: true });
  const program = async () => {
    delete require.cache[entry];
    return require(entry);
  };
  const ws = await auto.LocalWorkspace.create({ workDir: dir, program, pulumiCommand, envVars });
  const stack = await auto.Stack.createOrSelect(opts.stack, ws);
  for (const [k, v] of Object.entries(opts.config ?? {})) await stack.setConfig(k, { value: v });
  for (const [k, v] of Object.entries(opts.secrets ?? {})) await stack.setConfig(k, { value: v, secret: true });

  const onOutput = opts.json ? (s: string) => process.stderr.write(s) : (s: string) => process.stdout.write(s);
  const outputs = async () => Object.fromEntries(Object.entries(await stack.outputs()).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]));
  switch (opts.op) {
    case "up": {
      const r = await stack.up({ onOutput, color: "never" });
      return { summary: r.summary.resourceChanges, outputs: await outputs() };
    }
    case "preview": {
      const r = await stack.preview({ onOutput, color: "never", diff: opts.diff });
      return { changeSummary: r.changeSummary };
    }
    case "refresh": {
      const r = await stack.refresh({ onOutput, color: "never" });
      return { summary: r.summary.resourceChanges, outputs: await outputs() };
    }
    case "destroy": {
      const r = await stack.destroy({ onOutput, color: "never" });
      return { summary: r.summary.resourceChanges };
    }
    case "export": {
      // What a user's `pulumi stack export` prints. (The Automation API's exportStack() adds
      // --show-secrets, which decrypts every secret: not what a state audit must look at.)
      const text = execFileSync(path.join(root, "bin", "pulumi"), ["stack", "export", "--stack", opts.stack, ...(opts.showSecrets ? ["--show-secrets"] : [])], {
        cwd: dir,
        env: { ...process.env, ...envVars },
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      });
      return JSON.parse(text) as Record<string, unknown>;
    }
    case "outputs":
      return outputs();
    case "rm":
      await ws.removeStack(opts.stack);
      return {};
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      dir: { type: "string" },
      stack: { type: "string", default: "dev" },
      config: { type: "string", multiple: true },
      secret: { type: "string", multiple: true },
      state: { type: "string" },
      json: { type: "boolean", default: false },
      "show-secrets": { type: "boolean", default: false },
      diff: { type: "boolean", default: false },
    },
  });
  const op = positionals[0] as Op;
  if (!OPS.includes(op) || !values.dir) {
    console.error(`usage: pulumi.js <${OPS.join("|")}> --dir DIR [--stack NAME] [--config k=v]... [--secret k=v]... [--state DIR] [--json]`);
    process.exit(2);
  }
  const result = await run({
    op,
    dir: values.dir,
    stack: values.stack!,
    config: keyValues(values.config, "--config"),
    secrets: keyValues(values.secret, "--secret"),
    stateDir: values.state,
    json: values.json,
    showSecrets: values["show-secrets"],
    diff: values.diff,
  });
  if (values.json) process.stdout.write(JSON.stringify(result) + "\n");
  else if (op === "export" || op === "outputs") process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}

if (require.main === module) {
  main().catch((err: Error) => {
    // Automation errors carry the CLI's stderr, which names the failing resource and the provider's message.
    console.error(err.message ?? String(err));
    process.exit(1);
  });
}
