import { z } from "zod";
import type { AnyEndpoint } from "../../api/contract/endpoint";
import type { ApiClient } from "../transport/client";
import type { NameRule } from "./naming";
import { UNKNOWN } from "./unknown";
import type { Marks } from "./marks";

/**
 * The table model: a resource is a table of fields (one row per property) and a few facts about its paths,
 * labels and waits. Check, diff, the request bodies, the outputs, schema.json, the docs and the sdk classes
 * are all derived from these rows.
 */

/** Properties as the engine passes them: plain JSON values by name. */
export type Props = Record<string, unknown>;

/** What every API record has. */
export interface ApiRecord {
  id: number | string;
}

/** The value Pulumi passes to check/diff during preview for a value not known yet. */
export { UNKNOWN };

export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/** One row of a resource's table. */
export interface Field {
  /** Property name in Pulumi (camelCase). */
  name: string;
  /** Field name in the API (snake_case); defaults to the snake_case of `name`. */
  api?: string;
  /**
   * Inputs: the validation of the value (check). Outputs: the shape of the value, for the types of the
   * schema and the sdk classes (never used to validate what the API returns).
   */
  schema?: z.ZodType;
  /** `input`: set by the user (and echoed as an output); `output`: computed by the service only. */
  kind: "input" | "output";
  required?: boolean;
  /** The service fills it in when the user leaves it out (so a missing input is not a change). */
  computed?: boolean;
  /** A change cannot be made in place: the resource is replaced. */
  forceNew?: boolean;
  /** Stored encrypted in the state; never printed. */
  secret?: boolean;
  /** Not returned by the API (write-only): kept from the inputs. */
  writeOnly?: boolean;
  /** A list whose order does not matter (tags): compared as a set. */
  unordered?: boolean;
  /** An object the service completes with defaults: only the keys the user gave are compared. */
  partial?: boolean;
  /**
   * Nested keys whose API names the snake_case rule does not give (`nat11` is `nat_1_1`): camelCase to
   * the API's. The way back needs none (`nat_1_1` reads as `nat11`).
   */
  apiKeys?: Readonly<Record<string, string>>;
  /** User JSON sent as is (no key conversion), such as script data. */
  raw?: boolean;
  /**
   * Not sent by the generic bodies (create body, default update): it steers how the provider acts
   * (timeouts, resize options), or a hook sends it its own way (an instance's backup schedule).
   */
  control?: boolean;
  /** A parent's id that goes in the request path (`computeId`, `vpcId`...), never in a body. */
  inPath?: boolean;
  /**
   * For an optional input the service fills in (`computed`): the value that clears it when the program
   * removes it (tags `[]`, a description `""`). Without it, a removed input keeps its current value.
   */
  clearTo?: unknown;
  /**
   * An output-only field: the inputs whose in-place change may alter it (`"*"`: any change sent to the API),
   * so that a preview plans it unknown then. Any other output keeps its value through an update
   * (provider/model/plan.ts).
   */
  changesWith?: string[] | "*";
  /**
   * An output a preview plans anew when its `changesWith` inputs change (its resource's `plan` hook), rather
   * than leaving it unknown: from what (`the API's catalogue`). The docs say so.
   */
  plannedFrom?: string;
  /**
   * An import leaves it out of the inputs it reports: a value the resource manages only when the program
   * gives it (a profile's interfaces, which Interface resources may manage instead).
   */
  notImported?: boolean;
  /**
   * Known only from the create's answer (a token's value): updates keep it from the old outputs while the
   * program leaves it out.
   */
  fromCreate?: boolean;
  /**
   * A state that changes by itself (an instance's power state: a shutdown by hand, a crash, maintenance):
   * once the program declares it, the engine reads the resource before each run (the plugin's
   * `refresh_before_update`), so the next `up` puts the program's value back.
   */
  drifts?: boolean;
  /**
   * An output another resource's operation changes after this resource is read (an instance's status, which a
   * profile that boots it changes): what does it, in words (`a Config with booted: true, which boots the
   * instance`). The docs and the SDKs' doc comments say that the stack holds the value as last read, and that
   * `pulumi refresh` reads it anew.
   */
  changedBy?: string;
  /**
   * An output the API does not always report, and when it does (`the instance has a vpc interface`): the
   * schema and the sdk classes type it as not always set, and the docs say when it is.
   */
  presentWhen?: string;
  /** JSON type of an output-only field without a `schema`, for the schema. */
  outputType?: "string" | "integer" | "number" | "boolean" | "object" | "array";
  /** JSON type of the items of an output-only list without a `schema`, for the schema. */
  itemType?: "string" | "integer" | "object";
  description: string;
}

