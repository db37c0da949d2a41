import { z } from "zod";
import type { ApiClient } from "../transport/client";
import type { Field, Props } from "../model/table";
import type { FunctionExample } from "../model/example";
import type { ApiField } from "./filters";

/**
 * The read functions are rows (provider/functions/index.ts assembles them): the sdk's `getX()` functions and the
 * plugin's Invoke both run them, and schema.json and the docs are generated from them. A function reads a
 * list (every page) or one item; its result is an object (Pulumi's convention for functions), e.g.
 * `{ regions: [...] }`.
 */
export interface FunctionSpec {
  /** Function name, e.g. `getRegions`; its Pulumi token is `compute:index:getRegions`. */
  name: string;
  description: string;
  /** Arguments (inputs), validated like resource inputs. */
  inputs: Field[];
  /** The object type of the items (schema type token `compute:index:<item>`). */
  item: string;
  /** For a list function: the result property that holds the list (`regions`); a single read returns the item's fields. */
  listKey?: string;
  /** The API path, from the checked arguments. */
  path(args: Props): string;
  /** For a single read: the words for a missing item ("region eu-west"). */
  what?(args: Props): string;
  /** A list that takes `filters`, `orderBy` and `order` (the API's `X-Filter` for what it can say, then on the client). */
  filterable?: boolean;
  /** How the API holds an item field the header may name (default: the API's field of an item whose fields are the API's in camelCase). */
  apiField?: (name: string) => ApiField | undefined;
  /**
   * The TypeScript sdk's form of a release before the list took arguments: `getX()` and `getX(opts)` returned
   * the bare list. Kept (deprecated) so that such programs still compile and run: they get an array that
   * also holds the list key; `getX(args, opts)` returns `{ <listKey>: [...] }` as every lookup does.
   */
  arrayForm?: boolean;
  /** The token scope the spec names for the read (docs/functions.md says it), or what it says when none is needed. */
  scope?: string;
  /** An API record as an item (default: the API's fields in camelCase). */
  toItem?(api: Props): Props;
  /** The list is a plain array, not a paged envelope (a profile's interfaces). */
  plainArray?: boolean;
  /** Reads the list when it is neither (an instance's backups), or either by the arguments (one region's availability). */
  list?: (client: ApiClient, path: string, args: Props) => Promise<Props[]>;
  /** Reads the single item when a GET of the path is not all of it (the grants: a 204 that means every grant). */
  read?: (client: ApiClient, path: string, args: Props) => Promise<Props>;
  /** Its example; a lookup's is made from its resource's example (scripts/generate/function-examples.ts). */
  example?: FunctionExample;
}

/** The fields of an object type functions return (for schema.json, the docs and the sdk's item types). */
export interface ItemType {
  description: string;
  fields: Field[];
}

/** An output field of an item type. */
export const out = (name: string, outputType: Field["outputType"], description: string, schema?: z.ZodType): Field => ({
  name,
  kind: "output",
  outputType,
  description,
  ...(schema ? { schema } : {}),
});

/** An item type whose fields the API always shows (but `except`): required in the types. */
export const everyFieldShown = (item: ItemType, except: string[] = []): ItemType => ({
  ...item,
  fields: item.fields.map((f) => ({ ...f, required: !except.includes(f.name) })),
});

/** A field that may be null. */
export const nullableString = z.string().nullable();

/** The values of an enumeration as a description says them: "`a`, `b` or `c`". */
export const either = (values: readonly string[]): string => {
  const quoted = values.map((v) => `\`${v}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}` : quoted.join("");
};

/** A parent's id, the argument of a lookup of children (`computeId` of getDisks). */
export const parentArg = (name: string, what: string): Field => ({
  name,
  kind: "input",
  required: true,
  schema: z.union([z.number().int().positive(), z.string().regex(/^\d+$/, "must be an id (digits)")]),
  description: `The ${what}'s id.`,
});
