import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../root";

/** The packages the generated SDKs are published as, and the project they come from (package.json). */

/** The Node.js package the generated SDK is published as (not `pulumi-compute`: that is the hand-written dynamic SDK). */
export const NODE_SDK_PACKAGE = "@pulumi-compute/plugin-sdk";
/** The Python package (distribution and import name) of the generated SDK. */
export const PYTHON_SDK_PACKAGE = "pulumi_compute";
/**
 * Where the project lives and its releases are downloaded from: package.json's `repository` (one setting;
 * a fork changes it there) and `pulumiCompute.pluginDownloadURL` (`${VERSION}` is the CLI's placeholder).
 */
export const PROJECT = projectSettings();
/**
 * The Go import path of the generated SDK, committed under sdk/go/compute (its module is the folder above,
 * sdk/go: `go get github.com/<owner>/<repo>/sdk/go/compute`).
 */
export const GO_SDK_IMPORT = `${PROJECT.goRepository}/sdk/go/compute`;
/**
 * The lowest @pulumi/pulumi the generated Node.js SDK works with (tests/e2e/sdk-range.e2e.test.ts): 3.141.0
 * compiles it (older ones lack InvokeOutputOptions), but before 3.145.0 the `dependsOn` of a read
 * function's Output form does not wait for the resources it names, which docs/functions.md promises.
 */
export const NODE_SDK_PULUMI_RANGE = "^3.145.0";
/**
 * The `pulumi` (Python package index) the generated Python SDK requires (schema.json's
 * `language.python.requires`; the generator's own default is its release's >=3.231.0): 3.165.0 is the first
 * release with `pulumi.type_token`, which every generated class uses (3.163.0 fails at import; there is no
 * 3.164.0). tests/e2e/plugin-python.e2e.test.ts runs the SDK on it and on the newest.
 */
export const PYTHON_SDK_PULUMI_RANGE = ">=3.165.0,<4.0.0";

function projectSettings(): { repository: string; goRepository: string; pluginDownloadURL: string; homepage: string } {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as {
    repository?: { url?: string };
    homepage?: string;
    pulumiCompute?: { pluginDownloadURL?: string };
  };
  const m = /github\.com\/([^/]+)\/([^/.]+)/.exec(pkg.repository?.url ?? "");
  if (!m) throw new Error("package.json: repository.url must name a GitHub repository (https://github.com/<owner>/<repo>)");
  const url = pkg.pulumiCompute?.pluginDownloadURL;
  if (!url || !url.includes("${VERSION}")) throw new Error("package.json: pulumiCompute.pluginDownloadURL must be set and hold ${VERSION}");
  return {
    repository: `https://github.com/${m[1]}/${m[2]}`,
    goRepository: `github.com/${m[1]}/${m[2]}`,
    pluginDownloadURL: url,
    homepage: pkg.homepage ?? `https://github.com/${m[1]}/${m[2]}`,
  };
}
