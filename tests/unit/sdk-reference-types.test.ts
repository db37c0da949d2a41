import * as path from "node:path";
import * as ts from "typescript";

/**
 * The list functions of the reference data in the TypeScript sdk (sdk/reference.ts), held with the TypeScript
 * compiler to both call forms: the new one, `getImages(args, opts)` -> `{ images }` as every lookup, and the
 * array form of the release before, `getImages()` / `getImages(opts)` -> an array (which also holds `images`),
 * so that a program written against the release before still compiles; that form is deprecated (the
 * compiler's resolved signature carries `@deprecated`), while the new form and `getImages()` are not.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const SDK = path.join(ROOT, "sdk");
const LISTS = [
  { fn: "getRegions", key: "regions", field: "status", value: '"ok"' },
  { fn: "getTypes", key: "types", field: "vcpus", value: '"4"' },
  { fn: "getKernels", key: "kernels", field: "architecture", value: '"x86_64"' },
  { fn: "getImages", key: "images", field: "vendor", value: '"Debian"' },
];

/** The probe: each call marked `/*deprecated*\/` is the array form; `// @ts-expect-error` lines must fail. */
function probe(): string {
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as sdk from "./index";',
    "type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;",
    "type U<T> = T extends pulumi.Output<infer V> ? V : never;",
    "declare const ro: sdk.ReadOptions;",
    "declare const maybe: sdk.ReadOptions | undefined;",
    "declare const roOut: sdk.ReadOutputOptions;",
    "declare const vpc: sdk.Vpc;",
  ];
  for (const { fn, key, field, value } of LISTS) {
    const U = fn[0].toUpperCase() + fn.slice(1);
    const n = U.slice(3);
    lines.push(
      `export async function probe${n}() {`,
      // The release before: no arguments, or ReadOptions (a literal, a variable, maybe undefined): an array.
      `  const none = await sdk.${fn}();`,
      `  const lit = await /*deprecated*/ sdk.${fn}({ apiUrl: "http://127.0.0.1/v4", token: "t" });`,
      `  const byVar = await /*deprecated*/ sdk.${fn}(ro);`,
      `  const byMaybe = await /*deprecated*/ sdk.${fn}(maybe);`,
      `  const empty = await /*deprecated*/ sdk.${fn}({});`,
      `  const ok1: Eq<typeof none, sdk.${U}Array> = true;`,
      `  const ok2: Eq<typeof lit, sdk.${U}Array> = true;`,
      `  const ok3: Eq<typeof byVar, sdk.${U}Array> = true;`,
      `  const ok4: Eq<typeof byMaybe, sdk.${U}Array> = true;`,
      `  const ok5: Eq<typeof empty, sdk.${U}Array> = true;`,
      // What programs of the release before did with it, and what the docs say to do: both compile.
      `  const asArray: string[] = lit.map((x) => x.id).concat(byVar[0].id, none.filter((x) => !!x).map((x) => x.id));`,
      `  const asObject: string[] = none.${key}.map((x) => x.id).concat(lit.${key}[0].id);`,
      // The new form: arguments (and options): `{ key }`, no array.
      `  const args = await sdk.${fn}({ filters: [{ name: "${field}", values: [${value}] }], orderBy: "id", order: "desc" });`,
      `  const withOpts = await sdk.${fn}({}, ro);`,
      `  const undefArgs = await sdk.${fn}(undefined, ro);`,
      `  const ok6: Eq<typeof args, sdk.${U}Result> = true;`,
      `  const ok7: Eq<typeof withOpts, sdk.${U}Result> = true;`,
      `  const ok8: Eq<typeof undefArgs, sdk.${U}Result> = true;`,
      `  const fromArgs: string = args.${key}[0].id + withOpts.${key}.length;`,
      "  // @ts-expect-error the new form returns the object, not an array",
      `  args.map((x: unknown) => x);`,
      "  // @ts-expect-error arguments and options do not mix in one object",
      `  sdk.${fn}({ apiUrl: "x", filters: [] });`,
      "  // @ts-expect-error order is asc or desc",
      `  sdk.${fn}({ orderBy: "id", order: "up" });`,
      "  // @ts-expect-error filters name a field and its values",
      `  sdk.${fn}({ filters: [{ field: "id" }] });`,
      // The Output forms, the same way.
      `  const outNone = sdk.${fn}Output();`,
      `  const outOpts = /*deprecated*/ sdk.${fn}Output({ dependsOn: vpc });`,
      `  const outVar = /*deprecated*/ sdk.${fn}Output(roOut);`,
      `  const outArgs = sdk.${fn}Output({ filters: [{ name: "${field}", values: [pulumi.output(${value})] }] }, { dependsOn: [vpc] });`,
      `  const ok9: Eq<U<typeof outNone>, sdk.${U}Array> = true;`,
      `  const ok10: Eq<U<typeof outOpts>, sdk.${U}Array> = true;`,
      `  const ok11: Eq<U<typeof outVar>, sdk.${U}Array> = true;`,
      `  const ok12: Eq<U<typeof outArgs>, sdk.${U}Result> = true;`,
      `  const lifted: pulumi.Output<string> = outArgs.${key}[0].id;`,
      `  const fromArray: pulumi.Output<string> = outOpts.apply((xs) => xs[0].id + xs.${key}.length);`,
      `  return [asArray, asObject, fromArgs, lifted, fromArray, ok1, ok2, ok3, ok4, ok5, ok6, ok7, ok8, ok9, ok10, ok11, ok12];`,
      "}",
    );
  }
  // The new functions: the lookup form only.
  lines.push(
    "export async function probeNew() {",
    '  const a = await sdk.getRegionAvailability({ regionId: "eu-central", filters: [{ name: "available", values: [true] }] });',
    "  const okA: Eq<typeof a, sdk.GetRegionAvailabilityResult> = true;",
    "  const first: { region: string; plan: string; available: boolean } = a.availability[0];",
    '  const b = sdk.getRegionAvailabilityOutput({ regionId: pulumi.output("us-east") }, { dependsOn: vpc });',
    "  const okB: Eq<U<typeof b>, sdk.GetRegionAvailabilityResult> = true;",
    "  const g = await sdk.getProfileGrants(ro);",
    "  const okG: Eq<typeof g, sdk.ProfileGrants> = true;",
    "  const canAdd: boolean = g.restricted && g.global.addComputes;",
    '  const perm: "read_only" | "read_write" | null = g.vpc[0].permissions;',
    "  const go = sdk.getProfileGrantsOutput({ dependsOn: vpc });",
    "  const okGo: Eq<U<typeof go>, sdk.ProfileGrants> = true;",
    "  // @ts-expect-error regionId is a string",
    "  sdk.getRegionAvailability({ regionId: 1 });",
    "  return [okA, first, okB, okG, canAdd, perm, okGo];",
    "}",
  );
  return lines.join("\n") + "\n";
}

