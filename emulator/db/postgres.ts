import pg from "pg";
import { z } from "zod";
import {
  AccountMissing,
  IdsTaken,
  type AccountRow,
  type Change,
  type KeptIds,
  type RecordRow,
  type SharedBackend,
  type SharedTransaction,
  type RemoteChange,
} from "./backend";

/**
 * The emulator's state in a PostgreSQL database (`--database postgres://…`), which several emulator processes serve
 * at once (a team's shared emulator behind a load balancer, or one per CI runner on one database).
 *
 * - Each account's row is its lock: a write takes it (`SELECT … FOR UPDATE`) for its transaction, so that writes of
 *   one account follow one another whichever process serves them, and those of other accounts run beside them.
 * - Each account has a revision (its commits). A record row keeps the revision that wrote it, and a deleted record
 *   is kept as a row without a body until its account is deleted: a process that served the account before reads
 *   what changed since (`since`), not the account again.
 * - Ids come from `sequences`, a block at a time; a fixture that loads records of its own ids moves a sequence past
 *   them and bumps the `ids` epoch, so that every process drops the blocks it holds before its next write.
 * - Tokens and upload URLs are found by index (an expression index on the record's JSON), whichever process made them.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id BIGINT PRIMARY KEY, label TEXT NOT NULL, created TEXT NOT NULL, token TEXT NOT NULL, rev BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
  account BIGINT NOT NULL, coll TEXT NOT NULL, key TEXT NOT NULL, ord BIGINT NOT NULL, body TEXT, rev BIGINT NOT NULL,
  PRIMARY KEY (account, coll, key)
);
CREATE INDEX IF NOT EXISTS records_rev ON records (account, rev);
CREATE INDEX IF NOT EXISTS records_token ON records (((body::jsonb) ->> 'token')) WHERE coll = 'tokens';
CREATE INDEX IF NOT EXISTS records_upload ON records (((body::jsonb) #>> '{_upload,token}')) WHERE coll = 'images';
CREATE TABLE IF NOT EXISTS sequences (kind TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO sequences (kind, value) VALUES ('$epoch', 0) ON CONFLICT DO NOTHING;
INSERT INTO sequences (kind, value) VALUES ('$schema', 1) ON CONFLICT DO NOTHING;
`;

/** The tables' version (the `$schema` row): a database of a later emulator is refused, naming it. */
const SCHEMA_VERSION = 1;

const accountRows = z.array(z.object({ id: z.coerce.number(), label: z.string(), created: z.string(), token: z.string(), rev: z.coerce.number() }));
const recordRows = z.array(z.object({ coll: z.string(), key: z.string(), ord: z.coerce.number(), body: z.string() }));
const changeRows = z.array(z.object({ coll: z.string(), key: z.string(), ord: z.coerce.number(), body: z.string().nullable() }));
const revRow = z.array(z.object({ rev: z.coerce.number(), epoch: z.coerce.number() }));
const valueRow = z.array(z.object({ value: z.coerce.number() }));
const accountOf = z.array(z.object({ account: z.coerce.number() }));

/**
 * A connection URL as a message may show it: its user, host, port and database, never its password (in the URL's
 * authority, a query parameter, or a text that is no URL at all, which is not shown).
 */
export function hideSecret(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(a database URL that does not parse: postgres://user:password@host:port/database)";
  }
  const shown = new URL(`${parsed.protocol}//${parsed.host}${parsed.pathname}`);
  if (parsed.username) shown.username = parsed.username;
  if (parsed.password) shown.password = "…";
  for (const [k, v] of parsed.searchParams) shown.searchParams.set(k, /pass|secret|key|cert/i.test(k) ? "…" : v);
  return shown.toString();
}

