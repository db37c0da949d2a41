/**
 * A PostgreSQL server of its own for a test (Debian's `postgresql` package: initdb and pg_ctl of the newest version
 * under /usr/lib/postgresql), in a temporary folder, on a free port, stopped and removed by `stop`. Run as the
 * `postgres` user when the tests run as root (initdb refuses root). Without PostgreSQL the suite fails naming it
 * (`apt-get install postgresql`; .ci/run installs it).
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
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

const ROOT = "/usr/lib/postgresql";

function binaries(): string {
  const versions = existsSync(ROOT) ? readdirSync(ROOT).filter((v) => existsSync(join(ROOT, v, "bin", "initdb"))) : [];
  if (!versions.length) throw new Error(`PostgreSQL is not installed (no ${ROOT}/*/bin/initdb): apt-get install postgresql`);
  return join(ROOT, versions.sort((a, b) => Number(b) - Number(a))[0], "bin");
}

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
  return {
    url,
    database(name) {
      execFileSync("psql", [url("postgres"), "-qc", `CREATE DATABASE "${name}"`], { stdio: "pipe" });
      return url(name);
    },
    stop() {
      try {
        as(join(bin, "pg_ctl"), ["-D", join(dir, "data"), "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
