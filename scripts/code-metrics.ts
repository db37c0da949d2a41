/**
 * Figures of the code a reader meets (issue 47): the longest functions (lines, decisions) and the type casts
 * (`x as T`, `<T>x`; not `as const`) and non-null assertions (`x!`) per folder, read with the TypeScript
 * compiler's parser. `npm run code-metrics -- [--top N] [--json]`.
 * A decision is a branch a reader has to hold: `if`, `?:`, `&&`, `||`, `??`, a `case`, a loop, a `catch`.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import ts from "typescript";
import { commandLine } from "./command-line";

const ROOT = path.resolve(__dirname, "..", "..");

export interface FunctionSize {
  file: string;
  name: string;
  lines: number;
  decisions: number;
}

export interface Metrics {
  functions: FunctionSize[];
  casts: Record<string, number>;
  nonNull: Record<string, number>;
}

const DECISION = new Set([
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.CatchClause,
]);
const LOGICAL = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

const isFunction = (n: ts.Node): n is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isConstructorDeclaration(n);

/** A function's name as a reader finds it: its own, the variable or property it is assigned to, or the call it is given to. */
function nameOf(fn: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (fn.name) return fn.name.getText(sf);
  const p = fn.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText(sf);
  if (ts.isCallExpression(p)) {
    const args = p.arguments.filter((a) => ts.isStringLiteral(a)).map((a) => a.text);
    return `${p.expression.getText(sf).slice(0, 40)}(${args.join(", ")})`;
  }
  return "(anonymous)";
}

/** Decisions in a function's own body (nested functions count for themselves). */
function decisionsIn(fn: ts.FunctionLikeDeclaration): number {
  let n = 0;
  const visit = (node: ts.Node) => {
    if (node !== fn && isFunction(node)) return;
    if (DECISION.has(node.kind)) n++;
    if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) n++;
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return n;
}

export function measure(files: string[]): Metrics {
  const functions: FunctionSize[] = [];
  const casts: Record<string, number> = {};
  const nonNull: Record<string, number> = {};
  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.ES2022, true);
    const top = file.split("/")[0];
    const visit = (node: ts.Node) => {
      if (isFunction(node) && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({ file, name: nameOf(node, sf), lines: end - start + 1, decisions: decisionsIn(node) });
      }
      if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(sf) !== "const") casts[top] = (casts[top] ?? 0) + 1;
      if (ts.isNonNullExpression(node)) nonNull[top] = (nonNull[top] ?? 0) + 1;
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  functions.sort((a, b) => b.lines - a.lines);
  return { functions, casts, nonNull };
}

/** The hand-written TypeScript of the provider, the emulator, the API's facts and the SDK's own part. */
export function sourceFiles(): string[] {
  return execFileSync("git", ["ls-files", "api/*.ts", "provider/*.ts", "emulator/*.ts", "sdk/*.ts"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.endsWith(".d.ts") && !/^\/\/ (Generated|Code generated)/.test(readFileSync(path.join(ROOT, f), "utf8")));
}

if (require.main === module) {
  const { values } = commandLine({
    name: "npm run code-metrics --",
    usage: `Usage: npm run code-metrics -- [--top N] [--json]

The longest functions (lines, decisions) of api/, provider/, emulator/ and sdk/, and the casts and non-null
assertions per folder.
  --top N     how many functions (default 15)
  --by KEY    order the functions by lines (the default) or decisions
  --json      the figures as JSON
  -h, --help  this text`,
    options: { top: { type: "string" }, json: { type: "boolean" }, by: { type: "string" } },
  });
  const m = measure(sourceFiles());
  if (values.by === "decisions") m.functions.sort((a, b) => b.decisions - a.decisions);
  const top = m.functions.slice(0, Number(values.top ?? 15));
  if (values.json) console.log(JSON.stringify({ ...m, functions: top }, null, 2));
  else {
    for (const f of top) console.log(`${String(f.lines).padStart(4)} lines ${String(f.decisions).padStart(3)} decisions  ${f.file} ${f.name}`);
    console.log(`casts: ${JSON.stringify(m.casts)}; non-null assertions: ${JSON.stringify(m.nonNull)}`);
  }
}
