#!/usr/bin/env node
/**
 * `npm run package:plugin [-- --out DIR] [-- --platforms linux-amd64,darwin-arm64]`: the plugin archive
 * that `pulumi plugin install resource compute <version> --file <archive>` installs, as
 * `pulumi-resource-compute-v<version>-<os>-<arch>.tar.gz` (default: this machine's platform, in .pack/).
 *
 * The archive holds:
 * - `pulumi-resource-compute`: the plugin, one JavaScript file (dist/provider/plugin/main.js and every
 *   package it uses, bundled by esbuild) that starts with `#!/usr/bin/env node`: it needs Node.js 20 or
 *   later on the user's PATH, and nothing else (no npm install, no node_modules);
 * - `package.json` (name and version) and `schema.json`: what GetPluginInfo and GetSchema answer;
 * - `README.md` (how to install it) and `THIRD-PARTY-NOTICES.txt` (the licences of the bundled packages).
 * The JavaScript is the same for every platform; the name says which platform the archive is for, as the
 * CLI expects (Windows is not served: the CLI looks for an .exe or .cmd there).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { buildSync } from "esbuild";
import { repoRoot } from "./root";

const ROOT = repoRoot();

const OS: Record<string, string> = { linux: "linux", darwin: "darwin" };
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** This machine's platform in the CLI's words (`linux-amd64`). */
export function hostPlatform(): string {
  const os = OS[process.platform];
  const arch = ARCH[process.arch];
  if (!os || !arch) throw new Error(`package-plugin: no plugin archive for ${process.platform}-${process.arch} (linux and darwin, amd64 and arm64 only)`);
  return `${os}-${arch}`;
}

/** The archive's file name, as `pulumi plugin install` and the CLI's plugin cache name them. */
export const archiveName = (version: string, platform: string, name = "compute") => `pulumi-resource-${name}-v${version}-${platform}.tar.gz`;

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

/** Writes the archives (one per platform) into `out` and returns their paths. */
export function packagePlugin(out: string, platforms: string[] = [hostPlatform()]): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string; license?: string };
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-compute-plugin-"));
  try {
    const inputs = bundlePlugin(path.join(ROOT, "dist", "provider", "plugin", "main.js"), stage, "compute");
    writeFileSync(
      path.join(stage, "package.json"),
      `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, license: pkg.license }, null, 2)}\n`,
    );
    copyFileSync(path.join(ROOT, "schema.json"), path.join(stage, "schema.json"));
    writeFileSync(path.join(stage, "README.md"), readme(pkg.version));
    writeFileSync(path.join(stage, "THIRD-PARTY-NOTICES.txt"), notices(inputs));
    mkdirSync(out, { recursive: true });
    const files = ["pulumi-resource-compute", "package.json", "schema.json", "README.md", "THIRD-PARTY-NOTICES.txt"];
    return platforms.map((platform) => {
      const archive = path.join(out, archiveName(pkg.version, platform));
      tar(archive, stage, files);
      return archive;
    });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The benchmark's do-nothing plugin (scripts/noop-plugin.ts) as an archive for `pulumi plugin install resource noop`. */
export function packageNoopPlugin(out: string, version: string): string {
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-noop-plugin-"));
  try {
    bundlePlugin(path.join(ROOT, "dist", "scripts", "noop-plugin.js"), stage, "noop");
    mkdirSync(out, { recursive: true });
    const archive = path.join(out, archiveName(version, hostPlatform(), "noop"));
    tar(archive, stage, ["pulumi-resource-noop"]);
    return archive;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** A gzipped tar of `files` in `dir`, the same bytes for the same files where GNU tar is at hand. */
export function tar(archive: string, dir: string, files: string[]): void {
  const reproducible = ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner"];
  try {
    execFileSync("tar", [...reproducible, "-czf", archive, "-C", dir, ...files], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GZIP: "-n" } });
  } catch {
    execFileSync("tar", ["-czf", archive, "-C", dir, ...files], { stdio: ["ignore", "ignore", "inherit"] }); // bsdtar (macOS)
  }
}

function readme(version: string): string {
  return [
    `# pulumi-resource-compute v${version}`,
    "",
    "The Pulumi resource plugin of pulumi-compute, for every Pulumi language (YAML, TypeScript and JavaScript on",
    "`@pulumi-compute/plugin-sdk`, Go, Python). Install it once, then write no wiring in your programs:",
    "",
    "```sh",
    `pulumi plugin install resource compute ${version} --file ${archiveName(version, "<os>-<arch>")}`,
    "pulumi plugin ls   # lists compute " + version,
    "```",
    "",
    "It is one JavaScript file: it needs Node.js 20 or later on PATH (`node`).",
    "",
  ].join("\n");
}

/** Every package bundled: name, version, licence, and its licence file's text, for THIRD-PARTY-NOTICES.txt. */
function notices(inputs: string[]): string {
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
  ].join("\n");
}

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: "string" }, platforms: { type: "string" } } });
  const out = path.resolve(values.out ?? path.join(ROOT, ".pack"));
  const platforms = values.platforms ? values.platforms.split(",") : [hostPlatform()];
  for (const p of platforms) if (!/^(linux|darwin)-(amd64|arm64)$/.test(p)) throw new Error(`package-plugin: unknown platform ${p}`);
  for (const archive of packagePlugin(out, platforms)) console.log(archive);
}
