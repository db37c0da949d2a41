import { REPLACEMENT_LABEL, RESOURCE_NAME } from "../model/marks";
import { isBusy, type ApiClient } from "../transport/client";
import { checkInputs, diffInputs, type CheckFailure, type DiffOutcome } from "../model/check";
import { ComputeError, describeFailure, KeptResourceError } from "./errors";
import { createOnce } from "./lost-answers";
import { declare, fromApi, readResult, toApiBody } from "../model/mapping";
import { isExisting } from "../model/naming";
import { finishReplacement, markHeldLabel, noteReplacement, renameDue, renamesOnReplace, replacementLabel } from "./replacements";
import { client as settingsClient } from "../transport/settings";
import { putChanged, untilAccepted, waitStatus } from "./steps";
import { planCreate, planUpdate, type PlanContext } from "../model/plan";
import {
  asTable,
  UNKNOWN,
  type ApiRecord,
  type Field,
  type InputName,
  type InputsOf,
  type OutputsOf,
  labelField,
  type RawInputsOf,
  snake,
  type Props,
  type ResourceSpec,
  type StateOf,
  type StatusWait,
} from "../model/table";
import { budgetOf } from "../model/timeouts";
import { waitFor } from "./wait";
import type { ProgramContext } from "../program";
import { session } from "../session";

/** The seven methods of a provider of one resource type: what the dynamic provider server and the plugin call. */
export interface ResourceProvider {
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }>;
  /** `changed`: the inputs that differ (for the plugin's detailed diff; the dynamic provider server ignores it). */
  diff(id: string, olds: Props, news: Props): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean; changed?: string[] }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
  /**
   * The outputs a create (`id` undefined, `olds` empty) or an in-place update will give, as far as they are
   * known before any request; unknown values are the UNKNOWN string (the plugin's preview; provider/model/plan.ts).
   */
  plan(id: string | undefined, olds: Props, news: Props): Props;
}

/** What a lifecycle hook gets: the client, the resource's id and the inputs (or the state, on delete). */
export interface HookContext<Api, F extends readonly Field[] = readonly Field[]> {
  client: ApiClient;
  id: string;
  props: StateOf<F>;
  /** The wait budget of this operation (the plugin's `customTimeouts` when given, else the `timeouts` input, else the defaults). */
  timeoutMs: number;
  /** Outputs a create or update hook adds (what its steps changed), over the table's and `extraOutputs`'. */
  outputs: OutputsOf<F>;
  /**
   * The resource as the hook's last call returned it: what a failure keeps in the stack. create: a step
   * after the POST (a PUT, say); update: every step that reads or changes it (then a failure keeps it).
   */
  latest?: Api;
  /** update: inputs a failure keeps other than the new ones (the old password until the reset went through). */
  keep: InputsOf<F>;
  /** What the program declares across its resources (provider/program.ts). */
  program: ProgramContext;
  /** Polls the resource until the wait is done (`<noun> <id> <what>` in messages); returns it then. */
  wait(w: StatusWait<Api>): Promise<Api>;
}

/** What `extraOutputs` is called for: the operation, and the old outputs (read: the state; create: none). */
export interface OutputsContext {
  op: "create" | "read" | "update";
  /** What the program declares across its resources (provider/program.ts). */
  program: ProgramContext;
  olds: Props;
}

/** What `send` gets: the client, the body (the table's, or `createBody`'s) and the inputs. */
export interface SendContext<F extends readonly Field[]> {
  client: ApiClient;
  body: Props;
  inputs: InputsOf<F>;
  /** What the program declares across its resources (provider/program.ts). */
  program: ProgramContext;
}

/**
 * The steps a resource adds to the generic provider, each typed by the resource's table `F`: the new inputs
 * are `InputsOf<F>`, the state `StateOf<F>`, field lists the table's names, so a misspelt field does not
 * compile. The table gives check, diff, the bodies, the outputs, the waits after create and delete and the
 * words of a failure that keeps the resource; the core sends the create (the lost-answer protocol) and
 * maps the outputs. These hooks say only what differs.
 *
 * The order they run in, per operation of restProvider:
 * - check: the table's check (coercion, auto-naming, field rules), then `validate`;
 * - diff: the table's diff, then `diff`, then the replacement rules (a pinned label's rename);
 * - preview (plugin): the table's plan (provider/model/plan.ts), then `plan`;
 * - create: the generated inputs, the table's body, `createBody`, the replacement's temporary label, then
 *   `send` (around the core's POST, sent through the lost-answer protocol and again while the API is
 *   busy), the table's `waitCreated`, `afterCreate`, then the outputs: `mapOutputs` (else the table's),
 *   `extraOutputs`, and what the hooks set in `ctx.outputs`;
 * - read: the GET (or the collection's list in a large refresh), then `mapOutputs`, `extraOutputs`;
 * - update: the unfinished create's wait, `update` (else one PUT of the changed fields), then the outputs
 *   as at create;
 * - delete: `deleteSteps` around the DELETE, the table's `waitGone`, the replacement's rename; on a
 *   failure, `deleteFailure`.
 */
