import { z } from "zod";
import type { SCOPE_GROUPS } from "../scopes";

/**
 * An endpoint of the API as one row: its method and path, where the spec states it, the scope and the token it
 * needs, and the schemas of its path parameters, its query, its request body and its answer. The emulator serves
 * each row (emulator/http.ts `row`: its handler gets the parameters and the body parsed by these schemas, typed by
 * them) and the provider calls it (provider/transport/client.ts `call`: the parameters and the body typed by these
 * schemas, the answer typed as the answer's schema). Nothing in api/ imports either side.
 */

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A scope group (api/scopes.ts) and a level: what an OAuth token must hold to call the endpoint. */
export interface Scope {
  readonly group: (typeof SCOPE_GROUPS)[number];
  readonly level: "read_only" | "read_write";
}

/** `computes:read_only` and the like, as the spec's Scope columns write them (`ro`, `rw`). */
export const ro = <const G extends Scope["group"]>(group: G) => ({ group, level: "read_only" }) as const;
export const rw = <const G extends Scope["group"]>(group: G) => ({ group, level: "read_write" }) as const;

/**
 * Whether a token is needed: `required`; `optional` (used when given: public images); `none` (never looked at:
 * the reference data, "callable without any authorization header").
 */
export type Auth = "required" | "optional" | "none";

/** Where the row comes from: a spec document, the real API's recorded answers beyond the spec, or the emulator's own. */
export type Source = "compute-api.md" | "databases-api.md" | "profile-api.md" | "recorded" | "emulator";

/** The text of a path parameter that names nothing (`/profile/sshkeys/abc`): the route answers 404, as for an id that does not exist. */
export const NOT_FOUND = "Not found";

/** An integer id in a path (`{computeId}`, ...): digits, read as a number; anything else is not found. */
export const idParam = z
  .string()
  .regex(/^\d{1,15}$/, NOT_FOUND)
  .transform(Number);

/** A string id in a path (`{typeId}`, `{imageId}`: "placed in the path as given"). */
export const refParam = z.string().min(1, NOT_FOUND);

/**
 * compute-api.md "Common conventions": "Path parameters: `{computeId}`, `{configId}`, `{interfaceId}`, `{diskId}`,
 * `{backupId}`, `{vpcId}`, `{vpcSubnetId}` are integers; `{kernelId}`, `{typeId}`, `{regionId}`, `{imageId}` are
 * strings." The other documents' ids (`{instanceId}`, `{sshKeyId}`, `{tokenId}`, ...) are integers, `{engineId}` is
 * `engine/version`. A path names only these (an endpoint may narrow one: `year` of a transfer).
 */
export const PATH_PARAMS = {
  computeId: idParam,
  configId: idParam,
  interfaceId: idParam,
  diskId: idParam,
  backupId: idParam,
  vpcId: idParam,
  vpcSubnetId: idParam,
  kernelId: refParam,
  typeId: refParam,
  regionId: refParam,
  imageId: refParam,
  engineId: refParam,
  instanceId: idParam,
  appId: idParam,
  deviceId: idParam,
  loginId: idParam,
  sshKeyId: idParam,
  tokenId: idParam,
  eventId: idParam,
  accountId: idParam,
  /** The statistics' and transfer's month (compute-api.md: "`year` integer, `month` integer 1..12"). */
  year: z
    .string()
    .regex(/^\d{1,6}$/, "Must be an integer")
    .transform(Number),
  month: z
    .string()
    .regex(/^\d{1,2}$/, "Must be an integer from 1 to 12")
    .transform(Number)
    .refine((m) => m >= 1 && m <= 12, "Must be an integer from 1 to 12"),
} as const satisfies Record<string, z.ZodType<unknown, string>>;

export type ParamName = keyof typeof PATH_PARAMS;

/** The names of a path template's parameters: `/a/{x}/b/{y*}` gives `x | y` (`*`: the rest of the path, slashes too). */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? (N extends `${infer M}*` ? M : N) | PathParamNames<Rest>
  : never;

/** The schemas of a path's parameters: the endpoint's own for a name it narrows, else PATH_PARAMS'. */
type ParamShape<P extends string, O> = {
  [K in PathParamNames<P>]: K extends keyof O ? Exclude<O[K], undefined> & z.ZodType : K extends ParamName ? (typeof PATH_PARAMS)[K] : z.ZodNever;
};

/** No query, or no body: nothing is read from it (what a client sends there is ignored, as the API does). */
export const nothing = z.object({});

/** The answer of an operation that returns no data: `{}` (compute-api.md: "Operations that return no data return an empty JSON object `{}`"). */
export const empty = z.strictObject({});

