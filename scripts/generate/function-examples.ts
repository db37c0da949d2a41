/**
 * Every read function's example, as data: the call (its arguments, values and references to resources) and the
 * resource example whose program it extends. A reference function has its own (`example` on its row,
 * provider/functions/reference.ts); a resource's lookup has one made from the resource's example: the lookup
 * of the example's resource, under the same parents, filtered on the resource's own output of its label (one
 * item; a label the resource always has: given, or auto-named), else of a field the example sets (its region, else the first plain field it gives), else of its id. So a new resource's lookup has an example with
 * nothing to write. The docs print each in four languages (docs.ts) and the SDK matrix runs each
 * (sdk-matrix.ts).
 */
import { filterFields } from "../../provider/functions/filters";
import { functionSpecs, ITEM_TYPES, type FunctionSpec } from "../../provider/functions";
import { definitions, definitionOf } from "../../provider/registry";
import { obj, ref, type Example, type Fields, type Res, type Value } from "./example-program";

export interface CallExample {
  fn: FunctionSpec;
  title: string;
  /** The example program the call extends (its resources are the call's parents): a resource's, or none. */
  program?: Example;
  /** The resource type of that program. */
  uses?: string;
  args: Fields;
}

/** The resource type a function is the lookup of, if it is one. */
export const lookupOf = (fn: FunctionSpec): string | undefined => definitions.find((d) => d.lookup?.name === fn.name)?.spec.type;

/** The last resource of `type` in an example program (its main one: parents come first). */
export function lastOf(ex: Example, type: string): Res {
  const r = ex.resources.filter((x) => x.type === type).at(-1);
  if (!r) throw new Error(`${ex.title}: the example has no ${type}`);
  return r;
}

const isPlain = (v: Value | undefined): v is string | number | boolean => ["string", "number", "boolean"].includes(typeof v);

/** A lookup's example: the lookup of its resource's example's resource, by a field that example gives. */
function lookupExample(fn: FunctionSpec, type: string, program: Example): CallExample {
  const r = lastOf(program, type);
  const spec = definitionOf(type).spec;
  const parents = spec.fields.filter((f) => f.inPath).map((f) => f.name);
  const args: Fields = {};
  for (const p of parents) {
    const v = r.props[p];
    if (v === undefined) throw new Error(`${fn.name}: the ${type} example's ${r.name} has no ${p}`);
    args[p] = v;
  }
  // The filter compares the resource's own output (so the call runs once the resource exists: a program's
  // lookup of what it makes itself waits for it).
  const fields = filterFields(ITEM_TYPES[fn.item].fields).filter((f) => !parents.includes(f));
  // Its label (the API's, given or auto-named: one item), else a field the example gives, else its id.
  const labelled = fields.includes("label") && (spec.autoName?.field === "label" || isPlain(r.props.label));
  const by = labelled ? "label" : (["region", ...fields].find((f) => fields.includes(f) && isPlain(r.props[f])) ?? "id");
  args.filters = [obj("filter", { name: by, values: [ref(r, by)] })];
  const last = parents.length ? args[parents.at(-1)!] : undefined;
  const parent = last && typeof last === "object" && !Array.isArray(last) && last.kind === "ref" ? ` of the ${definitionOf(last.of.type).spec.noun}` : "";
  const title = `The ${spec.noun}s${parent} with the \`${by}\` of \`${r.name}\``;
  return { fn, title, program, uses: type, args };
}

/**
 * Every function's example, in the order of `functionSpecs`. `programs` gives each resource type's example
 * program (one object per type, so that the calls refer to the same resources the matrix makes).
 */
export function callExamples(programs: (type: string) => Example = (t) => definitionOf(t).example()): CallExample[] {
  return functionSpecs.map((fn) => {
    const type = lookupOf(fn);
    if (type) return lookupExample(fn, type, programs(type));
    if (!fn.example) throw new Error(`${fn.name}: a reference function needs an example (provider/functions/reference.ts)`);
    const program = fn.example.uses ? programs(fn.example.uses) : undefined;
    const args = fn.example.args((t) => lastOf(program ?? { title: fn.name, resources: [], outputs: {} }, t));
    return { fn, title: fn.example.title, program, uses: fn.example.uses, args };
  });
}
