/**
 * Every refused input names its rule: each resource's every input (provider/registry.ts's definitions) given
 * wrong values of each kind its schema can refuse (another JSON type, out of its bounds, a value outside its
 * literals, an unknown key, each nested field wrong in turn, on a base that is right elsewhere), and no message
 * the preview would print is one of zod's defaults, which say that the value is wrong but not what it must be
 * ("Invalid input", "Invalid option: expected one of...", "Too small: expected...").
 */
import { z } from "zod";
import { FunctionArgsError, functionSpecs, invoke } from "../../provider/functions";
import type { ApiClient } from "../../provider/transport/client";
import { checkInputs } from "../../provider/model/check";
import { refusals } from "../../provider/model/issue-text";
import { definitions } from "../../provider/registry";

/** zod's own texts (its English locale's openings), and ours for a union of nothing said. */
const DEFAULT = /(^|: )(Invalid (input|option|discriminator|key|value|element|string|number)|Too (small|big)|Unrecognized key|is none of the values it may be)/;

/** Values of every JSON type, and strings and numbers at the usual bounds. */
const BASE: unknown[] = ["", "x", "X y!", "x".repeat(300), "2020-13-45T99:00:00", -1, 0, 1, 2, 1.5, 65536, 1e12, true, false, {}, [], ["x"], [1], { x: 1 }];
/** Strings a pattern of this API may take, to build values that pass where a probe is not. */
const SAMPLES: unknown[] = [
  "x",
  "label-1",
  "us-east",
  "10.0.1.0/24",
  "10.0.1.5",
  "2030-01-01T00:00:00",
  "computes:read_only",
  "mysql/8.0.35",
  "postgresql/16.6",
  "compute/debian12",
  "c1-standard-2",
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq2yF1ed9Wq0cBV3ZVHEjz3jWo/1qxL0wq9SuHVLQ1R",
  "Sunday",
  "weekly",
  "W0",
  1,
  3,
  true,
];

type Def = z.core.$ZodTypes["_zod"]["def"];
const defOf = (s: z.core.$ZodType): Def => (s as z.core.$ZodTypes)._zod.def;
const takes = (s: z.core.$ZodType, v: unknown): boolean => z.safeParse(s, v).success;

/** The schema a wrapper holds (optional, nullable, default, a pipe's input, a lazy one's), else undefined. */
function unwrapped(d: Def): z.core.$ZodType | undefined {
  switch (d.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return d.innerType;
    case "pipe":
      return d.in;
    case "lazy":
      return d.getter();
    default:
      return undefined;
  }
}

/** A value the schema takes, if one is found (from its literals, its fields' values, the samples). */
function valid(s: z.core.$ZodType, depth = 0): { value: unknown } | undefined {
  if (depth > 6) return undefined;
  const d = defOf(s);
  const inner = unwrapped(d);
  if (inner) return valid(inner, depth + 1);
  const tries: unknown[] = [];
  switch (d.type) {
    case "literal":
      tries.push(...d.values);
      break;
    case "enum":
      tries.push(...Object.values(d.entries));
      break;
    case "union":
      for (const o of d.options) {
        const v = valid(o, depth + 1);
        if (v) tries.push(v.value);
      }
      break;
    case "object": {
      const o: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(d.shape)) {
        const v = valid(sub, depth + 1);
        if (v && !takes(sub, undefined)) o[k] = v.value;
      }
      tries.push(o);
      break;
    }
    case "array": {
      const v = valid(d.element, depth + 1);
      tries.push([], ...(v ? [[v.value]] : []));
      break;
    }
    case "record":
      tries.push({});
      break;
    default:
      tries.push(...SAMPLES);
  }
  const found = tries.find((t) => takes(s, t));
  return found === undefined && !tries.includes(undefined) ? undefined : { value: found };
}

