#!/usr/bin/env node
/**
 * The compatibility gate: what changed for users between the last release and this tree.
 *   npm run schema:compat             lists breaking changes and additions; exit 1 on a breaking change
 *                                     unless the major version went up
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

function compareProps(
  where: string,
  oldProps: Props = {},
  newProps: Props = {},
  oldRequired: string[] = [],
  newRequired: string[] = [],
  input: boolean,
  r: { breaking: string[]; additions: string[] },
): void {
  for (const [k, p] of Object.entries(oldProps)) {
    if (!(k in newProps)) {
      r.breaking.push(`${where}: ${input ? "input" : "property"} \`${k}\` removed`);
      continue;
    }
    const [a, b] = [typeOf(p), typeOf(newProps[k])];
    if (!compatible(a, b, input)) r.breaking.push(`${where}: \`${k}\` changes type, ${a} -> ${b}`);
  }
  for (const k of Object.keys(newProps)) if (!(k in oldProps)) r.additions.push(`${where}: ${input ? "input" : "property"} \`${k}\` added`);
  if (input) {
    for (const k of newRequired) if (!oldRequired.includes(k)) r.breaking.push(`${where}: input \`${k}\` is now required`);
  } else {
    for (const k of oldRequired) if (k in newProps && !newRequired.includes(k)) r.breaking.push(`${where}: \`${k}\` is no longer always set`);
  }
}

const major = (v: string) => Number(/^(\d+)/.exec(v)?.[1] ?? 0);

/** What changed from one release to another. */
export function compare(old: Release, cur: Release): Report {
  const r = { breaking: [] as string[], additions: [] as string[] };
  const [os, ns] = [old.schema, cur.schema];
  const section = (s: Json, k: string) => (s[k] ?? {}) as Record<string, Json>;

  const newResources = section(ns, "resources");
  const aliased = (token: string) => Object.values(newResources).some((res) => ((res.aliases ?? []) as Array<{ type?: string }>).some((a) => a.type === token));
  for (const [token, res] of Object.entries(section(os, "resources"))) {
    const now = newResources[token];
    if (!now) {
      if (!aliased(token)) r.breaking.push(`resource \`${token}\` removed`);
      continue;
    }
    compareProps(token, res.inputProperties as Props, now.inputProperties as Props, res.requiredInputs as string[], now.requiredInputs as string[], true, r);
    compareProps(token, res.properties as Props, now.properties as Props, res.required as string[], now.required as string[], false, r);
    const before = old.facts.replaces[token] ?? [];
    for (const k of cur.facts.replaces[token] ?? [])
      if (!before.includes(k) && k in ((res.inputProperties ?? {}) as Props)) r.breaking.push(`${token}: a change of \`${k}\` now replaces the resource`);
  }
  for (const token of Object.keys(newResources)) if (!(token in section(os, "resources"))) r.additions.push(`resource \`${token}\` added`);

  const newFunctions = section(ns, "functions");
  for (const [token, fn] of Object.entries(section(os, "functions"))) {
    const now = newFunctions[token];
    if (!now) {
      r.breaking.push(`function \`${token}\` removed`);
      continue;
    }
    const [oi, ni, oo, no] = [fn.inputs, now.inputs, fn.outputs, now.outputs] as Array<Json | undefined>;
    compareProps(`${token} (inputs)`, oi?.properties as Props, ni?.properties as Props, oi?.required as string[], ni?.required as string[], true, r);
    compareProps(`${token} (outputs)`, oo?.properties as Props, no?.properties as Props, oo?.required as string[], no?.required as string[], false, r);
  }
  for (const token of Object.keys(newFunctions)) if (!(token in section(os, "functions"))) r.additions.push(`function \`${token}\` added`);

  // Object types: checked both ways (a type may be an input's and an output's).
  const newTypes = section(ns, "types");
  for (const [token, t] of Object.entries(section(os, "types"))) {
    const now = newTypes[token];
    if (!now) {
      r.breaking.push(`type \`${token}\` removed`);
      continue;
    }
    compareProps(token, t.properties as Props, now.properties as Props, t.required as string[], now.required as string[], true, r);
    const values = (x: Json) => ((x.enum ?? []) as Array<{ value: unknown }>).map((e) => e.value);
    for (const v of values(t)) if (!values(now).includes(v)) r.breaking.push(`${token}: value ${JSON.stringify(v)} removed`);
  }
  for (const token of Object.keys(newTypes)) if (!(token in section(os, "types"))) r.additions.push(`type \`${token}\` added`);

  const [op, np] = [(os.provider ?? {}) as Json, (ns.provider ?? {}) as Json];
  compareProps("provider", op.inputProperties as Props, np.inputProperties as Props, op.requiredInputs as string[], np.requiredInputs as string[], true, r);

  for (const [at, values] of Object.entries(old.facts.values)) {
    const now = cur.facts.values[at];
    if (!now) continue; // the input is gone or takes any value now: said above, or not breaking
    for (const v of values) if (!now.includes(v)) r.breaking.push(`${at}: value ${JSON.stringify(v)} no longer allowed`);
    for (const v of now) if (!values.includes(v)) r.additions.push(`${at}: value ${JSON.stringify(v)} allowed`);
  }

  const oldVersion = String(os.version ?? "0.0.0");
  const newVersion = String(ns.version ?? "0.0.0");
  return { ...r, oldVersion, newVersion, refused: r.breaking.length > 0 && major(newVersion) <= major(oldVersion) };
}

/** The report as the CLI prints it (Markdown, ready for a CHANGELOG section). */
export function formatReport(report: Report): string {
  const list = (xs: string[]) => (xs.length ? xs.map((x) => `- ${x}`).join("\n") : "- none");
  const verdict = report.refused
    ? `Refused: ${report.breaking.length} breaking change(s) from ${report.oldVersion} to ${report.newVersion} need a new major version.`
    : `OK: ${report.oldVersion} -> ${report.newVersion}.`;
  return `### Breaking changes\n${list(report.breaking)}\n\n### Additions\n${list(report.additions)}\n\n${verdict}\n`;
}

const ROOT = repoRoot();
const LAST = path.join(ROOT, "releases", "last");

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
  if (process.argv.includes("--record")) {
    const tree = thisTree();
    mkdirSync(LAST, { recursive: true });
    writeFileSync(path.join(LAST, "schema.json"), JSON.stringify(tree.schema, null, 2) + "\n");
    writeFileSync(path.join(LAST, "facts.json"), JSON.stringify(tree.facts, null, 2) + "\n");
    console.log(`recorded ${String(tree.schema.version)} as the last release in ${path.relative(ROOT, LAST)}/`);
  } else {
    const at = process.argv.indexOf("--schema");
    const report = compare(lastRelease(), thisTree(at > 0 ? path.resolve(process.argv[at + 1]) : undefined));
    process.stdout.write(formatReport(report));
    if (report.refused) process.exitCode = 1;
  }
}
