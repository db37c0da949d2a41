/**
 * Releases (docs/releases.md): one version everywhere; the schema and every SDK name where releases live;
 * the committed Go SDK is what the generator makes of schema.json; `npm run release`'s folder for this
 * machine's platform holds every file, its checksums verify, and a second run gives the same bytes (the
 * plugin archive built afresh, not taken from the cache). Uses the SDKs `npm test` generates (.gen/sdks).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PROJECT, PYTHON_SDK_PULUMI_RANGE } from "../../scripts/generate/packages";
import { archiveName, hostPlatform } from "../../scripts/package-plugin";
import { PIPELINE_COMMANDS } from "../../scripts/package-pipeline";
import { release, versionsWritten } from "../../scripts/release";

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, "..", "..");
const GEN = path.join(ROOT, ".gen", "sdks");
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));
const VERSION: string = json("package.json").version;
/** Every file below `dir`, by path from it. */
function tree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(path.join(dir, f)).isFile());
  return new Map(files.sort().map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
}

test("one version everywhere: package.json, the lock file, the schema, every SDK, the YAML program", () => {
  const sites = versionsWritten();
  expect(sites.filter((s) => s.version !== VERSION)).toEqual([]);
  expect(sites.map((s) => s.file)).toEqual(expect.arrayContaining(["package.json", "schema.json", "sdk/go/compute/pulumi-plugin.json"]));
  expect(json(".gen/sdks/nodejs/package.json").version).toBe(VERSION);
  expect(readFileSync(path.join(GEN, "python", "pyproject.toml"), "utf8")).toContain(`version = "${VERSION}"`);
});

test("the schema and every SDK name where releases live, from package.json's one setting", () => {
  const schema = json("schema.json");
  expect(PROJECT.pluginDownloadURL).toContain("${VERSION}");
  expect(schema.pluginDownloadURL).toBe(PROJECT.pluginDownloadURL);
  expect(json(".gen/sdks/nodejs/package.json").pulumi).toEqual({ resource: true, name: "compute", version: VERSION, server: PROJECT.pluginDownloadURL });
  for (const file of ["sdk/go/compute/pulumi-plugin.json", ".gen/sdks/python/pulumi_compute/pulumi-plugin.json"])
    expect([file, json(file).server]).toEqual([file, PROJECT.pluginDownloadURL]);
  // The Registry's fields.
  expect(schema).toMatchObject({ publisher: "pulumi-compute", repository: PROJECT.repository, homepage: expect.stringContaining(PROJECT.repository) });
  expect(schema.logoUrl).toMatch(/\/docs\/logo\.svg$/);
  expect(readFileSync(path.join(ROOT, "docs", "logo.svg"), "utf8")).toMatch(/^<svg /);
});

test("the committed Go SDK (sdk/go) is what the generator makes of schema.json, at a module path go get finds", () => {
  const committed = tree(path.join(ROOT, "sdk", "go"));
  const generated = tree(path.join(GEN, "go"));
  expect([...committed.keys()]).toEqual([...generated.keys()]);
  const stale = [...committed].filter(([f, text]) => generated.get(f) !== text).map(([f]) => f);
  expect(stale).toEqual([]); // else: npm run release (or scripts/gen-sdks, then copy .gen/sdks/go to sdk/go)
  expect(committed.get("go.mod")).toContain(`module ${PROJECT.goRepository}/sdk/go\n`);
});

