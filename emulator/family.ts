import type { z } from "zod";
import type { Router } from "./router";
import type { CoreState } from "./state";
import type { Store } from "./store";
import type { Timing } from "./timing";

/**
 * An API family: one routes module (or a folder of them, as `routes/compute/`) that declares the collections
 * it keeps in the state file and registers its routes. The emulator derives its router, its state file and
 * the type of `Emulator.store` from the one list of families (`routes/index.ts`).
 */
export interface ApiFamily<S extends object = object> {
  /** For messages (two families keeping the same collection). */
  name: string;
  /** The collections this family keeps in the state file, if any (made by `collectionsOf`). */
  state?: Collections<S>;
  register(ctx: FamilyContext): void;
  /**
   * What the records of a state must hold between them, beyond each record's schema (a profile's instance exists,
   * a key's owner is a user): each record that does not, with its place (`records.configs[2].compute_id`). A
   * fixture's records are loaded only when none is refused (emulator/fixtures.ts), so that nothing loaded can make
   * a later request fail.
   */
  references?(state: StateHolder): Refusal[];
  /**
   * Every id its records hold or point to, each set to what `to` gives for it (its kind, as `store.nextId` numbers
   * it: `instance`, `interface`, `ipv4` for a public address's number...), nested ones and references too, so that a
   * fixture's records can be renumbered (emulator/fixtures.ts: ids stay unique across accounts and imports). `to`
   * gives the id itself where it is kept; a family's id counters are read through it too (`countersOf`).
   */
  renumber?(state: StateHolder, to: Renumber): void;
}

/** What a family's collections are read from: a store, or the records a fixture would load (emulator/fixtures.ts). */
export interface StateHolder {
  readonly data: CoreState;
}

/** What a record's id of a kind becomes (itself where it is kept). */
export type Renumber = (kind: string, id: number) => number;

/**
 * How far each kind of id went in a state's records (the highest each family's `renumber` reads; 0 for none), so that
 * what is made after a fixture is loaded takes new ids and addresses, not a loaded record's.
 */
export function countersOf(families: readonly ApiFamily[], state: StateHolder): Record<string, number> {
  const top: Record<string, number> = {};
  for (const family of families)
    family.renumber?.(state, (kind, id) => {
      top[kind] = Math.max(top[kind] ?? 0, id);
      return id;
    });
  return top;
}

/** A record of a state that breaks a rule between records: where (`records.<collection>[<index>].<field>`) and why. */
export interface Refusal {
  field: string;
  reason: string;
}

/** The place of a record's field in a fixture, for a refusal: `records.configs[2].compute_id`. */
export const recordField = (collection: string, index: number, field?: string): string => `records.${collection}[${index}]${field ? `.${field}` : ""}`;

/** What a family is given to register its routes with. */
export interface FamilyContext {
  router: Router;
  store: Store;
  now: () => number;
  timing: Timing;
  /** The emulator's origin (`http://host:port`), known once it listens: read it at request time. */
  baseUrl: () => string;
  services: Services;
}

/**
 * A family's collections in the state file (each a top-level array of records). Called with a store, it
 * gives a typed live view of them: reading a property reads the store's array, setting one replaces it there
 * (the routes do `d.images = d.images.filter(...)`).
 */
export interface Collections<S> {
  (store: StateHolder): S;
  readonly names: readonly string[];
  /** Each collection's record schema (what a fixture's records of it must be). */
  readonly schemas?: Readonly<Record<string, z.ZodType>>;
}

/**
 * Declares a family's collections by their records' schemas (`{ sshkeys: storedSshKey }`): the state's type is
 * theirs (each collection an array of its records), and a fixture's records are read by them. Called with a store,
 * it gives a typed live view of them: reading a property reads the store's array, setting one replaces it there.
 */
export function collectionsOf<const Sch extends Record<string, z.ZodType>>(schemas: Sch): Collections<{ -readonly [K in keyof Sch]: z.output<Sch[K]>[] }> {
  type S = { -readonly [K in keyof Sch]: z.output<Sch[K]>[] };
  const names = Object.keys(schemas);
  const live = (store: StateHolder): S => {
    const view = {};
    for (const name of names) {
      // The store's data is read at each access: the view never holds an array of its own.
      const data = (): Record<string, unknown> => store.data;
      Object.defineProperty(view, name, {
        enumerable: true,
        get: () => data()[name],
        set: (value: unknown) => {
          data()[name] = value;
        },
      });
    }
    // Its properties are the store's collections of these names, each kept as its records (their schemas' type):
    // the one place the state's untyped collections take their types.
    return view as S;
  };
  return Object.assign(live, { names, schemas });
}

/** The collections of every family of a list (a tuple), as one type. */
export type FamiliesState<F extends readonly unknown[]> = F extends readonly [ApiFamily<infer S>, ...infer Rest] ? S & FamiliesState<Rest> : unknown;

/** The names of the collections the families keep, checked: each collection belongs to one family only. */
export function familyCollections(families: readonly ApiFamily[]): string[] {
  const owners = new Map<string, string>();
  for (const family of families) {
    for (const name of family.state?.names ?? []) {
      const other = owners.get(name);
      if (other) throw new Error(`The API families ${other} and ${family.name} both keep a collection named ${name}`);
      owners.set(name, family.name);
    }
  }
  return [...owners.keys()];
}

/** The typed name of a service one family offers others (`serviceKey<SubnetLookup>("subnets")`). */
export interface ServiceKey<T> {
  readonly name: string;
  /** Never set: it only carries the service's type. */
  readonly type?: T;
}

export const serviceKey = <T>(name: string): ServiceKey<T> => ({ name });

/**
 * What families offer each other (the VPC routes give the compute routes a subnet lookup...), so that no
 * family module imports another's routes. A service is resolved when used, not when registered: families
 * may register in any order.
 */
export class Services {
  private readonly provided = new Map<string, unknown>();

  provide<T>(key: ServiceKey<T>, impl: T): void {
    if (this.provided.has(key.name)) throw new Error(`The service ${key.name} is provided twice`);
    this.provided.set(key.name, impl);
  }

  /** A getter for the service, to call at request time (when every family has registered). */
  use<T>(key: ServiceKey<T>): () => T {
    return () => {
      if (!this.provided.has(key.name)) throw new Error(`No API family provides the service ${key.name}`);
      return this.provided.get(key.name) as T;
    };
  }
}
