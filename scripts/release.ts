#!/usr/bin/env node
/**
 * `npm run release -- <version> [--out DIR] [--platforms P,...] [--runtime installed|VERSION] [--sdks DIR] [--no-changelog]`:
 * one folder (default `.release/v<version>/`) with everything a release publishes (docs/releases.md):
 * - the plugin archives, one per platform (scripts/package-plugin.ts; by default all six, on the Node.js
 *   runtime package.json's `pulumiCompute.releaseNodeRuntime` names, from the npm registry);
 * - the npm tarballs of `pulumi-compute` (the dynamic classes and the emulator), of
 *   `@pulumi-compute/plugin-sdk` (the generated Node.js SDK), and of the pipeline's two packages,
 *   `@pulumi-compute/pipeline` (compute-cost, compute-drift) and `@pulumi-compute/policy` (scripts/package-pipeline.ts);
 * - the Python SDK (`pulumi_compute`) as an sdist and a wheel, built by PyPI's `build` in a virtual
 *   environment the project makes itself (scripts/python-env: pinned `build` and `setuptools`, from the
 *   index, `--no-isolation`); without Python or the index the release fails, naming what is missing;
 * - `checksums.txt`: the sha256 of every file, in `sha256sum -c` form;
 * - `CHANGELOG.md`: this version's section (also put at the top of the repository's CHANGELOG.md).
 * Before that it sets the version everywhere it is written (package.json, package-lock.json, the YAML test
 * program), regenerates schema.json, the docs and the committed Go SDK (sdk/go), and runs the
 * compatibility gate against releases/last/ (a breaking change needs a new major version); after, it records
 * this schema as the last release. The same sources give the same bytes: `SOURCE_DATE_EPOCH=0` for Python,
 * npm's fixed dates, scripts/package-plugin.ts's reproducible archives.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { commandLine } from "./command-line";
import { packPipeline, packPolicy } from "./package-pipeline";
import { hostPlatform, packagePlugin, PLATFORMS, tar } from "./package-plugin";
import { repoRoot } from "./root";
import { asNextRelease, compare, formatReport, lastRelease, thisTree, type Report } from "./schema-compat";

const ROOT = repoRoot();

/** Writes `checksums.txt` in `dir`: `<sha256>  <file>` for every other file, sorted by name. */
export function writeChecksums(dir: string): string {
  const lines = readdirSync(dir)
    .filter((f) => f !== "checksums.txt" && statSync(path.join(dir, f)).isFile())
    .sort()
    .map(
      (f) =>
        `${createHash("sha256")
          .update(readFileSync(path.join(dir, f)))
          .digest("hex")}  ${f}`,
    );
  const file = path.join(dir, "checksums.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** Every file that writes the version, and how to find it there (tests/e2e/release.e2e.test.ts checks they agree). */
export const VERSION_SITES: Array<{ file: string; pattern: RegExp }> = [
  { file: "package.json", pattern: /^ {2}"version": "([^"]+)"/m },
  { file: "package-lock.json", pattern: /^ {2}"version": "([^"]+)"/m },
  { file: "package-lock.json", pattern: /^ {4}"": \{\n {6}"name": "pulumi-compute",\n {6}"version": "([^"]+)"/m },
  { file: "schema.json", pattern: /^ {2}"version": "([^"]+)"/m },
  { file: "sdk/go/compute/pulumi-plugin.json", pattern: /"version": "([^"]+)"/ },
  { file: "tests/programs/yaml/Pulumi.yaml", pattern: /^ {6}version: ([^\s]+)$/m },
  { file: "tests/programs/yaml/Pulumi.yaml", pattern: /releases\/download\/v([^/]+)\//m },
  { file: "policy/package.json", pattern: /^ {2}"version": "([^"]+)"/m },
];

