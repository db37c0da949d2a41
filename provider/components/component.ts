/**
 * A component the plugin serves (`compute:index:<Type>`, `isComponent` in schema.json): its inputs and outputs
 * (table rows, as a resource's, whose schemas are the child resources' own), its cross-field rules, and the
 * function that registers its children (provider/plugin/construct.ts runs it against the engine).
 *
 * Values flow through a component as `Linked`: a value (plain, a secret as the wire wraps it, or the unknown
 * value at preview) and the URNs it came from (the component input's dependencies, or the child whose output it
 * is), so that each child is registered with the dependencies of exactly the inputs it takes.
 */
import type { z } from "zod";
import type { Example } from "../model/example";
import { refusals } from "../model/issue-text";
import { containsUnknown, UNKNOWN, type Field, type Props } from "../model/table";
import { containsSecret, secret, unwrap as plain } from "../plugin/wire";

export { plain };

/** A value and the URNs it depends on. */
export class Linked {
  constructor(
    readonly value: unknown,
    readonly deps: readonly string[] = [],
  ) {}
}

/**
 * `fn` of the linked values' plain values, linked to all their URNs: unknown when one of them is (or holds) the
 * unknown value, a secret when one of them holds a secret.
 */
export function derive(from: readonly Linked[], fn: (...values: unknown[]) => unknown): Linked {
  const deps = [...new Set(from.flatMap((l) => l.deps))];
  if (from.some((l) => containsUnknown(plain(l.value)))) return new Linked(UNKNOWN, deps);
  const out = fn(...from.map((l) => plain(l.value)));
  return new Linked(from.some((l) => containsSecret(l.value)) && out !== undefined ? secret(out) : out, deps);
}

/** What a component's function is given: its inputs (each given one, linked to its dependencies) and the registrar. */
export interface ComponentContext {
  /** The component's name (its children are named `<name>-<part>`). */
  name: string;
  /** Each input the program gave, linked to the URNs it depends on. */
  inputs: Record<string, Linked>;
  /** A preview (the engine's dry run): the outputs of children yet to be made are unknown. */
  dryRun: boolean;
  /**
   * Registers a child resource `compute:index:<type>`; props may hold Linked values at any depth. `after`: the
   * children it depends on beyond its inputs' (the engine makes, changes and deletes it after them, or before).
   */
  child(type: string, name: string, props: Record<string, unknown>, after?: readonly Child[]): Promise<Child>;
}

/** What a component's `check` may read of the API: an instance type's disk allowance in MB (undefined for a type the catalogue does not have). */
export interface Catalogue {
  typeDisk(type: string): Promise<number | undefined>;
}

/** A refusal of a component's input: `reason` is `<input>: <rule>`. */
export interface Refusal {
  property: string;
  reason: string;
  /** The input is not known at preview (the engine cannot print its value: the refusal is sent as a plain error). */
  unknown?: boolean;
}

/** The reason of an input that decides the children while unknown at preview. */
export const mustBeKnown = (name: string): string => `${name}: must be known at preview: it decides which resources the component makes`;

/** A registered child: its URN, and its id and outputs linked to it (unknown at preview until made). */
export interface Child {
  urn: string;
  id: Linked;
  out(name: string): Linked;
}

/** A component: its token's type, description, inputs and outputs (table rows), rules, children and example. */
export interface ComponentDefinition {
  type: string;
  description: string;
  /** Its inputs: `kind: "input"` rows with the child resources' own schemas. */
  inputs: readonly Field[];
  /** Its outputs: `kind: "output"` rows (`required`: always set once made). */
  outputs: readonly Field[];
  /** Rules between inputs, on their plain values (an unknown one is the unknown value): `<input>: <rule>` each. */
  validate?(inputs: Props): Refusal[];
  /**
   * The inputs that decide which children exist (or their type or name) and are not known yet (at preview, an
   * output of a resource to be made): refused, since the preview would plan other children than the up makes.
   */
  undecided?(inputs: Props): string[];
  /** Rules that read the API's catalogue, on the plain values, once the inputs passed the others. */
  check?(inputs: Props, catalogue: Catalogue): Promise<Refusal[]>;
  /** Registers the children in order and answers the component's outputs. */
  construct(ctx: ComponentContext): Promise<Record<string, Linked>>;
  /** Its example program (docs/components.md in four languages, the e2e test's program). */
  example: () => Example;
}

/** An input row of a component. */
export const input = <const N extends string>(row: Omit<Field, "kind" | "name"> & { name: N }): Field & { name: N; kind: "input" } => ({
  ...row,
  kind: "input",
});

/** An input row of a component from a child resource's row `from`: its schema (and secrecy), in the component's own words. */
export function inputFrom<const N extends string>(
  fields: readonly Field[],
  from: string,
  row: { name: N; description: string; required?: boolean },
): Field & { name: N; kind: "input" } {
  const f = fields.find((x) => x.name === from);
  if (!f?.schema) throw new Error(`component input ${row.name}: the child's table has no input ${from} with a schema`);
  return { ...row, kind: "input", schema: f.schema, ...(f.secret ? { secret: true } : {}) };
}

/** A child's row's schema. */
export function schemaOf(fields: readonly Field[], name: string): z.ZodType {
  const f = fields.find((x) => x.name === name);
  if (!f?.schema) throw new Error(`no input ${name} with a schema`);
  return f.schema;
}

/**
 * The refusals of a component's inputs at preview, as a resource's check says them (`<input>: <rule>`): a
 * required input left out, a value its schema refuses, then the component's own rules. An input not known yet
 * (an output of a resource to be made) passes, unless it decides which children the component makes.
 */
export function checkComponentInputs(def: ComponentDefinition, raw: Props): Refusal[] {
  const values = plainValues(raw);
  const failures: Refusal[] = [];
  for (const f of def.inputs) {
    const v = values[f.name];
    if (v === undefined || v === null) {
      if (f.required) failures.push({ property: f.name, reason: `${f.name}: is required` });
      continue;
    }
    if (containsUnknown(v) || !f.schema) continue;
    const parsed = f.schema.safeParse(v);
    if (!parsed.success) for (const reason of refusals(f.name, parsed.error.issues)) failures.push({ property: f.name, reason });
  }
  const known = new Set(def.inputs.map((f) => f.name));
  for (const k of Object.keys(values)) if (!known.has(k)) failures.push({ property: k, reason: `${k}: is not an input of ${def.type}` });
  if (!failures.length && def.validate) failures.push(...def.validate(values));
  if (!failures.length && def.undecided)
    failures.push(...def.undecided(values).map((property) => ({ property, reason: mustBeKnown(property), unknown: true })));
  return failures;
}

/** The inputs' plain values (secrets unwrapped). */
export const plainValues = (raw: Props): Props => Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, plain(v)]));
