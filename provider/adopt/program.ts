/**
 * The program that declares what `compute-adopt` adopts, as the project's example printers print a program in each
 * language (scripts/generate/example-code.ts): each resource with the inputs its import records, a value that is
 * an adopted resource's id written as a reference to it (a disk's `computeId` is its instance's `id`), and the
 * objects and maps of the schema's named types as the SDKs type them. The names a user reads come from labels.
 */
import { mapOf, obj, ref, type Example, type Fields, type Obj, type Res, type Value } from "../model/example";
import type { Props } from "../model/table";
import type { Found } from "./discover";
import { camel, snake } from "../../scripts/generate/example-program";

/** A record to adopt, read as an import reads it: its logical name and the inputs the import records. */
export interface Adopted extends Found {
  name: string;
  inputs: Props;
}

/** A property of the package schema (schema.json), as far as the program needs it. */
export interface SchemaProp {
  type?: string;
  $ref?: string;
  items?: SchemaProp;
  additionalProperties?: SchemaProp;
  properties?: Record<string, SchemaProp>;
}
export interface ProgramSchema {
  resources: Record<string, { inputProperties?: Record<string, SchemaProp> }>;
  types: Record<string, { properties?: Record<string, SchemaProp> }>;
}

/** The types an id input refers to, by the input's name: a value that is an adopted one's id becomes a reference to it. */
const ID_INPUTS: Record<string, string[]> = {
  computeId: ["Instance"],
  configId: ["Config"],
  diskId: ["Disk"],
  vpcId: ["Vpc"],
  subnetId: ["Subnet"],
  databaseId: ["MysqlDatabase", "PostgresDatabase"],
};

/**
 * Words a variable of some language cannot be, or would hide a name the program or its language needs (`compute`,
 * `pulumi`, `ctx`, `require`, Go's `nil`).
 */
const RESERVED = new Set(
  (
    "compute pulumi ctx err main program config opts args " +
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var " +
    "and as assert async await class def del elif except finally from global in is lambda nonlocal not or pass raise try while with yield none true false " +
    "catch debugger delete do enum export extends function instanceof let new null super this throw typeof void " +
    "implements private protected public static " +
    // what the languages predeclare: TypeScript's module scope, Go's universe, Python's builtins a program uses
    "require exports module arguments eval undefined nan infinity object promise console process global " +
    "nil iota string int len cap make append copy panic recover print println error any bool byte rune close clear min max fmt " +
    "id str list dict set open input exec self"
  ).split(" "),
);

/** A logical name from a label: lower case, words joined by `-`, starting with a letter (else the type's name first). */
export function nameOf(label: string, type: string): string {
  const base = label
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const kind = type.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
  if (!base) return kind;
  return /^[a-z]/.test(base) && !RESERVED.has(base) ? base : `${kind}-${base}`;
}

/**
 * Gives each record its logical name: its label's, after its parent's (`db-1-root`, `prod-net-apps`), unique in the
 * program as each language names its variable (`web-12` and `web-1-2` are both `web12` in TypeScript and Go): a name
 * taken is followed by the record's id (`web-1-4711`), so that it does not move when another record of the same label
 * comes or goes, but for the first of that label.
 */
export function nameAll(found: Found[]): Map<Found, string> {
  const names = new Map<Found, string>();
  const taken = new Set<string>();
  const forms = (name: string) => [camel(name).toLowerCase(), snake(name)];
  const free = (name: string) => !forms(name).some((v) => taken.has(v));
  for (const f of found) {
    const own = nameOf(f.label, f.type);
    const parent = f.parent ? names.get(f.parent) : undefined;
    const base = parent ? `${parent}-${own.startsWith(`${parent}-`) ? own.slice(parent.length + 1) : own}` : own;
    let name = free(base) ? base : `${base}-${f.id.replace(/[^A-Za-z0-9]+/g, "-")}`;
    for (let n = 2; !free(name); n++) name = `${base}-${f.id.replace(/[^A-Za-z0-9]+/g, "-")}-${n}`;
    forms(name).forEach((v) => taken.add(v));
    names.set(f, name);
  }
  return names;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The program declaring `adopted` (parents first), its values typed by the package schema; each resource `protect`ed
 * when the import protects them (`pulumi import`'s default), so that an up keeps them so.
 */
export function adoptionProgram(adopted: Adopted[], schema: ProgramSchema, opts: { protect: boolean }): Example {
  const resources = new Map<Adopted, Res>();
  const byId = new Map<string, Res>();
  const typeOf = (ref$: string) => ref$.replace(/^#\/types\/compute:index:/, "");
  const value = (key: string, v: unknown, prop: SchemaProp | undefined): Value | undefined => {
    if (v === null || v === undefined) return undefined;
    const target = ID_INPUTS[key]?.map((t) => byId.get(`${t}:${String(v)}`)).find((r) => r);
    if (target && (typeof v === "number" || typeof v === "string")) return ref(target);
    if (Array.isArray(v)) return v.map((x) => value("", x, prop?.items)).filter((x): x is Value => x !== undefined);
    if (isRecord(v)) {
      if (prop?.$ref) return object(typeOf(prop.$ref), v);
      const item = prop?.additionalProperties?.$ref;
      if (item)
        return mapOf(
          typeOf(item),
          Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => isRecord(x))
              .map(([k, x]) => [k, object(typeOf(item), isRecord(x) ? x : {})]),
          ),
        );
      throw new Error(`compute-adopt: no schema type for the object in ${key}`);
    }
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
    throw new Error(`compute-adopt: cannot write the value of ${key}`);
  };
  const object = (type: string, fields: Record<string, unknown>): Obj => obj(type, compact(fields, schema.types[`compute:index:${type}`]?.properties ?? {}));
  const compact = (fields: Record<string, unknown>, props: Record<string, SchemaProp>): Fields => {
    const out: Fields = {};
    for (const [k, v] of Object.entries(fields)) {
      const x = value(k, v, props[k]);
      if (x !== undefined) out[k] = x;
    }
    return out;
  };
  for (const a of adopted) {
    const props = schema.resources[`compute:index:${a.type}`]?.inputProperties ?? {};
    const r: Res = { name: a.name, type: a.type, props: compact(a.inputs, props), ...(opts.protect ? { options: { protect: true } } : {}) };
    resources.set(a, r);
    byId.set(`${a.type}:${a.id}`, r);
  }
  return { title: "Adopted", resources: [...resources.values()], outputs: {} };
}
