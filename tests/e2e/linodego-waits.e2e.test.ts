/**
 * linodego's waiting helpers, run against the emulator, return when the real API's would (issue 46): the Go
 * module tests/go/linodego runs linodego (the real API's Go client, from the module proxy, the version of the
 * recorded cassettes) through a renaming reverse proxy (linode → compute names in paths, bodies and X-Filter,
 * and back in the answers) against the emulator's command started here. Its tests wait with linodego's own
 * helpers: WaitForEventFinished (linode_create, linode_boot, linode_shutdown, disk_create, disk_imagize,
 * database_create), WaitForInstanceStatus, WaitForInstanceDiskStatus, WaitForImageStatus,
 * WaitForDatabaseStatus, WaitForResourceFree and the event pollers' WaitForFinished; each must return without
 * error, well within its timeout, having polled while its operation was under way, and leave the resource as
 * the real API shows it once the operation is over.
 *
 * Needs Go and the modules of tests/go/linodego/go.sum in the Go module cache or the proxy (the first run
 * downloads them); without Go the suite fails, naming Go (`COMPUTE_SKIP_GO=1` skips it outside CI:
 * tests/helpers/go.ts).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { describeWithGo } from "../helpers/go";

jest.setTimeout(900_000);

const ROOT = path.resolve(__dirname, "..", "..");
const CLI = path.join(ROOT, "dist", "emulator", "cli.js");
const MODULE = path.join(ROOT, "tests", "go", "linodego");
/**
 * The emulator's speed (emulator/timing.ts): an instance create takes 800 ms (and its boot 260 ms), a shutdown
 * 300 ms, a disk 180 ms, an image capture 1.6 s, a database 7.2 s. 0.1 when a create took 8 s at speed 1, 74 s
 * now; tests/go/linodego starts its own emulator at the same speed.
 */
const SPEED = String(0.1 * (8 / 74));

/** The newest modification time of the files under `dir` whose name ends with `ext` (0 when none). */
function newest(dir: string, ext: string): number {
  if (!existsSync(dir)) return 0;
  return Math.max(
    0,
    ...readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(ext))
      .map((f) => statSync(path.join(dir, f)).mtimeMs),
  );
}

/** `npm test` builds dist/ before Jest; run alone, the suite builds the emulator's command when it is missing or older than its sources. */
function ensureBuilt(): void {
  const sources = Math.max(newest(path.join(ROOT, "emulator"), ".ts"), newest(path.join(ROOT, "api"), ".ts"));
  if (existsSync(CLI) && newest(path.join(ROOT, "dist", "emulator"), ".js") >= sources) return;
  const built = spawnSync("npx", ["tsc", "-p", "."], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`npx tsc -p . failed:\n${built.stdout}\n${built.stderr}`);
}

/** The emulator's command on a free port; resolves with its URL and token once it serves. */
async function startEmulator(token: string): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = spawn(process.execPath, [CLI, "--port", "0", "--token", token, "--speed", SPEED], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  const printed = JSON.parse(line) as { url: string; token: string };
  return { child, ...printed };
}

describeWithGo("linodego-waits.e2e")("linodego's waiting helpers against the emulator", () => {
  let emu: { child: ChildProcess; url: string; token: string };

  beforeAll(async () => {
    ensureBuilt();
    emu = await startEmulator(randomBytes(16).toString("hex"));
  });
  afterAll(() => {
    emu?.child.kill("SIGTERM");
  });

  test("go test in tests/go/linodego: every helper returns, in time, once its operation is over", async () => {
    const env = { ...process.env, GOFLAGS: "-mod=mod", EMULATOR_URL: emu.url, EMULATOR_TOKEN: emu.token };
    const began = Date.now();
    const { code, output } = await new Promise<{ code: number | string | null; output: string }>((resolve) => {
      execFile(
        "go",
        ["test", "-count=1", "-timeout", "5m", "-v", "./..."],
        { cwd: MODULE, env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? (err.code ?? err.signal ?? "failed") : 0, output: `${stdout}\n${stderr}` }),
      );
    });
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    if (code !== 0) throw new Error(`go test ./... in tests/go/linodego failed (${String(code)}, after ${seconds} s):\n${output}`);
    // Every test ran against the emulator: none skipped (a test skips only without one).
    for (const name of [
      "TestRenamePath",
      "TestRenameJSON",
      "TestInstanceWaits",
      "TestDatabaseWaits/WaitForEventFinished",
      "TestDatabaseWaits/WaitForDatabaseStatus",
    ]) {
      expect(output).toContain(`--- PASS: ${name} (`);
    }
    expect(output).not.toContain("--- SKIP");
  });
});
