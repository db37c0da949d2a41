import { REPLACEMENT_LABEL, RESOURCE_NAME } from "../model/marks";
import { isBusy, type ApiClient } from "../transport/client";
import { checkInputs, diffInputs } from "../model/check";
import { ComputeError, describeFailure, KeptResourceError } from "./errors";
import { createOnce } from "./lost-answers";
import { declare, fromApi, readResult, toApiBody } from "../model/mapping";
import { isExisting } from "../model/naming";
import { finishReplacement, markHeldLabel, noteReplacement, renameDue, renamesOnReplace, replacementLabel } from "./replacements";
import { client as settingsClient } from "../transport/settings";
import { putChanged, untilAccepted, waitStatus } from "./steps";
import { planCreate, planUpdate } from "../model/plan";
import { UNKNOWN, type ApiRecord, labelField, snake, type Props, type ResourceSpec, type StatusWait } from "../model/table";
import { budgetOf } from "../model/timeouts";
import { waitFor } from "./wait";
import { session } from "../session";
import type { HookContext, OutputsContext, ProviderHooks, ResourceProvider } from "./hooks";

/**
 * The generic provider for a REST resource described by a table: POST to create, GET to read (404 means
 * gone), PUT of the changed fields to update, DELETE to delete (404 is success), with the waits the table
 * says (`waitCreated`, `waitGone`); `hooks` add power cycles, cross-field rules and extra outputs (the order
 * they run in: provider/lifecycle/hooks.ts). A failure after the resource exists keeps it in the stack. A
 * data-holding resource with a pinned unique label is replaced create-first (provider/lifecycle/replacements.ts).
 * Each operation is a named function below, given the resource's `Lifecycle`.
 *
 * The core holds the engine's props as they come (`Props`): a resource's hooks are typed by its table where it is
 * defined (`defineResource`, `ProviderHooks<Api>`), and given here as hooks of any table (`ProviderHooks<Api>`,
 * whose props are `Props`): their methods compare their parameters both ways, and the props the core passes them
 * are what that table's check produced (and the engine stored).
 */
export function restProvider<Api extends ApiRecord>(spec: ResourceSpec<Api>, hooks: ProviderHooks<Api> = {}): ResourceProvider {
  const r = lifecycleOf(spec, hooks);
  return {
    check: (olds, news) => check(r, olds, news),
    diff: (id, olds, news) => diff(r, id, olds, news),
    create: (inputs) => create(r, inputs),
    read: (id, props) => read(r, id, props),
    plan: (id, olds, news) => plan(r, id, olds, news),
    update: (id, olds, news) => update(r, id, olds, news),
    delete: (id, props) => remove(r, id, props),
  };
}

/** A resource's table and hooks, and what its operations derive from them once. */
interface Lifecycle<Api extends ApiRecord> {
  spec: ResourceSpec<Api>;
  hooks: ProviderHooks<Api>;
  /** The field that holds its label. */
  label: string;
  /** Replaced create-first under a temporary label (replacements.ts). */
  renames: boolean;
  /**
   * A create cut short (a timeout, Ctrl-C) kept the resource in the stack before it was ready (its recorded
   * status not what the create waits for): the next update finishes this wait first.
   */
  finish?: { statuses: readonly string[]; wait: StatusWait<Api>; outputs?: readonly string[] };
  /** Inputs the provider made or the create answered (a generated password, a token's value): an update carries them. */
  carried: string[];
}

function lifecycleOf<Api extends ApiRecord>(spec: ResourceSpec<Api>, hooks: ProviderHooks<Api>): Lifecycle<Api> {
  const made = spec.generated ? [spec.generated.field] : [];
  return {
    spec,
    hooks,
    label: labelField(spec),
    renames: renamesOnReplace(spec),
    finish: spec.unfinished ?? (spec.waitCreated && { statuses: [spec.waitCreated.readyStatus], wait: spec.waitCreated }),
    carried: [...made, ...spec.fields.filter((f) => f.fromCreate).map((f) => f.name)],
  };
}

