import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { AmbiguousCreateError, ApiClient, ApiError, NetworkError } from "./client";
import { AUTONAMED, autoName, isExisting, NAME_SUFFIX, RESOURCE_NAME, type NameRule } from "./naming";
import { expectReplacement, replacementFor, takeReplacement } from "./replacements";
import { ComputeError } from "./errors";
import { client as settingsClient } from "./settings";
import { budgetOf } from "./timeouts";
import { waitFor } from "./wait";

/** The value Pulumi passes to check/diff during preview for a value not known yet. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/**
 * One row of a resource's declarative table. Everything else (check, diff, create and update bodies,
 * outputs, schema.json, the docs tables) is derived from these rows.
 */
export interface Field {
  /** Property name in Pulumi (camelCase). */
  name: string;
  /** Field name in the API (snake_case); defaults to the snake_case of `name`. */
  api?: string;
  /** Validation of the input value (inputs only). */
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
  /** User JSON sent as is (no key conversion), such as script data. */
  raw?: boolean;
  /** Not sent to the API: it steers how the provider acts (timeouts, resize options). */
  control?: boolean;
  /** A parent's id that goes in the request path (`computeId`, `vpcId`...), never in a body. */
  inPath?: boolean;
  /**
   * For an optional input the service fills in (`computed`): the value that clears it when the program
   * removes it (tags `[]`, a description `""`). Without it, a removed input keeps its current value.
   */
  clearTo?: unknown;
  /** JSON type of an output-only field, for the schema (inputs take theirs from `schema`). */
  outputType?: "string" | "integer" | "boolean" | "object" | "array";
  /** JSON type of the items of an output-only list, for the schema. */
  itemType?: "string" | "integer" | "object";
  description: string;
}

export interface ResourceSpec<Api extends { id: number | string }> {
  /** Resource class name, e.g. `SshKey`. */
  type: string;
  description: string;
  fields: Field[];
  /** Human words for the resource in messages, e.g. "SSH key". */
  noun: string;
  /** What the Pulumi id is, for the docs (e.g. "the API's key id, as a string"). */
  idFormat: string;
  /** A short TypeScript usage example for the docs. */
  example: string;
  /** Said on the docs page after the replacement rules (a resource's own twist on them). */
  replacementNote?: string;
  /** The API keeps labels unique: a replacement that keeps a pinned label cannot be made beside the old one. */
  uniqueLabel?: boolean;
  /** Auto-naming: the label a resource gets when the program gives none. */
  autoName?: NameRule;
  /**
   * The resource holds data (disks, databases): it is never deleted before its replacement exists. With a
   * pinned unique label the replacement is made under a temporary label and renamed once the old one is gone.
   */
  holdsData?: boolean;
  collectionPath(inputs: Record<string, unknown>): string;
  itemPath(id: string, props: Record<string, unknown>): string;
  /**
   * After a create whose response was lost: find the resource the request may have made (by unique or
   * identifying fields), so it is adopted instead of made twice.
   */
  findExisting?(client: ApiClient, body: Record<string, unknown>, inputs: Record<string, unknown>, since: number, before?: unknown): Promise<Api | undefined>;
  /**
   * For a resource with nothing that identifies it (no label): what exists before the create (the ids of its
   * siblings), so that a lost answer can tell what the create made. Its result is `findExisting`'s `before`.
   */
  snapshot?(client: ApiClient, inputs: Record<string, unknown>): Promise<unknown>;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

/** A zod string schema from one of the shared rules (provider/rules.ts): the rule's text is the message. */
export const rule = (check: (v: string) => string | undefined): z.ZodType<string> =>
  z.string().superRefine((v, ctx) => {
    const e = check(v);
    if (e) ctx.addIssue({ code: "custom", message: e });
  });

export const snake = (s: string): string => (s === "nat11" ? "nat_1_1" : s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
export const camel = (s: string): string => (s === "nat_1_1" ? "nat11" : s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));

/** Converts the keys of nested objects (not the values) between Pulumi's camelCase and the API's snake_case. */
export function convertKeys(v: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => convertKeys(x, f));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), convertKeys(x, f)]));
  return v;
}