/** Waiting for a status after create or update: done, or failed for good (with a message). */
export interface StatusWait<Api> {
  /** "to be ready", for messages. */
  what: string;
  done(api: Api): boolean;
  /** The status `done` asks for, when it asks for one: what a state's recorded status is compared with. */
  readyStatus?: string;
  failed?(api: Api): string | undefined;
  /** Polling cap (ms): 2 s by default; a database that takes minutes polls every 10 s. */
  maxMs?: number;
  /** How often a progress line is printed (ms): 10 s by default. */
  progressEveryMs?: number;
}

export type TimeoutOp = "create" | "update" | "delete";
export type TimeoutDefaults = Partial<Record<TimeoutOp, string>>;

/** The `timeouts` input of a resource that waits: its defaults, and words for the docs. */
export interface TimeoutsRow {
  defaults: TimeoutDefaults;
  /** What each operation's wait covers, for the docs (when not obvious). */
  covers?: Partial<Record<TimeoutOp, string>>;
  /** Said after the defaults in the field's description. */
  note?: string;
}

export interface ResourceSpec<Api extends ApiRecord = ApiRecord, F extends readonly Field[] = readonly Field[], B = Props> {
  /** The contract's rows it calls (provider/model/api-table.ts `tableFor`): its create, read, update and list. */
  api?: { create: AnyEndpoint; get: AnyEndpoint; update?: AnyEndpoint; list?: AnyEndpoint };
  /** Resource class name, e.g. `SshKey`. */
  type: string;
  description: string;
  fields: F;
  /** Human words for the resource in messages, e.g. "SSH key". */
  noun: string;
  /** What the Pulumi id is, for the docs (e.g. "the API's key id, as a string"). */
  idFormat: string;
  /** Said on the docs page after the replacement rules (a resource's own twist on them). */
  replacementNote?: string;
  /** Said on the docs page of what a delete does when the API refuses it for now (an active interface, say). */
  deleteNote?: string;
  /** The API keeps labels unique: a replacement that keeps a pinned label cannot be made beside the old one. */
  uniqueLabel?: boolean;
  /** Auto-naming: the label a resource gets when the program gives none. */
  autoName?: NameRule;
  /**
   * The resource holds data (disks, databases): it is never deleted before its replacement exists. With a
   * pinned unique label the replacement is made under a temporary label and renamed once the old one is gone.
   */
  holdsData?: boolean;
  /** create: the status to wait for after the POST (an update first finishes a wait a create left unfinished). */
  waitCreated?: StatusWait<Api> & { readyStatus: string };
  /**
   * A create cut short (a timeout, Ctrl-C) keeps the resource in the stack before it is ready: its state
   * records a status not among `statuses`. The next update waits (`wait`) before anything else, and its
   * preview plans unknown what may change until then (`outputs`; default: every output). Default:
   * `waitCreated`, finished in its `readyStatus`.
   */
  unfinished?: { statuses: readonly string[]; wait: StatusWait<Api>; outputs?: readonly FieldName<F>[] };
  /** delete: wait until the resource is gone (the API deletes some in the background). */
  waitGone?: boolean | GoneWait;
  /** A failure after the resource exists keeps it in the stack: what the message says then. */
  kept?: KeptWords;
  /** The waits of the resource: a `timeouts` input (validated, documented) with these defaults. */
  timeouts?: TimeoutsRow;
  /**
   * An input made by the provider at create when the program leaves it out and `when` says it is needed (a
   * strong root password for a deploy): the outputs keep it (secret), and updates keep it while the program
   * leaves it out.
   */
  generated?: { field: string; value(): unknown; when(inputs: Props): boolean };
  /** The collection's path, from the inputs (a parent's id). */
  collectionPath(inputs: Props): string;
  /** An item's path, from its id and its props (inputs or state: a parent's id). */
  itemPath(id: string, props: Props): string;
  /**
   * The collection's list answers each item's record as its GET does: during a large refresh, reads take
   * their records from one list (provider/transport/read-batch.ts).
   */
  readsFromList?: boolean;
  /**
   * After a create whose response was lost: find the resource the request may have made (by unique or
   * identifying fields), so it is adopted instead of made twice. `since` is when the create began.
   */
  findExisting?(client: ApiClient, body: B, inputs: Props, since: number): Promise<Api | undefined>;
}

