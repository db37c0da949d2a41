import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { event, type EventEntity as ContractEventEntity } from "../api/contract/events";
import { globalGrants, profile, token, userGrants } from "../api/contract/profile";
import { messageOf } from "./http";

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
 * `notification` (until `_finish`, if given: a database's create); one with neither time is `finished` at once;
 * one that `_fails` is `failed` at `_finish` instead of `finished`.
 * A fixture's `events` are records of this schema.
 */
export const storedEvent = event
  .pick({ id: true, action: true, created: true, username: true, entity: true, secondary_entity: true, seen: true, read: true })
  .extend({
    /** When the operation starts and ends (ms; the emulator's clock). */
    _start: z.number(),
    _finish: z.number().nullable(),
    _notification: z.boolean(),
    /** That the operation fails at `_finish` unless it ends before (an image upload whose window closes without its data). */
    _fails: z.literal(true).optional(),
  })
  .strict();
export type EventRecord = z.output<typeof storedEvent>;

/** How an event follows its operation: when it starts (default: now) and ends, and whether it is a notification. */
export interface EventTiming {
  secondary?: EventEntity | null;
  start?: number;
  finish?: number;
  notification?: boolean;
  /** It fails at `finish` unless it ends before (`_fails`). */
  fails?: boolean;
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

/** An event record: its operation's action and entities, and when it starts and ends (`EventTiming`; now by default). */
export function newEvent(id: number, action: string, username: string, entity: EventEntity, timing: EventTiming, now: number): EventRecord {
  return {
    id,
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
    ...(timing.fails ? { _fails: true } : {}),
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

/** The events the emulator keeps by default (docs/spec-gaps.md). */
export const EVENTS_KEPT = 10_000;
/** The events an account made at run time keeps (docs/emulator-team.md): 1,000 accounts' hold at most 1,000,000. */
export const ACCOUNT_EVENTS_KEPT = 1_000;

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
