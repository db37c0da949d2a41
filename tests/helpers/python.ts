/**
 * Python programs on the generated Python SDK, as a user runs them: the SDK's wheel (built as `npm run release`
 * builds it), installed with pip into a virtual environment with `pulumi` from the Python package index
 * (scripts/python-env), and the Python language host beside the CLI (scripts/build-python-host). Used by
 * tests/e2e/plugin-python.e2e.test.ts and tests/e2e/sdk-matrix.e2e.test.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { pulumiBin } from "../../scripts/pulumi";
import { buildPythonSdk } from "../../scripts/release";
import { PLUGIN_VERSION } from "./plugin";

const ROOT = path.resolve(__dirname, "..", "..");
export const PYTHON_ENV = path.join(ROOT, "scripts", "python-env");

/** The project's build environment's python (scripts/python-env with no arguments). */
export const buildPython = (): string => execFileSync(PYTHON_ENV, { encoding: "utf8" }).trim();

/** The newest `pulumi` the Python package index has (3.x: the SDK's requirement stops before 4). */
export function newestPulumi(python = buildPython()): string {
  const out = execFileSync(python, ["-m", "pip", "index", "versions", "pulumi", "--disable-pip-version-check"], { encoding: "utf8" });
  const versions = /Available versions: (.*)/.exec(out)?.[1].split(", ") ?? [];
  const newest = versions.find((v) => /^3\.\d+\.\d+$/.test(v));
  if (!newest) throw new Error(`no pulumi 3.x in the Python package index's answer:\n${out}`);
  return newest;
}

/** scripts/python-env's python for `pulumi` at `version` with the SDK's wheel installed by pip. */
export function venvWith(version: string, wheel: string): string {
  return execFileSync(PYTHON_ENV, ["--pulumi", version, "--sdk", wheel], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** The SDK's sdist and wheel in `dir`, from the SDKs `npm test` generates (.gen/sdks) or from `sdks`; the wheel's path. */
export function pythonWheel(dir: string, sdks = path.join(ROOT, ".gen", "sdks")): string {
  if (!existsSync(path.join(sdks, "python", "pyproject.toml"))) throw new Error(`${sdks}/python is not generated: run scripts/gen-sdks (npm test does)`);
  return buildPythonSdk(path.join(sdks, "python"), dir, PLUGIN_VERSION);
}

/** The Python language host beside the CLI (scripts/build-python-host: a no-op where it is there already): its folder. */
export const pythonHost = (): string =>
  execFileSync(path.join(ROOT, "scripts", "build-python-host"), [pulumiBin()], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

/** The environment of a program run in the virtual environment of `python`, as a user with it activated: its bin first on PATH, then the CLI's. */
export function activated(python: string): Record<string, string> {
  const bin = path.dirname(python);
  return { VIRTUAL_ENV: path.dirname(bin), PATH: [bin, pythonHost()].join(path.delimiter) };
}