/** Wrong values for a schema: the base ones, and those of its literals, fields and items, on a right base. */
function probes(s: z.core.$ZodType, depth = 0): unknown[] {
  if (depth > 5) return BASE;
  const d = defOf(s);
  const inner = unwrapped(d);
  if (inner) return probes(inner, depth + 1);
  switch (d.type) {
    case "literal":
    case "enum": {
      const values: unknown[] = d.type === "literal" ? d.values : Object.values(d.entries);
      return [...BASE, ...values.flatMap((v): unknown[] => (typeof v === "number" ? [v + 1, v - 1] : typeof v === "string" ? [`${v}x`, v.toUpperCase()] : []))];
    }
    case "union":
      return [...BASE, ...d.options.flatMap((o) => probes(o, depth + 1))];
    case "object": {
      const base = valid(s)?.value;
      const on = base && typeof base === "object" ? base : {};
      return [
        ...BASE,
        { ...on, unknownKey: 1 },
        ...Object.entries(d.shape).flatMap(([k, sub]) => [undefined, ...probes(sub, depth + 1)].map((p) => ({ ...on, [k]: p }))),
      ];
    }
    case "array": {
      const item = valid(d.element)?.value;
      return [...BASE, ...probes(d.element, depth + 1).map((p) => [p]), Array.from({ length: 300 }, () => item), [item, item]];
    }
    case "record":
      return [
        ...BASE,
        ...probes(d.valueType, depth + 1).map((p) => ({ k: p })),
        ...probes(d.keyType, depth + 1)
          .filter((k) => typeof k === "string")
          .map((k) => ({ [String(k)]: "x" })),
      ];
    case "tuple":
      return [...BASE, ...d.items.flatMap((item, i) => probes(item, depth + 1).map((p) => Object.assign([], { [i]: p })))];
    default:
      return BASE;
  }
}

/** Each wrong value of a schema once (by its JSON). */
function* wrongValues(schema: z.core.$ZodType): Generator<[unknown, string]> {
  const seen = new Set<string>();
  for (const value of probes(schema)) {
    const key = JSON.stringify(value);
    if (value === undefined || seen.has(key)) continue;
    seen.add(key);
    yield [value, key];
  }
}

/** The bare messages among `reasons`, each once, with the value that drew it. */
function collect(bare: string[], what: string, key: string, reasons: string[]): void {
  for (const reason of reasons)
    if (DEFAULT.test(reason) && !bare.some((b) => b.endsWith(`: ${reason}`))) bare.push(`${what} = ${key.slice(0, 100)}: ${reason}`);
}

test("no refused input of any resource is told in zod's own words: each names its rule", () => {
  const bare: string[] = [];
  let tried = 0;
  for (const { spec } of definitions) {
    for (const f of spec.fields) {
      if (f.kind !== "input" || !f.schema) continue;
      for (const [value, key] of wrongValues(f.schema)) {
        tried++;
        collect(
          bare,
          `${spec.type}.${f.name}`,
          key,
          checkInputs(spec, { [f.name]: value }).failures.map((x) => x.reason),
        );
      }
    }
  }
  expect(tried).toBeGreaterThan(4000);
  expect(bare).toEqual([]);
});

test("nor any refused argument of a read function (getPrice's clusterSize: 5 was `Too big: expected number to be <=3`)", async () => {
  const bare: string[] = [];
  // No API: a call its arguments pass goes on to read, and fails otherwise than FunctionArgsError.
  const noApi = {} as ApiClient;
  for (const spec of functionSpecs) {
    // The other arguments right (those required), so that each argument's own refusal is the one said.
    const base = Object.fromEntries(spec.inputs.flatMap((f) => (f.required && f.schema ? [[f.name, valid(f.schema)?.value]] : [])));
    for (const f of spec.inputs) {
      if (!f.schema) continue;
      for (const [value, key] of wrongValues(f.schema)) {
        const e: unknown = await invoke(noApi, spec.name, { ...base, [f.name]: value }).catch((x: unknown) => x);
        if (e instanceof FunctionArgsError) collect(bare, `${spec.name}(${f.name})`, key, [e.message.replace(`${spec.name}: `, "")]);
      }
    }
  }
  expect(bare).toEqual([]);
  await expect(invoke(noApi, "getPrice", { type: "c1-standard-2", region: "us-east", engine: "mysql", clusterSize: 5 })).rejects.toThrow(
    new FunctionArgsError("getPrice: clusterSize: must be at most 3"),
  );
});

test("a value outside a union of literals names them; one of a union's types refused deeper says where and why", () => {
  const clusterSize = z.union([z.literal(1), z.literal(3)]);
  expect(refusals("clusterSize", clusterSize.safeParse(2).error?.issues ?? [])).toEqual(["clusterSize: must be 1 or 3"]);
  expect(refusals("size", z.literal(3).safeParse(2).error?.issues ?? [])).toEqual(["size: must be 3"]);
  const list = z.array(z.object({ purpose: z.enum(["public", "vpc"]) })).or(z.array(z.never()).length(0));
  expect(refusals("interfaces", list.safeParse("x").error?.issues ?? [])).toEqual(["interfaces: must be a list"]);
  expect(refusals("interfaces", list.safeParse([{ purpose: "wifi" }]).error?.issues ?? [])).toEqual(["interfaces[0].purpose: must be one of public, vpc"]);
  expect(refusals("id", z.union([z.number().int(), z.string().regex(/^\d+$/)]).safeParse("x").error?.issues ?? [])).toEqual(["id: must match /^\\d+$/"]);
});
