/** JSON as the emulator takes it from a request: how deep it may nest. */

/** How deep JSON may nest in a request body or an X-Filter header: deeper is refused before it is read further. */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep a fixture document may nest: a record as deep as a request body may make it, inside the document's own
 * levels (`{"records": {"<collection>": [ {record} ]}}`, and a request's `{"requests": [{"body": ...}]}`).
 */
export const MAX_FIXTURE_DEPTH = MAX_JSON_DEPTH + 4;

/** The nesting depth of a parsed JSON value (a scalar is 0), counted without recursion, stopping past `limit`. */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return deepest;
}
