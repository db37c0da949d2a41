import type { AnswerOf, AnyEndpoint, BodyIn } from "../../api/contract/endpoint";
import type { ApiClient } from "../transport/client";
import { withTimeouts, type ApiRecord, type CheckedRows, type Field, type InputName, type InputsOf, type ResourceSpec, type TableCallbacks } from "./table";

/**
 * A table tied to the contract (api/contract): the rows it calls (its create, its read, its update when the core's
 * PUT sends one, its list) give its API record's type (the read's answer), and every input it sends must be a field
 * of the create's or the update's body: a misspelt or unknown API field does not compile.
 */

/** The contract's rows a resource's table calls. */
export interface TableApi {
  create: AnyEndpoint;
  get: AnyEndpoint;
  update?: AnyEndpoint;
  list?: AnyEndpoint;
  /** Rows a hook makes the resource with instead of `create` (an image uploaded, not captured): their bodies' fields are the table's too. */
  alsoCreate?: readonly AnyEndpoint[];
  /**
   * Inputs no row's body takes, which the provider reads itself (an image's `file`, whose data a hook streams to
   * the URL the upload answers, and its hash): their API names.
   */
  providerOnly?: readonly string[];
}

/** `rootPass` → `root_pass`: the API's name of a field the snake_case rule names. */
type SnakeCase<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}` : S;
/** A row's name in the API: its `api`, else the snake_case of its name. */
type ApiNameOf<R> = R extends { api: infer A extends string } ? A : R extends { name: infer N extends string } ? SnakeCase<N> : never;

/** The API names a table's generic bodies send: its inputs but the control and path fields. */
export type SentNames<F extends readonly Field[]> = F[number] extends infer R
  ? R extends { kind: "input" }
    ? R extends { control: true } | { inPath: true }
      ? never
      : ApiNameOf<R>
    : never
  : never;

/** The fields the bodies of some rows take (each row's, for a union of rows). */
type FieldsOfBodies<E> = E extends AnyEndpoint ? keyof BodyIn<E> : never;

/** The fields a body of the table's rows takes, and the inputs the provider reads itself. */
type BodyFields<T extends TableApi> =
  | keyof BodyIn<T["create"]>
  | (T["update"] extends AnyEndpoint ? keyof BodyIn<T["update"]> : never)
  | (T["alsoCreate"] extends readonly (infer E)[] ? FieldsOfBodies<E> : never)
  | (T["providerOnly"] extends readonly (infer N)[] ? N : never);

/** The names a table sends that neither its create's nor its update's body has (never, for a table the contract takes). */
export type NotInContract<F extends readonly Field[], T extends TableApi> = Exclude<SentNames<F>, BodyFields<T>>;

/** The API record of a table's rows: its read's answer. */
export type RecordOf<T extends TableApi> = AnswerOf<T["get"]> extends ApiRecord ? AnswerOf<T["get"]> : never;

/** The callbacks of a contract's table: a lost create's `findExisting` gets the create's body as the contract types it. */
export type ContractCallbacks<T extends TableApi, F extends readonly Field[]> = TableCallbacks<F> & {
  findExisting?(client: ApiClient, body: BodyIn<T["create"]>, inputs: InputsOf<F>, since: number): Promise<RecordOf<T> | undefined>;
};

/**
 * A resource's table over the contract's rows `api`: `tableFor(sshKeysApi)({ type: "SshKey", fields: [...], ... })`.
 * Its API record is `api.get`'s answer; a field it sends that `api.create`'s and `api.update`'s bodies lack is a
 * compile error naming it.
 */
export const tableFor =
  <const T extends TableApi>(api: T) =>
  <const F extends readonly Field[]>(
    spec: Omit<ResourceSpec<RecordOf<T>, F, BodyIn<T["create"]>>, keyof TableCallbacks<F> | "findExisting" | "api"> &
      ContractCallbacks<T, F> & { fields: NoInfer<CheckedRows<F>> } & (NotInContract<F, T> extends never
        ? unknown
        : { fieldsNotInTheContract: NotInContract<F, T> }),
  ): ResourceSpec<RecordOf<T>, F, BodyIn<T["create"]>> => ({ ...spec, api, fields: withTimeouts<F>(spec) });

/** The input names of a table (what its hooks name). */
export type { InputName };
