/**
 * The stack-trace guard (sdk/stack-traces.ts): frames that @pulumi/pulumi's source maps send to
 * `node_modules/@pulumi/<file>` make Node's colouring of stacks (util.inspect with colours, as Pulumi prints
 * a failing program's error) grow a string until memory runs out. Run in a child Node with a small heap:
 * without the guard it dies, with it the error prints at once.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { unmapBrokenFrames } from "../../sdk/stack-traces";

const GUARD = path.resolve(__dirname, "..", "..", "dist", "sdk", "stack-traces.js");

/** A child Node whose stack formatter maps every frame as @pulumi/pulumi's source maps do, then inspects an error with colours. */
function inspectInChild(withGuard: boolean) {
  const script = `
    ${withGuard ? `require(${JSON.stringify(GUARD)});` : ""}
    Error.prepareStackTrace = (e, frames) =>
      String(e) + frames.map(() => "\\n    at applyHelperAsync (" + process.cwd() + "/node_modules/@pulumi/output.ts:519:31)").join("");
    const s = require("node:util").inspect(new Error("boom"), { colors: true });
    process.stdout.write(JSON.stringify(s));
  `;
  return spawnSync(process.execPath, ["--max-old-space-size=64", "-e", script], { encoding: "utf8", timeout: 60_000 });
}

test("with the guard, an error whose frames map into node_modules/@scope/ prints at once, with its real frames", () => {
  const r = inspectInChild(true);
  expect(r.status).toBe(0);
  const printed = JSON.parse(r.stdout) as string;
  expect(printed).toMatch(/^Error: boom\n\s+at /);
  expect(printed).not.toContain("@pulumi/output.ts");
});

test("without it, Node's colouring of such a path runs out of memory (what held failing runs for minutes)", () => {
  const r = inspectInChild(false);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toMatch(/heap out of memory|Invalid string length/);
});

test("unmapBrokenFrames rewrites only the frames whose path has a scope and no package", () => {
  const frames = [
    { toString: () => "/app/node_modules/@pulumi/pulumi/output.js:330:31" },
    { toString: () => "/app/index.js:2:38" },
  ] as unknown as NodeJS.CallSite[];
  const stack = ["Error: boom", "    at applyHelperAsync (/app/node_modules/@pulumi/output.ts:519:31)", "    at /app/index.ts:2:38"].join("\n");
  expect(unmapBrokenFrames(stack, frames)).toBe(
    ["Error: boom", "    at /app/node_modules/@pulumi/pulumi/output.js:330:31", "    at /app/index.ts:2:38"].join("\n"),
  );
  const fine = ["Error: boom", "    at f (/app/node_modules/@pulumi/pulumi/output.js:1:1)", "    at /app/index.ts:2:38"].join("\n");
  expect(unmapBrokenFrames(fine, frames)).toBe(fine);
});
