import { AUTONAMED, AUTONAMING, DECLARED, IMPORTED, NAME_SUFFIX, REPLACE_ON_CHANGES, RESOURCE_NAME } from "./marks";
import { autoName, isExisting, nameFromPattern, readPolicy } from "./naming";
import { sameValue } from "./equality";
import { refusals } from "./issue-text";
import { containsUnknown, fieldOf, labelField, type Props, type ResourceSpec } from "./table";

/**
 * Check and diff from the table: preview-time validation (every failure names its property), and which
 * inputs changed and which of them force a replacement.
 */

export interface CheckFailure {
  property: string;
  reason: string;
}

/** The inputs the program declared when the state was written (from `__declared`), if known. */
export function declaredIn(olds: Props): string[] | undefined {
  const d = olds[DECLARED];
  return Array.isArray(d) ? d.map(String) : undefined;
}

/**
 * Validates the inputs against the table: every failure names its property. Unknown values are skipped.
 * With auto-naming, a label left out is made (`<resource name>-<suffix>`) for a new resource, and kept from
 * `olds` (the old inputs) for an existing one; the resource name comes from the sdk as `__resourceName`.
 */
export function checkInputs(spec: ResourceSpec, news: Props, olds: Props = {}): { inputs: Props; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  const { [RESOURCE_NAME]: name, [NAME_SUFFIX]: suffix, [AUTONAMED]: _auto, [AUTONAMING]: policyIn, ...given } = news;
  const inputs: Props = { ...given };
  const naming = spec.autoName;
  const policy = readPolicy(policyIn);
  /** The name a naming policy gave, for the message of a rule it breaks. */
  let proposed: string | undefined;
  if (naming && (given[naming.field] === undefined || given[naming.field] === null)) {
    const base = typeof name === "string" && name ? name : spec.type.toLowerCase();
    if (isExisting(olds)) {
      if (typeof olds[naming.field] === "string") {
        // Kept across updates (a resource made before auto-naming keeps the service's label: nothing here).
        inputs[naming.field] = olds[naming.field];
        inputs[AUTONAMED] = olds[AUTONAMED] ?? true;
      }
    } else if (policy?.mode === "disable") {
      failures.push({
        property: naming.field,
        reason: `${naming.field}: required: auto-naming is disabled by ${policy.setting ?? "the pulumi:autonaming setting"}; give the ${naming.field}, or change the setting`,
      });
    } else if (policy?.pattern !== undefined || policy?.proposedName !== undefined) {
      const made = policy.pattern !== undefined ? nameFromPattern(policy.pattern, base) : { name: policy.proposedName ?? "", random: true };
      proposed = made.name;
      inputs[naming.field] = made.name;
      // A name with no random part is held as a pinned one: a replacement cannot take it beside the old one.
      inputs[AUTONAMED] = made.random;
    } else {
      inputs[naming.field] = typeof suffix === "string" ? autoName(naming, base, suffix) : autoName(naming, base);
      inputs[AUTONAMED] = true;
    }
  }
  const fromPolicy = (field: string, reason: string) =>
    proposed !== undefined && field === naming?.field
      ? `${reason} (the name "${proposed}" comes from ${policy?.setting ?? "the pulumi:autonaming setting"}: change the setting, or give the ${field})`
      : reason;
  for (const f of spec.fields) {
    const v = inputs[f.name];
    if (f.kind === "output") {
      delete inputs[f.name];
      continue;
    }
    if (v === undefined || v === null) {
      if (f.required) failures.push({ property: f.name, reason: `${f.name} is required` });
      delete inputs[f.name];
      continue;
    }
    if (containsUnknown(v) || !f.schema) continue;
    const r = f.schema.safeParse(v);
    if (!r.success) {
      // The rule alone (provider/model/issue-text.ts): the property's name says what the API's reason says first.
      for (const reason of refusals(f.name, r.error.issues)) failures.push({ property: f.name, reason: fromPolicy(f.name, reason) });
    } else {
      inputs[f.name] = r.data;
    }
  }
  return { inputs, failures };
}

/** What a diff found; `N`: the table's input names (a resource's diff hook gets its own). */
export interface DiffOutcome<N extends string = string> {
  changes: boolean;
  replaces: N[];
  deleteBeforeReplace: boolean;
  changed: N[];
}

/**
 * Compares new inputs with the old state: which inputs changed and which of them force a replacement. An
 * input the program removed is a change when the field has a `clearTo` value (and was declared before).
 */
export function diffInputs(spec: ResourceSpec, olds: Props, news: Props): DiffOutcome {
  const changed: string[] = [];
  const declared = declaredIn(olds);
  const imported = olds[IMPORTED] === true;
  for (const f of spec.fields) {
    if (f.kind !== "input") continue;
    const o = olds[f.name];
    const n = news[f.name];
    // An imported resource: the API never shows a write-only input, so the program's value is taken as it is.
    if (imported && f.writeOnly && (o === undefined || o === null)) continue;
    if (n === undefined || n === null) {
      if (o === undefined || o === null) continue;
      // Never declared by the program: the service's value (a clone's image, say), not a removed input.
      if (declared && !declared.includes(f.name)) continue;
      if (f.computed) {
        if (f.clearTo !== undefined && declared?.includes(f.name) && !sameValue(f, o, f.clearTo)) changed.push(f.name);
        continue;
      }
      changed.push(f.name);
      continue;
    }
    if (containsUnknown(n) || !sameValue(f, o, n)) changed.push(f.name);
  }
  // The program's replaceOnChanges (the dynamic classes pass it along: the engine cannot apply it to a
  // dynamic resource, whose diff names no field): a change under one of its paths replaces.
  const paths = news[REPLACE_ON_CHANGES];
  const forced = Array.isArray(paths) ? paths.map((p) => String(p).split(/[.[]/)[0]) : [];
  const replaces = changed.filter((name) => fieldOf(spec, name)?.forceNew || forced.includes(name) || forced.includes("*"));
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: deletesFirst(spec, replaces, changed, news), changed };
}

/**
 * Whether a replacement deletes the old resource first: only for a resource that holds no data, when the
 * API keeps labels unique and the new one keeps a label the program pins. An auto-named resource gets a
 * fresh label, and a data-holding one is renamed after the old one is gone (provider/lifecycle/replacements.ts).
 * Said whether or not this diff replaces: the engine reads it only for a replacement, and it may force one
 * the diff does not make (`replaceOnChanges`, `replaceWith`, `replacementTrigger`).
 */
export function deletesFirst(spec: ResourceSpec, _replaces: string[], changed: string[], news: Props): boolean {
  const field = labelField(spec);
  return Boolean(spec.uniqueLabel && !spec.holdsData && !changed.includes(field) && news[AUTONAMED] !== true);
}

/** The value an input takes in the update: its new value, or `clearTo` when the program removed it. */
export function valueFor(spec: ResourceSpec, news: Props, name: string): unknown {
  const v = news[name];
  if (v !== undefined && v !== null) return v;
  return fieldOf(spec, name)?.clearTo;
}
