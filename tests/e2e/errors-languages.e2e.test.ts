/**
 * A refused input, and a create the API refuses, said once in every language a user writes a program in
 * (TypeScript on the plugin SDK and on the dynamic classes, Python, Go through the Automation API, YAML), as
 * the CLI's diagnostics show them: the field and the rule once, and for a refused create the API's answer once
 * beside the engine's own "update failed" (which every provider's failed create gets). Neither the Python SDK's
 * "Resource monitor has terminated, shutting down" nor @pulumi/pulumi's "failed to deliver log message" with
 * a gRPC stack after it (the guards: sdk/engine_shutdown.py, sdk/engine-shutdown.ts). docs/errors.md says what
 * each language prints and what the provider cannot change.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { ref, resource, type Example } from "../../scripts/generate/example-program";
import { exampleProgram, MATRIX_LANGUAGES, type MatrixLanguage } from "../../scripts/generate/sdk-matrix";
import { emulator } from "../helpers/emulator";
import { LanguageProgram, pythonWithSdk, type LanguageRun } from "../helpers/languages";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";

jest.setTimeout(600_000);

/** A VPC label the table refuses at preview. */
const refusedInput = (): Example => {
  const net = resource("Vpc", "net", { region: "us-east", label: "bad label!" });
  return { title: "A refused input", resources: [net], outputs: { netId: ref(net) } };
};
/** A database engine the provider does not check at preview: the API refuses the create (docs/errors.md's example). */
const refusedCreate = (): Example => {
  const net = resource("Vpc", "net", { region: "us-east" });
  const db = resource("PostgresDatabase", "db", { region: "us-east", type: "c1-standard-2", engine: "postgresql/99" });
  return { title: "A create the API refuses", resources: [net, db], outputs: { netId: ref(net) } };
};

/** The error lines of the CLI's Diagnostics section (what a user reads at the end), each with the resource it is under. */
function diagnostics(output: string): string[] {
  const at = output.lastIndexOf("\nDiagnostics:\n");
  if (at < 0) return [];
  const out: string[] = [];
  let under = "";
  for (const line of output.slice(at + 14).split("\n")) {
    if (/^(Resources|Outputs|Duration):/.test(line)) break;
    const owner = /^ {2}(\S.*):$/.exec(line);
    if (owner) under = owner[1];
    const error = /^ {4}error: (.*)$/.exec(line);
    if (error) out.push(`${under}: ${error[1]}`);
  }
  return out;
}

/** What no run should print: the engine's own end, said by the SDKs after the run's error. */
const NOISE = ["Resource monitor has terminated", "failed to deliver log message"];

let emu: Emulator;
let plugin: AcquiredPlugin;
let tmp: string;
const programs: LanguageProgram[] = [];
beforeAll(async () => {
  emu = await emulator();
  plugin = await acquirePlugin({ withNode: true });
  tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-errors-"));
});
afterAll(async () => {
  for (const p of programs) p.cleanup();
  await plugin?.cleanup();
  await emu?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The example as a program of `lang`, prepared to run. */
async function programOf(lang: MatrixLanguage, ex: Example, name: string): Promise<LanguageProgram> {
  const dir = path.join(tmp, `${name}-${lang}`);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(exampleProgram(lang, ex, `${name}-${lang}`, PLUGIN_VERSION))) writeFileSync(path.join(dir, file), text);
  const p = new LanguageProgram(lang, dir, { ...plugin.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token });
  programs.push(p);
  await p.prepare();
  return p;
}

const said = (r: LanguageRun) => ({ code: r.code !== 0, errors: diagnostics(r.output), noise: NOISE.filter((n) => r.output.includes(n)) });

describe.each(MATRIX_LANGUAGES)("in %s", (lang) => {
  const type = (t: string) => (lang === "dynamic" ? `pulumi-nodejs:dynamic/compute:${t}` : `compute:index:${t}`);

  test("a refused input: the field and the rule, once, at preview", async () => {
    const p = await programOf(lang, refusedInput(), "refused-input");
    const r = await p.run("preview");
    expect(said(r)).toEqual({
      code: true,
      errors: [
        `${type("Vpc")} (net): ${type("Vpc")} resource 'net': property label value {bad label!} has a problem: label: must include only ASCII letters, numbers, and dashes`,
      ],
      noise: [],
    });
  });

  test("a create the API refuses: its answer once, beside the engine's own 'update failed'", async () => {
    const p = await programOf(lang, refusedCreate(), "refused-create");
    const r = await p.run("up");
    const { errors, ...rest } = said(r);
    expect(rest).toEqual({ code: true, noise: [] });
    expect(errors).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        `${type("PostgresDatabase")} (db): cannot create PostgreSQL database: the API answered HTTP 400: engine: Engine postgresql/99 is not a postgresql engine; see /databases/engines`,
        expect.stringMatching(/^pulumi:pulumi:Stack \(.*\): update failed$/),
      ]),
    );
  });
});

test("the Python SDK's guard, in a program as the language host runs it: the engine's end said at debug level, SIGINT ends it at once", async () => {
  const python = await pythonWithSdk();
  const script = [
    "import os, signal, time",
    "import pulumi, pulumi.runtime",
    // What the language host does before it runs a program: the runtime pointed at the engine's monitor.
    'pulumi.runtime.configure(pulumi.runtime.Settings(monitor="127.0.0.1:1", engine=None, project="p", stack="s"))',
    "import pulumi_compute",
    'pulumi.log.error("Resource monitor has terminated, shutting down")',
    'pulumi.log.error("the run\'s own error")',
    "os.kill(os.getpid(), signal.SIGINT)",
    "time.sleep(5)",
    'print("went on after SIGINT")',
  ].join("\n");
  const r = spawnSync(python, ["-c", script], { encoding: "utf8" });
  expect({ code: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({ code: 1, stderr: "error: the run's own error\n", stdout: "" });
  // Not in a program the language host runs (the Automation API's caller, a script): SIGINT is Python's own.
  const plain = spawnSync(python, ["-c", "import os, signal\nimport pulumi_compute\nos.kill(os.getpid(), signal.SIGINT)"], { encoding: "utf8" });
  expect(plain.stderr).toContain("KeyboardInterrupt");
});
