#!/usr/bin/env node
/**
 * The compatibility gate: what changed for users between the last release and this tree.
 *   npm run schema:compat             lists breaking changes and additions; exit 1 on a breaking change
 *                                     unless the major version went up (before 1.0: the minor one)
 *   npm run schema:compat -- --schema F   the same for another schema file (a branch's)
 *   npm run schema:compat -- --record keeps this tree as the last release (releases/last/): the release
 *                                     step, once its version is set
 * A release is its `schema.json` and the facts a Pulumi schema does not hold (releases/last/facts.json):
 * the inputs whose change replaces the resource (from the tables' `forceNew`) and the values an input
 * allows (the tables' enums, which the schema turns into their primitive type). Breaking: a resource,
 * function or property removed (unless an alias keeps the resource's old token), a type changed other than
 * widened (integer to number, for an input), an input newly required, an output no longer always set, an
 * in-place input that now replaces, an allowed value removed.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { definitions } from "../provider/registry";
import { commandLine } from "./command-line";
import { repoRoot } from "./root";

type Json = Record<string, unknown>;

export interface Facts {
  /** Resource token -> its inputs whose change replaces it. */
  replaces: Record<string, string[]>;
  /** `<resource token>.<input path>` (`[]` for list items) -> the values it allows. */
  values: Record<string, unknown[]>;
}

export interface Release {
  schema: Json;
  facts: Facts;
}

export interface Report {
  breaking: string[];
  additions: string[];
  oldVersion: string;
  newVersion: string;
  /** Breaking changes without a major version: the gate fails. */
  refused: boolean;
}

const tokenOf = (type: string) => `compute:index:${type}`;

/** The allowed values of every enum under a JSON Schema, by path. */
function enumsOf(js: Json, at: string, out: Record<string, unknown[]>): void {
  const add = (values: unknown[]): void => {
    out[at] = [...new Set([...(out[at] ?? []), ...values])];
  };
  if (Array.isArray(js.anyOf)) {
    const members = js.anyOf as Json[];
    // A union with anything but constants (a number or a string of digits) allows more than its constants.
    const constants = members.filter((m) => m.type !== "null" && ("const" in m || Array.isArray(m.enum)));
    const others = members.filter((m) => m.type !== "null" && !("const" in m || Array.isArray(m.enum)));
    if (constants.length && !others.length) for (const m of constants) add("const" in m ? [m.const] : (m.enum as unknown[]));
    for (const m of others) enumsOf(m, at, out);
    return;
  }
  if ("const" in js) return add([js.const]);
  if (Array.isArray(js.enum)) return add(js.enum);
  if (js.type === "array" && js.items && typeof js.items === "object") enumsOf(js.items as Json, `${at}[]`, out);
  if (js.type === "object" && js.properties) for (const [k, v] of Object.entries(js.properties as Record<string, Json>)) enumsOf(v, `${at}.${k}`, out);
}

/** This tree's facts, from the resource definitions. */
export function currentFacts(): Facts {
  const facts: Facts = { replaces: {}, values: {} };
  for (const d of definitions) {
    const token = tokenOf(d.spec.type);
    facts.replaces[token] = d.spec.fields.filter((f) => f.kind === "input" && f.forceNew).map((f) => f.name);
    for (const f of d.spec.fields) {
      if (f.kind !== "input" || !f.schema) continue;
      let js: Json;
      try {
        js = z.toJSONSchema(f.schema, { unrepresentable: "any", io: "input" });
      } catch {
        continue;
      }
      enumsOf(js, `${token}.${f.name}`, facts.values);
    }
  }
  return facts;
}

/** A property's type as one comparable string (`integer`, `array<string>`, `#/types/...`, `map<...>`). */
function typeOf(p: Json | undefined): string {
  if (!p) return "none";
  if (typeof p.$ref === "string") return p.$ref;
  if (Array.isArray(p.oneOf)) return `oneOf<${(p.oneOf as Json[]).map(typeOf).sort().join("|")}>`;
  if (p.type === "array") return `array<${typeOf(p.items as Json)}>`;
  if (p.type === "object" && p.additionalProperties) return `map<${typeOf(p.additionalProperties as Json)}>`;
  return String(p.type ?? "any");
}

/** Whether a value of the old type is still accepted (inputs) or still what users get (outputs). */
function compatible(oldType: string, newType: string, input: boolean): boolean {
  if (oldType === newType) return true;
  if (input && oldType === "integer" && newType === "number") return true;
  if (input && newType.startsWith("oneOf<") && newType.slice(6, -1).split("|").includes(oldType)) return true;
  const inner = (t: string, k: string) => (t.startsWith(`${k}<`) ? t.slice(k.length + 1, -1) : undefined);
  for (const k of ["array", "map"]) {
    const [a, b] = [inner(oldType, k), inner(newType, k)];
    if (a !== undefined && b !== undefined) return compatible(a, b, input);
  }
  return false;
}

