import { execFile, type ExecFileOptions } from "node:child_process";

/** What a command ended with: its exit code (0, or the code it exited with) and what it printed. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file` with `args` to its end, failing or not: its exit code and output, for a test to hold. */
export function runCommand(file: string, args: string[], opts: ExecFileOptions = {}): Promise<CommandResult> {
  return new Promise((resolve) =>
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, ...opts, encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}
