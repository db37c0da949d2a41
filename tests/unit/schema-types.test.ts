/**
 * The schema's types say what the API's values are (issue 44): no property is `pulumi.json#/Any` where the
 * table knows the value's shape (the Python SDK makes Any a dict, and a string there crashed every
 * `get_image`), and a value that may be null is an optional property of its type, which every generator types
 * so (`Optional[str]`, `*string`, `string | undefined`), never a required one.
 */
import { definitions } from "../../provider/registry";
import { functionSpecs, ITEM_TYPES } from "../../provider/functions";
import { rawFiles } from "../../scripts/gen-schema";
import { fieldJson, visible } from "../../scripts/generate/field-schema";
import { mayBeNull } from "../../scripts/generate/pulumi-types";
import { propertyName, walk, type Json, type Printer } from "../../scripts/generate/schema-walk";
import type { Field } from "../../provider/model/table";

const schema = JSON.parse(rawFiles()["schema.json"]) as Json & {
  resources: Record<string, { properties: Record<string, Json>; required: string[] }>;
  types: Record<string, { properties: Record<string, Json>; required?: string[] }>;
  functions: Record<string, { outputs: { properties: Record<string, Json>; required?: string[] } }>;
};

/**
 * Where the API leaves a value open, and so the schema says Any: each path (`<token>.<property>` and `[]` or
 * `{}` for a list's items or a map's values) with the reason.
 */
const OPEN_BY_THE_API: Record<string, string> = {
  "compute:index:Instance.scriptData{}": "a deployment script's inputs: any JSON (compute-api.md: `script_data`, an object of valid JSON)",
  "compute:index:Disk.scriptData{}": "the same, for a disk deployed from an image",
};

/** Every `pulumi.json#/Any` in schema.json, by path. */
function anyPaths(): string[] {
  const found: string[] = [];
  const visit = (at: string, t: Json | undefined): void => {
    if (!t) return;
    if (t.$ref === "pulumi.json#/Any") found.push(at);
    visit(`${at}[]`, t.items as Json | undefined);
    visit(`${at}{}`, typeof t.additionalProperties === "object" ? (t.additionalProperties as Json) : undefined);
    for (const m of (t.oneOf ?? []) as Json[]) visit(`${at}|`, m);
  };
  const props = (token: string, ps: Record<string, Json> | undefined) => Object.entries(ps ?? {}).forEach(([k, p]) => visit(`${token}.${k}`, p));
  for (const [token, r] of Object.entries(schema.resources))
    props(token, { ...(r as unknown as { inputProperties: Record<string, Json> }).inputProperties, ...r.properties });
  for (const [token, t] of Object.entries(schema.types)) props(token, t.properties);
  for (const [token, f] of Object.entries(schema.functions)) {
    props(`${token}(outputs)`, f.outputs.properties);
    props(`${token}(inputs)`, (f as unknown as { inputs?: { properties: Record<string, Json> } }).inputs?.properties);
  }
  return [...new Set(found)].sort();
}

test("no property is typed Any where the API's value has a known shape; what is left, the API leaves open", () => {
  expect(anyPaths()).toEqual(Object.keys(OPEN_BY_THE_API).sort());
});

/** The nested object types whose property may be null, as `<type name>.<property>`, found by the generators' own walker. */
function nullableNested(js: Json, name: string): string[] {
  const out: string[] = [];
  const nothing = () => undefined;
  const printer: Printer<void> = {
    union: (s, at) => s.members.forEach((m) => at.member(m)),
    enum: nothing,
    const: nothing,
    primitive: nothing,
    null: nothing,
    array: (s, at) => void (s.items && at.item(s.items)),
    object: (s, at) => {
      for (const [k, v] of Object.entries(s.properties)) {
        if (mayBeNull(v)) out.push(`${at.name}.${k}`);
        at.property(k, v);
      }
    },
    record: (s, at) => void (s.values && at.item(s.values)),
    any: nothing,
  };
  walk(js, name, printer);
  return out;
}

test("a value that may be null is an optional property of its type: of a resource, of a function's result, of a nested type", () => {
  const wrong: string[] = [];
  const check = (owner: string, fields: readonly Field[], required: readonly string[] | undefined, types = schema.types) => {
    for (const f of visible(fields)) {
      const js = fieldJson(f);
      if (mayBeNull(js) && required?.includes(f.name)) wrong.push(`${owner}.${f.name}`);
      for (const nested of nullableNested(js, propertyName(owner, f.name))) {
        const [type, prop] = nested.split(".");
        const t = types[`compute:index:${type}`];
        if (!t) wrong.push(`${nested}: no type compute:index:${type}`);
        else if (t.required?.includes(prop)) wrong.push(nested);
      }
    }
  };
  for (const d of definitions) check(d.spec.type, d.spec.fields, schema.resources[`compute:index:${d.spec.type}`].required);
  for (const [name, item] of Object.entries(ITEM_TYPES)) check(name, item.fields, schema.types[`compute:index:${name}`].required);
  for (const fn of functionSpecs.filter((f) => !f.listKey)) {
    const outputs = schema.functions[`compute:index:${fn.name}`].outputs;
    for (const f of visible(ITEM_TYPES[fn.item].fields)) if (mayBeNull(fieldJson(f)) && outputs.required?.includes(f.name)) wrong.push(`${fn.name}.${f.name}`);
  }
  expect(wrong).toEqual([]);
  // And the ones issue 44 found, typed.
  expect(schema.functions["compute:index:getImage"].outputs.properties.vendor).toMatchObject({ type: "string" });
  expect(schema.functions["compute:index:getType"].outputs.properties.successor).toMatchObject({ type: "string" });
  expect(schema.resources["compute:index:Instance"].required).not.toContain("ipv6");
});

test("a filter's values are the scalars a filter compares: strings, numbers and booleans", () => {
  expect(schema.types["compute:index:GetImagesFilter"].properties.values).toEqual({
    type: "array",
    items: { oneOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }] },
  });
});