type Props = Record<string, Json>;
const ANY = "pulumi.json#/Any";
type Found = { breaking: string[]; additions: string[] };

/**
 * One object's properties, old against new. `input`: what a program gives (a type may widen, a new
 * requirement breaks); `output`: what it gets (a type must stay, a property must stay always set); `both`:
 * an object type, which may be either.
 */
function compareProps(where: string, old: Json | undefined, now: Json | undefined, names: [string, string], use: "input" | "output" | "both", r: Found): void {
  const [propsKey, requiredKey] = names;
  const [oldProps, newProps] = [(old?.[propsKey] ?? {}) as Props, (now?.[propsKey] ?? {}) as Props];
  const [oldRequired, newRequired] = [(old?.[requiredKey] ?? []) as string[], (now?.[requiredKey] ?? []) as string[]];
  const what = use === "input" ? "input" : "property";
  for (const [k, p] of Object.entries(oldProps)) {
    if (!(k in newProps)) {
      r.breaking.push(`${where}: ${what} \`${k}\` removed`);
      continue;
    }
    const [a, b] = [typeOf(p), typeOf(newProps[k])];
    if (compatible(a, b, use === "input")) continue;
    // An untyped value given its type: the same values, but code typed against Any may need a change.
    const typed = a.includes(ANY) && !b.includes(ANY) ? " (typed now: the same values, a narrower type in the SDKs)" : "";
    r.breaking.push(`${where}: \`${k}\` changes type, ${a} -> ${b}${typed}`);
  }
  for (const k of Object.keys(newProps)) if (!(k in oldProps)) r.additions.push(`${where}: ${what} \`${k}\` added`);
  if (use !== "output") for (const k of newRequired) if (!oldRequired.includes(k)) r.breaking.push(`${where}: input \`${k}\` is now required`);
  if (use !== "input")
    for (const k of oldRequired) if (k in newProps && !newRequired.includes(k)) r.breaking.push(`${where}: \`${k}\` is no longer always set`);
}

/** Each entry of a schema section (`resources`, `functions`, `types`): removed (unless `kept`), added, or both sides to `visit`. */
function compareSection(
  kind: string,
  old: Json,
  cur: Json,
  r: Found,
  visit: (token: string, old: Json, now: Json) => void,
  kept = (_token: string) => false,
): void {
  const [before, after] = [(old[`${kind}s`] ?? {}) as Record<string, Json>, (cur[`${kind}s`] ?? {}) as Record<string, Json>];
  for (const [token, o] of Object.entries(before)) {
    if (after[token]) visit(token, o, after[token]);
    else if (!kept(token)) r.breaking.push(`${kind} \`${token}\` removed`);
  }
  for (const token of Object.keys(after)) if (!(token in before)) r.additions.push(`${kind} \`${token}\` added`);
}

const major = (v: string) => Number(/^(\d+)/.exec(v)?.[1] ?? 0);
const minor = (v: string) => Number(/^\d+\.(\d+)/.exec(v)?.[1] ?? 0);
/** Semantic versioning: a breaking change needs a new major version, or before 1.0 a new minor one. */
export const mayBreak = (from: string, to: string): boolean => major(to) > major(from) || (major(from) === 0 && major(to) === 0 && minor(to) > minor(from));
const PROPERTIES: [string, string] = ["properties", "required"];

/** What changed from one release to another. */
export function compare(old: Release, cur: Release): Report {
  const r: Found = { breaking: [], additions: [] };
  const [os, ns] = [old.schema, cur.schema];

  const aliased = (token: string) =>
    Object.values((ns.resources ?? {}) as Record<string, Json>).some((res) => ((res.aliases ?? []) as Array<{ type?: string }>).some((a) => a.type === token));
  compareSection(
    "resource",
    os,
    ns,
    r,
    (token, res, now) => {
      compareProps(token, res, now, ["inputProperties", "requiredInputs"], "input", r);
      compareProps(token, res, now, PROPERTIES, "output", r);
      const before = old.facts.replaces[token] ?? [];
      for (const k of cur.facts.replaces[token] ?? [])
        if (!before.includes(k) && k in ((res.inputProperties ?? {}) as Props)) r.breaking.push(`${token}: a change of \`${k}\` now replaces the resource`);
    },
    aliased,
  );
  compareSection("function", os, ns, r, (token, fn, now) => {
    // Its first arguments move the options in the generated Node.js and Go signatures (getX(opts) -> getX(args, opts)).
    const had = Object.keys((fn.inputs as Json | undefined)?.properties ?? {}).length;
    const has = Object.keys((now.inputs as Json | undefined)?.properties ?? {}).length;
    if (had === 0 && has > 0) {
      r.breaking.push(`${token}: takes arguments now: Node.js and Go callers that passed only invoke options pass the arguments (\`{}\`, \`nil\`) first`);
    }
    compareProps(`${token} (inputs)`, fn.inputs as Json, now.inputs as Json, PROPERTIES, "input", r);
    compareProps(`${token} (outputs)`, fn.outputs as Json, now.outputs as Json, PROPERTIES, "output", r);
  });
  compareSection("type", os, ns, r, (token, t, now) => {
    compareProps(token, t, now, PROPERTIES, "both", r);
    const values = (x: Json) => ((x.enum ?? []) as Array<{ value: unknown }>).map((e) => e.value);
    for (const v of values(t)) if (!values(now).includes(v)) r.breaking.push(`${token}: value ${JSON.stringify(v)} removed`);
  });
  compareProps("provider", os.provider as Json, ns.provider as Json, ["inputProperties", "requiredInputs"], "input", r);

  for (const [at, values] of Object.entries(old.facts.values)) {
    const now = cur.facts.values[at];
    if (!now) continue; // the input is gone or takes any value now: said above, or not breaking
    for (const v of values) if (!now.includes(v)) r.breaking.push(`${at}: value ${JSON.stringify(v)} no longer allowed`);
    for (const v of now) if (!values.includes(v)) r.additions.push(`${at}: value ${JSON.stringify(v)} allowed`);
  }

  const oldVersion = String(os.version ?? "0.0.0");
  const newVersion = String(ns.version ?? "0.0.0");
  return { ...r, oldVersion, newVersion, refused: r.breaking.length > 0 && !mayBreak(oldVersion, newVersion) };
}