/** The API client of the session's settings. */
const apiClient = (): ApiClient => settingsClient();

/** Outputs from the API record alone: the hook's, else the table's. */
const outputsOfRecord = <Api extends ApiRecord>({ spec, hooks }: Lifecycle<Api>, api: Api, props: Props): Props =>
  hooks.mapOutputs ? hooks.mapOutputs(api, props) : fromApi(spec, api, props);

/** The outputs: the record's, `extraOutputs`', and what the hooks' steps added. */
async function outputs<Api extends ApiRecord>(
  r: Lifecycle<Api>,
  client: ApiClient,
  api: Api,
  props: Props,
  how: OutputsContext,
  added: Props = {},
): Promise<Props> {
  const extra = r.hooks.extraOutputs ? await r.hooks.extraOutputs(client, api, props, how) : {};
  return { ...outputsOfRecord(r, api, props), ...extra, ...added };
}

/** What a lifecycle hook is given. */
function hookContext<Api extends ApiRecord>({ spec }: Lifecycle<Api>, client: ApiClient, id: string, props: Props, timeoutMs: number): HookContext<Api> {
  return {
    client,
    id,
    props: props,
    timeoutMs,
    outputs: {},
    keep: {},
    program: session().program,
    wait: (w) => waitStatus<Api>(client, spec.itemPath(id, props), `${spec.noun} ${id}`, w, timeoutMs),
  };
}

/** The error that keeps the resource: its outputs, and `__provider`, which the engine does not add to failures. */
const keptError = (message: string, id: string, outs: Props, inputs: Props, cause: ComputeError) =>
  new KeptResourceError(message, cause, id, { ...outs, __provider: inputs.__provider });

const keptNote = <Api extends ApiRecord>({ spec }: Lifecycle<Api>, message: string, id: string) =>
  `${message}. The ${spec.kept?.noun ?? spec.noun} ${id} exists and is kept in the stack${spec.kept?.note ? `: ${spec.kept.note}` : ""}`;

/** Whether the state is of a create cut short (its status not among the finished ones). */
const unfinished = <Api extends ApiRecord>({ finish }: Lifecycle<Api>, olds: Props): boolean =>
  Boolean(finish && typeof olds.status === "string" && !finish.statuses.includes(olds.status));

/** The inputs an update changes (what its plan and the update itself both go by). */
function changedForUpdate<Api extends ApiRecord>(r: Lifecycle<Api>, olds: Props, news: Props): string[] {
  const { changed } = diffInputs(r.spec, olds, news);
  // Made under a temporary label: the pinned one is sent again (harmless when it has it already).
  if (r.renames && olds[REPLACEMENT_LABEL] !== undefined && !changed.includes(r.label)) changed.push(r.label);
  return changed;
}

/** check: the table's check (coercion, auto-naming, field rules), then `validate`; a held label marked. */
async function check<Api extends ApiRecord>(r: Lifecycle<Api>, olds: Props, news: Props) {
  const checked = checkInputs(r.spec, news, olds);
  if (r.hooks.validate) {
    const given = { inputs: checked.inputs, failures: checked.failures, program: session().program };
    checked.failures.push(...(await r.hooks.validate(news, olds, given, apiClient)));
  }
  if (r.renames) markHeldLabel(r.spec, news[RESOURCE_NAME], olds, checked.inputs, isExisting(olds));
  return checked;
}

/** diff: the table's diff, then `diff`, then the replacement rules (a pinned label's rename). */
async function diff<Api extends ApiRecord>(r: Lifecycle<Api>, id: string, olds: Props, news: Props) {
  const outcome = diffInputs(r.spec, olds, news);
  if (r.hooks.diff) await r.hooks.diff(apiClient, id, olds, news, outcome, session().program);
  if (r.renames) {
    // A replacement is made first (under a temporary label if the old one holds a pinned label).
    noteReplacement(r.spec, id, outcome, news);
    if (!outcome.changed.includes(r.label) && (await renameDue(apiClient(), r.spec, id, olds, news))) outcome.changed.push(r.label);
  }
  return {
    changes: outcome.changes || outcome.changed.length > 0,
    replaces: outcome.replaces,
    deleteBeforeReplace: outcome.deleteBeforeReplace,
    changed: outcome.changed,
  };
}

