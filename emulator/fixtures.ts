import { z } from "zod";
import { recordField, type ApiFamily, type Refusal } from "./family";
import { badRequest, fieldErrors, HttpError } from "./http";
import { jsonDepth, MAX_FIXTURE_DEPTH, MAX_JSON_DEPTH } from "./json";
import { fixtureLoaded } from "./admin-api";
import { quotaPassed } from "./db/quota";
import { renumberFixture } from "./renumber";
import { MAX_ID } from "./db/backend";
import { apiTime, storedEvent, storedUser, type CoreState } from "./state";
import { ACCOUNT_COUNTERS, copyOf, type Store } from "./store";

/**
 * Fixtures: an account's state as a document, to load into another account or another emulator (a CI job's
 * starting point: an image to look up, an instance to import, a database to adopt). docs/fixtures.md is its
 * reference. A document has two parts, either or both:
 *
 * - `records`: the account's collections as the emulator keeps them (what `GET /__emulator/export` writes:
 *   exact, internal fields too, and the id `counters`). Loading them replaces the account's records, ids kept;
 *   its tokens stay its own.
 * - `requests`: API requests to make in the account, in order, as its owner (`{"method", "path", "body",
 *   "name"}`; a later request may use an earlier answer's field as `${name.field}`): the form to write by hand,
 *   since each is checked by the API's own rules.
 *
 * Versioned: an emulator reads the versions up to `FIXTURE_VERSION`, and refuses a later one naming it.
 */
export const FIXTURE_FORMAT = "compute-emulator-account";
export const FIXTURE_VERSION = 1;

/** The collections of the state that a fixture never carries: the account's own tokens and bookkeeping. */
const NOT_EXPORTED = new Set(["version", "account", "nextId", "tokens"]);

const requestSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, "a name is a letter, then up to 39 letters, digits or _")
      .optional(),
    method: z.enum(["GET", "POST", "PUT", "DELETE"]),
    path: z.string().regex(/^\/[^\s]*$/, "a path of the API, without /v4: /vpcs, /compute/instances/${web.id}/boot"),
    body: z.unknown().optional(),
  })
  .strict();

const documentSchema = z
  .object({
    format: z.literal(FIXTURE_FORMAT),
    version: z.number().int().min(1).max(FIXTURE_VERSION),
    exported: z.string().optional(),
    records: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
    /** The id counters of the exporting account, so that new records never take a loaded one's id (or address). */
    counters: z.record(z.string(), z.number().int().nonnegative().max(MAX_ID, `a counter is at most ${MAX_ID} (the largest id the emulator gives)`)).optional(),
    requests: z.array(requestSchema).max(1000).optional(),
  })
  .strict();

export type FixtureDocument = z.infer<typeof documentSchema>;

/** What a load did: how many records and requests, and the ids it gave records whose own were taken (by kind: old to new). */
export type FixtureLoaded = z.output<typeof fixtureLoaded>;
export type FixtureRequest = z.infer<typeof requestSchema>;

