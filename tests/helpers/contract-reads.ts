import { ENDPOINTS } from "../../api/contract";
import type { AnyEndpoint } from "../../api/contract/endpoint";

/**
 * A recorded answer of the real API read by its row's answer schema (api/contract): which row a recorded request
 * is of, and what the schema does not read of the answer, one departure per field and kind (`GET /regions
 * data[].placement_group_limits: not in the contract`). The replay of the recorded conversations holds every
 * recorded answer to the contract so (tests/integration/cassette-replay.test.ts), each departure with its reason
 * in docs/spec-gaps.md, and lists them in docs/parity.md.
 */

const pattern = (path: string) =>
  new RegExp(
    `^${path.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\\\{(\w+)(\*?)\\\}|\{(\w+)(\*?)\}/g, (_m, _a, _b, _n, rest: string) => (rest ? "(.+?)" : "([^/]+)"))}/?$`,
  );
const ROWS = ENDPOINTS.map((row) => ({ row, re: pattern(row.path), params: (row.path.match(/\{/g) ?? []).length }));

/** The contract's row of a request: of its method, whose path matches, with the fewest parameters (`/regions/availability` before `/regions/{regionId}`). */
export function rowOf(method: string, path: string): AnyEndpoint | undefined {
  const bare = path.split("?")[0];
  return ROWS.filter((r) => r.row.method === method && r.re.test(bare)).sort((a, b) => a.params - b.params)[0]?.row;
}

/** What a row's answer schema does not read of a recorded answer: `<field>: <what>`, a list's items as `[]`. */
export function unread(row: AnyEndpoint, answer: unknown): string[] {
  const r = row.answer.safeParse(answer);
  if (r.success) return [];
  const out = new Set<string>();
  for (const issue of r.error.issues) {
    const at = issue.path.map((p, i) => (typeof p === "number" ? "[]" : `${i === 0 ? "" : "."}${String(p)}`)).join("");
    if (issue.code === "unrecognized_keys") for (const k of issue.keys) out.add(`${at ? `${at}.` : ""}${k}: not in the contract`);
    else if (issue.code === "invalid_type" && issue.input === undefined) out.add(`${at}: not answered`);
    else if (issue.code === "invalid_type") out.add(`${at}: not a ${issue.expected}`);
    else out.add(`${at}: ${issue.code === "invalid_value" ? "a value the contract does not take" : issue.message}`);
  }
  return [...out];
}
