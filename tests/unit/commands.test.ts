/**
 * Every command a user runs answers `--help` with its usage (exit 0), and fails on an option it does not take
 * with what is wrong and the usage (exit 2): the commands package.json's scripts run (`node dist/scripts/...`,
 * `scripts/...`), its bins, and every shell script of scripts/. (scripts/command-line.ts, scripts/usage.sh.)
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; bin: Record<string, string> };

/** Each command as [how it is named, the program and its first arguments]. */
const commands = new Map<string, string[]>();
for (const line of Object.values(pkg.scripts))
  for (const m of line.matchAll(/node (dist\/scripts\/[\w-]+\.js)/g)) commands.set(m[1], [process.execPath, path.join(ROOT, m[1])]);
for (const [name, file] of Object.entries(pkg.bin)) commands.set(name, [process.execPath, path.join(ROOT, file)]);
const shell = readdirSync(path.join(ROOT, "scripts")).filter((f) => {
  const file = path.join(ROOT, "scripts", f);
  return statSync(file).isFile() && (statSync(file).mode & 0o111) !== 0 && readFileSync(file, "utf8").startsWith("#!/usr/bin/env bash");
});
for (const f of shell) commands.set(`scripts/${f}`, [path.join(ROOT, "scripts", f)]);
/** The ones whose other arguments go to another command: Jest's (scripts/*-matrix [jest args]), the engine's (the plugin). */
const PASSED_ON = new Set(["scripts/chaos-matrix", "scripts/upgrade-matrix", "pulumi-resource-compute"]);

const run = (argv: string[], extra: string) =>
  spawnSync(argv[0], [...argv.slice(1), extra], { encoding: "utf8", timeout: 30_000, env: { ...process.env, CI: "" } });

test("the commands are found: every npm script's node script, the bins, the shell scripts", () => {
  expect([...commands.keys()]).toEqual(
    expect.arrayContaining([
      "dist/scripts/release.js",
      "dist/scripts/bench.js",
      "compute-emulator",
      "pulumi-resource-compute",
      "scripts/ensure-pulumi",
      "scripts/gen-sdks",
    ]),
  );
});

test.each([...commands.entries()])("%s --help: the usage, exit 0", (_name, argv) => {
  const r = run(argv, "--help");
  expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout.trim().split("\n").length).toBeGreaterThan(2);
});

test.each([...commands.entries()].filter(([name]) => !PASSED_ON.has(name)))("%s --no-such-flag: what is wrong and the usage, exit 2", (_name, argv) => {
  const help = run(argv, "--help").stdout.trim();
  const r = run(argv, "--no-such-flag");
  expect(r.status).toBe(2);
  expect(r.stderr).toContain("--no-such-flag");
  expect(r.stderr).toContain(help.split("\n")[0]);
});