/** delete: waiting until the resource is gone, with options. */
export interface GoneWait {
  /** Polling cap (ms): 2 s by default. */
  maxMs?: number;
  /** No wait when the DELETE answered 404 (it was gone already). */
  skipOn404?: boolean;
}

/** What the message of a failure that keeps the resource says (`<message>. The <noun> <id> exists and is kept in the stack: <note>`). */
export interface KeptWords {
  /** The words for the resource (default: the spec's noun), e.g. "database". */
  noun?: string;
  /** Said after "is kept in the stack" (what to do next). */
  note?: string;
  /** update: said after the message of a failure that keeps the resource. */
  updateNote?: string;
  /** update: a failure after the update itself (reading the outputs) keeps the resource as the update returned it. */
  afterUpdate?: boolean;
}

/** The names of a table's fields (`changesWith` and the hooks' field lists are these). */
export type FieldName<F extends readonly Field[]> = F[number]["name"];
/** The names of a table's inputs. */
export type InputName<F extends readonly Field[]> = string extends F[number]["name"] ? string : Extract<F[number], { kind: "input" }>["name"];

/** A row's value type: its schema's, else its `outputType`'s (a field with neither: unknown). */
type ValueOf<R> = R extends { schema: z.ZodType<infer T> }
  ? T
  : R extends { outputType: infer O }
    ? O extends "string"
      ? string
      : O extends "integer" | "number"
        ? number
        : O extends "boolean"
          ? boolean
          : O extends "array"
            ? unknown[]
            : Props
    : unknown;

/**
 * The inputs of a table, typed from its fields' schemas (a field without a schema: unknown), each optional:
 * what a resource's hooks read from the new props. No other key: a misspelt field does not compile
 * (tests/unit/hook-types.test.ts).
 */
export type InputsOf<F extends readonly Field[]> = string extends F[number]["name"]
  ? Props
  : {
      [K in F[number] as K extends { kind: "input"; name: infer N extends string } ? N : never]?: ValueOf<K>;
    } & Marks;
/** The outputs of a table (inputs echoed, and the output fields), each optional: what the state holds. */
export type StateOf<F extends readonly Field[]> = string extends F[number]["name"]
  ? Props
  : {
      [K in F[number] as K extends { name: infer N extends string } ? N : never]?: ValueOf<K>;
    } & Marks;
/** Outputs a hook gives: the table's fields only (a misspelt key in an object literal does not compile). */
export type OutputsOf<F extends readonly Field[]> = string extends F[number]["name"] ? Props : { [K in FieldName<F>]?: unknown };
/** Inputs as the program gives them, before check: the table's keys, values not yet checked. */
export type RawInputsOf<F extends readonly Field[]> = { [K in InputName<F>]?: unknown } & Marks;

/** Each row's `changesWith` names inputs of its own table: a misspelt name does not compile. */
export type CheckedRows<F extends readonly Field[]> = readonly (Omit<Field, "changesWith"> & { changesWith?: InputName<F>[] | "*" })[];

/** What a timeouts value looks like, for messages and docs. */
export const DURATION_FORM = "a duration such as 90s, 15m or 1h30m";

/** Parses a duration like `90s`, `15m`, `1h30m` (hours, minutes, seconds, in that order) into ms. */
export function parseDuration(v: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(v.trim());
  if (!m || v.trim() === "") throw new Error(`"${v}" is not ${DURATION_FORM}`);
  return ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
}