/** Equality as the diff sees it for a field: sets for unordered lists, the user's keys for partial objects. */
export function sameValue(f: Field, old: unknown, next: unknown): boolean {
  if (f.unordered && Array.isArray(old) && Array.isArray(next)) {
    const a = old.map((x) => JSON.stringify(x)).sort();
    const b = next.map((x) => JSON.stringify(x)).sort();
    return isDeepStrictEqual(a, b);
  }
  if (f.partial && old && next && typeof old === "object" && typeof next === "object" && !Array.isArray(next)) {
    return Object.entries(next).every(([k, v]) => v === undefined || isDeepStrictEqual((old as Record<string, unknown>)[k], v));
  }
  return isDeepStrictEqual(old, next);
}
export const apiName = (f: Field): string => f.api ?? snake(f.name);
export const inputFields = (spec: ResourceSpec<never> | ResourceSpec<any>): Field[] => spec.fields.filter((f) => f.kind === "input");

type Props = Record<string, unknown>;

/**
 * Validates the inputs against the table: every failure names its property. Unknown values are skipped.
 * With auto-naming, a label left out is made (`<resource name>-<suffix>`) for a new resource, and kept from
 * `olds` (the old inputs) for an existing one; the resource name comes from the sdk as `__resourceName`.
 */
export function checkInputs(spec: ResourceSpec<any>, news: Props, olds: Props = {}): { inputs: Props; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  const { [RESOURCE_NAME]: name, [NAME_SUFFIX]: suffix, [AUTONAMED]: _auto, ...given } = news;
  const inputs: Props = { ...given };
  const rule = spec.autoName;
  if (rule && (given[rule.field] === undefined || given[rule.field] === null)) {
    if (!isExisting(olds)) {
      const base = typeof name === "string" && name ? name : spec.type.toLowerCase();
      inputs[rule.field] = typeof suffix === "string" ? autoName(rule, base, suffix) : autoName(rule, base);
      inputs[AUTONAMED] = true;
    } else if (typeof olds[rule.field] === "string") {
      // Kept across updates (a resource made before auto-naming keeps the service's label: nothing here).
      inputs[rule.field] = olds[rule.field];
      inputs[AUTONAMED] = true;
    }
  }
  for (const f of spec.fields) {
    const v = inputs[f.name];
    if (f.kind === "output") {
      delete inputs[f.name];
      continue;
    }
    if (v === undefined || v === null) {
      if (f.required) failures.push({ property: f.name, reason: `${f.name} is required` });
      delete inputs[f.name];
      continue;
    }
    if (containsUnknown(v) || !f.schema) continue;
    const r = f.schema.safeParse(v);
    if (!r.success) {
      for (const issue of r.error.issues) {
        const path = issue.path.length ? `${f.name}${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}` : f.name;
        failures.push({ property: f.name, reason: `${path}: ${issue.message}` });
      }
    } else {
      inputs[f.name] = r.data;
    }
  }
  return { inputs, failures };
}

/**
 * Outputs of a resource read by an import (the plugin's Read with no state): its write-only inputs are
 * unknown, and are not a change until the next update sends them.
 */
export const IMPORTED = "__imported";

/** The inputs the program declared when the state was written (from `__declared`), if known. */
export function declaredIn(olds: Props): string[] | undefined {
  return Array.isArray(olds[DECLARED]) ? (olds[DECLARED] as string[]) : undefined;
}

export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  changed: string[];
}

/**
 * Compares new inputs with the old state: which inputs changed and which of them force a replacement. An
 * input the program removed is a change when the field has a `clearTo` value (and was declared before).
 */
