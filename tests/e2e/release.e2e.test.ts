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
import { PROJECT } from "../../scripts/generate/packages";
import { archiveName, hostPlatform } from "../../scripts/package-plugin";
import { release, versionsWritten } from "../../scripts/release";

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, "..", "..");
const GEN = path.join(ROOT, ".gen", "sdks");
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));
const VERSION: string = json("package.json").version;
const hasPythonBuild = ["python3", "/usr/bin/python3"].some((py) => {
  try {
    execFileSync(py, ["-m", "build", "--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});

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
      archiveName(VERSION, hostPlatform()),
      ...(hasPythonBuild ? [`pulumi_compute-${VERSION}-py3-none-any.whl`, `pulumi_compute-${VERSION}.tar.gz`] : []),
    ].sort();
    if (!hasPythonBuild) console.warn("release.e2e: no `python3 -m build` (Debian's python3-build): the Python SDK is left out of the release");
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
    if (hasPythonBuild) {
      const metadata = execFileSync(
        "unzip",
        ["-p", path.join(first.dir, `pulumi_compute-${VERSION}-py3-none-any.whl`), `pulumi_compute-${VERSION}.dist-info/METADATA`],
        { encoding: "utf8" },
      );
      for (const field of [
        `Name: pulumi-compute`,
        `Version: ${VERSION}`,
        "Summary: ",
        "License: Apache-2.0",
        `Project-URL: Repository, ${PROJECT.repository}`,
        "Requires-Dist: pulumi ",
        "Description-Content-Type: text/markdown",
      ])
        expect(metadata).toContain(field);
      expect(metadata).toContain("import pulumi_compute as compute"); // the long description
    }
    // Again, the plugin archive built afresh: the same bytes.
    const second = release({ ...opts, out: path.join(tmp, "b"), cache: false });
    expect(readFileSync(path.join(second.dir, "checksums.txt"), "utf8")).toBe(sums);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
