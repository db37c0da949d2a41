import type { DatabaseSync, StatementSync } from "node:sqlite";
import { z } from "zod";
import { codeOf } from "../http";
import type { AccountRow, Backend, Change, RecordRow } from "./backend";

/** The schema's version (`PRAGMA user_version`): a later one is refused, naming it. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY, label TEXT NOT NULL, created TEXT NOT NULL, token TEXT NOT NULL, rev INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
  account INTEGER NOT NULL, coll TEXT NOT NULL, key TEXT NOT NULL, ord INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (account, coll, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sequences (kind TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
`;

/**
 * node:sqlite (the SQLite Node ships, 3.51 in Node 22): no native module to build or download, and synchronous, so
 * that a request's transaction (BEGIN … COMMIT) runs whole between two of the server's events. It says it is
 * experimental once, when first loaded: that warning is not the user's concern and is not printed (that one only,
 * while it loads: every other warning is emitted as before).
 */
function openDatabase(file: string): DatabaseSync {
  // Node warns through its own process object, which is not always the global `process` (a Jest test's is a copy).
  const node = process.getBuiltinModule("node:process");
  const own = Object.getOwnPropertyDescriptor(node, "emitWarning");
  const emit: unknown = Reflect.get(node, "emitWarning");
  node.emitWarning = (warning: string | Error, ...rest: unknown[]): void => {
    if (/SQLite is an experimental feature/.test(typeof warning === "string" ? warning : warning.message)) return;
    if (typeof emit === "function") Reflect.apply(emit, node, [warning, ...rest]);
  };
  try {
    // Loaded when first used (an emulator without --state never loads it), with its warning held back.
    const { DatabaseSync: Database } = process.getBuiltinModule("node:sqlite");
    return new Database(file);
  } finally {
    if (own) Object.defineProperty(node, "emitWarning", own);
    else Reflect.deleteProperty(node, "emitWarning");
  }
}

const accountRows = z.array(z.object({ id: z.coerce.number(), label: z.string(), created: z.string(), token: z.string(), rev: z.coerce.number() }));
const recordRows = z.array(z.object({ coll: z.string(), key: z.string(), ord: z.coerce.number(), body: z.string() }));
const one = <T extends z.ZodType>(schema: T, row: unknown): z.output<T> => schema.parse(row);

/**
 * The emulator's state in one SQLite file (`--state FILE`): WAL, synchronous FULL (a commit is on the disk when it
 * returns), and the file locked by its emulator (a second one on the same file is refused, not let to overwrite).
 */
export class SqliteBackend implements Backend {
  readonly kind = "sqlite";
  readonly shared = false;
  private readonly db: DatabaseSync;
  private readonly put: StatementSync;
  private readonly drop: StatementSync;
  private readonly setRev: StatementSync;
  private readonly take: StatementSync;

  constructor(readonly file: string) {
    this.db = openDatabase(file);
    try {
      const version = one(z.object({ user_version: z.coerce.number() }), this.db.prepare("PRAGMA user_version").get()).user_version;
      if (version > SCHEMA_VERSION)
        throw new Error(`The state file ${file} is of a later emulator (schema ${version}; this one reads ${SCHEMA_VERSION}): use a later emulator`);
      this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0;");
      this.db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
    } catch (err) {
      this.db.close();
      const message = z.object({ errstr: z.string() }).safeParse(err).data?.errstr ?? String(err);
      if (/locked|busy/i.test(message))
        throw new Error(`The state file ${file} is in use by another emulator (one file, one emulator: share a PostgreSQL database with --database instead)`);
      if (/not a database|malformed/i.test(message))
        throw new Error(`The state file ${file} is not an emulator state (${message}); move it away to start afresh`);
      throw err;
    }
    this.put = this.db.prepare(
      "INSERT INTO records (account, coll, key, ord, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET ord = excluded.ord, body = excluded.body",
    );
    this.drop = this.db.prepare("DELETE FROM records WHERE account = ? AND coll = ? AND key = ?");
    this.setRev = this.db.prepare("UPDATE accounts SET rev = ? WHERE id = ?");
    this.take = this.db.prepare("INSERT INTO sequences (kind, value) VALUES (?, ?) ON CONFLICT DO UPDATE SET value = max(value, ?) + ? RETURNING value");
  }

  accounts(): Promise<AccountRow[]> {
    return Promise.resolve(accountRows.parse(this.db.prepare("SELECT id, label, created, token, rev FROM accounts ORDER BY id").all()));
  }

  records(account: number): Promise<RecordRow[]> {
    return Promise.resolve(recordRows.parse(this.db.prepare("SELECT coll, key, ord, body FROM records WHERE account = ? ORDER BY coll, ord").all(account)));
  }

  commit(account: number, changes: readonly Change[], rev: number, row?: AccountRow): Promise<void> {
    this.transaction(() => {
      if (row)
        this.db
          .prepare(
            "INSERT INTO accounts (id, label, created, token, rev) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET label = excluded.label, token = excluded.token, rev = excluded.rev",
          )
          .run(row.id, row.label, row.created, row.token, rev);
      for (const c of changes) {
        if (c.body === null) this.drop.run(account, c.coll, c.key);
        else this.put.run(account, c.coll, c.key, c.ord, c.body);
      }
      if (!row) this.setRev.run(rev, account);
    });
    return Promise.resolve();
  }

  removeAccount(account: number): Promise<void> {
    this.transaction(() => {
      this.db.prepare("DELETE FROM records WHERE account = ?").run(account);
      this.db.prepare("DELETE FROM accounts WHERE id = ?").run(account);
    });
    return Promise.resolve();
  }

  reserve(kind: string, count: number, atLeast = 0): number {
    let last = 0;
    this.transaction(() => {
      last = one(z.object({ value: z.coerce.number() }), this.take.get(kind, atLeast + count, atLeast, count)).value;
    });
    return last - count + 1;
  }

  heads(): ReadonlyMap<string, number> {
    const rows = z.array(z.object({ kind: z.string(), value: z.coerce.number() })).parse(this.db.prepare("SELECT kind, value FROM sequences").all());
    return new Map(rows.map((r) => [r.kind, r.value]));
  }

  close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
    return Promise.resolve();
  }

  /** Runs `work` in a transaction: committed whole, or rolled back and its error thrown (a full disk's too). */
  private transaction(work: () => void): void {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      work();
      this.db.exec("COMMIT");
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw Object.assign(err instanceof Error ? err : new Error(String(err)), { code: sqliteCode(err) ?? codeOf(err) });
    }
  }
}

/** SQLite's own name of an error (SQLITE_FULL for a full disk), from node:sqlite's `errcode` (its primary code). */
const SQLITE_CODES: Record<number, string> = {
  5: "SQLITE_BUSY",
  8: "SQLITE_READONLY",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
};
const sqliteCode = (err: unknown): string | undefined => {
  const r = z.object({ errcode: z.number() }).safeParse(err);
  return r.success ? (SQLITE_CODES[r.data.errcode & 0xff] ?? `SQLITE_ERROR ${r.data.errcode}`) : undefined;
};