/** What loading a fixture needs of an account: its state, its API families (their collections' schemas and references), a way to make an API request as its owner. */
export interface FixtureTarget {
  store: Store;
  families: readonly ApiFamily[];
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** A fixture's refusals listed at most: a document wrong everywhere says enough with these. */
const MAX_REFUSALS = 20;

/** The account's state as a fixture document (its records; no tokens). */
export function exportAccount(store: Store, now: number): FixtureDocument {
  const records: Record<string, Array<Record<string, unknown>>> = {};
  for (const [name, value] of Object.entries(store.data)) {
    const items = z.array(z.record(z.string(), z.unknown())).safeParse(value);
    if (!NOT_EXPORTED.has(name) && items.success) records[name] = copyOf(items.data);
  }
  return { format: FIXTURE_FORMAT, version: FIXTURE_VERSION, exported: apiTime(now), records, counters: { ...store.data.nextId } };
}

/**
 * The schema of each collection a fixture may carry: the core's (users, events) and each family's
 * (`collectionsOf`), as the state keeps its records.
 */
export function recordSchemas(families: readonly ApiFamily[]): Map<string, z.ZodType> {
  const schemas = new Map<string, z.ZodType>([
    ["users", storedUser],
    ["events", storedEvent],
  ]);
  for (const family of families) for (const [name, schema] of Object.entries(family.state?.schemas ?? {})) schemas.set(name, schema);
  return schemas;
}

/** A 400 listing refusals (the first MAX_REFUSALS), each under its place and saying it. */
const refused = (items: Refusal[]) =>
  new HttpError(
    400,
    items.slice(0, MAX_REFUSALS).map(({ field, reason }) => ({ field, reason: `${field}: ${reason}` })),
  );

/**
 * Reads a document: a 400 naming what is wrong (a later version by its number, an unknown collection by its name,
 * a record its collection's schema refuses by its place and the schema's words, two records of one id).
 */
export function readFixture(input: unknown, { store, families }: Pick<FixtureTarget, "store" | "families">): FixtureDocument {
  if (jsonDepth(input, MAX_FIXTURE_DEPTH) > MAX_FIXTURE_DEPTH) throw badRequest(`The fixture is nested deeper than ${MAX_FIXTURE_DEPTH} levels`);
  const version = z.object({ version: z.number() }).safeParse(input);
  if (version.success && version.data.version > FIXTURE_VERSION) {
    throw badRequest(`The fixture is version ${version.data.version}; this emulator reads versions 1 to ${FIXTURE_VERSION}: use a later emulator`, "version");
  }
  // More records than the account may hold are refused before any is read (a million-record --fixture took two minutes and 2 GB).
  const lists = z.object({ records: z.record(z.string(), z.array(z.unknown())) }).safeParse(input);
  const count = Object.entries(lists.data?.records ?? {}).reduce((n, [name, items]) => (name === "events" ? n : n + items.length), 0);
  if (count > store.limits.records) throw quotaPassed("records", store.limits.records, count);
  const parsed = documentSchema.safeParse(input);
  if (!parsed.success) {
    throw new HttpError(
      400,
      fieldErrors(parsed.error.issues).map(({ field, reason }) => (field ? { field, reason: `${field}: ${reason}` } : { reason: `The fixture: ${reason}` })),
    );
  }
  const schemas = recordSchemas(families);
  const known = new Set([...Object.keys(store.data).filter((name) => !NOT_EXPORTED.has(name)), ...schemas.keys()]);
  for (const name of Object.keys(parsed.data.records ?? {})) {
    if (!known.has(name)) throw badRequest(`records.${name}: not a collection of this emulator (${[...known].sort().join(", ")})`, `records.${name}`);
  }
  const refusals: Refusal[] = [];
  for (const [name, items] of Object.entries(parsed.data.records ?? {})) refusals.push(...checkCollection(name, items, schemas.get(name)));
  if (refusals.length) throw refused(refusals);
  return parsed.data;
}

/** A collection's records against its schema, and no two of one id. */
function checkCollection(name: string, items: readonly unknown[], schema: z.ZodType | undefined): Refusal[] {
  const refusals: Refusal[] = [];
  const ids = new Map<unknown, number>();
  items.forEach((item, index) => {
    const r = schema?.safeParse(item);
    if (r && !r.success) {
      for (const e of fieldErrors(r.error.issues)) refusals.push({ field: recordField(name, index, e.field), reason: e.reason });
      return;
    }
    const id = z.object({ id: z.union([z.number(), z.string()]) }).safeParse(item);
    if (!id.success) return;
    const first = ids.get(id.data.id);
    if (first !== undefined)
      refusals.push({ field: recordField(name, index, "id"), reason: `the id ${String(id.data.id)} is also ${recordField(name, first)}'s` });
    else ids.set(id.data.id, index);
  });
  return refusals;
}

/**
 * Loads a document into an account: its records replace the account's (users merged by name, so that the
 * account's tokens keep their owners) once they hold together (each family's `references`: what a record points
 * to is there), then its requests are made in order. All or nothing: a request the API refuses takes the account
 * back to what it was, and is a 400 naming it with the API's answer.
 */
export async function loadFixture(target: FixtureTarget, doc: FixtureDocument): Promise<FixtureLoaded> {
  const { store } = target;
  // One transaction: the records and every request's changes are committed together, or none is (a refused
  // request, a failed commit, a killed emulator).
  return store.join(async () => {
    const loaded = withRecords(store, doc);
    const refusals = [...usersRefused(loaded.data), ...target.families.flatMap((family) => family.references?.({ data: loaded.data }) ?? [])];
    if (refusals.length) throw refused(refusals);
    // Ids another account holds, or an import gave before, are given new ones (and what points to them follows).
    const renumbered = await renumberFixture(store, target.families, loaded, new Set(Object.keys(doc.records ?? {})));
    Object.assign(store.data, loaded.data);
    // The exporter's own counters (its private addresses'): what it made after loading takes new ones.
    for (const [kind, n] of Object.entries(doc.counters ?? {})) if (ACCOUNT_COUNTERS.has(kind)) store.keepIds(kind, n, n);
    const answers: Record<string, unknown> = {};
    for (const [index, request] of (doc.requests ?? []).entries()) {
      const path = String(substitute(request.path, answers, `requests[${index}].path`));
      const body = request.body === undefined ? undefined : substitute(request.body, answers, `requests[${index}].body`);
      // An earlier answer put in a body may nest it deeper than a request of the API may: refused as the API would.
      if (jsonDepth(body) > MAX_JSON_DEPTH)
        throw badRequest(`requests[${index}].body is nested deeper than ${MAX_JSON_DEPTH} levels`, `requests[${index}].body`);
      const answer = await target.call(request.method, path, body);
      if (answer.status >= 300) {
        throw badRequest(`requests[${index}] (${request.method} ${path}) was answered ${answer.status}: ${JSON.stringify(answer.body)}`, `requests[${index}]`);
      }
      if (request.name) answers[request.name] = answer.body;
    }
    const shown = Object.fromEntries([...renumbered].map(([kind, map]) => [kind, Object.fromEntries([...map].map(([from, to]) => [String(from), to]))]));
    return { records: loaded.count, requests: doc.requests?.length ?? 0, ...(renumbered.size ? { renumbered: shown } : {}) };
  });
}

/**
 * What the account's users must be: a restricted user has grants and an unrestricted one none (profile-api.md: the
 * grants of an unrestricted user are "HTTP 204 with no body"), and the account's owner (its root token's user) is
 * unrestricted, so that the account's root token keeps every right.
 */
function usersRefused(data: CoreState): Refusal[] {
  const owner = data.tokens.find((t) => t.token === data.account?.token)?.username ?? "admin";
  return data.users.flatMap((u, i): Refusal[] => {
    if (u.username === owner && u.restricted)
      return [{ field: recordField("users", i, "restricted"), reason: `${owner} owns the account (its root token's user): it is not restricted` }];
    if (u.restricted !== (u.grants !== null))
      return [
        { field: recordField("users", i, "grants"), reason: u.restricted ? "a restricted user has grants" : "an unrestricted user has no grants (null)" },
      ];
    return [];
  });
}

/**
 * The state with a document's records in it (a copy: the state itself is not changed), and how many were loaded. Users
 * are merged by name: one the account has keeps the account's id, a new one is given one (nothing points to a user's id).
 */
function withRecords(store: Store, doc: FixtureDocument) {
  const data = store.data;
  const next: CoreState = { ...data };
  let count = 0;
  for (const [name, items] of Object.entries(doc.records ?? {})) {
    count += items.length;
    if (name === "users") {
      const users = z.array(storedUser).parse(copyOf(items));
      const ours = new Map(data.users.map((u) => [u.username, u.uid]));
      for (const u of users) u.uid = ours.get(u.username) ?? store.nextId("user");
      const names = new Set(users.map((u) => u.username));
      next.users = [...users, ...data.users.filter((u) => !names.has(u.username))];
    } else Object.assign(next, { [name]: copyOf(items) });
  }
  // The account keeps its last `eventsKept` events: a fixture's are kept so too.
  if (next.events.length > store.eventsKept) next.events = next.events.slice(-store.eventsKept);
  return { data: next, count };
}

/**
 * `${name.field}` in a string, from the answer of the request named `name`: a string that is only that takes the
 * field's value as it is (a number stays a number); within a longer string, its text.
 */
function substitute(value: unknown, answers: Record<string, unknown>, where: string): unknown {
  if (typeof value === "string") {
    const whole = /^\$\{([A-Za-z][A-Za-z0-9_]*)\.([A-Za-z0-9_.]+)\}$/.exec(value);
    if (whole) return lookup(answers, whole[1], whole[2], where);
    return value.replace(/\$\{([A-Za-z][A-Za-z0-9_]*)\.([A-Za-z0-9_.]+)\}/g, (_, name: string, field: string) => String(lookup(answers, name, field, where)));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, answers, where));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, answers, where)]));
  }
  return value;
}

function lookup(answers: Record<string, unknown>, name: string, field: string, where: string): unknown {
  if (!(name in answers)) throw badRequest(`${where}: no earlier request is named ${name}`, where);
  let v: unknown = answers[name];
  for (const part of field.split(".")) v = typeof v === "object" && v !== null ? Object.entries(v).find(([k]) => k === part)?.[1] : undefined;
  if (v === undefined) throw new HttpError(400, [{ reason: `${where}: the answer of ${name} has no ${field}`, field: where }]);
  return v;
}
