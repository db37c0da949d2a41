import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { event, type EventEntity as ContractEventEntity } from "../api/contract/events";
import { globalGrants, profile, token, userGrants } from "../api/contract/profile";
import { codeOf, messageOf } from "./http";

/**
 * A user of the account as the state keeps it: the profile as `GET /profile` shows it (api/contract/profile.ts)
 * but the `referrals` and `user_type` every profile shows alike, and its grants (only for restricted users:
 * unrestricted users have every grant, and `GET /profile/grants` is 204).
 */
export const storedUser = profile.omit({ referrals: true, user_type: true }).extend({ grants: userGrants.nullable() }).strict();
export type User = z.output<typeof storedUser>;
export type GlobalGrants = z.output<typeof globalGrants>;
export type Grants = z.output<typeof userGrants>;

/** A personal access token as the state keeps it: the whole value (only the create's answer shows all of it) and its owner. */
export const storedToken = token.extend({ username: z.string() }).strict();
export type TokenRecord = z.output<typeof storedToken>;

/**
 * A status change due at a time, with fields to set when it happens: `S` the record's statuses, `P` what it may
 * set (a family whose records are typed by the contract gives both: `stepOf`).
 */
export interface Step<S extends string = string, P extends object = Record<string, unknown>> {
  status: S;
  at: number;
  patch?: P;
}

/** The schema of a record's pending status changes: its statuses, and the fields a change may set (`patch`). */
export const stepOf = <S extends z.ZodType<string>, P extends z.ZodType<object>>(status: S, patch: P) =>
  z.strictObject({ status, at: z.number(), patch: patch.optional() });

/** What an event is about (`entity`) or also touches (`secondary_entity`), as the real API names it: with its API path. */
export type EventEntity = ContractEventEntity;

/** An entity of an event: its type, id, label and API path (`/compute/instances/1`; the url gets `/v4`). */
export const eventEntity = (type: string, id: number | string, label: string | null, path: string): EventEntity => ({ id, type, label, url: `/v4${path}` });

/**
 * An event as the state keeps it: the contract's event record (api/contract/events.ts) but what follows the clock
 * (routes/events.ts `eventView` works out `status`, `percent_complete`, `time_remaining` and `duration`, and
 * answers `rate` and `message` alike for all), and when its operation starts and ends. An operation that takes
 * time is `scheduled` until `_start`, `started` until `_finish`, then `finished`; a notification stays
 * `notification` (until `_finish`, if given: a database's create); one with neither time is `finished` at once.
 * A fixture's `events` are records of this schema.
 */
export const storedEvent = event
  .pick({ id: true, action: true, created: true, username: true, entity: true, secondary_entity: true, seen: true, read: true })
  .extend({
    /** When the operation starts and ends (ms; the emulator's clock). */
    _start: z.number(),
    _finish: z.number().nullable(),
    _notification: z.boolean(),
  })
  .strict();
export type EventRecord = z.output<typeof storedEvent>;

/** How an event follows its operation: when it starts (default: now) and ends, and whether it is a notification. */
export interface EventTiming {
  secondary?: EventEntity | null;
  start?: number;
  finish?: number;
  notification?: boolean;
}

export function defaultGlobalGrants(all: boolean): GlobalGrants {
  return {
    account_access: all ? "read_write" : null,
    add_databases: all,
    add_domains: all,
    add_firewalls: all,
    add_images: all,
    add_computes: all,
    add_monitoring: all,
    add_nodebalancers: all,
    add_scripts: all,
    add_volumes: all,
    add_vpcs: all,
    cancel_account: all,
    child_account_access: all,
    monitoring_subscription: all,
  };
}

export function emptyGrants(global: Partial<GlobalGrants> = {}): Grants {
  return {
    global: { ...defaultGlobalGrants(false), ...global },
    database: [],
    domain: [],
    image: [],
    compute: [],
    monitoring: [],
    nodebalancer: [],
    script: [],
    volume: [],
    vpc: [],
  };
}

export function newUser(username: string, uid: number, restricted: boolean): User {
  return {
    username,
    uid,
    email: `${username}@example.com`,
    email_notifications: true,
    timezone: "UTC",
    restricted,
    two_factor_auth: false,
    ip_whitelist_enabled: false,
    console_auth_method: "password_keys",
    authorized_keys: null,
    authentication_type: "password",
    verified_phone_number: null,
    grants: restricted ? emptyGrants() : null,
  };
}

/** A random token value like the real service's: 64 lowercase hex characters. */
export const newTokenValue = (): string => randomBytes(32).toString("hex");

/** API timestamps: ISO 8601 UTC with no zone suffix and no fraction. */
export const apiTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

/**
 * Applies the status changes that are due. Every record with a `_queue` moves through its steps as time
 * passes; nothing runs in the background, so the state file always holds the whole truth.
 */
export function settle<T extends { status: string; _queue: Array<Step<string, object>> }>(rec: T, now: number): T {
  while (rec._queue.length && rec._queue[0].at <= now) {
    const step = rec._queue.shift()!;
    rec.status = step.status;
    if (step.patch) Object.assign(rec, step.patch);
  }
  return rec;
}

/** Strips internal (`_`-prefixed) fields for a response. */
export function view<T extends object>(rec: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(rec).filter(([k]) => !k.startsWith("_")));
}

