import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { specs } from "../../provider";
import { components } from "../../provider/components";
import { functionSpecs, ITEM_TYPES } from "../../provider/functions";
import { rawFiles } from "../../scripts/gen-schema";

const ROOT = path.resolve(__dirname, "..", "..");

const schema = JSON.parse(rawFiles()["schema.json"]);

test("every generated file is generated from the definitions and up to date (npm run gen:schema -- --check)", () => {
  // Run by node itself: the check formats the TypeScript it generates with Prettier, which Jest's module system cannot load.
  const check = () => execFileSync(process.execPath, [path.join(ROOT, "dist", "scripts", "gen-schema.js"), "--check"], { encoding: "utf8", stdio: "pipe" });
  expect(check).not.toThrow();
});

test("a resource's page says which outputs a preview plans anew (the prices, from the catalogue), not that they are unknown", () => {
  const files = rawFiles();
  for (const spec of specs) {
    const planned = spec.fields.filter((f) => f.kind === "output" && f.plannedFrom).map((f) => f.name);
    const page = Object.entries(files).find(([name, text]) => name.startsWith("docs/resources/") && text.startsWith(`# ${spec.type}\n`))?.[1] ?? "";
    const preview = page.split("\n").find((l) => l.startsWith("- **Preview**")) ?? "";
    const unknown = preview.slice(0, preview.indexOf("so the resources that use them"));
    expect([spec.type, planned.filter((name) => unknown.includes(`\`${name}\``) || !preview.includes(`\`${name}\``))]).toEqual([spec.type, []]);
  }
  expect(files["docs/resources/mysql-database.md"]).toContain(
    "`hourlyPrice` and `monthlyPrice` are planned anew from the API's catalogue when `type` or `clusterSize` changes (a preview shows the new value)",
  );
});

test("the schema marks secret inputs, and leaves replacements to the plugin's diff (no replaceOnChanges in every state entry)", () => {
  expect(schema.resources["compute:index:SshKey"].requiredInputs).toEqual(["sshKey"]);
  expect(schema.config.variables.token.secret).toBe(true);
  expect(schema.provider.inputProperties.token.secret).toBe(true);
  for (const spec of specs) {
    const r = schema.resources[`compute:index:${spec.type}`];
    for (const f of spec.fields) {
      expect([f.name, r.properties[f.name].secret === true]).toEqual([f.name, f.secret === true]);
      if (f.kind === "input") expect([f.name, "replaceOnChanges" in r.inputProperties[f.name]]).toEqual([f.name, false]);
    }
  }
});

// The keys Pulumi's schema (pkg/codegen/schema/schema.go: PropertySpec, TypeSpec, ObjectTypeSpec) accepts:
// JSON Schema's own (additionalProperties: false, anyOf, minLength, pattern...) make the binder refuse the
// file. tests/integration/sdkgen.test.ts binds it with the real binder; this is the quick check.
const PROPERTY_KEYS = ["type", "$ref", "additionalProperties", "items", "oneOf", "description", "secret", "replaceOnChanges"];
function checkType(where: string, t: Record<string, unknown>, isProperty: boolean): string[] {
  const bad = Object.keys(t)
    .filter((k) => !PROPERTY_KEYS.includes(k) || (!isProperty && ["description", "secret", "replaceOnChanges"].includes(k)))
    .map((k) => `${where}: ${k}`);
  if (t.$ref && !(String(t.$ref) === "pulumi.json#/Any" || String(t.$ref).slice("#/types/".length) in schema.types))
    bad.push(`${where}: dangling ${String(t.$ref)}`);
  if (!t.$ref && !t.type && !t.oneOf) bad.push(`${where}: no type`);
  if (t.type === "array" && !t.items) bad.push(`${where}: an array without items`);
  if (t.type === "object" && typeof t.additionalProperties !== "object") bad.push(`${where}: an object that is neither a map nor a named type`);
  for (const k of ["items", "additionalProperties"] as const) if (t[k]) bad.push(...checkType(`${where}.${k}`, t[k] as Record<string, unknown>, false));
  for (const [i, o] of ((t.oneOf ?? []) as Record<string, unknown>[]).entries()) bad.push(...checkType(`${where}.oneOf[${i}]`, o, false));
  return bad;
}
const checkProps = (where: string, props: Record<string, Record<string, unknown>> = {}) =>
  Object.entries(props).flatMap(([name, p]) => [...(name.startsWith("__") ? [`${where}.${name}: internal`] : []), ...checkType(`${where}.${name}`, p, true)]);

test("schema.json uses only what a Pulumi package schema accepts, every $ref resolves, and internal fields stay out", () => {
  const bad = [
    ...checkProps("config", schema.config.variables),
    ...checkProps("provider", schema.provider.inputProperties),
    ...Object.entries(schema.resources).flatMap(([tok, r]: [string, any]) => [
      ...checkProps(`${tok}`, r.properties),
      ...checkProps(`${tok} input`, r.inputProperties),
    ]),
    ...Object.entries(schema.types).flatMap(([tok, t]: [string, any]) => checkProps(tok, t.properties)),
    ...Object.entries(schema.functions).flatMap(([tok, f]: [string, any]) => [
      ...checkProps(`${tok} input`, f.inputs?.properties),
      ...checkProps(`${tok}`, f.outputs.properties),
    ]),
  ];
  expect(bad).toEqual([]);
  expect(schema.meta).toEqual({ moduleFormat: "(.*)" });
  // Every resource, and every component (marked isComponent: the SDKs make remote component classes of them).
  expect(Object.keys(schema.resources).sort()).toEqual([...specs, ...components].map((s) => `compute:index:${s.type}`).sort());
  expect(Object.entries(schema.resources).flatMap(([tok, r]: [string, any]) => (r.isComponent ? [tok] : []))).toEqual(
    components.map((c) => `compute:index:${c.type}`),
  );
});

test("every read function is in the schema: list ones return their list of items, single ones the item's fields", () => {
  expect(Object.keys(schema.functions).sort()).toEqual(functionSpecs.map((f) => `compute:index:${f.name}`).sort());
  for (const fn of functionSpecs) {
    const s = schema.functions[`compute:index:${fn.name}`];
    expect(Object.keys(s.inputs?.properties ?? {})).toEqual(fn.inputs.map((f) => f.name));
    if (fn.listKey) expect(s.outputs.properties[fn.listKey].items).toEqual({ $ref: `#/types/compute:index:${fn.item}` });
    else expect(Object.keys(s.outputs.properties)).toEqual(ITEM_TYPES[fn.item].fields.map((f) => f.name));
  }
});
