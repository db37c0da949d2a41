import { valueFor } from "./check";
import type { ProgramContext } from "../program";
import { isObject, containsUnknown, UNKNOWN, type Field, type InputName, type InputsOf, type Props, type ResourceSpec, type StateOf } from "./table";

/**
 * Planned outputs, for a preview that plans exactly what the `up` then does (the plugin's Create and Update
 * with `preview: true`; no request is sent). A create's plan holds what is known before the API answers:
 * the inputs as checked (the auto-named label with them), and what a hook knows the provider will set;
 * everything the API assigns is unknown. An update's plan is the old outputs with the new inputs applied;
 * only the outputs that the change can alter are unknown (each output field's `changesWith`).
 */

/** What a resource's `plan` hook gets: the operation, the old outputs (none for a create) and what changed. */
export interface PlanContext<F extends readonly Field[] = readonly Field[]> {
  op: "create" | "update";
  /** The old outputs (update), with `__declared`; `{}` for a create. */
  olds: StateOf<F>;
  /** The checked new inputs. */
  news: InputsOf<F>;
  /** The inputs that changed (update; every given input for a create). */
  changed: InputName<F>[];
  /** What the program's resources learnt as they were checked and diffed (the price catalogue, say). */
  program: ProgramContext;
}

const given = (v: unknown) => v !== undefined && v !== null;

/** Whether an output field may change when these inputs change (in place). */
export function mayChange(f: Field, changed: readonly string[], spec: ResourceSpec): boolean {
  const w = f.changesWith;
  if (!w) return false;
  if (w === "*") return changed.some((name) => !spec.fields.find((x) => x.name === name)?.control);
  return w.some((name) => changed.includes(name));
}

/** The value an input field will have once created: its checked value; unknown when the API completes it. */
function createdValue(f: Field, v: unknown): unknown {
  // Left out: what the API fills in (or null); only a field kept from the inputs alone stays out.
  if (!given(v)) return (f.writeOnly || f.control) && !f.computed ? undefined : UNKNOWN;
  if (containsUnknown(v)) return UNKNOWN;
  // The API completes a partial object with its defaults.
  if (f.partial && !f.writeOnly && !f.control) return UNKNOWN;
  return v;
}

/** The planned outputs of a create (inputs known at plan time; everything the API assigns unknown). */
export function planCreate(spec: ResourceSpec, inputs: Props): Props {
  const outs: Props = {};
  for (const f of spec.fields) {
    if (f.kind === "output") {
      outs[f.name] = UNKNOWN;
      continue;
    }
    const v = createdValue(f, inputs[f.name]);
    if (v !== undefined) outs[f.name] = v;
  }
  return outs;
}

/** The value an input field will have after an in-place update. */
function updatedValue(spec: ResourceSpec, f: Field, olds: Props, news: Props, changed: readonly string[]): unknown {
  const old = olds[f.name];
  if (!changed.includes(f.name)) {
    if (given(old)) return old;
    // Kept from the inputs (write-only, or steering the provider): the new input as it is.
    return f.writeOnly || f.control ? news[f.name] : old;
  }
  const next = valueFor(spec, news, f.name);
  // Removed, with nothing that clears it: the service keeps its value.
  if (next === undefined) return f.writeOnly || f.control ? undefined : old;
  if (containsUnknown(next)) return UNKNOWN;
  // A partial object: the keys given change, the others keep the service's values.
  if (f.partial && isObject(old) && isObject(next)) return { ...old, ...next };
  return next;
}

/** The planned outputs of an in-place update: the old outputs, the new inputs applied, and unknown what may change. */
export function planUpdate(spec: ResourceSpec, olds: Props, news: Props, changed: readonly string[]): Props {
  const outs: Props = {};
  for (const f of spec.fields) {
    if (f.kind === "output") {
      if (mayChange(f, changed, spec)) outs[f.name] = UNKNOWN;
      else if (olds[f.name] !== undefined) outs[f.name] = olds[f.name];
      continue;
    }
    const v = updatedValue(spec, f, olds, news, changed);
    if (v !== undefined) outs[f.name] = v;
  }
  return outs;
}
