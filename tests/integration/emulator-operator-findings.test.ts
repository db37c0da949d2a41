/**
 * What a new user trying the emulator as its operator found (issue 53, fresh eyes), each a regression test: the
 * SQLite store's experimental warning printed where the global process is not node's own (inside Jest).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SERVER = join(__dirname, "../../dist/emulator/server.js");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-operator-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("node:sqlite's experimental warning is not printed, where the global process is a copy too (Jest's); other warnings are", () => {
  // As in a Jest test: the modules' `process` is a copy of node's, which node itself warns through.
  const script = `
    const node = process;
    const copy = Object.create(Object.getPrototypeOf(node));
    for (const key of Reflect.ownKeys(node)) Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(node, key));
    globalThis.process = copy;
    const { startEmulator } = require(${JSON.stringify(SERVER)});
    startEmulator({ stateFile: ${JSON.stringify(join(dir, "state.db"))}, speed: 0 }).then(async (emu) => {
      await emu.close();
      process.emitWarning("another warning", "OtherWarning");
    });
  `;
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(run.status).toBe(0);
  expect(run.stderr).not.toMatch(/SQLite|ExperimentalWarning/);
  expect(run.stderr).toMatch(/OtherWarning: another warning/);
});