/**
 * create: the generated inputs, the table's body, `createBody`, the replacement's temporary label, then `send`
 * around the POST (the lost-answer protocol), the table's wait, `afterCreate`, the outputs. A failure once the
 * resource exists keeps it in the stack.
 */
async function create<Api extends ApiRecord>(r: Lifecycle<Api>, inputs: Props) {
  const { spec, hooks, label } = r;
  let id: string | undefined;
  let record: Api | undefined;
  // The inputs, with an input the provider makes when the program leaves it out (a root password).
  const allInputs: Props = { ...inputs };
  const generated = spec.generated;
  if (generated && allInputs[generated.field] === undefined && generated.when(allInputs)) allInputs[generated.field] = generated.value();
  const typedInputs = allInputs;
  let ctx: HookContext<Api> | undefined;
  try {
    const client = apiClient();
    const table = toApiBody(spec, allInputs);
    const body = hooks.createBody ? hooks.createBody(table, typedInputs) : table;
    const replacing = r.renames ? await replacementLabel(client, spec, typedInputs) : undefined;
    if (replacing) body[snake(label)] = replacing.temp;
    // A create refused with "Compute busy." did nothing: the client sends it again a while, and past that it
    // is sent again until the create's time is up (a disk waits for the one made before it, minutes on the API).
    const post = (path?: string) =>
      untilAccepted(
        `the ${spec.noun}'s create`,
        budgetOf(spec, typedInputs, "create"),
        () => createOnce(client, path === undefined ? spec : { ...spec, collectionPath: () => path }, body, allInputs),
        isBusy,
      );
    record = hooks.send ? await hooks.send(post, { client, body, inputs: typedInputs, program: session().program }) : await post();
    id = String(record.id);
    replacing?.done(id);
    ctx = hookContext(r, client, id, allInputs, budgetOf(spec, allInputs, "create"));
    if (spec.waitCreated) record = await ctx.wait(spec.waitCreated);
    if (hooks.afterCreate) {
      record = await hooks.afterCreate(ctx, record);
      ctx.latest = undefined;
    }
    const outs = await outputs(r, client, record, allInputs, { op: "create", olds: {}, program: session().program }, ctx.outputs);
    // Under a temporary label until the old resource is deleted, which gives this one the pinned label.
    if (replacing) Object.assign(outs, { [label]: allInputs[label], [REPLACEMENT_LABEL]: replacing.temp });
    return { id, outs: declare(spec, outs, inputs) };
  } catch (err) {
    const e = describeFailure(spec, "create", id, err);
    const now = ctx?.latest ?? record;
    if (id && now) throw keptError(keptNote(r, e.message, id), id, outputsOfRecord(r, now, allInputs), inputs, e);
    throw e;
  }
}

/** read: the GET (or the collection's list in a large refresh), then the outputs; gone is `{}`. */
async function read<Api extends ApiRecord>(r: Lifecycle<Api>, id: string, props: Props) {
  const { spec } = r;
  try {
    const missing = spec.fields.filter((f) => f.inPath && (props[f.name] === undefined || props[f.name] === null)).map((f) => f.name);
    // A child read by id alone (a get without its parent): say what it needs instead of a bare 404.
    if (missing.length) throw new Error(`reading a ${spec.noun} by id needs ${missing.join(" and ")} in its state (the parent's id)`);
    const client = apiClient();
    const api = spec.readsFromList
      ? await client.reads.read<Api>(client, spec.collectionPath(props), id, spec.itemPath(id, props))
      : await client.get<Api>(spec.itemPath(id, props), true);
    if (!api) return {};
    return readResult(spec, id, await outputs(r, client, api, props, { op: "read", olds: props, program: session().program }), props);
  } catch (err) {
    throw describeFailure(spec, "read", id, err);
  }
}

