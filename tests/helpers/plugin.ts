import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { packagePlugin } from "../../scripts/package-plugin";
import { pulumiBin } from "../../scripts/pulumi";

const ROOT = path.resolve(__dirname, "..", "..");
export const PLUGIN_VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The plugin as a user installs it: a PULUMI_HOME of its own, where `pulumi plugin install` put the archive. */
export interface InstalledPlugin {
  /** The environment that runs programs with it: PULUMI_HOME, and a PATH with the CLI and Node only. */
  env: Record<string, string>;
  home: string;
  archive: string;
  /** What `pulumi plugin install` printed. */
  installed: string;
  /** `pulumi <args>` with that environment (plugin ls, say). */
  pulumi(args: string[]): Promise<{ stdout: string; stderr: string }>;
  cleanup(): void;
}

/**
 * `npm run package:plugin`'s archive (made into a temporary folder), installed with
 * `pulumi plugin install resource compute <version> --file <archive>` into a new PULUMI_HOME. PATH holds
 * the CLI's folder and Node's, and no folder with pulumi-resource-compute: the engine finds the plugin in
 * PULUMI_HOME or not at all.
 */
export async function installPlugin(): Promise<InstalledPlugin> {
  const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-plugin-home-"));
  const home = path.join(dir, "home");
  const [archive] = packagePlugin(path.join(dir, "archive"));
  const env = {
    PULUMI_HOME: home,
    PATH: [pulumiBin(), path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(path.delimiter),
  };
  const pulumi = (args: string[]) =>
    promisify(execFile)(path.join(pulumiBin(), "pulumi"), args, {
      env: { ...process.env, ...env, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
      encoding: "utf8",
    });
  const r = await pulumi(["plugin", "install", "resource", "compute", PLUGIN_VERSION, "--file", archive]);
  return { env, home, archive, installed: `${r.stdout}${r.stderr}`, pulumi, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