/** The version each site holds. */
export function versionsWritten(): Array<{ file: string; version: string | undefined }> {
  return VERSION_SITES.map(({ file, pattern }) => ({ file, version: pattern.exec(readFileSync(path.join(ROOT, file), "utf8"))?.[1] }));
}

function setVersion(version: string): void {
  for (const { file, pattern } of VERSION_SITES) {
    if (file.startsWith("sdk/go/") || file === "schema.json") continue; // regenerated below
    const full = path.join(ROOT, file);
    const text = readFileSync(full, "utf8");
    const m = pattern.exec(text);
    if (!m) throw new Error(`release: ${file} does not hold the version where expected (${String(pattern)})`);
    const at = m.index + m[0].lastIndexOf(m[1]);
    writeFileSync(full, text.slice(0, at) + version + text.slice(at + m[1].length));
  }
}

const run = (cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileSync(cmd, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/**
 * The python of the project's build environment (scripts/python-env: a virtual environment in the cache with
 * the pinned `build` and `setuptools` from the Python package index). Throws with what is missing (Python,
 * its venv module, the index) where it cannot be made: a release without its Python SDK is not a release.
 */
export function pythonBuild(): string {
  try {
    return execFileSync(path.join(ROOT, "scripts", "python-env"), [], { env: process.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch (err) {
    const said = String((err as { stderr?: string }).stderr ?? "").trim() || String(err);
    throw new Error(`release: cannot build the Python SDK (sdist and wheel): ${said}`);
  }
}

/**
 * The Python SDK generated into `python` (scripts/gen-sdks' `<out>/python`) built into `dir` as
 * `pulumi_compute-<version>.tar.gz` and `pulumi_compute-<version>-py3-none-any.whl`, with the README as its
 * long description; the same bytes for the same sources. Returns the wheel's path.
 */
export function buildPythonSdk(python: string, dir: string, version: string, py = pythonBuild()): string {
  const src = mkdtempSync(path.join(tmpdir(), "pulumi-compute-python-"));
  try {
    execFileSync("cp", ["-r", `${python}/.`, src]);
    writeFileSync(path.join(src, "README.md"), pythonReadme(version));
    run(py, ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", dir, src], {
      env: { ...process.env, SOURCE_DATE_EPOCH: "0", PYTHONHASHSEED: "0" },
    });
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
  normalizeSdist(path.join(dir, `pulumi_compute-${version}.tar.gz`));
  return path.join(dir, `pulumi_compute-${version}-py3-none-any.whl`);
}

/** This version's CHANGELOG section: the compatibility report and the commits since the last release. */
export function changelogSection(version: string, report: Report, commits: string[], date: string): string {
  return [
    `## v${version} (${date})`,
    "",
    `Compared with v${report.oldVersion} (releases/last/schema.json), by \`npm run schema:compat\`:`,
    "",
    formatReport(report).replace(/^### /gm, "#### ").trim(),
    "",
    "#### Commits",
    ...(commits.length ? commits.map((c) => `- ${c}`) : ["- none"]),
    "",
  ].join("\n");
}

function commitsSince(): string[] {
  try {
    const since = run("git", ["log", "-1", "--format=%H", "--", "releases/last/schema.json"]).trim();
    const range = since ? [`${since}..HEAD`] : [];
    return run("git", ["log", "--format=%s", ...range])
      .split("\n")
      .filter(Boolean)
      .map((s) => (s.length > 160 ? `${s.slice(0, 157)}...` : s));
  } catch {
    return [];
  }
}

/**
 * The sdist as the same bytes every time: setuptools writes the files' times and the gzip header's time of
 * the build (SOURCE_DATE_EPOCH makes the wheel reproducible, not the sdist); the same files are packed again
 * in name order with mtime 0 and owner 0, and gzip without a name or time (scripts/package-plugin.ts's tar).
 */
function normalizeSdist(file: string): void {
  const work = mkdtempSync(path.join(tmpdir(), "pulumi-compute-sdist-"));
  try {
    execFileSync("tar", ["-xzf", file, "-C", work]);
    tar(file, work, readdirSync(work).sort());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The Python package's long description (pyproject.toml's `readme`). */
function pythonReadme(version: string): string {
  return [
    "# pulumi_compute",
    "",
    "The Python SDK of pulumi-compute, a Pulumi provider for the compute API (instances, disks, configs,",
    "interfaces, images, VPCs and subnets, managed MySQL and PostgreSQL, SSH keys and tokens), generated from",
    "the schema of the `pulumi-resource-compute` plugin, which the Pulumi engine downloads by itself.",
    "",
    "```python",
    "import pulumi_compute as compute",
    "",
    'net = compute.Vpc("net", region="us-east", description="made from Python")',
    "```",
    "",
    `Settings: \`compute:token\` (secret) and \`compute:apiUrl\`, or COMPUTE_TOKEN and COMPUTE_API_URL. Version ${version}.`,
    "",
  ].join("\n");
}

export interface ReleaseOptions {
  version: string;
  out: string;
  platforms: string[];
  /** `installed` (host platform only) or a Node.js version of the registry's runtime packages. */
  runtime: string;
  /** Generated SDKs to take (scripts/gen-sdks' folder); regenerated into a temporary folder when not given. */
  sdks?: string;
  /** Write CHANGELOG.md, set the version, regenerate and record the release (false: only the folder, from the tree as it is). */
  publish: boolean;
  /** Take the plugin archive from the cache where the same inputs made it before (default true). */
  cache?: boolean;
  log?: (line: string) => void;
}

export function release(o: ReleaseOptions): { dir: string; files: string[]; report: Report } {
  const log = o.log ?? ((l: string) => console.error(`release: ${l}`));
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(o.version)) throw new Error(`release: ${o.version} is not a semantic version (1.2.3)`);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  if (o.publish && pkg.version !== o.version) {
    log(`setting the version ${pkg.version} -> ${o.version}`);
    setVersion(o.version);
  }
  if (o.publish) {
    log("regenerating schema.json, the docs and the SDKs (sdk/go is committed)");
    run("node", [path.join(ROOT, "dist", "scripts", "gen-schema.js")]);
  }
  if (!o.publish && pkg.version !== o.version)
    throw new Error(
      `release: --no-publish sets no version: leave the version out (the tree is at ${pkg.version}), or make a published release of ${o.version}`,
    );
  const written = versionsWritten().filter((s) => s.version !== o.version && !(s.file.startsWith("sdk/go/") && o.publish));
  if (written.length) throw new Error(`release: ${written.map((s) => `${s.file} says ${s.version}`).join(", ")}; the release is ${o.version}`);

  // A dry run (no publish) of a tree still at the last release's version is judged as its next release.
  const report = compare(lastRelease(), o.publish ? thisTree() : asNextRelease(lastRelease(), thisTree()));
  if (report.refused) throw new Error(`release: the compatibility gate refuses ${o.version}:\n${formatReport(report)}`);

  // The Python build environment first: where it cannot be made the release stops before any work.
  const py = pythonBuild();

  const dir = path.resolve(o.out);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sdks = o.sdks ? path.resolve(o.sdks) : path.join(dir, "..", `.sdks-${o.version}`);
  if (!o.sdks || o.publish) {
    log(`generating the SDKs into ${sdks}`);
    run(path.join(ROOT, "scripts", "gen-sdks"), [sdks]);
    if (o.publish) {
      rmSync(path.join(ROOT, "sdk", "go"), { recursive: true, force: true });
      execFileSync("cp", ["-r", path.join(sdks, "go"), path.join(ROOT, "sdk", "go")]);
    }
  }

  log(`plugin archives for ${o.platforms.join(", ")} (runtime: ${o.runtime})`);
  packagePlugin(dir, o.platforms, { runtime: o.runtime, cache: o.cache });

  log("npm tarballs");
  const packed = run("npm", ["pack", "--silent", "--pack-destination", dir]).trim().split("\n").pop()!;
  copyFileSync(path.join(sdks, "compute-plugin-sdk.tgz"), path.join(dir, `pulumi-compute-plugin-sdk-${o.version}.tgz`));
  log("the pipeline's packages: the commands (@pulumi-compute/pipeline) and the policy pack (@pulumi-compute/policy)");
  packPipeline(dir, o.version);
  packPolicy(dir, o.version);

  log("the Python SDK (sdist and wheel)");
  buildPythonSdk(path.join(sdks, "python"), dir, o.version, py);
  if (!o.sdks) rmSync(sdks, { recursive: true, force: true });

  const date = o.publish ? new Date().toISOString().slice(0, 10) : "unreleased";
  const section = changelogSection(o.version, report, commitsSince(), date);
  writeFileSync(path.join(dir, "CHANGELOG.md"), `${section}`);
  if (o.publish) {
    const file = path.join(ROOT, "CHANGELOG.md");
    const current = existsSync(file)
      ? readFileSync(file, "utf8")
      : "# Changelog\n\nEvery release's section is written by `npm run release` (docs/releases.md).\n\n";
    const head = current.indexOf("\n## ");
    writeFileSync(file, head < 0 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, head + 1)}${section}\n${current.slice(head + 1)}`);
    run("node", [path.join(ROOT, "dist", "scripts", "schema-compat.js"), "--record"]);
  }
  writeChecksums(dir);
  log(`wrote ${dir} (${packed} and ${readdirSync(dir).length - 1} other files)`);
  return { dir, files: readdirSync(dir).sort(), report };
}

const USAGE = `Usage: npm run release -- [VERSION] [--out DIR] [--platforms P,...|host] [--runtime installed|NODE_VERSION] [--sdks DIR] [--no-publish]

Makes a release folder (default .release/v<VERSION>/): the plugin archives, the npm tarballs, the Python sdist
and wheel, checksums.txt and the CHANGELOG section (docs/releases.md). VERSION defaults to package.json's.
  --out DIR           write the release folder there
  --platforms P,...   the plugin archives to make (default: all six):
                      ${PLATFORMS.join(", ")};
                      or \`host\`, this machine's only (a local release, faster)
  --runtime R         the Node.js runtime inside each plugin executable: a version from the npm registry
                      (default: package.json's pulumiCompute.releaseNodeRuntime), or \`installed\`, the Node.js
                      that runs this command (no download; host platform only)
  --sdks DIR          with --no-publish: take the generated SDKs from DIR (scripts/gen-sdks' output, such as
                      .gen/sdks) instead of generating them anew (a publishing release always generates them:
                      it commits sdk/go)
  --no-publish        a local release: only the folder, from the tree as it is (no version set, nothing
                      regenerated, CHANGELOG.md and releases/last/ left as they are)
  -h, --help          this text`;

if (require.main === module) {
  const { values, positionals } = commandLine({
    name: "npm run release --",
    usage: USAGE,
    positionals: true,
    options: {
      out: { type: "string" },
      platforms: { type: "string" },
      runtime: { type: "string" },
      sdks: { type: "string" },
      "no-publish": { type: "boolean" },
    },
  });
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; pulumiCompute: { releaseNodeRuntime: string } };
  const version = positionals[0] ?? pkg.version;
  const platforms = values.platforms === "host" ? [hostPlatform()] : values.platforms ? values.platforms.split(",") : [...PLATFORMS];
  const result = release({
    version,
    out: values.out ?? path.join(ROOT, ".release", `v${version}`),
    platforms,
    runtime: values.runtime ?? pkg.pulumiCompute.releaseNodeRuntime,
    sdks: values.sdks,
    publish: !values["no-publish"],
  });
  for (const f of result.files) console.log(path.join(result.dir, f));
}
