/**
 * `npm run test:handles`: Jest's node environment, which after each suite's teardown (and a second and a half
 * for its processes and sockets to close) lists what is left in the worker that would keep it from exiting: a
 * timer, a socket, a server, a child process. A worker's own (its IPC channel, stdout, stderr, and stdin, which
 * @pulumi/pulumi's automation module creates by enumerating `process`, and which holds no process open) are
 * not counted. Suites that leave anything are written to .artifacts/open-handles.txt and printed; the run fails
 * if there is one. (How issue 47's open-handle check was made: every suite, in the workers the suite uses.)
 */
const { TestEnvironment } = require("jest-environment-node");
const fs = require("node:fs");
const path = require("node:path");

const REPORT = path.join(__dirname, "..", "..", ".artifacts", "open-handles.txt");

/** A handle as a line: its kind, and what it is connected to. */
function describe(h) {
  const kind = h?.constructor?.name ?? typeof h;
  if (kind === "ChildProcess") return `ChildProcess pid ${h.pid}: ${(h.spawnargs ?? []).join(" ").slice(0, 200)}`;
  if (kind === "Socket" || kind === "TLSSocket")
    return `${kind} ${h.remoteAddress ?? ""}:${h.remotePort ?? ""} (local port ${h.localPort ?? "-"}, fd ${h._handle?.fd ?? "-"})`;
  if (kind === "Server") {
    try {
      return `Server ${JSON.stringify(h.address())}`;
    } catch {
      return "Server";
    }
  }
  return kind;
}

/** The worker's own: stdio (fd 0 to 2) and the IPC pipe to Jest. */
const own = (h) => (h?.constructor?.name === "Socket" && [0, 1, 2].includes(h._handle?.fd)) || h?.constructor?.name === "Pipe";

class HandlesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.suite = path.relative(process.cwd(), context.testPath);
  }

  async teardown() {
    await super.teardown();
    await new Promise((resolve) => setTimeout(resolve, 1500).unref());
    const left = process
      ._getActiveHandles()
      .filter((h) => !own(h))
      .map(describe);
    const timers = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    if (timers) left.push(`${timers} timer(s)`);
    if (!left.length) return;
    const text = `${this.suite} (worker ${process.pid}):\n  ${left.join("\n  ")}\n`;
    fs.mkdirSync(path.dirname(REPORT), { recursive: true });
    fs.appendFileSync(REPORT, text);
    throw new Error(`left open after its teardown:\n  ${left.join("\n  ")}`);
  }
}

module.exports = HandlesEnvironment;