/** Connects and makes the tables (once: an advisory lock keeps two starting emulators from racing to make them). */
export async function openPostgres(url: string): Promise<PostgresBackend> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`--database ${hideSecret(url)}: a PostgreSQL URL starts with postgres:// or postgresql://`);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // A connection that breaks while idle is the pool's to replace, not the process's end.
  pool.on("error", (err) => console.error("emulator: the database connection failed:", err.message));
  try {
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock(53053)");
      await client.query(SCHEMA);
      await client.query("SELECT pg_advisory_unlock(53053)");
      const version = valueRow.parse((await client.query("SELECT value FROM sequences WHERE kind = '$schema'")).rows)[0].value;
      if (version > SCHEMA_VERSION)
        throw new Error(`the database is of a later emulator (schema ${version}; this one reads ${SCHEMA_VERSION}): use a later emulator`);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end();
    throw new Error(`--database ${hideSecret(url)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return new PostgresBackend(pool);
}

export class PostgresBackend implements SharedBackend {
  readonly kind = "postgres";
  readonly shared = true;

  constructor(private readonly pool: pg.Pool) {}

  async accounts(): Promise<AccountRow[]> {
    return accountRows.parse((await this.pool.query("SELECT id, label, created, token, rev FROM accounts ORDER BY id")).rows);
  }

  async account(id: number): Promise<AccountRow | undefined> {
    return accountRows.parse((await this.pool.query("SELECT id, label, created, token, rev FROM accounts WHERE id = $1", [id])).rows)[0];
  }

  async records(account: number): Promise<RecordRow[]> {
    const { rows } = await this.pool.query("SELECT coll, key, ord, body FROM records WHERE account = $1 AND body IS NOT NULL ORDER BY coll, ord", [account]);
    return recordRows.parse(rows);
  }

  async since(account: number, rev: number): Promise<{ rev: number; epoch: number; changes: RemoteChange[] } | undefined> {
    const head = revRow.parse(
      (await this.pool.query("SELECT rev, (SELECT value FROM sequences WHERE kind = '$epoch') AS epoch FROM accounts WHERE id = $1", [account])).rows,
    )[0];
    if (!head) return undefined;
    if (head.rev === rev) return { ...head, changes: [] };
    const { rows } = await this.pool.query("SELECT coll, key, ord, body FROM records WHERE account = $1 AND rev > $2 ORDER BY rev, ord", [account, rev]);
    return { ...head, changes: changeRows.parse(rows) };
  }

  async begin(account: number, rev: number, create: boolean): Promise<SharedTransaction> {
    const client = await this.pool.connect();
    let done = false;
    const end = async (sql: string) => {
      if (done) return;
      done = true;
      try {
        await client.query(sql);
      } finally {
        client.release();
      }
    };
    try {
      await client.query("BEGIN");
      const head = create
        ? { rev: 0, epoch: valueRow.parse((await client.query("SELECT value FROM sequences WHERE kind = '$epoch'")).rows)[0].value }
        : revRow.parse(
            (await client.query("SELECT rev, (SELECT value FROM sequences WHERE kind = '$epoch') AS epoch FROM accounts WHERE id = $1 FOR UPDATE", [account]))
              .rows,
          )[0];
      if (!head) throw new AccountMissing(`Account ${account} is not in the database`);
      const changes =
        head.rev === rev
          ? []
          : changeRows.parse(
              (await client.query("SELECT coll, key, ord, body FROM records WHERE account = $1 AND rev > $2 ORDER BY rev, ord", [account, rev])).rows,
            );
      return {
        rev: head.rev,
        epoch: head.epoch,
        changes,
        commit: async (writes: readonly Change[], next: number, made?: AccountRow, kept?: ReadonlyMap<string, KeptIds>) => {
          // The ids kept first: none of them may have been given since the write read how far their sequence went.
          for (const [kind, { least, most }] of kept ?? []) {
            const { rows } = await client.query(
              "INSERT INTO sequences (kind, value) VALUES ($1, 0) ON CONFLICT (kind) DO UPDATE SET value = sequences.value RETURNING value",
              [kind],
            );
            if (valueRow.parse(rows)[0].value >= least) throw new IdsTaken(kind);
            await client.query("UPDATE sequences SET value = GREATEST(value, $2) WHERE kind = $1", [kind, most]);
          }
          if (kept?.size) await client.query("UPDATE sequences SET value = value + 1 WHERE kind = '$epoch'");
          // A new account's row (another process making it first fails this one), or its root token rewritten.
          if (made && create)
            await client.query("INSERT INTO accounts (id, label, created, token, rev) VALUES ($1, $2, $3, $4, $5)", [
              made.id,
              made.label,
              made.created,
              made.token,
              next,
            ]);
          else if (made) await client.query("UPDATE accounts SET label = $1, token = $2, rev = $3 WHERE id = $4", [made.label, made.token, next, account]);
          else await client.query("UPDATE accounts SET rev = $1 WHERE id = $2", [next, account]);
          for (const c of writes) {
            await client.query(
              "INSERT INTO records (account, coll, key, ord, body, rev) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account, coll, key) DO UPDATE SET ord = excluded.ord, body = excluded.body, rev = excluded.rev",
              [account, c.coll, c.key, c.ord, c.body, next],
            );
          }
          await end("COMMIT");
        },
        rollback: () => end("ROLLBACK"),
      };
    } catch (err) {
      await end("ROLLBACK");
      throw err;
    }
  }

  commit(): Promise<void> {
    return Promise.reject(new Error("A shared database commits in its transaction (begin)"));
  }

  async removeAccount(account: number): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      // The account's row first, as a write takes it: a write under way ends first, and one after finds no account.
      await client.query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE", [account]);
      await client.query("DELETE FROM records WHERE account = $1", [account]);
      await client.query("DELETE FROM accounts WHERE id = $1", [account]);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK");
      throw err;
    } finally {
      client.release();
    }
  }

  reserve(): number {
    throw new Error("A shared database gives ids asynchronously (reserveAsync)");
  }

  async reserveAsync(kind: string, count: number, atLeast: number): Promise<number> {
    const { rows } = await this.pool.query(
      "INSERT INTO sequences (kind, value) VALUES ($1, $3::bigint + $2::bigint) ON CONFLICT (kind) DO UPDATE SET value = GREATEST(sequences.value, $3::bigint) + $2::bigint RETURNING value",
      [kind, count, atLeast],
    );
    return valueRow.parse(rows)[0].value - count + 1;
  }

  async headsAsync(): Promise<ReadonlyMap<string, number>> {
    const { rows } = await this.pool.query("SELECT kind, value FROM sequences WHERE kind NOT LIKE '$%'");
    return new Map(
      z
        .array(z.object({ kind: z.string(), value: z.coerce.number() }))
        .parse(rows)
        .map((r) => [r.kind, r.value]),
    );
  }

  heads(): ReadonlyMap<string, number> {
    throw new Error("A shared database's sequences are read asynchronously (headsAsync)");
  }

  async accountForToken(value: string): Promise<number | undefined> {
    const { rows } = await this.pool.query(
      "SELECT account FROM records WHERE coll = 'tokens' AND ((body::jsonb) ->> 'token') = $1 AND body IS NOT NULL LIMIT 1",
      [value],
    );
    return accountOf.parse(rows)[0]?.account;
  }

  async accountForUpload(token: string): Promise<number | undefined> {
    const { rows } = await this.pool.query(
      "SELECT account FROM records WHERE coll = 'images' AND ((body::jsonb) #>> '{_upload,token}') = $1 AND body IS NOT NULL LIMIT 1",
      [token],
    );
    return accountOf.parse(rows)[0]?.account;
  }

  /** Whether the database answers (the health check's). */
  async ping(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
