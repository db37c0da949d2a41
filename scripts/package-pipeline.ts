/**
 * The two npm packages a pipeline installs, whatever language its program is in (docs/cost-and-policy.md,
 * docs/drift.md), as a release folder holds them:
 * - `@pulumi-compute/pipeline` (`pulumi-compute-pipeline-<v>.tgz`): the commands `compute-cost` and
 *   `compute-drift`, each bundled by esbuild into one script with everything it uses, so the package has no
 *   dependency to fetch and its names are the scope's only (`npx compute-cost` in a folder without it would ask
 *   the public registry for a package of that name, someone else's);
 * - `@pulumi-compute/policy` (`pulumi-compute-policy-<v>.tgz`): the CrossGuard pack, compiled in policy/ by
 *   `npm run build`.
 * The same sources give the same bytes (esbuild's output, npm's fixed dates).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { repoRoot } from "./root";

const ROOT = repoRoot();

/** The commands of `@pulumi-compute/pipeline`: each bin's name and its built entry point. */
export const PIPELINE_COMMANDS: Record<string, string> = {
  "compute-cost": "dist/provider/cost/cli.js",
  "compute-drift": "dist/provider/drift/cli.js",
};

const pack = (cwd: string, dest: string): string =>
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dest], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;

/** `pulumi-compute-pipeline-<version>.tgz` in `dir`; its path. */
export function packPipeline(dir: string, version: string): string {
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-compute-pipeline-"));
  try {
    const bin: Record<string, string> = {};
    for (const [name, entry] of Object.entries(PIPELINE_COMMANDS)) {
      const built = path.join(ROOT, entry);
      if (!existsSync(built)) throw new Error(`package-pipeline: ${entry} is missing: run npm run build first`);
      const out = path.join(stage, "bin", `${name}.js`);
      buildSync({
        entryPoints: [built],
        bundle: true,
        platform: "node",
        target: "node20",
        format: "cjs",
        outfile: out,
        legalComments: "none",
        logLevel: "error",
      });
      const text = readFileSync(out, "utf8");
      writeFileSync(out, text.startsWith("#!") ? text : `#!/usr/bin/env node\n${text}`);
      chmodSync(out, 0o755);
      bin[name] = `bin/${name}.js`;
    }
    const root = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { license: string; homepage: string; repository: unknown };
    const manifest = {
      name: "@pulumi-compute/pipeline",
      version,
      description:
        "The pipeline commands of pulumi-compute, for a program in any language: compute-cost (a change's monthly cost from `pulumi preview --json`, with a budget gate) and compute-drift (a report of drift from `pulumi refresh --preview-only --json`)",
      license: root.license,
      homepage: root.homepage,
      repository: root.repository,
      bin,
      files: ["bin/", "README.md"],
      engines: { node: ">=20" },
    };
    writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(path.join(stage, "README.md"), pipelineReadme(version));
    mkdirSync(dir, { recursive: true });
    const tgz = pack(stage, dir);
    return path.join(dir, tgz);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** `pulumi-compute-policy-<version>.tgz` in `dir` (policy/ compiled by `npm run build`); its path. */
export function packPolicy(dir: string, version: string): string {
  const folder = path.join(ROOT, "policy");
  const manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as { version: string };
  if (manifest.version !== version) throw new Error(`package-pipeline: policy/package.json says ${manifest.version}; the release is ${version}`);
  if (!existsSync(path.join(folder, "index.js"))) throw new Error("package-pipeline: policy/index.js is missing: run npm run build first");
  mkdirSync(dir, { recursive: true });
  const tgz = pack(folder, dir);
  const named = path.join(dir, `pulumi-compute-policy-${version}.tgz`);
  if (path.join(dir, tgz) !== named) renameSync(path.join(dir, tgz), named);
  return named;
}

function pipelineReadme(version: string): string {
  return [
    "# @pulumi-compute/pipeline",
    "",
    "The pipeline commands of pulumi-compute (a Pulumi provider for the compute API), for a program in any",
    "language: they read what the Pulumi CLI writes.",
    "",
    "```sh",
    `npm install --prefix ci-tools @pulumi-compute/pipeline@${version} @pulumi-compute/policy@${version}`,
    "pulumi preview --json --show-sames > preview.json",
    "ci-tools/node_modules/.bin/compute-cost --preview preview.json --fail-over 500 --out cost.md",
    "pulumi refresh --preview-only --json > refresh.json",
    "ci-tools/node_modules/.bin/compute-drift --refresh refresh.json --out drift.md",
    "```",
    "",
    "Node.js 20 or later. docs/cost-and-policy.md and docs/drift.md in the repository say the rest.",
    "",
  ].join("\n");
}
