/** Section 6: how long a failing program takes to end, with the stack-trace guard and without it. */
import { execFileSync } from "node:child_process";
import { linkSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pulumiBin } from "../pulumi";
import { fmt, median, ROOT } from "./common";

/**
 * How long `pulumi preview` of a program that throws takes to end (tests/programs/errors: no resource of
 * ours), with the language host scripts/ensure-pulumi builds, and once with a copy of that folder without
 * the stack-trace guard beside the host (what a failing run took before: Node's colouring of
 * @pulumi/pulumi's mapped frames runs out of memory first).
 */
export async function failingPrograms(runs: number): Promise<string> {
  const dir = path.join(ROOT, "tests", "programs", "errors");
  const bin = pulumiBin();
  // The same CLI and hosts, hard-linked into a folder without the guard (the CLI finds its hosts beside itself).
  const bare = mkdtempSync(path.join(path.dirname(bin), "bench-bare-"));
  for (const f of ["pulumi", "pulumi-language-nodejs", "pulumi-language-yaml", "pulumi-resource-pulumi-nodejs"])
    linkSync(path.join(bin, f), path.join(bare, f));
  const env = (pathBin: string) => ({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [pathBin, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
  });
  const stateDir = mkdtempSync(path.join(tmpdir(), "bench-errors-"));
  const time = (pathBin: string, fail: string): number => {
    const cli = path.join(pathBin, "pulumi");
    execFileSync(cli, ["config", "set", "fail", fail, "--stack", "bench"], { cwd: dir, env: env(pathBin), stdio: "ignore" });
    const t0 = Date.now();
    try {
      execFileSync(cli, ["preview", "--stack", "bench", "--non-interactive"], { cwd: dir, env: env(pathBin), stdio: "ignore", timeout: 600_000 });
    } catch {
      // it fails: that is the point
    }
    return Date.now() - t0;
  };
  try {
    execFileSync(path.join(bin, "pulumi"), ["stack", "init", "bench"], { cwd: dir, env: env(bin), stdio: "ignore" });
    const rows: string[] = [];
    for (const [what, fail] of [
      ["a throw inside an apply", "apply"],
      ["a throw at the top level", "top"],
    ]) {
      const guarded = Array.from({ length: runs }, () => time(bin, fail));
      const stock = time(bare, fail);
      rows.push(`| ${what} | ${fmt(median(guarded) / 1000, 1)} s | ${fmt(stock / 1000, 1)} s |`);
    }
    return [
      "## 6. Failing programs",
      "",
      `\`pulumi preview\` of tests/programs/errors (JavaScript, no resource of ours) until the CLI exits: with the Node.js language host that scripts/ensure-pulumi builds (it preloads the stack-trace guard beside it; median of ${runs}), and once without the guard. Target: every failing program ends within seconds of its error (under 15 s).`,
      "",
      "| Program | with the guard | without it |",
      "|---|---|---|",
      ...rows,
      "",
    ].join("\n");
  } finally {
    rmSync(path.join(dir, "Pulumi.bench.yaml"), { force: true });
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
  }
}