export function diffInputs(spec: ResourceSpec<any>, olds: Props, news: Props): DiffOutcome {
  const changed: string[] = [];
  const declared = declaredIn(olds);
  const imported = olds[IMPORTED] === true;
  for (const f of spec.fields) {
    if (f.kind !== "input") continue;
    const o = olds[f.name];
    const n = news[f.name];
    // An imported resource: the API never shows a write-only input, so the program's value is taken as it is.
    if (imported && f.writeOnly && (o === undefined || o === null)) continue;
    if (n === undefined || n === null) {
      if (o === undefined || o === null) continue;
      if (f.computed) {
        if (f.clearTo !== undefined && declared?.includes(f.name) && !sameValue(f, o, f.clearTo)) changed.push(f.name);
        continue;
      }
      changed.push(f.name);
      continue;
    }
    if (containsUnknown(n) || !sameValue(f, o, n)) changed.push(f.name);
  }
  const replaces = changed.filter((name) => spec.fields.find((f) => f.name === name)!.forceNew);
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: deletesFirst(spec, replaces, changed, news), changed };
}

/**
 * Whether a replacement deletes the old resource first: only for a resource that holds no data, when the
 * API keeps labels unique and the new one keeps a label the program pins. An auto-named resource gets a
 * fresh label, and a data-holding one is renamed after the old one is gone (provider/replacements.ts).
 */
export function deletesFirst(spec: ResourceSpec<any>, replaces: string[], changed: string[], news: Props): boolean {
  const field = spec.autoName?.field ?? "label";
  return Boolean(spec.uniqueLabel && !spec.holdsData && replaces.length > 0 && !changed.includes(field) && news[AUTONAMED] !== true);
}

/** The value an input takes in the update: its new value, or `clearTo` when the program removed it. */
export function valueFor(spec: ResourceSpec<any>, news: Props, name: string): unknown {
  const v = news[name];
  if (v !== undefined && v !== null) return v;
  return spec.fields.find((f) => f.name === name)?.clearTo;
}

/**
 * Outputs of a data-holding resource made under a temporary label (it replaces one that still held its
 * pinned label): the temporary label, kept until the next update or refresh. The pinned label is what the
 * outputs say, since the old resource's delete gives it to this one.
 */
export const REPLACEMENT_LABEL = "__replacementLabel";

/** diff: a data-holding resource whose pinned unique label the replacement keeps: remember it (replacements.ts). */
export function noteReplacement(spec: ResourceSpec<any>, id: string, d: DiffOutcome, news: Props): void {
  const label = news.label;
  if (!spec.holdsData || !spec.uniqueLabel || !d.replaces.length || news[AUTONAMED] === true || d.changed.includes("label")) return;
  if (typeof label === "string" && !containsUnknown(label)) expectReplacement(spec.type, id, label);
}

/**
 * create: the label to create with. While the resource this one replaces still holds the pinned label,
 * a temporary one (`<label>-<suffix>`); the old one's delete then renames this one (finishReplacement).
 */
export async function replacementLabel(c: ApiClient, spec: ResourceSpec<any>, inputs: Props): Promise<{ temp: string; done(newId: string): void } | undefined> {
  const pending = replacementFor(spec.type, inputs.label);
  if (!pending || !spec.autoName) return undefined;
  const old = await c.get<{ label?: string }>(spec.itemPath(pending.oldId, inputs), true);
  if (!old || old.label !== pending.label) return undefined;
  const temp = autoName(spec.autoName, pending.label);
  return {
    temp,
    done: (newId) => {
      pending.newId = newId;
      pending.temp = temp;
    },
  };
}

/** delete: once the old resource is gone, the replacement made under a temporary label takes the pinned one. */
export async function finishReplacement(c: ApiClient, spec: ResourceSpec<any>, oldId: string, props: Props): Promise<void> {
  const p = takeReplacement(spec.type, oldId);
  if (!p?.newId) return;
  try {
    await c.request("PUT", spec.itemPath(p.newId, props), { body: { label: p.label } });
  } catch (err) {
    const why = err instanceof ApiError ? err.reasons : (err as Error).message;
    throw new Error(
      `the old ${spec.noun} ${oldId} is deleted, but its replacement ${p.newId} could not take the label "${p.label}" (it is "${p.temp}"): ${why}. Run pulumi up again to rename it`,
    );
  }
}

