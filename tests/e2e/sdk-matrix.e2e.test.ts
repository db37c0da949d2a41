/**
 * The SDK matrix (scripts/generate/sdk-matrix.ts): in each language of the generated SDKs (TypeScript on the
 * plugin SDK, Python, Go, YAML) and in TypeScript on the dynamic classes (`pulumi-compute`), one program, generated from the registry, makes every resource of every
 * resource's example and calls every read function in each of its forms with its example's arguments, and
 * exports what it reads back through the SDK's typed accessors. One `pulumi up` of it through the plain CLI
 * (Go: the Automation API, as no Go language host is built here), against an emulator of its own, with the
 * plugin the engine downloads from a loopback release folder; then every read is held to schema.json:
 *
 * - a resource's outputs: each of its type, the required ones set, and the same as the state holds for it (what
 *   the engine got from the plugin);
 * - a function's result: each property of its type, a list not empty, the plain form's the same as the Output
 *   form's, and for a call that refers to no resource the same as the provider's own read (its `invoke`, in this
 *   process, no SDK).
 *
 * Every language in about a minute here, so `npm test` runs them all; SDK_MATRIX=go,python runs those only (while
 * working on one). Needs Go for the Go program and Python with the package index for the Python one
 * (tests/helpers/python.ts), as the other suites of those languages do.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { isRef, type Fields, type Value } from "../../scripts/generate/example-program";
import { refsOf, type PackageSchema } from "../../scripts/generate/sdk-code";
import { matrix, matrixFiles, MATRIX_LANGUAGES, reads, type MatrixLanguage, type Read } from "../../scripts/generate/sdk-matrix";
import { invoke } from "../../provider/functions";
import { clientFor } from "../../provider/transport/settings";
import { emulator, get } from "../helpers/emulator";
import { definitions } from "../../provider/registry";
import { fromApi } from "../../provider/model/mapping";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { LanguageProgram } from "../helpers/languages";
import { stepTimer } from "../helpers/timings";
import { objectErrors, withoutNulls } from "../helpers/schema-values";

/** A value's shape: its properties and lists as they are, each scalar the name of its type. */
const shapeOf = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(shapeOf)
    : v && typeof v === "object"
      ? Object.fromEntries(Object.entries(withoutNulls(v) as object).map(([k, x]) => [k, shapeOf(x)]))
      : typeof v;

/** The mismatches, each once however many items have it (`instances[3].x` and `instances[4].x`: `instances[].x`). */
const distinct = (errors: string[]) => [...new Set(errors.map((e) => e.replace(/\[\d+\]/g, "[]")))];

jest.setTimeout(900_000);

const ROOT = path.resolve(__dirname, "..", "..");
const schema = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8")) as PackageSchema;
const wanted = process.env.SDK_MATRIX;
const LANGUAGES: MatrixLanguage[] = wanted ? (wanted.split(",") as MatrixLanguage[]) : MATRIX_LANGUAGES;
const { timed, lines: timings } = stepTimer();

/** What one language's run left: its stack outputs (secrets in plain text) and its state's resources. */
interface Run {
  outputs: Record<string, unknown>;
  resources: Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
}

const m = matrix();

/** An example's argument as the plain value a call takes (for the provider's own read). */
function plain(v: Value): unknown {
  if (typeof v !== "object") return v;
  if (isRef(v)) throw new Error("a reference has no plain value here");
  if (Array.isArray(v)) return v.map(plain);
  return Object.fromEntries(Object.entries(v.kind === "object" ? v.fields : v.entries).map(([k, x]) => [k, plain(x)]));
}
const plainArgs = (args: Fields) => Object.fromEntries(Object.entries(args).map(([k, v]) => [k, plain(v)]));

