/**
 * linodego (the real API's Go client) against the emulator's command: tests/go/linodego's tests, through its renaming
 * proxy, against an emulator started here (tests/e2e/linodego-waits.e2e.test.ts, tests/e2e/emulator-postgres.e2e.test.ts).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import * as path from "node:path";
import { createInterface } from "node:readline";

const ROOT = path.resolve(__dirname, "..", "..");
export const CLI = path.join(ROOT, "dist", "emulator", "cli.js");
const MODULE = path.join(ROOT, "tests", "go", "linodego");

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

/** `npm test` builds dist/ before Jest; run alone, a suite builds the emulator's command when it is missing or older than its sources. */
export function ensureBuilt(): void {
  const sources = Math.max(newest(path.join(ROOT, "emulator"), ".ts"), newest(path.join(ROOT, "api"), ".ts"));
  if (existsSync(CLI) && newest(path.join(ROOT, "dist", "emulator"), ".js") >= sources) return;
  const built = spawnSync("npx", ["tsc", "-p", "."], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`npx tsc -p . failed:\n${built.stdout}\n${built.stderr}`);
}

export interface EmulatorProcess {
  child: ChildProcess;
  url: string;
  token: string;
}

/** The emulator's command on a free port, with `args`; resolves with its URL and token once it serves. */
export async function startEmulatorCli(token: string, args: string[]): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [CLI, "--port", "0", "--token", token, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  const printed = JSON.parse(line) as { url: string; token: string };
  return { child, ...printed };
}

/** `go test ./...` in tests/go/linodego against the emulator at `url`: its exit and output. */
export async function linodegoTests(url: string, token: string): Promise<{ code: number | string | null; output: string; seconds: string }> {
  const env = { ...process.env, GOFLAGS: "-mod=mod", EMULATOR_URL: url, EMULATOR_TOKEN: token };
  const began = Date.now();
  const { code, output } = await new Promise<{ code: number | string | null; output: string }>((resolve) => {
    execFile(
      "go",
      ["test", "-count=1", "-timeout", "5m", "-v", "./..."],
      { cwd: MODULE, env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? (err.code ?? err.signal ?? "failed") : 0, output: `${stdout}\n${stderr}` }),
    );
  });
  return { code, output, seconds: ((Date.now() - began) / 1000).toFixed(1) };
}

/**
 * The emulator's speed for linodego's tests (emulator/timing.ts): an instance create takes 800 ms (and its boot
 * 260 ms), a shutdown 300 ms, a disk 180 ms, an image capture 1.6 s, a database 7.2 s. 0.1 when a create took 8 s at
 * speed 1, 74 s now; tests/go/linodego starts its own emulator at the same speed.
 */
export const LINODEGO_SPEED = String(0.1 * (8 / 74));

/** The tests every run of tests/go/linodego must pass (none skipped: a test skips only without an emulator). */
export const LINODEGO_TESTS = [
  "TestRenamePath",
  "TestRenameJSON",
  "TestInstanceWaits",
  "TestDatabaseWaits/WaitForEventFinished",
  "TestDatabaseWaits/WaitForDatabaseStatus",
];

/**
 * A load balancer in front of several emulators: each request to the next one in turn (round robin), so that one
 * client's requests are served by all of them. Resolves with its origin and how many requests each upstream served.
 */
export async function roundRobin(upstreams: string[]): Promise<{ origin: string; served: number[]; server: Server }> {
  const served = upstreams.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const i = next++ % upstreams.length;
    served[i]++;
    const target = new URL(req.url ?? "/", upstreams[i]);
    const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, served, server };
}