/** diff: a resource made under a temporary label that has not taken its pinned label yet is due a rename. */
export async function renameDue(c: ApiClient, spec: ResourceSpec<any>, id: string, olds: Props, news: Props): Promise<boolean> {
  if (olds[REPLACEMENT_LABEL] === undefined || typeof news.label !== "string") return false;
  const api = await c.get<{ label?: string }>(spec.itemPath(id, olds), true);
  return Boolean(api && api.label !== news.label);
}

/** The API body for the given inputs (only the fields set, under their API names). */
export function toApiBody(spec: ResourceSpec<any>, inputs: Props, only?: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of spec.fields) {
    if (f.kind !== "input" || f.control || f.inPath || (only && !only.includes(f.name))) continue;
    const v = inputs[f.name];
    if (v !== undefined) body[apiName(f)] = f.raw ? v : convertKeys(v, snake);
  }
  return body;
}

/** The body of an update of the `changed` fields: their new values, and `clearTo` for those the program removed. */
export function updateBody(spec: ResourceSpec<any>, news: Props, changed: string[]): Record<string, unknown> {
  const cleared: Props = { ...news };
  for (const name of changed) cleared[name] = valueFor(spec, news, name);
  return toApiBody(spec, cleared, changed);
}

/** Outputs from an API record: every field the API returns, plus write-only inputs kept from `inputs`. */
export function fromApi(spec: ResourceSpec<any>, api: Record<string, unknown>, inputs: Props): Props {
  const out: Props = {};
  for (const f of spec.fields) {
    const key = apiName(f);
    if (f.writeOnly || f.control || !(key in api)) {
      if (inputs[f.name] !== undefined) out[f.name] = inputs[f.name];
      continue;
    }
    // undefined is not a value Pulumi can carry (protobuf Struct rejects it): leave the key out.
    if (api[key] !== undefined) out[f.name] = f.raw ? api[key] : convertKeys(api[key], camel);
  }
  return out;
}

/**
 * The names of the inputs the user declared, kept in the outputs as `__declared`: `read` only gets the
 * old outputs, and must report as inputs just these (a server-filled default the user never declared is
 * not drift, and must not show as an added input on refresh).
 */
export const DECLARED = "__declared";
export function declare(spec: ResourceSpec<any>, outs: Props, inputs: Props): Props {
  return { ...outs, [DECLARED]: spec.fields.filter((f) => f.kind === "input" && inputs[f.name] !== undefined).map((f) => f.name) };
}

/** What `read` reports as the resource's current inputs: the declared inputs' current values. */
export function inputsOf(spec: ResourceSpec<any>, outs: Props): Props {
  const declared = Array.isArray(outs[DECLARED]) ? (outs[DECLARED] as string[]) : undefined;
  const ins: Props = {};
  for (const f of spec.fields) {
    if (f.kind !== "input" || outs[f.name] === undefined || (declared && !declared.includes(f.name))) continue;
    ins[f.name] = outs[f.name];
  }
  return ins;
}

/** The result of `read`: outputs (keeping `__declared`) and the declared inputs as they are now. */
export function readResult(spec: ResourceSpec<any>, id: string, outs: Props, props: Props): { id: string; props: Props; inputs: Props } {
  const full = { ...outs };
  for (const k of [DECLARED, IMPORTED]) if (props[k] !== undefined) full[k] = props[k];
  return { id, props: full, inputs: inputsOf(spec, full) };
}

/**
 * The error of a failed operation: a {@link ComputeError} whose message names the operation, the resource
 * and the API's reason (or how long the API did not answer), never a secret, and that keeps the original
 * error as its `cause`.
 */