/** The report as the CLI prints it (Markdown, ready for a CHANGELOG section). */
export function formatReport(report: Report): string {
  const list = (xs: string[]) => (xs.length ? xs.map((x) => `- ${x}`).join("\n") : "- none");
  const verdict = report.refused
    ? `Refused: ${report.breaking.length} breaking change(s) from ${report.oldVersion} to ${report.newVersion} need a new major version (before 1.0, a new minor one).`
    : `OK: ${report.oldVersion} -> ${report.newVersion}.`;
  return `### Breaking changes\n${list(report.breaking)}\n\n### Additions\n${list(report.additions)}\n\n${verdict}\n`;
}

const ROOT = repoRoot();
const LAST = path.join(ROOT, "releases", "last");

/**
 * A tree still at the last release's version is unreleased: `npm run release` will give it the next version,
 * judged here as that one (before 1.0 the next minor version, which may break; after, the next patch, which
 * may not). A tree already at another version is judged as it is.
 */
export function asNextRelease(last: Release, tree: Release): Release {
  const version = String(tree.schema.version ?? "0.0.0");
  if (version !== String(last.schema.version ?? "0.0.0")) return tree;
  const [maj, min, patch] = version.split(".").map((x) => Number.parseInt(x, 10) || 0);
  const next = maj === 0 ? `0.${min + 1}.0` : `${maj}.${min}.${patch + 1}`;
  return { ...tree, schema: { ...tree.schema, version: next } };
}

export function lastRelease(): Release {
  return {
    schema: JSON.parse(readFileSync(path.join(LAST, "schema.json"), "utf8")) as Json,
    facts: JSON.parse(readFileSync(path.join(LAST, "facts.json"), "utf8")) as Facts,
  };
}

/** This tree: its schema.json (or another file: `--schema FILE`, for a branch's schema) and its facts. */
export function thisTree(schemaFile = path.join(ROOT, "schema.json")): Release {
  return { schema: JSON.parse(readFileSync(schemaFile, "utf8")) as Json, facts: currentFacts() };
}

if (require.main === module) {
  const { values } = commandLine({
    name: "npm run schema:compat --",
    usage: `Usage: npm run schema:compat -- [--schema FILE | --record]

The compatibility gate: what changed for users between the last release (releases/last/) and this tree, as
Markdown for a CHANGELOG section; exit 1 on a breaking change the next version cannot carry (docs/development.md).
  --schema FILE   judge another schema file (a branch's) instead of this tree's schema.json
  --record        keep this tree as the last release (the release step, once its version is set)
  -h, --help      this text`,
    options: { schema: { type: "string" }, record: { type: "boolean" } },
  });
  if (values.record) {
    const tree = thisTree();
    mkdirSync(LAST, { recursive: true });
    writeFileSync(path.join(LAST, "schema.json"), JSON.stringify(tree.schema, null, 2) + "\n");
    writeFileSync(path.join(LAST, "facts.json"), JSON.stringify(tree.facts, null, 2) + "\n");
    console.log(`recorded ${String(tree.schema.version)} as the last release in ${path.relative(ROOT, LAST)}/`);
  } else {
    const last = lastRelease();
    const report = compare(last, asNextRelease(last, thisTree(values.schema ? path.resolve(values.schema) : undefined)));
    process.stdout.write(formatReport(report));
    if (report.refused) process.exitCode = 1;
  }
}
