import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

/** The pulumi-compute checkout, found upwards from this file (it runs from scripts/ and from dist/scripts/). */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "pulumi-compute") return dir;
    if (path.dirname(dir) === dir) throw new Error(`cannot find the pulumi-compute checkout above ${__dirname}`);
  }
}