export interface ProviderHooks<Api extends ApiRecord, F extends readonly Field[] = readonly Field[]> {
  /**
   * check: cross-field rules, after the table's own (failures name their property). `news` as the program
   * gave them, `checked.inputs` as the table checked them; `client` for a rule that needs the API.
   */
  validate?(
    news: RawInputsOf<F>,
    olds: StateOf<F>,
    checked: { inputs: InputsOf<F>; failures: readonly CheckFailure[]; program: ProgramContext },
    client: () => ApiClient,
  ): CheckFailure[] | Promise<CheckFailure[]>;
  /**
   * diff: refusals or extra changes that need the API (a size that must fit, say); may add to `changed`, or
   * change `d` otherwise (drop a replacement, remove a change: then set `changes` too).
   */
  diff?(client: () => ApiClient, id: string, olds: StateOf<F>, news: InputsOf<F>, d: DiffOutcome<InputName<F>>, program: ProgramContext): Promise<void> | void;
  /** create: the body to send, from the table's (the inputs under their API names). */
  createBody?(body: Props, inputs: InputsOf<F>): Props;
  /**
   * create: how it is sent. `create` sends the POST through the lost-answer protocol (to the collection, or
   * the path given), adopting what a lost answer made; a hook calls it around its own steps, or sends its own.
   */
  send?(create: (collectionPath?: string) => Promise<Api>, ctx: SendContext<F>): Promise<Api>;
  /** create: steps after the POST (and the table's wait), such as a boot; returns the API object to record. */
  afterCreate?(ctx: HookContext<Api, F>, api: Api): Promise<Api>;
  /** Custom update (default: putChanged, one PUT of the changed in-place fields). */
  update?(ctx: HookContext<Api, F>, olds: StateOf<F>, news: InputsOf<F>, changed: InputName<F>[]): Promise<Api>;
  /** Outputs from the API record alone, without a call (default: the table's, `fromApi`); a failure keeps these. */
  mapOutputs?(api: Api, props: StateOf<F>): OutputsOf<F>;
  /** Outputs beyond the table's (read from the API or computed): added on create, read and update. */
  extraOutputs?(client: ApiClient, api: Api, props: StateOf<F>, how: OutputsContext): Promise<OutputsOf<F>> | OutputsOf<F>;
  /**
   * delete: how the DELETE is sent (`remove` sends it once and answers its HTTP status), for a resource the
   * API deletes only under conditions the provider can meet (a shut down instance, a clone over), or not at
   * all (a snapshot in its instance's slot: nothing is sent, and a line says what becomes of it). A destroy
   * completes.
   */
  deleteSteps?(ctx: HookContext<Api, F>, remove: () => Promise<number>): Promise<number>;
  /** delete: a failure the resource can explain better (what still uses it); undefined keeps the error. */
  deleteFailure?(ctx: HookContext<Api, F>, err: unknown): Promise<Error | undefined>;
  /** preview: what the resource's own steps will set, over the table's plan (provider/model/plan.ts); no request. */
  plan?(ctx: PlanContext<F>, outs: OutputsOf<F>): void;
}

/**
 * The generic provider for a REST resource described by a table: POST to create, GET to read (404 means
 * gone), PUT of the changed fields to update, DELETE to delete (404 is success), with the waits the table
 * says (`waitCreated`, `waitGone`); `hooks` add power cycles, cross-field rules and extra outputs. A failure after the resource exists keeps it in the stack.
 * A data-holding resource with a pinned unique label is replaced create-first (provider/lifecycle/replacements.ts).
 */
