import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { PROJECT } from "../../scripts/generate/packages";
import { hostPlatform, packagePlugin } from "../../scripts/package-plugin";
import { pulumiBin } from "../../scripts/pulumi";
import { writeChecksums } from "../../scripts/release";

const ROOT = path.resolve(__dirname, "..", "..");
export const PLUGIN_VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** A release folder served on the loopback, as a user's engine finds the plugin: by downloading it. */
export interface ReleaseServer {
  /** The server's root: `<url>/v<version>/<archive>` and `<url>/v<version>/checksums.txt`. */
  url: string;
  /** The folder it serves (`v<version>/` below it). */
  dir: string;
  /** Requests it answered, as `<status> <path>`. */
  requests: string[];
  close(): Promise<void>;
}

/** The plugin as the engine gets it by itself: a fresh PULUMI_HOME, automatic acquisition on. */
export interface AcquiredPlugin {
  /**
   * The environment that runs programs with it: a PULUMI_HOME of its own and empty, automatic plugin
   * acquisition on, the schema's pluginDownloadURL pointed at the loopback server, and a PATH with the CLI
   * (and Node where `withNode`; the plugin never needs it).
   */
  env: Record<string, string>;
  home: string;
  /** The release folder the server serves (`<releases>/v<version>/`): a test may add the release's other files to it. */
  folder: string;
  server: ReleaseServer;
  /** `pulumi <args>` with that environment (plugin ls, say). */
  pulumi(args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** What PULUMI_HOME/plugins holds (plugin folders, `.partial` markers), but the CLI's `.lock` and `.lastused` files. */
  installed(): string[];
  cleanup(): Promise<void>;
}

/**
 * A release folder as `npm run release` writes it, for this machine's platform only: the plugin archive (a
 * single executable on the installed Node.js runtime) and checksums.txt, in `<dir>/v<version>/`.
 */
export function releaseFolder(dir: string): string {
  const folder = path.join(dir, `v${PLUGIN_VERSION}`);
  packagePlugin(folder, [hostPlatform()]);
  writeChecksums(folder);
  return folder;
}

/** An HTTP server on 127.0.0.1 serving the files of `dir` (GET only; 404 for anything else). */
export async function serveReleases(dir: string): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const rel = decodeURIComponent((req.url ?? "/").split("?")[0]);
    const file = path.join(dir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
    if (req.method === "GET" && file.startsWith(dir) && existsSync(file) && !file.endsWith(path.sep) && readdirSafe(file) === undefined) {
      const body = readFileSync(file);
      requests.push(`200 ${rel}`);
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
      res.end(body);
    } else {
      requests.push(`404 ${rel}`);
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, dir, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function readdirSafe(p: string): string[] | undefined {
  try {
    return readdirSync(p);
  } catch {
    return undefined;
  }
}

/**
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES that sends the schema's pluginDownloadURL (package.json's
 * pulumiCompute.pluginDownloadURL, which every SDK carries) to `server`: what a user with a mirror does. The
 * CLI matches the URL as it holds it, with `${VERSION}` escaped, and puts the version in the result.
 */
export function downloadOverride(server: string): string {
  const prefix = PROJECT.pluginDownloadURL.slice(0, PROJECT.pluginDownloadURL.indexOf("${VERSION}"));
  const re = `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  return `${re}=${server}/v\${VERSION}/`;
}

/**
 * The plugin as a user's engine gets it: `releaseFolder` served on the loopback, a new empty PULUMI_HOME,
 * automatic acquisition on. The engine downloads the archive the first time a program needs it (from the
 * version and server the SDK or the program names) and installs it into PULUMI_HOME.
 */
export async function acquirePlugin(opts: { withNode?: boolean } = {}): Promise<AcquiredPlugin> {
  const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-plugin-home-"));
  const home = path.join(dir, "home");
  const releases = path.join(dir, "releases");
  mkdirSync(releases);
  const folder = releaseFolder(releases);
  const server = await serveReleases(releases);
  const env = {
    PULUMI_HOME: home,
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(server.url),
    PATH: [pulumiBin(), ...(opts.withNode ? [path.dirname(process.execPath)] : [])].join(path.delimiter),
  };
  const pulumi = (args: string[]) =>
    promisify(execFile)(path.join(pulumiBin(), "pulumi"), args, { env: { ...process.env, ...env, PULUMI_SKIP_UPDATE_CHECK: "true" }, encoding: "utf8" });
  const installed = () => readdirSafe(path.join(home, "plugins"))?.filter((f) => !f.startsWith(".") && !/\.(lock|lastused)$/.test(f)) ?? [];
  return {
    env,
    home,
    folder,
    server,
    pulumi,
    installed,
    cleanup: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The plugin as a user installs it by hand: a PULUMI_HOME of its own, where `pulumi plugin install --file` put the archive. */
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