/** One row of the contract. `P` its path, `Q`, `B`, `A` the schemas of its query, body and answer, `U` whether it needs a token. */
export interface Endpoint<
  P extends string = string,
  Pa extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  A extends z.ZodType = z.ZodType,
  U extends Auth = Auth,
> {
  readonly method: Method;
  readonly path: P;
  readonly source: Source;
  readonly scope: Scope | null;
  readonly auth: U;
  /** What it does, in the spec's words (for docs and messages). */
  readonly summary: string;
  readonly params: Pa;
  readonly query: Q;
  readonly body: B;
  readonly answer: A;
  /** The answer's status when it is not 200 (a 204 with no body is the handler's to say). */
  readonly status?: number;
}

/** An endpoint of any path, parameters and schemas (what a list of rows holds). */
export type AnyEndpoint = Endpoint<string, z.ZodType, z.ZodType, z.ZodType, z.ZodType, Auth>;

/**
 * One row of the contract, its path parameters' schemas derived from its path (a name PATH_PARAMS lacks does not
 * compile unless `params` gives its schema), its query and body `nothing` unless given.
 */
export function endpoint<
  const P extends string,
  const U extends Auth,
  O extends { [K in PathParamNames<P>]?: z.ZodType<unknown, string> } = object,
  Q extends z.ZodType = typeof nothing,
  B extends z.ZodType = typeof nothing,
  A extends z.ZodType = typeof empty,
>(row: {
  method: Method;
  path: P &
    (Exclude<PathParamNames<P>, ParamName | keyof O> extends never ? unknown : { unknownPathParameter: Exclude<PathParamNames<P>, ParamName | keyof O> });
  source: Source;
  scope: Scope | null;
  auth: U;
  summary: string;
  params?: O;
  query?: Q;
  body?: B;
  answer?: A;
  status?: number;
}): Endpoint<P, z.ZodObject<ParamShape<P, O>>, Q, B, A, U> {
  const shape: Record<string, z.ZodType> = {};
  for (const name of pathParamNames(row.path)) {
    const own: Record<string, z.ZodType | undefined> = row.params ?? {};
    const known: Record<string, z.ZodType> = PATH_PARAMS;
    const schema = own[name] ?? known[name];
    if (!schema) throw new Error(`${row.method} ${row.path}: the path parameter {${name}} has no schema`);
    shape[name] = schema;
  }
  return {
    method: row.method,
    path: row.path,
    source: row.source,
    scope: row.scope,
    auth: row.auth,
    summary: row.summary,
    // The shape holds each name of the path with its schema: what ParamShape<P, O> says.
    params: z.object(shape) as z.ZodObject<ParamShape<P, O>>,
    query: (row.query ?? nothing) as Q,
    body: (row.body ?? nothing) as B,
    answer: (row.answer ?? empty) as A,
    ...(row.status === undefined ? {} : { status: row.status }),
  };
}

/** The parameter names of a path, in order. */
export const pathParamNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\*?\}/g)].map((m) => m[1]);

/** What an endpoint's parameters are, parsed (the emulator's handlers read these). */
export type ParamsOf<E extends AnyEndpoint> = z.output<E["params"]>;
export type QueryOf<E extends AnyEndpoint> = z.output<E["query"]>;
/** A body as the emulator reads it (defaults applied). */
export type BodyOf<E extends AnyEndpoint> = z.output<E["body"]>;
/** A body as a client sends it (what may be left out). */
export type BodyIn<E extends AnyEndpoint> = z.input<E["body"]>;
export type AnswerOf<E extends AnyEndpoint> = z.output<E["answer"]>;
/** What a client fills a path with: each parameter of the path, a number or a string. */
export type PathArgs<E extends AnyEndpoint> = { [K in PathParamNames<E["path"]>]: string | number };

/**
 * The path of an endpoint with its parameters filled in, each percent-encoded (a `{name*}` parameter keeps its
 * slashes: an image id `private/12` is placed "as given").
 */
export const pathOf = <E extends AnyEndpoint>(e: E, args: PathArgs<E>): string => fillPath(e, args);

/** The path of an endpoint filled with what `args` gives (a parameter it lacks: an error naming it). */
export function fillPath(e: AnyEndpoint, given: Readonly<Record<string, string | number | undefined>>): string {
  return e.path.replace(/\{(\w+)(\*?)\}/g, (_m, name: string, rest: string) => {
    const value = given[name];
    if (value === undefined || value === null || value === "") throw new Error(`${e.method} ${e.path}: no value for {${name}}`);
    return rest ? String(value).split("/").map(encodeURIComponent).join("/") : encodeURIComponent(String(value));
  });
}