export function describeFailure(spec: ResourceSpec<any>, op: string, id: string | undefined, err: unknown): ComputeError {
  if (err instanceof ComputeError) return err;
  const what = `${spec.noun}${id ? ` ${id}` : ""}`;
  const info = { operation: op, resource: spec.noun, id, cause: err };
  if (err instanceof ApiError) {
    let hint = "";
    if (err.status === 401) hint = " (the API token is missing, unknown, expired or revoked: check compute:token or COMPUTE_TOKEN)";
    else if (err.status === 403) hint = " (the token or user lacks the permission for this: check the token's scopes and the user's grants)";
    const tries = err.attempts > 1 ? ` (after ${err.attempts} attempts)` : "";
    return new ComputeError(`cannot ${op} ${what}: the API answered HTTP ${err.status}: ${err.reasons}${hint}${tries}`, {
      ...info,
      status: err.status,
      apiErrors: err.errors,
      attempts: err.attempts,
    });
  }
  if (err instanceof NetworkError) return new ComputeError(`cannot ${op} ${what}: no answer from the API: ${err.summary}`, { ...info, attempts: err.attempts });
  const message = err instanceof Error ? err.message : String(err);
  return new ComputeError(`cannot ${op} ${what}: ${message}`, info);
}

/**
 * An error that keeps what exists: Pulumi records the resource with this id and these properties (as
 * "created, but failed to initialize"), so the next `up` or `refresh` continues from it instead of
 * orphaning it. `__provider` must be carried over by hand: the engine does not add it to failures.
 */
export function keepResourceError(message: string, id: string, outs: Props, inputs: Props, cause?: unknown): Error {
  const err =
    cause instanceof ComputeError ? new ComputeError(message, { ...cause, id, apiErrors: cause.apiErrors, cause: cause.cause }) : new Error(message, { cause });
  return Object.assign(err, { id, properties: { ...outs, __provider: inputs.__provider }, reasons: [message] });
}

export interface DynamicProviderImpl {
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }>;
  /** `changed`: the inputs that differ (for the plugin's detailed diff; the dynamic provider server ignores it). */
  diff(id: string, olds: Props, news: Props): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean; changed?: string[] }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** What a lifecycle hook gets: the client, the resource's id and the inputs (or the old ones, on delete). */
export interface HookContext<Api = unknown> {
  client: ApiClient;
  id: string;
  props: Props;
  /** The wait budget of this operation (the `timeouts` input, else the defaults of provider/timeouts.ts). */
  timeoutMs: number;
  /** Outputs a create or update hook adds (what its steps changed), over the table's and `extraOutputs`'. */
  outputs: Props;
  /** create: the resource as a hook's last call returned it (a PUT, say): what a later failure keeps. */
  latest?: Api;
}

/** What `extraOutputs` is called for: the operation, and the old outputs (read: the state; create: none). */
export interface OutputsContext {
  op: "create" | "read" | "update";
  olds: Props;
}

/** delete: waiting until the resource is gone, with options. */
export interface GoneWait {
  /** Polling cap (ms): 2 s by default. */
  maxMs?: number;
  /** No wait when the DELETE answered 404 (it was gone already). */
  skipOn404?: boolean;
}

/** Waiting for a status after create or update: done, or failed for good (with a message). */
export interface StatusWait<Api> {
  /** "to be ready", for messages. */
  what: string;
  done: (api: Api) => boolean;
  failed?: (api: Api) => string | undefined;
  /** Polling cap (ms): 2 s by default; a database that takes minutes polls every 10 s. */
  maxMs?: number;
  /** How often a progress line is printed (ms): 10 s by default. */
  progressEveryMs?: number;
}

/**
 * The steps a resource adds to the generic provider. The table gives check, diff, the bodies and the
 * outputs; these hooks give the rest, so that a resource is its table plus small functions.
 */
