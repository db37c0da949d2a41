import * as path from "node:path";
import ts from "typescript";

/**
 * The compiler's view of the project's code (tsconfig.json: api/, provider/, sdk/, emulator/, scripts/), for the
 * structure tests that check what they claim by types rather than by names: one program per test worker.
 */

const ROOT = path.resolve(__dirname, "../..");
let made: { program: ts.Program; checker: ts.TypeChecker } | undefined;

export function projectProgram(): { program: ts.Program; checker: ts.TypeChecker } {
  if (made) return made;
  const file = path.join(ROOT, "tsconfig.json");
  const read = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
  const config = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT);
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  made = { program, checker: program.getTypeChecker() };
  return made;
}

/** The project's own source files (repository paths) under one of `folders`. */
export function sourcesUnder(folders: string[]): Array<{ file: string; source: ts.SourceFile }> {
  const { program } = projectProgram();
  return program
    .getSourceFiles()
    .map((source) => ({ file: path.relative(ROOT, source.fileName), source }))
    .filter(({ file }) => !file.startsWith("..") && !file.includes("node_modules") && folders.some((f) => file.startsWith(`${f}/`)));
}

/** Every node of a file a predicate keeps. */
export function nodesOf<T extends ts.Node>(source: ts.SourceFile, keep: (n: ts.Node) => n is T): T[] {
  const out: T[] = [];
  const visit = (n: ts.Node) => {
    if (keep(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

/** Where a node is: `file:line`. */
export function where(file: string, source: ts.SourceFile, node: ts.Node): string {
  return `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
}

/** A type assertion (`x as T`, `<T>x`), but `as const`. */
export const isCast = (n: ts.Node): n is ts.AsExpression | ts.TypeAssertion =>
  (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && !(ts.isTypeReferenceNode(n.type) && n.type.typeName.getText() === "const");
