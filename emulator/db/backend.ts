/**
 * Where the emulator keeps its accounts: a database under the in-memory working set (emulator/state.ts `Store`).
 * Every account's records are rows (`RecordRow`: its collection, its key, its place in the collection, its JSON);
 * a request's changes are written in one transaction (`commit`), so that what was answered is kept and what was
 * refused or failed leaves nothing. Ids come from sequences shared by every account (`reserve`), never reused.
 *
 * Three kinds: `memory` (no `--state`: nothing outlives the process, as before), `sqlite` (`--state FILE`:
 * emulator/db/sqlite.ts), and `postgres` (`--database postgres://…`: emulator/db/postgres.ts), which several
 * emulator processes share (`SharedBackend`).
 */

/** A record of an account, as a row: its collection (`instances`), its key (its id, or a user's name), its place, its JSON. */
export interface RecordRow {
  coll: string;
  key: string;
  ord: number;
  body: string;
}

/** A change of a request: a record written (its JSON) or deleted (`body` null). */
export interface Change {
  coll: string;
  key: string;
  ord: number;
  body: string | null;
}

/** An account as its row: its number, its name, when it was made, its root token, and its revision (how many commits it has had). */
export interface AccountRow {
  id: number;
  label: string;
  created: string;
  token: string;
  rev: number;
}

export interface Backend {
  readonly kind: "memory" | "sqlite" | "postgres";
  /** Whether other processes write to it too (`SharedBackend`). */
  readonly shared: boolean;
  /** Every account, by number. */
  accounts(): Promise<AccountRow[]>;
  /** An account's records, by collection then place. */
  records(account: number): Promise<RecordRow[]>;
  /**
   * Writes an account's changes in one transaction, and its new revision: all of them, durably, or none (an error).
   * `row` writes the account's row in the same transaction: makes it (an account made with a fixture: all or
   * nothing), or rewrites it (its root token changed: the token records and the row together).
   */
  commit(account: number, changes: readonly Change[], rev: number, row?: AccountRow): Promise<void>;
  /** Deletes an account and all its records. */
  removeAccount(account: number): Promise<void>;
  /**
   * Takes `count` ids of a kind from its sequence, after `atLeast` if given: the first of them. Taken ids are never
   * given again, whether used or not (a process that stops loses the rest of its block, as a database's sequence).
   */
  reserve(kind: string, count: number, atLeast?: number): number;
  /** How far each kind's sequence went (every id up to it may have been given); a shared database's: `headsAsync`. */
  heads(): ReadonlyMap<string, number>;
  /** Resolves when the database answers (the health check's; none for one in the process). */
  ping?(): Promise<void>;
  /** Ends the connection (the process's last writes are already committed). */
  close(): Promise<void>;
}

/** The largest id the emulator gives (2^31 − 1, what every client of the API reads as an integer). */
export const MAX_ID = 2 ** 31 - 1;

/** No database: the state lives as long as the process (an emulator started without `--state`). */
export class MemoryBackend implements Backend {
  readonly kind = "memory";
  readonly shared = false;
  private readonly sequences = new Map<string, number>();

  accounts(): Promise<AccountRow[]> {
    return Promise.resolve([]);
  }

  records(): Promise<RecordRow[]> {
    return Promise.resolve([]);
  }

  commit(): Promise<void> {
    return Promise.resolve();
  }

  removeAccount(): Promise<void> {
    return Promise.resolve();
  }

  reserve(kind: string, count: number, atLeast = 0): number {
    const first = Math.max(this.sequences.get(kind) ?? 0, atLeast) + 1;
    this.sequences.set(kind, first + count - 1);
    return first;
  }

  heads(): ReadonlyMap<string, number> {
    return new Map(this.sequences);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A record changed by another process since a revision: written (its JSON) or deleted (`body` null). */
export interface RemoteChange {
  coll: string;
  key: string;
  ord: number;
  body: string | null;
}

/** One account's write in a shared database: its row locked, what other processes changed since, its commit. */
export interface SharedTransaction {
  /** The account's revision now, and what changed since the one asked for (in the order it was written). */
  rev: number;
  changes: RemoteChange[];
  /** The ids epoch: when it moves, ids taken before may be a loaded record's (`Ids`). */
  epoch: number;
  /**
   * Writes the changes and the account's new revision (its row, `row`: made for a new account, rewritten when its
   * root token changed), moves each sequence past the ids kept of its kind (`kept`: the least and the most), commits;
   * `IdsTaken` (nothing written) when a sequence has reached the least since the write read it (another process took
   * ids the write was keeping).
   */
  commit(changes: readonly Change[], rev: number, row?: AccountRow, kept?: ReadonlyMap<string, KeptIds>): Promise<void>;
  rollback(): Promise<void>;
}

/** A database several emulator processes serve at once: transactions that lock an account, catch-up, ids and lookups across processes. */
export interface SharedBackend extends Backend {
  readonly shared: true;
  account(id: number): Promise<AccountRow | undefined>;
  /** What changed in an account since a revision (undefined: the account is gone). */
  since(account: number, rev: number): Promise<{ rev: number; epoch: number; changes: RemoteChange[] } | undefined>;
  begin(account: number, rev: number, create: boolean): Promise<SharedTransaction>;
  /** Takes `count` ids of a kind, after `atLeast`: the first of them. */
  reserveAsync(kind: string, count: number, atLeast: number): Promise<number>;
  headsAsync(): Promise<ReadonlyMap<string, number>>;
  accountForToken(value: string): Promise<number | undefined>;
  accountForUpload(token: string): Promise<number | undefined>;
}

/** The ids of a kind a write keeps (a fixture's records' own): from the least to the most. */
export interface KeptIds {
  least: number;
  most: number;
}

/** A write that kept ids another process has taken since it read how far their sequence went: it is run again. */
export class IdsTaken extends Error {
  constructor(readonly kind: string) {
    super(`${kind} ids were taken by another process`);
  }
}

/** An account that is no longer in a shared database (another process deleted it). */
export class AccountMissing extends Error {}

export const isShared = (backend: Backend): backend is SharedBackend => backend.shared;