export interface ProviderHooks<Api extends { id: number | string }> {
  /** check: cross-field rules, after the table's own (failures name their property). */
  validate?(news: Props, olds: Props, checked: { inputs: Props; failures: readonly CheckFailure[] }): CheckFailure[] | Promise<CheckFailure[]>;
  /** create: sends the create (default: createOnce, which adopts what a lost answer made). */
  send?(client: ApiClient, body: Record<string, unknown>, inputs: Props): Promise<Api>;
  /** delete: a failure the resource can explain better (what still uses it); undefined keeps the error. */
  deleteFailure?(ctx: HookContext<Api>, err: unknown): Promise<Error | undefined>;
  /**
   * diff: refusals or extra changes that need the API (a size that must fit, say); may add to `changed`, or
   * change `d` otherwise (drop a replacement, remove a change: then set `changes` too).
   */
  diff?(client: () => ApiClient, id: string, olds: Props, news: Props, d: DiffOutcome): Promise<void> | void;
  /** create: the inputs to create with (a generated password, say); the outputs keep them. */
  prepare?(inputs: Props): Props | Promise<Props>;
  /** Custom create body (default: the inputs under their API names). */
  createBody?(inputs: Props): Record<string, unknown>;
  /** create: wait for a status after the POST. */
  waitCreated?: StatusWait<Api>;
  /** create: steps after the POST (and the wait), such as a boot; returns the API object to record. */
  afterCreate?(ctx: HookContext<Api>, api: Api): Promise<Api>;
  /** Custom update (default: one PUT of the changed in-place fields; control fields are not sent). */
  update?(ctx: HookContext<Api>, olds: Props, news: Props, changed: string[]): Promise<Api>;
  /** update: a failure after the update (reading the outputs) keeps the resource as the update returned it. */
  keepUpdated?: boolean;
  /** update: inputs the provider made (a generated password) kept from the old outputs when still left out. */
  carry?: string[];
  /** Outputs from the API record alone, without a call (default: the table's, `fromApi`); a failure keeps these. */
  mapOutputs?(api: Api, props: Props): Props;
  /** Outputs beyond the table's (read from the API or computed): added on create, read and update. */
  extraOutputs?(client: ApiClient, api: Api, props: Props, how: OutputsContext): Promise<Props> | Props;
  /** delete: steps before the DELETE (a power cycle, say). */
  beforeDelete?(ctx: HookContext<Api>): Promise<void>;
  /** delete: wait until the resource is gone (the API deletes some in the background). */
  waitGone?: boolean | GoneWait;
  /** What a failure after the resource exists adds to the message (it is kept in the stack). */
  keptNote?: string;
  /** The words for the resource in that message (default: the spec's noun), e.g. "database". */
  keptNoun?: string;
}

/**
 * The generic provider for a REST resource described by a table: POST to create, GET to read (404 means
 * gone), PUT of the changed fields to update, DELETE to delete (404 is success); `hooks` add waits, power
 * cycles, cross-field rules and extra outputs. A failure after the resource exists keeps it in the stack.
 *
 * A data-holding resource whose label the API keeps unique (`holdsData` and `uniqueLabel`) is replaced
 * create-first: when the replacement keeps a pinned label, it is made under a temporary label that the old
 * one's delete gives back (noteReplacement, replacementLabel, finishReplacement, renameDue).
 */