/**
 * What every state file holds whatever the API families: the account (users and their tokens), the events,
 * and the id counters. A type, not an interface, so that the families' views can reach their collections
 * in it by name (`collections` in family.ts).
 */
export type CoreState = {
  version: 1;
  /** Which account of the emulator this is (emulator/accounts.ts); a file written before accounts holds none: the first. */
  account?: AccountMeta;
  nextId: Record<string, number>;
  users: User[];
  tokens: TokenRecord[];
  events: EventRecord[];
};

/** An account of the emulator: its number, the name its maker gave it, when it was made, and its root token. */
export const accountMeta = z.object({ id: z.number().int(), label: z.string(), created: z.string(), token: z.string() });
export type AccountMeta = z.output<typeof accountMeta>;

/** Ids of account n start after (n - 1) × ID_SPAN, so that no two accounts show the same id (as the real API's are unique). */
export const ID_SPAN = 10_000_000;

/**
 * The emulator's whole state, kept in memory and, with `--state FILE`, written to the file after every
 * change, before the change is answered (write to a temporary file, then rename: a crash never leaves half
 * a file, and a write that was answered is in the file). A change whose write fails is taken back: the
 * state returns to the last one written, and the request is answered 503 (`StateNotSaved`), so what a
 * client was told failed is never kept. Written, not synced to the disk: a killed emulator loses nothing,
 * a machine that loses power may (recorded in docs/spec-gaps.md). Beside the core, it holds the
 * collections the API families declare, each a top-level array of the file: `D` is the whole state's type
 * (`EmulatorState`), which the families see only through their own typed views.
 */
export class Store<D extends CoreState = CoreState> {
  data: D;
  /** The state as last written to the file. */
  private written: string | undefined;
  /** The events kept: the last this many (the oldest tenth let go once past it), so that they do not grow with traffic. */
  eventsKept = EVENTS_KEPT;

  constructor(
    private readonly file: string | undefined,
    rootToken: string,
    private readonly now: () => number,
    collections: readonly string[],
    account?: Omit<AccountMeta, "token">,
  ) {
    const fresh: CoreState = { version: 1, nextId: {}, users: [], tokens: [], events: [] };
    const data: Record<string, unknown> = file && existsSync(file) ? readState(file) : fresh;
    if (account && data.account === undefined) data.account = { ...account, token: rootToken };
    // A collection missing from the file (one added since the file was written) starts empty.
    for (const k of ["events", ...collections]) data[k] ??= [];
    this.data = data as D;
    // The token given on the command line always works, with every scope, for the account's owner.
    if (!this.data.users.some((u) => u.username === "admin")) this.data.users.push(newUser("admin", this.nextId("user"), false));
    if (!this.data.tokens.some((t) => t.token === rootToken)) {
      this.data.tokens.push({
        id: this.nextId("token"),
        label: "emulator root token",
        scopes: "*",
        created: apiTime(this.now()),
        expiry: null,
        token: rootToken,
        username: "admin",
      });
    }
    this.save();
  }

  nextId(kind: string): number {
    const n = (this.data.nextId[kind] ?? ((this.data.account?.id ?? 1) - 1) * ID_SPAN) + 1;
    this.data.nextId[kind] = n;
    return n;
  }

  /** Records an event of the account (the last `eventsKept` are kept). */
  event(action: string, username: string, entity: EventEntity, timing: EventTiming = {}): void {
    const events = this.data.events;
    const now = this.now();
    events.push({
      id: this.nextId("event"),
      action,
      created: apiTime(now),
      username,
      entity,
      secondary_entity: timing.secondary ?? null,
      seen: false,
      read: false,
      _start: timing.start ?? now,
      _finish: timing.finish ?? null,
      _notification: timing.notification ?? false,
    });
    if (events.length > this.eventsKept + this.eventsKept / 10) events.splice(0, events.length - this.eventsKept);
  }

  user(username: string): User | undefined {
    return this.data.users.find((u) => u.username === username);
  }

  /**
   * Writes the state to its file (if any; unchanged state is not written again). If the write fails, the
   * state goes back to the last one written and `StateNotSaved` is thrown: the change is not kept.
   */
  save(): void {
    if (!this.file) return;
    const text = JSON.stringify(this.data);
    if (text === this.written) return;
    const tmp = `${this.file}.tmp`;
    try {
      writeFileSync(tmp, text);
      renameSync(tmp, this.file);
    } catch (err) {
      if (this.written !== undefined) this.data = JSON.parse(this.written) as D;
      throw new StateNotSaved(this.file, err);
    }
    this.written = text;
  }
}

/** The events the emulator keeps by default (docs/spec-gaps.md). */
export const EVENTS_KEPT = 10_000;

/** A change the emulator could not write to its state file (and so did not keep). */
export class StateNotSaved extends Error {
  readonly code: string;
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const code = codeOf(cause) ?? "unknown error";
    super(`The emulator could not write its state file ${file} (${code}); the change was not kept`, { cause });
    this.code = code;
  }
}

/** A state file's contents, or an error naming the file and what is wrong with it. */
export function readState(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`The state file ${file} is not JSON (${messageOf(err)}); move it away to start afresh`);
  }
  const state = z
    .object({ version: z.literal(1) })
    .catchall(z.unknown())
    .safeParse(parsed);
  if (!state.success) throw new Error(`The state file ${file} is not an emulator state (version 1); move it away to start afresh`);
  return state.data;
}
