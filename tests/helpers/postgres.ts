/**
 * A PostgreSQL server of its own for a test (initdb and pg_ctl from scripts/ensure-postgres: Debian's `postgresql`,
 * installed once as root when missing), in a temporary folder, on a free port, stopped and removed by `stop`. Run as
 * the `postgres` user when the tests run as root (initdb refuses root). Without PostgreSQL the suite fails naming it.
 */
import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Postgres {
  /** A database URL for a database of this name (made by `database`). */
  url(database: string): string;
  /** Makes a database (empty) and gives its URL. */
  database(name: string): string;
  stop(): void;
}

const SCRIPT = join(__dirname, "..", "..", "scripts", "ensure-postgres");

/** The folder of initdb and pg_ctl: scripts/ensure-postgres finds them, or installs Debian's package as root. */
const binaries = (): string => execFileSync(SCRIPT, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

export async function startPostgres(): Promise<Postgres> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), "compute-pg-"));
  const root = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]) =>
    execFileSync(root ? "runuser" : cmd, root ? ["-u", "postgres", "--", cmd, ...args] : args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (root) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()), 0);
  const port = await freePort();
  as(join(bin, "initdb"), ["-D", join(dir, "data"), "-A", "trust", "-U", "emu", "--no-sync"]);
  as(join(bin, "pg_ctl"), ["-D", join(dir, "data"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "-l", join(dir, "log"), "-w", "start"]);
  const url = (database: string) => `postgres://emu@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url,
    database(name) {
      execFileSync("psql", [url("postgres"), "-qc", `CREATE DATABASE "${name}"`], { stdio: "pipe" });
      return url(name);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        as(join(bin, "pg_ctl"), ["-D", join(dir, "data"), "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