test("a release folder: every file, checksums that verify, the same bytes from a second run", () => {
  const tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-release-"));
  try {
    const opts = { version: VERSION, platforms: [hostPlatform()], runtime: "installed", sdks: GEN, publish: false, log: () => undefined };
    const first = release({ ...opts, out: path.join(tmp, "a") });
    const expected = [
      "CHANGELOG.md",
      "checksums.txt",
      `pulumi-compute-${VERSION}.tgz`,
      `pulumi-compute-plugin-sdk-${VERSION}.tgz`,
      `pulumi-compute-pipeline-${VERSION}.tgz`,
      `pulumi-compute-policy-${VERSION}.tgz`,
      archiveName(VERSION, hostPlatform()),
      `pulumi_compute-${VERSION}-py3-none-any.whl`,
      `pulumi_compute-${VERSION}.tar.gz`,
    ].sort();
    expect(first.files).toEqual(expected);
    const sums = readFileSync(path.join(first.dir, "checksums.txt"), "utf8");
    expect(
      sums
        .trim()
        .split("\n")
        .map((l) => l.split("  ")[1]),
    ).toEqual(expected.filter((f) => f !== "checksums.txt"));
    expect(execFileSync("sha256sum", ["-c", "checksums.txt"], { cwd: first.dir, encoding: "utf8" })).not.toMatch(/FAILED/);
    expect(readFileSync(path.join(first.dir, "CHANGELOG.md"), "utf8")).toMatch(
      new RegExp(`^## v${VERSION.replace(/\./g, "\\.")} \\(unreleased\\)\\n[\\s\\S]*#### Breaking changes\\n[\\s\\S]*#### Additions\\n`),
    );
    {
      const metadata = execFileSync(
        "unzip",
        ["-p", path.join(first.dir, `pulumi_compute-${VERSION}-py3-none-any.whl`), `pulumi_compute-${VERSION}.dist-info/METADATA`],
        { encoding: "utf8" },
      );
      for (const field of [
        `Name: pulumi_compute`,
        `Version: ${VERSION}`,
        "Summary: ",
        "License: Apache-2.0",
        `Project-URL: Repository, ${PROJECT.repository}`,
        `Requires-Dist: pulumi${PYTHON_SDK_PULUMI_RANGE.split(",").reverse().join(",")}`, // pip's order: <4.0.0,>=3.x
        "Description-Content-Type: text/markdown",
      ])
        expect(metadata).toContain(field);
      expect(metadata).toContain("import pulumi_compute as compute"); // the long description
    }
    // The pipeline's package: its two commands, self-contained (no dependency to fetch), named in its scope only.
    {
      const manifest = JSON.parse(
        execFileSync("tar", ["-xzOf", path.join(first.dir, `pulumi-compute-pipeline-${VERSION}.tgz`), "package/package.json"], { encoding: "utf8" }),
      );
      expect(manifest).toMatchObject({
        name: "@pulumi-compute/pipeline",
        version: VERSION,
        bin: { "compute-cost": "bin/compute-cost.js", "compute-drift": "bin/compute-drift.js" },
      });
      expect([manifest.dependencies, manifest.peerDependencies]).toEqual([undefined, undefined]);
      const policy = JSON.parse(
        execFileSync("tar", ["-xzOf", path.join(first.dir, `pulumi-compute-policy-${VERSION}.tgz`), "package/package.json"], { encoding: "utf8" }),
      );
      expect([policy.name, policy.version]).toEqual(["@pulumi-compute/policy", VERSION]);
      // pulumi-compute keeps the same commands (a TypeScript program that has it runs them from node_modules/.bin, and
      // `npx compute-cost` there stays its own): the same sources, so whichever package npm links a name from, it is one command.
      const own = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).bin;
      expect([own["compute-cost"], own["compute-drift"]]).toEqual([PIPELINE_COMMANDS["compute-cost"], PIPELINE_COMMANDS["compute-drift"]]);
    }
    // Again, the plugin archive built afresh: the same bytes.
    const second = release({ ...opts, out: path.join(tmp, "b"), cache: false });
    expect(readFileSync(path.join(second.dir, "checksums.txt"), "utf8")).toBe(sums);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("without Python, or without the Python package index, the release fails naming what is missing", () => {
  const tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-release-"));
  const saved = { ...process.env };
  const attempt = (env: Record<string, string>) => {
    Object.assign(process.env, env);
    try {
      release({
        version: VERSION,
        platforms: [hostPlatform()],
        runtime: "installed",
        sdks: GEN,
        publish: false,
        out: path.join(tmp, "out"),
        log: () => undefined,
      });
      return "released";
    } catch (err) {
      return String((err as Error).message);
    } finally {
      for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
      Object.assign(process.env, saved);
    }
  };
  try {
    expect(attempt({ PULUMI_COMPUTE_PYTHON: path.join(tmp, "no-python3") })).toMatch(
      /^release: cannot build the Python SDK \(sdist and wheel\): python-env: no Python: '.*no-python3' is not on PATH/,
    );
    // A cache of its own (no environment made before) and an index that does not answer.
    expect(
      attempt({
        PULUMI_COMPUTE_CACHE: path.join(tmp, "cache"),
        PIP_INDEX_URL: "http://127.0.0.1:9/simple",
        PIP_RETRIES: "0",
        PIP_TIMEOUT: "2",
        PIP_NO_CACHE_DIR: "1",
      }),
    ).toMatch(/python-env: pip could not install build==[\d.]+ setuptools==[\d.]+ from the Python package index \(http:\/\/127\.0\.0\.1:9\/simple\)/);
    expect(readdirSync(tmp).sort()).toEqual(["cache"]); // nothing made: the release stops before its work
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
