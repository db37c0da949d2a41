import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, readdirSync, readSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { ApiFamily } from "../family";
import { apiTime, readState } from "../state";
import { ACCOUNT_COUNTERS, recordKey } from "../store";
import type { AccountRow, Change } from "./backend";
import { SqliteBackend } from "./sqlite";
import { checkState, withCurrentEvents } from "./state-check";

/**
 * `--state FILE`: the emulator's SQLite database. A state file of an earlier release (one JSON text per account:
 * FILE, and FILE.accounts/<id>.json) is moved into a database first, unchanged: its records, ids and counters kept
 * (the JSON is kept beside it as FILE.v1.json and FILE.accounts.v1, and the file becomes the database only once
 * the database holds everything: a crash while moving leaves the JSON as it was, to move again). Its records are
 * checked first, as a fixture's are (emulator/db/state-check.ts): one this emulator refuses stops the move, the
 * file as it was; the events of a release before events followed the clock are made current.
 */
export async function openStateFile(file: string, rootToken: string, now: () => number, families: readonly ApiFamily[]): Promise<SqliteBackend> {
  if (existsSync(file) && startsWithBrace(file)) await migrateJson(file, rootToken, now, families);
  const dir = `${file}.accounts`;
  // Left by a move that stopped after the file became the database: kept aside as the move keeps it.
  if (existsSync(dir) && !existsSync(`${dir}.v1`)) renameSync(dir, `${dir}.v1`);
  return new SqliteBackend(file);
}

/** Ids of account n were made after (n − 1) × 10,000,000 by earlier releases (its address counters too). */
const ID_SPAN = 10_000_000;
/** The counters of addresses (numbered from a range's start, not ids). */
const ADDRESS_COUNTERS = new Set(["ipv4", "private_ip"]);

function startsWithBrace(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(64);
    const n = readSync(fd, buf, 0, 64, 0);
    return buf.subarray(0, n).toString("utf8").trimStart().startsWith("{");
  } finally {
    closeSync(fd);
  }
}

async function migrateJson(file: string, rootToken: string, now: () => number, families: readonly ApiFamily[]): Promise<void> {
  const states: Array<{ id: number; path: string; state: Record<string, unknown> }> = [{ id: 1, path: file, state: withCurrentEvents(readState(file)) }];
  const dir = `${file}.accounts`;
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).filter((n) => /^\d+\.json$/.test(n))) {
      const path = join(dir, name);
      states.push({ id: Number(name.slice(0, -5)), path, state: withCurrentEvents(readState(path)) });
    }
  }
  // Every account checked before anything is written.
  for (const { path, state } of states) await checkState(path, state, families, now);
  const tmp = `${file}.moving`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  const db = new SqliteBackend(tmp);
  const highest = new Map<string, number>();
  for (const { id, state } of states) {
    const meta = z
      .object({ label: z.string(), created: z.string(), token: z.string() })
      .partial()
      .parse(state.account ?? {});
    const row: AccountRow = {
      id,
      label: meta.label ?? (id === 1 ? "main" : `account-${id}`),
      created: meta.created ?? apiTime(now()),
      token: meta.token ?? rootToken,
      rev: 1,
    };
    const changes: Change[] = [];
    let ord = 0;
    for (const [name, value] of Object.entries(state)) {
      if (name === "version" || name === "account") continue;
      if (name === "nextId") {
        const own: Record<string, number> = {};
        for (const [kind, n] of Object.entries(z.record(z.string(), z.number()).parse(value))) {
          // An account's own counter counts from its range's start (the last release's began at (id − 1) × ID_SPAN, its
          // addresses too); an id's sequence is every account's, and so are public addresses.
          const from = ADDRESS_COUNTERS.has(kind) && n >= (id - 1) * ID_SPAN ? n - (id - 1) * ID_SPAN : n;
          if (ACCOUNT_COUNTERS.has(kind)) own[kind] = from;
          else highest.set(kind, Math.max(highest.get(kind) ?? 0, from));
        }
        changes.push({ coll: "$", key: "nextId", ord: 0, body: JSON.stringify(own) });
      } else if (Array.isArray(value)) {
        for (const rec of value) changes.push({ coll: name, key: recordKey(name, rec), ord: ++ord, body: JSON.stringify(rec) });
      } else changes.push({ coll: "$", key: name, ord: 0, body: JSON.stringify(value) });
    }
    void db.commit(id, changes, 1, row);
    highest.set("account", Math.max(highest.get("account") ?? 0, id));
  }
  for (const [kind, n] of highest) db.reserve(kind, 0, n);
  void db.close();
  copyFileSync(file, `${file}.v1.json`);
  const fd = openSync(`${file}.v1.json`, "r+");
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, file);
  if (existsSync(dir)) renameSync(dir, `${dir}.v1`);
  console.error(`emulator: moved the state file ${file} into a database (the JSON is kept as ${file}.v1.json)`);
}
