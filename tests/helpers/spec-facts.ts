import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { SPEC_DIR } from "./spec-endpoints";

/**
 * The spec's facts of each field, read from its text: every row of the records' tables ("Resources and their
 * fields") and every field of the requests (the endpoint tables' Request cells, and the bodies written below them:
 * "Create body", "Clone body", "MySQL create body", ...), each with its words. Read from the spec folder beside
 * the repository (`../shared/spec`) or, without it, as kept in tests/fixtures/spec-facts.json (UPDATE_SPEC_FACTS=1
 * keeps what the spec says now). tests/unit/contract-spec.test.ts holds the contract to them.
 */

export interface RecordFact {
  doc: string;
  /** The record's section (`Compute instance`, `Database backup`). */
  record: string;
  field: string;
  /** The type cell, or the words in brackets after the name. */
  type: string;
  notes: string;
}

export interface RequestFact {
  doc: string;
  method: string;
  /** The endpoint's path, abbreviations expanded (`/compute/instances/{computeId}/resize`). */
  path: string;
  field: string;
  /** What the spec says of it (its type, bounds, values, whether it is required). */
  text: string;
}

export interface SpecFacts {
  records: RecordFact[];
  requests: RequestFact[];
}

const DOCUMENTS = ["compute-api.md", "databases-api.md", "profile-api.md"];
export const KEPT_FACTS = path.resolve(__dirname, "../fixtures/spec-facts.json");

/** A section's text: from its heading to the next of the same level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return "";
  const level = heading.split(" ")[0];
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  return end < 0 ? rest : rest.slice(0, end);
}

const cells = (line: string) =>
  line
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());

/** `` `name` (words) `` items of a sentence: each name with its words (brackets in them kept). */
function named(text: string): Array<{ field: string; text: string }> {
  return [...text.matchAll(/`(\w+)` \(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => ({ field: m[1], text: m[2] }));
}

function recordsOf(doc: string, text: string): RecordFact[] {
  const out: RecordFact[] = [];
  const resources = section(text, "## Resources and their fields");
  for (const part of resources.split(/\n### /).slice(1)) {
    const record = part.slice(0, part.indexOf("\n"));
    for (const line of part.split("\n")) {
      const c = cells(line);
      if (c.length < 2 || c[0] === "Field" || /^-+$/.test(c[0]) || c[0].includes("`global` field")) continue;
      for (const field of c[0].split(",").map((f) => f.trim().replace(/`/g, ""))) {
        if (/^\w+$/.test(field)) out.push({ doc, record, field, type: c[1], notes: c[2] ?? "" });
      }
    }
    // Records written as prose: "`id` (integer), `label` (string), ...".
    if (!part.includes("| Field |")) for (const n of named(part)) out.push({ doc, record, field: n.field, type: n.text, notes: "" });
  }
  return out;
}

/** The body sections written below an endpoint table, by the endpoint they are of. */
const BODIES: Array<{ intro: RegExp; method: string; path: string }> = [
  { intro: /^Create body \(`POST \/compute\/instances`\):/, method: "POST", path: "/compute/instances" },
  { intro: /^Clone body/, method: "POST", path: "I/clone" },
  { intro: /^Rebuild body/, method: "POST", path: "I/rebuild" },
  { intro: /^Disk create body:/, method: "POST", path: "I/disks" },
  { intro: /^MySQL create body:/, method: "POST", path: "M" },
  { intro: /^Update body \(all optional\):/, method: "PUT", path: "M/{instanceId}" },
];

function requestsOf(doc: string, text: string): RequestFact[] {
  const endpoints = section(text, "## Endpoints");
  const abbreviations = new Map<string, string>();
  for (const m of endpoints.matchAll(/`([A-Z])`(?: below)? (?:means|is) `(\/[^`]+)`/g)) abbreviations.set(m[1], m[2]);
  const expand = (p: string) => {
    const head = /^([A-Z])(\/.*)?$/.exec(p.replace(/`/g, ""));
    return head ? `${abbreviations.get(head[1])}${head[2] ?? ""}` : p.replace(/`/g, "");
  };
  const out: RequestFact[] = [];
  const lines = endpoints.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const c = cells(lines[i]);
    if (c.length >= 4 && /^(GET|POST|PUT|DELETE)$/.test(c[0])) {
      const request = c.length >= 5 ? c[3] : c[2];
      for (const n of named(request)) out.push({ doc, method: c[0], path: expand(c[1]), field: n.field, text: n.text });
      // "profile fields (`label` and `devices` required)", "interface fields (`purpose` required)".
      for (const m of request.matchAll(/\(`(\w+)`(?: and `(\w+)`)? required\)/g))
        for (const field of [m[1], m[2]].filter((f) => f !== undefined)) out.push({ doc, method: c[0], path: expand(c[1]), field, text: "required" });
      continue;
    }
    const body = BODIES.find((b) => b.intro.test(lines[i]));
    if (!body) continue;
    const at = { method: body.method, path: expand(body.path) };
    for (const n of named(lines[i])) out.push({ doc, ...at, ...n });
    // A body written as a table below its sentence.
    for (let j = i + 1; j < lines.length && !/^[A-Z]/.test(lines[j]); j++) {
      const r = cells(lines[j]);
      if (r.length >= 2 && /^\w+$/.test(r[0]) && r[0] !== "Field") out.push({ doc, ...at, field: r[0], text: `${r[1]}; ${r[2] ?? ""}` });
    }
  }
  return out;
}

/** The spec's facts: read from the spec folder, or kept (the kept copy must be what the spec says, when it is at hand). */
export function specFacts(): SpecFacts {
  const kept: SpecFacts | undefined = existsSync(KEPT_FACTS) ? JSON.parse(readFileSync(KEPT_FACTS, "utf8")) : undefined;
  if (!existsSync(SPEC_DIR)) {
    if (!kept) throw new Error(`No spec folder at ${SPEC_DIR}, and no ${KEPT_FACTS}`);
    return kept;
  }
  const read: SpecFacts = { records: [], requests: [] };
  for (const doc of DOCUMENTS) {
    const text = readFileSync(path.join(SPEC_DIR, doc), "utf8");
    read.records.push(...recordsOf(doc, text));
    read.requests.push(...requestsOf(doc, text));
  }
  if (process.env.UPDATE_SPEC_FACTS) writeFileSync(KEPT_FACTS, `${JSON.stringify(read, null, 1)}\n`);
  else if (JSON.stringify(kept) !== JSON.stringify(read))
    throw new Error(`The spec's facts are not those kept in ${KEPT_FACTS}: the spec changed, and UPDATE_SPEC_FACTS=1 keeps the new ones`);
  return read;
}

/** The lengths a fact's words give a string: `3..64` or `at most 30`, else undefined. */
export function lengthsOf(words: string): [number, number] | undefined {
  if (!/string|chars/.test(words)) return undefined;
  const range = /(\d+)\.\.(\d+)/.exec(words);
  if (range) return [Number(range[1]), Number(range[2])];
  const most = /at most (\d+)/.exec(words);
  return most ? [0, Number(most[1])] : undefined;
}

/** The values an enumeration's words list (`` `warm`, `cold` ``), the default's left out. */
export function valuesOf(words: string): string[] {
  const list = words.replace(/;?\s*[Dd]efault `[^`]+`.*$/, "").replace(/\. .*$/, "");
  return [...new Set([...list.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]))];
}
