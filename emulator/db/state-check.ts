import { z } from "zod";
import { familyCollections, type ApiFamily } from "../family";
import { FIXTURE_FORMAT, FIXTURE_VERSION, loadFixture, readFixture } from "../fixtures";
import { fieldErrors, HttpError } from "../http";
import { apiTime, storedToken } from "../state";
import { Ids, recordKey, Store } from "../store";
import { MemoryBackend, type AccountRow } from "./backend";

/**
 * What a state file of an earlier release (JSON: emulator/db/state-file.ts) must hold to be moved into a database:
 * what a fixture's records must (`checkState`). And its events, made current where a release before events followed
 * the clock wrote them (`withCurrentEvents`).
 */

/** The refusals a state file's message lists at most. */
const MAX_LISTED = 10;

/** What a check's account may hold: unbounded (an earlier release had no quotas; a quota refuses changes, not a state). */
const UNBOUNDED = { records: Infinity, bytes: Infinity, users: Infinity };

/**
 * An account's state of an earlier release, checked before anything is moved as a fixture's records are
 * (emulator/fixtures.ts: each collection's records by its schema, no two of one id, the counters in range, and what
 * the records must hold between them, each family's `references`), loaded into an account of its own in memory; and
 * what the database keeps them by: no two records of one key (a user by its name), the tokens by their schema. One
 * refused is an error naming the file, the record's place and the rule (moved as it was, one of two records of one
 * id was lost, and a record its schema refuses failed the requests that read it).
 */
export async function checkState(path: string, state: Record<string, unknown>, families: readonly ApiFamily[], now: () => number): Promise<void> {
  const refusals = [...keysRefused(state), ...tokensRefused(state.tokens)];
  if (!refusals.length) {
    const records = Object.fromEntries(Object.entries(state).filter(([name, value]) => Array.isArray(value) && name !== "tokens"));
    const backend = new MemoryBackend();
    const row: AccountRow = { id: 0, label: "check", created: apiTime(now()), token: "", rev: 0 };
    const store = await Store.open(backend, new Ids(backend), now, familyCollections(families), row, false, "", UNBOUNDED);
    const target = { store, families, call: () => Promise.reject(new Error("a state file makes no request")) };
    try {
      await loadFixture(target, readFixture({ format: FIXTURE_FORMAT, version: FIXTURE_VERSION, records, counters: state.nextId }, target));
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A fixture's places are under `records.`; a state file's collections are its top level.
      refusals.push(...err.errors.map((e) => e.reason.replace(/\brecords\./g, "").replace(/^counters\./, "nextId.")));
    }
  }
  if (!refusals.length) return;
  const more = refusals.length > MAX_LISTED ? `; and ${refusals.length - MAX_LISTED} more` : "";
  throw new Error(
    `The state file ${path} (an earlier release's JSON) holds what this emulator refuses, so it was not moved into a database and is as it was: ${refusals.slice(0, MAX_LISTED).join("; ")}${more}. Mend it, or move it away to start afresh`,
  );
}

/**
 * Two records of a collection with one key, its id or (a user, a user's settings) its name: the database keeps a
 * record by its collection and key, so one would be lost, and the account's state would not be the database's.
 */
function keysRefused(state: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(state)) {
    if (!Array.isArray(value)) continue;
    const seen = new Map<string, number>();
    value.forEach((record: unknown, index) => {
      let key: string;
      try {
        key = recordKey(name, record);
      } catch {
        return void out.push(`${name}[${index}]: a record with no id (or username) to keep it by`);
      }
      const first = seen.get(key);
      const field = typeof record === "object" && record !== null && "id" in record ? "id" : "username";
      if (first === undefined) seen.set(key, index);
      else out.push(`${name}[${index}].${field}: the ${field === "id" ? "id" : "name"} ${key} is also ${name}[${first}]'s`);
    });
  }
  return out;
}

/** The tokens by their schema (a fixture carries none: the state file's are checked here). */
function tokensRefused(tokens: unknown): string[] {
  if (tokens === undefined) return [];
  if (!Array.isArray(tokens)) return ["tokens: a list of the account's tokens"];
  return tokens.flatMap((token: unknown, index) => {
    const r = storedToken.safeParse(token);
    return r.success ? [] : fieldErrors(r.error.issues).map((e) => `tokens[${index}]${e.field ? `.${e.field}` : ""}: ${e.reason}`);
  });
}

/** An event as a release before events followed the clock wrote it: what happened, to what, when; all finished. */
const olderEvent = z.strictObject({
  id: z.number(),
  action: z.string(),
  created: z.string(),
  username: z.string(),
  entity: z.strictObject({ id: z.union([z.number(), z.string()]), type: z.string(), label: z.string().nullable() }).nullable(),
  status: z.string(),
});

/** The API path of an older event's entity, from its type and the state's records; "" when its record is gone and its path needs it. */
function entityPath(type: string, id: number | string, state: Record<string, unknown>): string {
  const field = (collection: string, name: string): number | string | undefined => {
    const found = z
      .array(z.record(z.string(), z.unknown()))
      .catch([])
      .parse(state[collection])
      .find((r) => r.id === id);
    return z.union([z.number(), z.string()]).optional().catch(undefined).parse(found?.[name]);
  };
  const under = (parent: number | string | undefined, path: (parent: number | string) => string) => (parent === undefined ? "" : `/v4${path(parent)}`);
  switch (type) {
    case "compute":
      return `/v4/compute/instances/${id}`;
    case "vpc":
      return `/v4/vpcs/${id}`;
    case "image":
      return `/v4/images/${id}`;
    case "subnet":
      return under(field("subnets", "vpc_id"), (vpc) => `/vpcs/${vpc}/subnets/${id}`);
    case "disk":
      return under(field("disks", "compute_id"), (compute) => `/compute/instances/${compute}/disks/${id}`);
    case "database":
      return under(field("databases", "engine"), (engine) => `/databases/${engine}/instances/${id}`);
    default:
      return "";
  }
}

/**
 * The state with its events of a release before events followed the clock (`olderEvent`: all `finished`) made
 * current: finished when made (`_start` their time, `_finish` none), not seen nor read, with no secondary entity,
 * their entity's `url` its path (emulator/state.ts `storedEvent`). They were moved as they were before, and read as
 * `started` for ever. Any other record is as it was.
 */
export function withCurrentEvents(state: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(state.events)) return state;
  const events = state.events.map((e: unknown) => {
    const older = olderEvent.safeParse(e);
    if (!older.success) return e;
    const { status: _status, entity, ...rest } = older.data;
    return {
      ...rest,
      entity: entity && { ...entity, url: entityPath(entity.type, entity.id, state) },
      secondary_entity: null,
      seen: false,
      read: false,
      _start: Date.parse(`${rest.created}Z`),
      _finish: null,
      _notification: false,
    };
  });
  return { ...state, events };
}
