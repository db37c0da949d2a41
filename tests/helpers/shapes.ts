/**
 * The shape of a JSON answer (its field names and the JSON type of each value, recursively) and the
 * differences between two shapes: how the emulator is held to the real API's recorded answers
 * (tests/integration/real-answers-emulator.test.ts, tests/integration/cassette-replay.test.ts).
 *
 * - A value null on either side is not a difference (a nullable field).
 * - The items of an array are compared as one merged shape per side; an empty array on either side says
 *   nothing about its items.
 * - An object under a key of `mapKeys` (`members`: address -> role) is a map: its keys are data, only the
 *   shape of its values is compared.
 */

/** Keys whose object is a map (its keys are data). */
export const MAP_KEYS: ReadonlySet<string> = new Set(["members"]);

export type Shape =
  | { t: "null" }
  | { t: "string" | "number" | "boolean" }
  | { t: "array"; item?: Shape }
  | { t: "object"; keys: Record<string, Shape> }
  | { t: "mixed"; of: string[] };

export const typeName = (s: Shape): string => (s.t === "mixed" ? s.of.join("|") : s.t);

export function merge(a: Shape | undefined, b: Shape | undefined): Shape | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a.t === "null") return b;
  if (b.t === "null") return a;
  if (a.t !== b.t) return { t: "mixed", of: [...new Set([...typeName(a).split("|"), ...typeName(b).split("|")])].sort() };
  if (a.t === "object" && b.t === "object") {
    const keys: Record<string, Shape> = { ...a.keys };
    for (const [k, v] of Object.entries(b.keys)) keys[k] = merge(keys[k], v)!;
    return { t: "object", keys };
  }
  if (a.t === "array" && b.t === "array") return { t: "array", item: merge(a.item, b.item) };
  return a;
}

export function shape(v: unknown, key?: string, mapKeys: ReadonlySet<string> = MAP_KEYS): Shape {
  if (v === null || v === undefined) return { t: "null" };
  if (Array.isArray(v)) return { t: "array", item: v.map((x) => shape(x, undefined, mapKeys)).reduce<Shape | undefined>(merge, undefined) };
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    if (key !== undefined && mapKeys.has(key)) {
      const values = entries.map(([, x]) => shape(x, undefined, mapKeys)).reduce<Shape | undefined>(merge, undefined);
      return { t: "object", keys: values ? { "<key>": values } : {} };
    }
    return { t: "object", keys: Object.fromEntries(entries.map(([k, x]) => [k, shape(x, k, mapKeys)])) };
  }
  const t = typeof v;
  if (t === "string" || t === "number" || t === "boolean") return { t };
  throw new Error(`not JSON: ${String(v)}`);
}

/** Every field path the shape has (`a.b`, `list[].c`), for "another answer of this kind has it". */
export function paths(s: Shape, at: string, out: Set<string>): Set<string> {
  if (at) out.add(at);
  if (s.t === "object") for (const [k, v] of Object.entries(s.keys)) paths(v, at ? `${at}.${k}` : k, out);
  if (s.t === "array" && s.item) paths(s.item, `${at}[]`, out);
  return out;
}

export interface Difference {
  path: string;
  real: string;
  emulator: string;
}

export function compare(real: Shape, emu: Shape, at: string, out: Difference[]): Difference[] {
  const here = at || "(body)";
  if (real.t === "null" || emu.t === "null") return out;
  if (real.t !== emu.t) {
    out.push({ path: here, real: typeName(real), emulator: typeName(emu) });
    return out;
  }
  if (real.t === "object" && emu.t === "object") {
    for (const [k, v] of Object.entries(real.keys)) {
      const p = at ? `${at}.${k}` : k;
      if (!(k in emu.keys)) out.push({ path: p, real: typeName(v), emulator: "absent" });
      else compare(v, emu.keys[k], p, out);
    }
    for (const [k, v] of Object.entries(emu.keys)) if (!(k in real.keys)) out.push({ path: at ? `${at}.${k}` : k, real: "absent", emulator: typeName(v) });
  }
  if (real.t === "array" && emu.t === "array" && real.item && emu.item) compare(real.item, emu.item, `${at}[]`, out);
  return out;
}
