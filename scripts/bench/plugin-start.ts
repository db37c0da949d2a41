/** Section 8: the plugin as it ships, its size and its start. */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fmt, median, ROOT } from "./common";

/**
 * Section 8: the plugin as it ships, one executable (a Node.js single executable application) beside the
 * bundled script run by `node`: size, and time from start to the port on stdout (what the engine waits for
 * before its first call), median of `repeat` starts each.
 */
export async function pluginStart(repeat: number): Promise<string> {
  const { archiveName, bundlePlugin, executableName, hostPlatform, packageNoopPlugin, packagePlugin } = await import("../package-plugin");
  const dir = mkdtempSync(path.join(tmpdir(), "bench-plugin-start-"));
  try {
    const platform = hostPlatform();
    const [archive] = packagePlugin(path.join(dir, "archive"), [platform]);
    execFileSync("tar", ["-xzf", archive, "-C", dir]);
    const script = path.join(dir, "script");
    mkdirSync(script);
    bundlePlugin(path.join(ROOT, "dist", "provider", "plugin", "main.js"), script, "compute");
    const noop = path.join(dir, "noop");
    execFileSync("tar", ["-xzf", packageNoopPlugin(noop, "0.0.1"), "-C", noop]);
    const node = path.join(ROOT, "node_modules", "node", "bin", "node");
    const forms: Array<[string, string, string[], string]> = [
      ["single executable (the archive's)", path.join(dir, executableName(platform)), [], path.join(dir, executableName(platform))],
      ["bundled script, run by node", node, [path.join(script, "pulumi-resource-compute")], path.join(script, "pulumi-resource-compute")],
      [
        "the do-nothing plugin's single executable (section 4's baseline)",
        path.join(noop, executableName(platform, "noop")),
        [],
        path.join(noop, executableName(platform, "noop")),
      ],
    ];
    const rows: string[] = [];
    for (const [label, cmd, args, file] of forms) {
      const times: number[] = [];
      for (let i = 0; i < repeat; i++) times.push(await timeToPort(cmd, args));
      rows.push(`| ${label} | ${fmt(statSync(file).size / 1024 ** 2, 1)} MB | ${fmt(median(times) * 1000, 0)} ms | ${fmt(Math.min(...times) * 1000, 0)} ms |`);
    }
    return [
      "## 8. Plugin start",
      "",
      `The plugin for ${platform} as it ships (${archiveName("<v>", platform)}, ${fmt(statSync(archive).size / 1024 ** 2, 1)} MB): one executable that needs nothing on PATH, beside the same bundled script run by the Node.js it is made of (node_modules/node, ${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()}). Start: from spawning it to its port on stdout, ${repeat} starts each. The executable runs the bundled script with V8's code cache of it, made when the archive was built (scripts/plugin-loader.ts); the do-nothing plugin is packaged the same way. Target: the executable no slower than the script.`,
      "",
      "| Form | size | start (median) | start (least) |",
      "|---|---|---|---|",
      ...rows,
      "",
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Seconds from spawning `cmd` to its first line on stdout (the plugin's port); then it is killed. */
function timeToPort(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "ignore"], env: { PATH: "/nonexistent" } });
    child.stdout.once("data", () => {
      resolve(Number(process.hrtime.bigint() - t0) / 1e9);
      child.kill("SIGKILL");
    });
    child.once("error", reject);
    child.once("exit", (code) => code !== null && reject(new Error(`${cmd} exited ${code} before printing its port`)));
  });
}
