import type { ApiClient } from "../transport/client";
import type { CheckFailure, DiffOutcome } from "../model/check";
import type { PlanContext } from "../model/plan";
import type { ApiRecord, Field, InputName, InputsOf, OutputsOf, Props, RawInputsOf, StateOf, StatusWait } from "../model/table";
import type { ProgramContext } from "../program";

/**
 * The lifecycle's types: what a provider of one resource type answers (ResourceProvider), and the hooks a
 * resource adds to the generic one (ProviderHooks) with what they receive. provider/lifecycle/rest-provider.ts
 * runs them.
 */

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
