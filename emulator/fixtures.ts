import { z } from "zod";
import { badRequest, HttpError } from "./http";
import { jsonDepth, MAX_JSON_DEPTH } from "./json";
import { apiTime, type CoreState, type Store } from "./state";

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
    counters: z.record(z.string(), z.number().int().nonnegative()).optional(),
    requests: z.array(requestSchema).max(1000).optional(),
  })
  .strict();

export type FixtureDocument = z.infer<typeof documentSchema>;
export type FixtureRequest = z.infer<typeof requestSchema>;

/** What loading a fixture needs of an account: its state, and a way to make an API request as its owner. */
export interface FixtureTarget {
  store: Store;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** The account's state as a fixture document (its records; no tokens). */
export function exportAccount(store: Store, now: number): FixtureDocument {
  const data = store.data as unknown as Record<string, unknown>;
  const records: Record<string, Array<Record<string, unknown>>> = {};
  for (const [name, value] of Object.entries(data))
    if (!NOT_EXPORTED.has(name) && Array.isArray(value)) records[name] = structuredClone(value as Array<Record<string, unknown>>);
  return { format: FIXTURE_FORMAT, version: FIXTURE_VERSION, exported: apiTime(now), records, counters: { ...store.data.nextId } };
}

/** Reads a document: a 400 naming what is wrong (a later version by its number, an unknown collection by its name). */
export function readFixture(input: unknown, store: Store): FixtureDocument {
  if (jsonDepth(input) > MAX_JSON_DEPTH) throw badRequest(`The fixture is nested deeper than ${MAX_JSON_DEPTH} levels`);
  const version = (input as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > FIXTURE_VERSION) {
    throw badRequest(`The fixture is version ${version}; this emulator reads versions 1 to ${FIXTURE_VERSION}: use a later emulator`, "version");
  }
  const parsed = documentSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".") || "fixture";
    throw badRequest(`${field}: ${issue.message}`, field);
  }
  const data = store.data as unknown as Record<string, unknown>;
  const known = new Set(Object.keys(data).filter((name) => !NOT_EXPORTED.has(name) && Array.isArray(data[name])));
  for (const name of Object.keys(parsed.data.records ?? {})) {
    if (!known.has(name)) throw badRequest(`records.${name}: not a collection of this emulator (${[...known].sort().join(", ")})`, `records.${name}`);
  }
  return parsed.data;
}

/**
 * Loads a document into an account: its records replace the account's (users merged by name, so that the
 * account's tokens keep their owners), then its requests are made in order. All or nothing: a request the API
 * refuses takes the account back to what it was, and is a 400 naming it with the API's answer.
 */
export async function loadFixture(target: FixtureTarget, doc: FixtureDocument): Promise<{ records: number; requests: number }> {
  const { store } = target;
  const before = JSON.stringify(store.data);
  const data = store.data as unknown as Record<string, unknown> & CoreState;
  try {
    let records = 0;
    for (const [name, items] of Object.entries(doc.records ?? {})) {
      records += items.length;
      if (name === "users") {
        const names = new Set(items.map((u) => u.username));
        data.users = [...(structuredClone(items) as unknown as CoreState["users"]), ...data.users.filter((u) => !names.has(u.username))];
      } else data[name] = structuredClone(items);
    }
    // New ids (and addresses) follow the loaded ones: the exporter's counters, else the largest id loaded.
    for (const [kind, n] of Object.entries(doc.counters ?? {})) data.nextId[kind] = Math.max(data.nextId[kind] ?? 0, n);
    for (const [name, items] of Object.entries(doc.records ?? {})) {
      const kind = ID_KINDS[name];
      if (!kind) continue;
      const top = Math.max(0, ...items.map((x) => (typeof x.id === "number" ? x.id : Number(/^private\/(\d+)$/.exec(String(x.id))?.[1] ?? 0))));
      data.nextId[kind] = Math.max(data.nextId[kind] ?? 0, top);
    }
    const answers: Record<string, unknown> = {};
    for (const [index, request] of (doc.requests ?? []).entries()) {
      const path = substitute(request.path, answers, `requests[${index}].path`) as string;
      const body = request.body === undefined ? undefined : substitute(request.body, answers, `requests[${index}].body`);
      const answer = await target.call(request.method, path, body);
      if (answer.status >= 300) {
        throw badRequest(`requests[${index}] (${request.method} ${path}) was answered ${answer.status}: ${JSON.stringify(answer.body)}`, `requests[${index}]`);
      }
      if (request.name) answers[request.name] = answer.body;
    }
    return { records, requests: doc.requests?.length ?? 0 };
  } catch (err) {
    store.data = JSON.parse(before) as typeof store.data;
    store.save(); // the requests made before the refused one were saved: the file goes back too
    throw err;
  }
}

/** The id counter of each collection whose records the API numbers (state.ts `nextId` kinds). */
const ID_KINDS: Record<string, string> = {
  sshkeys: "sshkey",
  instances: "instance",
  configs: "config",
  disks: "disk",
  backups: "backup",
  events: "event",
  vpcs: "vpc",
  subnets: "subnet",
  databases: "database",
  databaseBackups: "dbbackup",
  users: "user",
  logins: "login",
  trustedDevices: "device",
  authorizedApps: "app",
  images: "image",
};

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
  for (const part of field.split(".")) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  if (v === undefined) throw new HttpError(400, [{ reason: `${where}: the answer of ${name} has no ${field}`, field: where }]);
  return v;
}