/** preview (plugin): the outputs a create or an update will give, the table's plan then `plan`; no request. */
function plan<Api extends ApiRecord>(r: Lifecycle<Api>, id: string | undefined, olds: Props, news: Props): Props {
  const { spec, hooks } = r;
  if (id === undefined) {
    const outs = planCreate(spec, news);
    const changed = Object.keys(news);
    hooks.plan?.({ op: "create", olds: {}, news: news, changed, program: session().program }, outs);
    return outs;
  }
  const changed = changedForUpdate(r, olds, news);
  const outs = planUpdate(spec, olds, news, changed);
  // What the create left unfinished may change until it is ready (default: everything the API assigns).
  const unsettled = r.finish?.outputs ?? spec.fields.filter((f) => f.kind === "output").map((f) => f.name);
  if (unfinished(r, olds)) for (const name of unsettled) outs[name] = UNKNOWN;
  const context = {
    op: "update" as const,
    olds: olds,
    news: news,
    changed: changed,
    program: session().program,
  };
  hooks.plan?.(context, outs);
  return outs;
}

/** update: the unfinished create's wait, `update` (else one PUT of the changed fields), then the outputs. */
async function update<Api extends ApiRecord>(r: Lifecycle<Api>, id: string, olds: Props, news: Props) {
  const { spec, hooks } = r;
  let ctx: HookContext<Api> | undefined;
  try {
    const client = apiClient();
    const changed = changedForUpdate(r, olds, news);
    ctx = hookContext(r, client, id, news, budgetOf(spec, news, "update"));
    if (r.finish && unfinished(r, olds)) ctx.latest = await ctx.wait(r.finish.wait);
    const api = hooks.update ? await hooks.update(ctx, olds, news, changed) : (await putChanged(client, spec, id, olds, news, changed)).api;
    if (spec.kept?.afterUpdate) ctx.latest = api;
    const carriedInputs: Props = { ...news };
    for (const f of r.carried) if (carriedInputs[f] === undefined) carriedInputs[f] = olds[f];
    return { outs: declare(spec, await outputs(r, client, api, carriedInputs, { op: "update", olds, program: session().program }, ctx.outputs), news) };
  } catch (err) {
    const e = describeFailure(spec, "update", id, err);
    if (!ctx?.latest) throw e;
    const message = spec.kept?.updateNote ? `${e.message}. ${spec.kept.updateNote}` : e.message;
    throw keptError(message, id, { ...outputsOfRecord(r, ctx.latest, { ...news, ...ctx.keep }), ...ctx.outputs }, news, e);
  }
}

/** delete: `deleteSteps` around the DELETE, the table's `waitGone`, the replacement's rename; else `deleteFailure`. */
async function remove<Api extends ApiRecord>(r: Lifecycle<Api>, id: string, props: Props): Promise<void> {
  const { spec, hooks } = r;
  try {
    const client = apiClient();
    const timeoutMs = budgetOf(spec, props, "delete");
    const ctx = hookContext(r, client, id, props, timeoutMs);
    const once = async () => (await client.request("DELETE", spec.itemPath(id, props), { accept: [404] })).status;
    const status = hooks.deleteSteps ? await hooks.deleteSteps(ctx, once) : await once();
    const gone = typeof spec.waitGone === "object" ? spec.waitGone : {};
    if (spec.waitGone && !(gone.skipOn404 && status === 404)) {
      const what = `${spec.noun} ${id} to be deleted`;
      await waitFor({ client: client, path: spec.itemPath(id, props), what, done: () => false, goneIsDone: true, timeoutMs, maxMs: gone.maxMs });
    }
    // A replacement made under a temporary label takes the pinned one now that this one is gone.
    if (r.renames) await finishReplacement(client, spec, id, props);
  } catch (err) {
    const better = hooks.deleteFailure ? await hooks.deleteFailure(hookContext(r, apiClient(), id, props, 0), err) : undefined;
    throw better ?? describeFailure(spec, "delete", id, err);
  }
}
