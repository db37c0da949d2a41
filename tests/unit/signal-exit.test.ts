/**
 * An idle provider process that gets SIGINT or SIGTERM ends as the signal ends a process without a listener
 * (provider/lifecycle/cancel.ts): at once, by the signal, without Node's exit teardown, which the engine would
 * wait for each time it closes a plugin. With another listener of the signal in the process, it exits with 0
 * as before. (Cancellation during an operation: tests/integration/cancel*.test.ts, tests/e2e/cancel.e2e.test.ts.)
 */
import { spawn } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

/** A node that installs the provider's signal handling (from the built dist/), prints "ready", then waits; its end after `signal`. */
function endOf(signal: NodeJS.Signals, otherListener: boolean, busy = false): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const code = [
    `const cancel = require("./dist/provider/lifecycle/cancel");`,
    `cancel.cancelOnSignals();`,
    otherListener ? `process.on(${JSON.stringify(signal)}, () => {});` : "",
    // An operation under way when the signal comes: it answers, then the process exits.
    busy ? `void cancel.counted(() => new Promise((r) => setTimeout(r, 300)));` : "",
    `setInterval(() => {}, 1000);`,
    `process.stdout.write("ready\\n");`,
  ].join("\n");
  const child = spawn(process.execPath, ["-e", code], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", () => child.kill(signal));
    child.once("exit", (c, s) => resolve({ code: c, signal: s }));
  });
}

test.each(["SIGINT", "SIGTERM"] as const)("idle, %s ends the process by that signal", async (signal) => {
  expect(await endOf(signal, false)).toEqual({ code: null, signal });
});

test("with an operation under way, the process exits with 0 once it has answered (the handler is the provider's)", async () => {
  expect(await endOf("SIGINT", false, true)).toEqual({ code: 0, signal: null });
});

test("with another listener of the signal, the process exits with 0", async () => {
  expect(await endOf("SIGINT", true)).toEqual({ code: 0, signal: null });
});