export function restProvider<Api extends { id: number | string }>(spec: ResourceSpec<Api>, hooks: ProviderHooks<Api> = {}): DynamicProviderImpl {
  const getClient = () => settingsClient();
  const base = (api: Api, props: Props): Props => (hooks.mapOutputs ? hooks.mapOutputs(api, props) : fromApi(spec, api, props));
  const outputs = async (c: ApiClient, api: Api, props: Props, how: OutputsContext, added: Props = {}) => {
    const outs = base(api, props);
    return { ...outs, ...(hooks.extraOutputs ? await hooks.extraOutputs(c, api, props, how) : {}), ...added };
  };
  const waitStatus = async (c: ApiClient, id: string, props: Props, w: StatusWait<Api>, timeoutMs: number): Promise<Api> =>
    (await waitFor<Api>({
      client: c,
      path: spec.itemPath(id, props),
      what: `${spec.noun} ${id} ${w.what}`,
      done: w.done,
      failed: w.failed,
      maxMs: w.maxMs,
      progressEveryMs: w.progressEveryMs,
      timeoutMs,
      describe: (a) => `status ${String((a as { status?: unknown }).status)}`,
    }))!;
  const kept = (message: string, id: string) =>
    `${message}. The ${hooks.keptNoun ?? spec.noun} ${id} exists and is kept in the stack${hooks.keptNote ? `: ${hooks.keptNote}` : ""}`;
  /** Create-first replacements under a temporary label (see above). */
  const renames = Boolean(spec.holdsData && spec.uniqueLabel);
  return {
    async check(olds, news) {
      const r = checkInputs(spec, news, olds);
      if (hooks.validate) r.failures.push(...(await hooks.validate(news, olds, r)));
      return r;
    },

    async diff(id, olds, news) {
      const d = diffInputs(spec, olds, news);
      if (hooks.diff) await hooks.diff(getClient, id, olds, news, d);
      if (renames) {
        // A replacement is made first (under a temporary label if the old one holds a pinned label).
        noteReplacement(spec, id, d, news);
        if (!d.changed.includes("label") && (await renameDue(getClient(), spec, id, olds, news))) d.changed.push("label");
      }
      return { changes: d.changes || d.changed.length > 0, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace, changed: d.changed };
    },

    async create(inputs) {
      let id: string | undefined;
      let last: Api | undefined;
      const ins = hooks.prepare ? await hooks.prepare({ ...inputs }) : inputs;
      let ctx: HookContext<Api> | undefined;
      try {
        const c = getClient();
        const body = hooks.createBody ? hooks.createBody(ins) : toApiBody(spec, ins);
        const replacing = renames ? await replacementLabel(c, spec, ins) : undefined;
        if (replacing) body.label = replacing.temp;
        last = hooks.send ? await hooks.send(c, body, ins) : await createOnce(c, spec, body, ins);
        id = String(last.id);
        replacing?.done(id);
        ctx = { client: c, id, props: ins, timeoutMs: budgetOf(spec.type, ins, "create"), outputs: {} };
        if (hooks.waitCreated) last = await waitStatus(c, id, ins, hooks.waitCreated, ctx.timeoutMs);
        if (hooks.afterCreate) {
          last = await hooks.afterCreate(ctx, last);
          ctx.latest = undefined;
        }
        const outs = await outputs(c, last, ins, { op: "create", olds: {} }, ctx.outputs);
        // Under a temporary label until the old resource is deleted, which gives this one the pinned label.
        if (replacing) Object.assign(outs, { label: ins.label, [REPLACEMENT_LABEL]: replacing.temp });
        return { id, outs: declare(spec, outs, inputs) };
      } catch (err) {
        const e = describeFailure(spec, "create", id, err);
        const now = ctx?.latest ?? last;
        if (id && now) throw keepResourceError(kept(e.message, id), id, base(now, ins), inputs, e);
        throw e;
      }
    },

    async read(id, props) {
      try {
        const missing = spec.fields.filter((f) => f.inPath && (props[f.name] === undefined || props[f.name] === null)).map((f) => f.name);
        // A child read by id alone (a get without its parent): say what it needs instead of a bare 404.
        if (missing.length) throw new Error(`reading a ${spec.noun} by id needs ${missing.join(" and ")} in its state (the parent's id)`);
        const c = getClient();
        const api = await c.get<Api>(spec.itemPath(id, props), true);
        if (!api) return {};
        return readResult(spec, id, await outputs(c, api, props, { op: "read", olds: props }), props);
      } catch (err) {
        throw describeFailure(spec, "read", id, err);
      }
    },

    async update(id, olds, news) {
      let api: Api | undefined;
      try {
        const c = getClient();
        const { changed } = diffInputs(spec, olds, news);
        // Made under a temporary label: the pinned one is sent again (harmless when it has it already).
        if (renames && olds[REPLACEMENT_LABEL] !== undefined && !changed.includes("label")) changed.push("label");
        const ctx: HookContext<Api> = { client: c, id, props: news, timeoutMs: budgetOf(spec.type, news, "update"), outputs: {} };
        if (hooks.update) api = await hooks.update(ctx, olds, news, changed);
        else {
          const sent = changed.filter((f) => !spec.fields.find((x) => x.name === f)?.control);
          if (sent.length) api = (await c.request<Api>("PUT", spec.itemPath(id, olds), { body: updateBody(spec, news, sent) })).body;
          else api = (await c.get<Api>(spec.itemPath(id, olds)))!;
        }
        const ins = { ...news };
        for (const f of hooks.carry ?? []) if (ins[f] === undefined) ins[f] = olds[f];
        return { outs: declare(spec, await outputs(c, api, ins, { op: "update", olds }, ctx.outputs), news) };
      } catch (err) {
        const e = describeFailure(spec, "update", id, err);
        if (hooks.keepUpdated && api) throw keepResourceError(e.message, id, base(api, news), news, e);
        throw e;
      }
    },

    async delete(id, props) {
      try {
        const c = getClient();
        const timeoutMs = budgetOf(spec.type, props, "delete");
        if (hooks.beforeDelete) await hooks.beforeDelete({ client: c, id, props, timeoutMs, outputs: {} });
        const r = await c.request("DELETE", spec.itemPath(id, props), { accept: [404] });
        const gone = typeof hooks.waitGone === "object" ? hooks.waitGone : {};
        if (hooks.waitGone && !(gone.skipOn404 && r.status === 404)) {
          const what = `${spec.noun} ${id} to be deleted`;
          await waitFor({ client: c, path: spec.itemPath(id, props), what, done: () => false, goneIsDone: true, timeoutMs, maxMs: gone.maxMs });
        }
        // A replacement made under a temporary label takes the pinned one now that this one is gone.
        if (renames) await finishReplacement(c, spec, id, props);
      } catch (err) {
        const better = hooks.deleteFailure ? await hooks.deleteFailure({ client: getClient(), id, props, timeoutMs: 0, outputs: {} }, err) : undefined;
        throw better ?? describeFailure(spec, "delete", id, err);
      }
    },
  };
}