describe.each(LANGUAGES)("the SDK matrix in %s", (lang) => {
  let emu: Emulator;
  let plugin: AcquiredPlugin;
  let tmp: string;
  let run: Run;
  let program: LanguageProgram;

  beforeAll(async () => {
    emu = await emulator();
    tmp = mkdtempSync(path.join(tmpdir(), `pulumi-compute-matrix-${lang}-`));
    plugin = await timed(`${lang}: the plugin's release folder`, () => acquirePlugin({ withNode: lang === "typescript" || lang === "dynamic" }));
    const dir = path.join(tmp, "program");
    mkdirSync(dir);
    for (const [file, text] of Object.entries(matrixFiles(lang, m, schema, PLUGIN_VERSION))) writeFileSync(path.join(dir, file), text);
    program = new LanguageProgram(lang, dir, { ...plugin.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token }, (name, f) => timed(name, f));
    await program.prepare();
    const up = await timed(`${lang}: up`, () => program.run("up"));
    if (up.code !== 0) throw new Error(`${lang}: the up failed (${up.code}):\n${up.output}`.slice(0, 20000));
    run = { outputs: up.outputs!, resources: up.resources! };
  });
  afterAll(async () => {
    program?.cleanup();
    process.stderr.write(`sdk-matrix (${lang}) timings:\n  ${timings.filter((t) => t.startsWith(lang)).join("\n  ")}\n`);
    await plugin?.cleanup();
    await emu?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const expected = reads(m, lang);

  test("every read is an output of the stack", () => {
    expect(
      Object.keys(run.outputs)
        .filter((k) => /^(res|fn|doc)_/.test(k))
        .sort(),
    ).toEqual(expected.map((r) => r.key).sort());
  });

  test("each resource's outputs, read back typed: of their types, and as the state holds them", () => {
    const errors: string[] = [];
    for (const r of expected.filter((x): x is Extract<Read, { kind: "resource" }> => x.kind === "resource")) {
      const value = run.outputs[r.key] as Record<string, unknown>;
      const { id, ...props } = value ?? {};
      if (typeof id !== "string" || !id) errors.push(`${r.key}.id: a string, got ${JSON.stringify(id)}`);
      errors.push(...objectErrors(r.key, props, schema.resources[`compute:index:${r.type}`], schema));
      // The plugin's type token, or the dynamic classes' (`pulumi-nodejs:dynamic/compute:<Type>`).
      const state = run.resources.find(
        (s) => s.urn.endsWith(`::${r.name}`) && [`compute:index:${r.type}`, `pulumi-nodejs:dynamic/compute:${r.type}`].includes(s.type),
      );
      if (!state) {
        errors.push(`${r.key}: no ${r.type} ${r.name} in the state`);
        continue;
      }
      // What the state holds in the clear (a secret is ciphertext there): the same values.
      const clear = Object.fromEntries(
        Object.entries(state.outputs ?? {}).filter(([k, v]) => k in props && !(typeof v === "object" && v !== null && "ciphertext" in v)),
      );
      const read = Object.fromEntries(Object.entries(props).filter(([k]) => k in clear));
      expect([r.key, withoutNulls(read)]).toEqual([r.key, withoutNulls(clear)]);
    }
    expect(distinct(errors)).toEqual([]);
  });

  test("each function's result, read back typed, in every form: of its types, a list not empty, the forms alike", () => {
    const errors: string[] = [];
    for (const c of m.calls) {
      const fn = c.fn.name;
      const spec = schema.functions[`compute:index:${fn}`].outputs;
      const forms = expected.filter((x) => x.kind === "function" && x.fn === fn).map((x) => x.key);
      for (const key of forms) {
        errors.push(...objectErrors(key, run.outputs[key], spec, schema));
        if (c.fn.listKey && !((run.outputs[key] as Record<string, unknown[]>)?.[c.fn.listKey]?.length > 0)) errors.push(`${key}.${c.fn.listKey}: empty`);
      }
      // The plain form reads what the Output form reads: the same properties of the same types (the two calls run
      // at different moments, and a status may move between them; the values are held to the provider's own read below).
      if (forms.length === 2) expect([fn, shapeOf(run.outputs[forms[0]])]).toEqual([fn, shapeOf(run.outputs[forms[1]])]);
    }
    expect(distinct(errors)).toEqual([]);
  });

  test("each function's doc example (docs/functions.md) reads a value", () => {
    const docs = expected.filter((x) => x.kind === "doc");
    expect(docs.filter((r) => run.outputs[r.key] === undefined || run.outputs[r.key] === null).map((r) => r.key)).toEqual([]);
  });

  // Once (in YAML, the quickest): what the docs say of an output another resource changes (a table's `changedBy`).
  if (lang === "yaml")
    test("an output another resource changes is as last read, and refresh reads it anew", async () => {
      const fields = definitions.flatMap((d) => d.spec.fields.filter((f) => f.changedBy).map((f) => ({ type: d.spec.type, field: f.name })));
      expect(fields.length).toBeGreaterThan(0);
      // The Config example's instance, made empty (offline), then booted by its profile: the stack read it before.
      const host = (rs: Run["resources"]) => rs.find((r) => r.urn.endsWith("::config-host"))!;
      expect(host(run.resources).outputs!.status).toBe("offline");
      const refreshed = await timed(`${lang}: refresh`, () => program.run("refresh"));
      expect(refreshed.code).toBe(0);
      expect(host(refreshed.resources!).outputs!.status).toBe("running");
      // And after the refresh every such output is what the API says now.
      for (const { type, field } of fields)
        for (const r of refreshed.resources!.filter((x) => x.type === `compute:index:${type}`)) {
          const spec = definitions.find((d) => d.spec.type === type)!.spec;
          const now = (await get(emu, spec.itemPath(r.id!, r.outputs ?? {}))) as Record<string, unknown>;
          expect([r.urn, field, withoutNulls(r.outputs![field])]).toEqual([r.urn, field, withoutNulls(fromApi(spec, now, {})[field])]);
        }
    });

  test("a call that refers to no resource reads what the provider itself reads", async () => {
    const client = clientFor({ apiUrl: emu.url, token: emu.token }, { tokenRequired: false });
    for (const c of m.calls.filter((x) => refsOf(x.args).length === 0)) {
      const theirs = withoutNulls(run.outputs[expected.find((x) => x.kind === "function" && x.fn === c.fn.name)!.key]);
      const ours = withoutNulls(await invoke(client, c.fn.name, plainArgs(c.args)));
      expect([c.fn.name, theirs]).toEqual([c.fn.name, ours]);
    }
  });
});