const PROBE = path.join(SDK, "__reference_probe.ts");
const options: ts.CompilerOptions = {
  strict: true,
  skipLibCheck: true,
  types: [],
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
};
const host = ts.createCompilerHost(options);
const source = probe();
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (file, lang, ...rest) =>
  path.resolve(file) === PROBE ? ts.createSourceFile(file, source, lang, true) : getSourceFile(file, lang, ...rest);
const fileExists = host.fileExists.bind(host);
host.fileExists = (file) => path.resolve(file) === PROBE || fileExists(file);
const program = ts.createProgram([PROBE], options, host);
const checker = program.getTypeChecker();

test("both call forms compile with their types (the array form of the release before, and `{ <list> }`), and wrong calls do not", () => {
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    return `${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")} | ${source.split("\n")[line] ?? ""}`;
  });
  expect(errors).toEqual([]);
  // Every @ts-expect-error above was needed (an unused one is an error), and there are some.
  expect(source.match(/@ts-expect-error/g)!.length).toBe(4 * LISTS.length + 1);
});

test("the array form is deprecated (the compiler's resolved signature says so); the new form and getX() are not", () => {
  const file = program.getSourceFile(PROBE)!;
  const calls: { text: string; deprecated: boolean; marked: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && /^sdk\.get/.test(node.expression.getText(file))) {
      const sig = checker.getResolvedSignature(node);
      const deprecated = !!sig?.getJsDocTags().some((t) => t.name === "deprecated");
      const before = file.text.slice(Math.max(0, node.getStart(file) - 16), node.getStart(file));
      calls.push({ text: node.getText(file).slice(0, 60), deprecated, marked: before.includes("/*deprecated*/") });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  expect(calls.length).toBeGreaterThan(60);
  expect(calls.filter((c) => c.deprecated !== c.marked)).toEqual([]);
  expect(calls.filter((c) => c.marked).length).toBe(6 * LISTS.length);
});
