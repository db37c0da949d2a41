import * as path from "node:path";
import * as ts from "typescript";
import { specs } from "../../provider";
import { TABLES } from "../../sdk/tables";

// The sdk classes register the property names and secrets of sdk/tables.ts, generated from the field
// tables (tests/unit/generated.test.ts fails when it is stale). What stays written by hand is the types:
// each class's constructor args must name exactly the table's inputs, and its declared outputs every
// property, read here with the TypeScript compiler from the sdk's source.
const ROOT = path.resolve(__dirname, "..", "..");
const program = ts.createProgram([path.join(ROOT, "sdk", "index.ts")], { strict: true, skipLibCheck: true, types: [] });
const checker = program.getTypeChecker();
const sdk = checker.getSymbolAtLocation(program.getSourceFile(path.join(ROOT, "sdk", "index.ts"))!)!;
const exported = new Map(checker.getExportsOfModule(sdk).map((s) => [s.getName(), s]));

/** Inputs the provider sets itself (it computes the image file's hash at check). */
const SET_BY_PROVIDER = ["fileHash"];

function surface(name: string): { args: string[]; outputs: string[] } {
  let sym = exported.get(name)!;
  if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
  const decl = sym.declarations!.find(ts.isClassDeclaration)!;
  expect(decl).toBeDefined();
  const ctor = decl.members.find(ts.isConstructorDeclaration)!;
  const argsType = checker.getTypeAtLocation(ctor.parameters[1]);
  // Declared outputs: the instance type's properties declared in sdk/ (a class and its sdk base classes).
  const inSdk = (p: ts.Symbol) => p.declarations?.some((d) => d.getSourceFile().fileName.startsWith(path.join(ROOT, "sdk")));
  const outputs = checker
    .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(sym))
    .filter(inSdk)
    .map((p) => p.getName());
  return {
    args: checker
      .getPropertiesOfType(argsType)
      .map((p) => p.getName())
      .sort(),
    outputs: outputs.sort(),
  };
}

test.each(specs.map((s) => [s.type, s] as const))("the %s class's args and outputs are its table's", (type, spec) => {
  const { args, outputs } = surface(type);
  expect(args).toEqual(
    spec.fields
      .filter((f) => f.kind === "input" && !SET_BY_PROVIDER.includes(f.name))
      .map((f) => f.name)
      .sort(),
  );
  // Every declared output is a property of the table, and every output-only property is declared (inputs
  // the API does not read back, such as authorizedKeys, need no output type).
  const names = spec.fields.map((f) => f.name);
  expect(outputs.filter((n) => !names.includes(n))).toEqual([]);
  expect(spec.fields.filter((f) => f.kind === "output" && !outputs.includes(f.name)).map((f) => f.name)).toEqual([]);
});

test("sdk/tables.ts lists every property of every table, and its secrets", () => {
  for (const spec of specs) {
    const t = TABLES[spec.type as keyof typeof TABLES];
    expect([...t.props]).toEqual(spec.fields.map((f) => f.name));
    expect([...t.secretOutputs]).toEqual(spec.fields.filter((f) => f.secret).map((f) => f.name));
  }
});