export function restProvider<Api extends ApiRecord, F extends readonly Field[]>(
  spec: ResourceSpec<Api, F>,
  hooks: ProviderHooks<Api, F> = {},
): ResourceProvider {
  type In = InputsOf<F>;
  type State = StateOf<F>;
  const label = labelField(spec);
  const getClient = () => settingsClient();
  const base = (api: Api, props: Props): Props => (hooks.mapOutputs ? hooks.mapOutputs(api, asTable<State>(props)) : fromApi(spec, api, props));
  const outputs = async (c: ApiClient, api: Api, props: Props, how: OutputsContext, added: Props = {}) => {
    const outs = base(api, props);
    return { ...outs, ...(hooks.extraOutputs ? await hooks.extraOutputs(c, api, asTable<State>(props), how) : {}), ...added };
  };
  const context = (c: ApiClient, id: string, props: Props, timeoutMs: number): HookContext<Api, F> => ({
    client: c,
    id,
    props: asTable<State>(props),
    timeoutMs,
    outputs: {},
    keep: {},
    program: session().program,
    wait: (w) => waitStatus<Api>(c, spec.itemPath(id, props), `${spec.noun} ${id}`, w, timeoutMs),
  });
  /** The error that keeps the resource: its outputs, and `__provider`, which the engine does not add to failures. */
  const kept = (message: string, id: string, outs: Props, inputs: Props, cause: ComputeError) =>
    new KeptResourceError(message, cause, id, { ...outs, __provider: inputs.__provider });
  const keptNote = (message: string, id: string) =>
    `${message}. The ${spec.kept?.noun ?? spec.noun} ${id} exists and is kept in the stack${spec.kept?.note ? `: ${spec.kept.note}` : ""}`;
  const renames = renamesOnReplace(spec);
  /**
   * A create cut short (a timeout, Ctrl-C) kept the resource in the stack before it was ready (its recorded
   * status not what the create waits for): the next update finishes that wait first.
   */
  const finish = spec.unfinished ?? (spec.waitCreated && { statuses: [spec.waitCreated.readyStatus], wait: spec.waitCreated, outputs: undefined });
  const unfinished = (olds: Props): boolean => Boolean(finish && typeof olds.status === "string" && !finish.statuses.includes(olds.status));
  /** What may change until an unfinished create is ready (default: everything the API assigns). */
  const unsettled = finish?.outputs ?? spec.fields.filter((f) => f.kind === "output").map((f) => f.name);
  /** Inputs the provider made or the create answered (a generated password, a token's value). */
  const generated = spec.generated;
  const carried = [...(generated ? [generated.field] : []), ...spec.fields.filter((f) => f.fromCreate).map((f) => f.name)];
  /** The inputs an update changes (what its plan and the update itself both go by). */
  const changedForUpdate = (olds: Props, news: Props): string[] => {
    const { changed } = diffInputs(spec, olds, news);
    // Made under a temporary label: the pinned one is sent again (harmless when it has it already).
    if (renames && olds[REPLACEMENT_LABEL] !== undefined && !changed.includes(label)) changed.push(label);
    return changed;
  };
  return {
    async check(olds, news) {
      const r = checkInputs(spec, news, olds);
      if (hooks.validate)
        r.failures.push(
          ...(await hooks.validate(
            asTable<RawInputsOf<F>>(news),
            asTable<State>(olds),
            { inputs: asTable<In>(r.inputs), failures: r.failures, program: session().program },
            getClient,
          )),
        );
      if (renames) markHeldLabel(spec, news[RESOURCE_NAME], olds, r.inputs, isExisting(olds));
      return r;
    },

    async diff(id, olds, news) {
      const d = diffInputs(spec, olds, news);
      if (hooks.diff) await hooks.diff(getClient, id, asTable<State>(olds), asTable<In>(news), asTable<DiffOutcome<InputName<F>>>(d), session().program);
      if (renames) {
        // A replacement is made first (under a temporary label if the old one holds a pinned label).
        noteReplacement(spec, id, d, news);
        if (!d.changed.includes(label) && (await renameDue(getClient(), spec, id, olds, news))) d.changed.push(label);
      }
      return { changes: d.changes || d.changed.length > 0, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace, changed: d.changed };
    },

    async create(inputs) {
      let id: string | undefined;
      let last: Api | undefined;
      const made: Props = { ...inputs };
      if (generated && made[generated.field] === undefined && generated.when(made)) made[generated.field] = generated.value();
      const ins = asTable<In>(made);
      let ctx: HookContext<Api, F> | undefined;
      try {
        const c = getClient();
        const table = toApiBody(spec, made);
        const body = hooks.createBody ? hooks.createBody(table, ins) : table;
        const replacing = renames ? await replacementLabel(c, spec, ins) : undefined;
        if (replacing) body[snake(label)] = replacing.temp;
        // A create refused with "Compute busy." did nothing: the client sends it again a while, and past that it
        // is sent again until the create's time is up (a disk waits for the one made before it, minutes on the API).
        const create = (path?: string) =>
          untilAccepted(
            `the ${spec.noun}'s create`,
            budgetOf(spec, ins, "create"),
            () => createOnce(c, path === undefined ? spec : { ...spec, collectionPath: () => path }, body, made),
            isBusy,
          );
        last = hooks.send ? await hooks.send(create, { client: c, body, inputs: ins, program: session().program }) : await create();
        id = String(last.id);
        replacing?.done(id);
        ctx = context(c, id, made, budgetOf(spec, made, "create"));
        if (spec.waitCreated) last = await ctx.wait(spec.waitCreated);
        if (hooks.afterCreate) {
          last = await hooks.afterCreate(ctx, last);
          ctx.latest = undefined;
        }
        const outs = await outputs(c, last, made, { op: "create", olds: {}, program: session().program }, ctx.outputs);
        // Under a temporary label until the old resource is deleted, which gives this one the pinned label.
        if (replacing) Object.assign(outs, { [label]: made[label], [REPLACEMENT_LABEL]: replacing.temp });
        return { id, outs: declare(spec, outs, inputs) };
      } catch (err) {
        const e = describeFailure(spec, "create", id, err);
        const now = ctx?.latest ?? last;
        if (id && now) throw kept(keptNote(e.message, id), id, base(now, made), inputs, e);
        throw e;
      }
    },

    async read(id, props) {
      try {
        const missing = spec.fields.filter((f) => f.inPath && (props[f.name] === undefined || props[f.name] === null)).map((f) => f.name);
        // A child read by id alone (a get without its parent): say what it needs instead of a bare 404.
        if (missing.length) throw new Error(`reading a ${spec.noun} by id needs ${missing.join(" and ")} in its state (the parent's id)`);
        const c = getClient();
        const api = spec.readsFromList
          ? await c.reads.read<Api>(c, spec.collectionPath(props), id, spec.itemPath(id, props))
          : await c.get<Api>(spec.itemPath(id, props), true);
        if (!api) return {};
        return readResult(spec, id, await outputs(c, api, props, { op: "read", olds: props, program: session().program }), props);
      } catch (err) {
        throw describeFailure(spec, "read", id, err);
      }
    },

    plan(id, olds, news) {
      if (id === undefined) {
        const outs = planCreate(spec, news);
        hooks.plan?.({ op: "create", olds: {}, news: asTable<In>(news), changed: asTable<InputName<F>[]>(Object.keys(news)) }, asTable<OutputsOf<F>>(outs));
        return outs;
      }
      const changed = changedForUpdate(olds, news);
      const outs = planUpdate(spec, olds, news, changed);
      // What the create left unfinished may change until it is ready.
      if (unfinished(olds)) for (const name of unsettled) outs[name] = UNKNOWN;
      hooks.plan?.(
        { op: "update", olds: asTable<State>(olds), news: asTable<In>(news), changed: asTable<InputName<F>[]>(changed) },
        asTable<OutputsOf<F>>(outs),
      );
      return outs;
    },

    async update(id, olds, news) {
      let ctx: HookContext<Api, F> | undefined;
      try {
        const c = getClient();
        const changed = changedForUpdate(olds, news);
        ctx = context(c, id, news, budgetOf(spec, news, "update"));
        if (finish && unfinished(olds)) ctx.latest = await ctx.wait(finish.wait);
        const api = hooks.update
          ? await hooks.update(ctx, asTable<State>(olds), asTable<In>(news), asTable<InputName<F>[]>(changed))
          : (await putChanged(c, spec, id, olds, news, changed)).api;
        if (spec.kept?.afterUpdate) ctx.latest = api;
        const ins: Props = { ...news };
        for (const f of carried) if (ins[f] === undefined) ins[f] = olds[f];
        return { outs: declare(spec, await outputs(c, api, ins, { op: "update", olds, program: session().program }, ctx.outputs), news) };
      } catch (err) {
        const e = describeFailure(spec, "update", id, err);
        if (!ctx?.latest) throw e;
        const message = spec.kept?.updateNote ? `${e.message}. ${spec.kept.updateNote}` : e.message;
        throw kept(message, id, { ...base(ctx.latest, { ...news, ...ctx.keep }), ...ctx.outputs }, news, e);
      }
    },

    async delete(id, props) {
      try {
        const c = getClient();
        const timeoutMs = budgetOf(spec, props, "delete");
        const ctx = context(c, id, props, timeoutMs);
        const remove = async () => (await c.request("DELETE", spec.itemPath(id, props), { accept: [404] })).status;
        const status = hooks.deleteSteps ? await hooks.deleteSteps(ctx, remove) : await remove();
        const gone = typeof spec.waitGone === "object" ? spec.waitGone : {};
        if (spec.waitGone && !(gone.skipOn404 && status === 404)) {
          const what = `${spec.noun} ${id} to be deleted`;
          await waitFor({ client: c, path: spec.itemPath(id, props), what, done: () => false, goneIsDone: true, timeoutMs, maxMs: gone.maxMs });
        }
        // A replacement made under a temporary label takes the pinned one now that this one is gone.
        if (renames) await finishReplacement(c, spec, id, props);
      } catch (err) {
        const better = hooks.deleteFailure ? await hooks.deleteFailure(context(getClient(), id, props, 0), err) : undefined;
        throw better ?? describeFailure(spec, "delete", id, err);
      }
    },
  };
}