/**
 * POSTs an action (boot, resize, ...). When its answer is lost, `applied` looks at the resource to tell
 * whether it took effect (a boot under way, the new type in place); only when it did not is the action
 * sent again. Actions whose repeat is harmless pass no `applied` and are simply sent again.
 */
export async function act(c: ApiClient, path: string, body: Record<string, unknown>, applied?: () => Promise<boolean>): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await c.request("POST", path, { body, idempotent: false });
      return;
    } catch (err) {
      if (!(err instanceof AmbiguousCreateError) || i >= 10) throw err;
      if (applied && (await applied())) return;
    }
  }
}

/** A create whose outcome cannot be told: what may exist, and how to find it. */
export class UnidentifiedCreateError extends Error {}

/**
 * POSTs a create. When the answer is lost (the request may have taken effect), looks for what it may
 * have made and adopts it; only when nothing is there is the create sent again. Never a blind repeat:
 * a resource with no way to be found (no `findExisting`) fails with an error that says what may exist.
 */
export async function createOnce<Api extends { id: number | string }>(
  c: ApiClient,
  spec: ResourceSpec<Api>,
  body: Record<string, unknown>,
  inputs: Props,
): Promise<Api> {
  const attempts = 10;
  const since = Date.now();
  const before = spec.snapshot ? await spec.snapshot(c, inputs) : undefined;
  for (let i = 1; ; i++) {
    try {
      return (await c.request<Api>("POST", spec.collectionPath(inputs), { body, idempotent: false })).body;
    } catch (err) {
      if (!(err instanceof AmbiguousCreateError) || i >= attempts) throw err;
      if (!spec.findExisting) {
        throw new UnidentifiedCreateError(
          `the answer to the create was lost and nothing identifies what it may have made: a new ${spec.noun} may exist under ${c.baseUrl}${spec.collectionPath(inputs)}. ` +
            "List it there; delete it, or run pulumi up again to make another",
        );
      }
      const found = await spec.findExisting(c, body, inputs, since, before);
      if (found) return found;
      // It was not made: send it again, after a short pause.
      await new Promise((r) => setTimeout(r, Math.min(100 * i, 1000)));
    }
  }
}