const duration = z.string().refine((v) => {
  try {
    return parseDuration(v) > 0;
  } catch {
    return false;
  }
}, `must be ${DURATION_FORM}`);

/**
 * The `timeouts` input of a resource that waits: validated at preview, documented from its defaults
 * (provider/model/timeouts.ts reads it). `tableFor()` (provider/model/api-table.ts) adds it to the table after its last input.
 */
export function timeoutsField(row: TimeoutsRow): Field {
  const ops = Object.keys(row.defaults).filter((k): k is TimeoutOp => k === "create" || k === "update" || k === "delete");
  const shape: Record<string, typeof duration> = {};
  for (const op of ops) shape[op] = duration;
  const parts = ops.map((op) => `\`${op}\` (default ${row.defaults[op]}${row.covers?.[op] ? `: ${row.covers[op]}` : ""})`);
  return {
    name: "timeouts",
    kind: "input",
    control: true,
    schema: z.object(shape).partial().strict(),
    description: `How long to wait, each ${DURATION_FORM}: ${parts.join(", ")}.${row.note ? ` ${row.note}` : ""}`,
  };
}

/**
 * A table's rows with the `timeouts` row of a table that waits, after its last input. Typed as the table's own
 * rows `F`: the `timeouts` input is the core's (provider/model/timeouts.ts reads it), never a hook's.
 */
export function withTimeouts<F extends readonly Field[]>(spec: { timeouts?: TimeoutsRow; fields: F }): F {
  if (!spec.timeouts || spec.fields.some((f) => f.name === "timeouts")) return spec.fields;
  const lastInput = spec.fields.map((f) => f.kind).lastIndexOf("input");
  const rows: readonly Field[] = [...spec.fields.slice(0, lastInput + 1), timeoutsField(spec.timeouts), ...spec.fields.slice(lastInput + 1)];
  return rows as F;
}

/**
 * The callbacks of a table as its resource writes them, typed by its fields: the inputs, the state, the auto-named
 * field (a misspelt field does not compile: tests/unit/hook-types.test.ts); a lost create's search is the
 * contract's table's (provider/model/api-table.ts `ContractCallbacks`).
 * The core calls them with the props it holds (ResourceSpec's untyped forms).
 */
export interface TableCallbacks<F extends readonly Field[]> {
  /** Auto-naming: the label a resource gets when the program gives none (`field`: an input of the table). */
  autoName?: NameRule & { field: InputName<F> };
  /** An input the provider makes at create when the program leaves it out and `when` says it is needed. */
  generated?: { field: InputName<F>; value(): unknown; when(inputs: InputsOf<F>): boolean };
  /** The collection's path, from the inputs (a parent's id). */
  collectionPath(inputs: InputsOf<F>): string;
  /** An item's path, from its id and its props (a parent's id). */
  itemPath(id: string, props: StateOf<F>): string;
}

export const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
/** The API's name of a nested key of a field: its `apiKeys`' when it has one, else the snake_case rule's. */
export const apiKey =
  (f: Pick<Field, "apiKeys">) =>
  (k: string): string =>
    f.apiKeys?.[k] ?? snake(k);

/** Converts the keys of nested objects (not the values) between Pulumi's camelCase and the API's snake_case. */
export function convertKeys(v: Props, f: (k: string) => string): Props;
export function convertKeys(v: unknown, f: (k: string) => string): unknown;
export function convertKeys(v: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => convertKeys(x, f));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), convertKeys(x, f)]));
  return v;
}

export const isObject = (v: unknown): v is Props => Boolean(v) && typeof v === "object" && !Array.isArray(v);

export const apiName = (f: Field): string => f.api ?? snake(f.name);
/** The field that holds a resource's label (what auto-naming fills in, what a replacement pins). */
export const labelField = (spec: ResourceSpec): string => spec.autoName?.field ?? "label";
export const fieldOf = (spec: ResourceSpec, name: string): Field | undefined => spec.fields.find((f) => f.name === name);
