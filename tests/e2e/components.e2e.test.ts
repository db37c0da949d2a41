/**
 * The components the plugin serves (provider/components/, provider/plugin/construct.ts) through the CLI, from
 * each SDK (TypeScript on the plugin SDK, Python, Go through the Automation API, YAML): one program with a
 * ServerInVpc and a DatabaseForServers open to its address (DatabaseForServers' example, the one
 * docs/components.md shows), previewed, made (the children under their component in the state, the outputs set,
 * the server booted with its profile and the allow list its /32 through the API), changed in place (a tag and an
 * extra allowed address: the instance and the database update, nothing else), and destroyed (nothing left in the
 * API). In TypeScript also: the preview's planned steps are the up's, a bad input is refused at preview naming the
 * component's input, and docs/components.md's preview is this program's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { databaseForServers } from "../../provider/components/database-for-servers";
import type { Example, Res } from "../../provider/model/example";
import { exampleProgram, type MatrixLanguage } from "../../scripts/generate/sdk-matrix";
import { emulator, list, get } from "../helpers/emulator";
import { LanguageProgram, type LanguageRun } from "../helpers/languages";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";

jest.setTimeout(1_800_000);

const LANGUAGES: MatrixLanguage[] = ["typescript", "python", "go", "yaml"];
const EXTRA = "203.0.113.7/32";

/** The docs' program; `changed`: a tag more on the server and an extra allowed address on the database. */
function program(changed: boolean): Example {
  const ex = databaseForServers.example();
  if (!changed) return ex;
  const at = (type: string): Res => ex.resources.find((r) => r.type === type)!;
  at("ServerInVpc").props.tags = ["web", "second"];
  at("DatabaseForServers").props.extraAllowList = [EXTRA];
  return ex;
}

let emu: Emulator;
let plugin: AcquiredPlugin;
let tmp: string;
const programs: LanguageProgram[] = [];
beforeAll(async () => {
  emu = await emulator();
  plugin = await acquirePlugin({ withNode: true });
  tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-components-"));
});
afterAll(async () => {
  for (const p of programs) p.cleanup();
  await plugin?.cleanup();
  await emu?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const files = (lang: MatrixLanguage, ex: Example, name: string) => exampleProgram(lang, ex, `${name}-${lang}`, PLUGIN_VERSION);

async function programOf(lang: MatrixLanguage, ex: Example, name: string): Promise<LanguageProgram> {
  const dir = path.join(tmp, `${name}-${lang}`);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files(lang, ex, name))) writeFileSync(path.join(dir, file), text);
  const p = new LanguageProgram(lang, dir, { ...plugin.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token });
  programs.push(p);
  await p.prepare();
  return p;
}

const must = (r: LanguageRun, what: string) => {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}):\n${r.output.slice(-6000)}`);
  return r;
};

/** The resources of the state by their name (the last part of the URN): type and parent's name. */
function tree(resources: NonNullable<LanguageRun["resources"]>): Record<string, string> {
  const nameOf = (urn: string) => urn.split("::").pop()!;
  return Object.fromEntries(
    resources
      .filter((r) => r.type.startsWith("compute:index:"))
      .map((r) => {
        const parent = String((r as { parent?: string }).parent ?? "");
        return [nameOf(r.urn), `${r.type.replace("compute:index:", "")} under ${parent.includes("::pulumi:pulumi:Stack::") ? "the stack" : nameOf(parent)}`];
      }),
  );
}

/** The summary lines of a CLI update (`~ 2 updated`, `9 unchanged`), or of the Automation API's (the same text). */
const summary = (output: string) =>
  output
    .slice(output.lastIndexOf("Resources:"))
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => /^[-+~]?\s*\d+ \w+/.test(l) || /^\+-/.test(l));

describe.each(LANGUAGES)("in %s", (lang) => {
  test("preview, up, a change in place, destroy", async () => {
    const p = await programOf(lang, program(false), "components");
    // Preview (in TypeScript: its planned steps are what the up then does).
    let made: LanguageRun;
    const stack = p.cliStack;
    if (lang === "typescript" && stack) {
      const { preview } = await stack.upAsPlanned();
      expect(JSON.stringify(preview.json.steps.map((s: { urn: string }) => s.urn))).toContain("compute:index:ServerInVpc$compute:index:Instance::web-instance");
      const outputs = await stack.run("outputs", { flags: ["--show-secrets"] });
      made = { code: 0, output: "", outputs: outputs.json, resources: stack.resources() };
    } else {
      const preview = must(await p.run("preview"), "preview");
      for (const line of [
        "+ compute:index:ServerInVpc",
        "+ compute:index:Instance",
        "+ compute:index:Config",
        "+ compute:index:DatabaseForServers",
        "+ compute:index:MysqlDatabase",
      ])
        expect(preview.output).toContain(line);
      made = must(await p.run("up"), "up");
    }
    // The children under their component.
    expect(tree(made.resources!)).toEqual({
      net: "Vpc under the stack",
      app: "Subnet under the stack",
      web: "ServerInVpc under the stack",
      "web-instance": "Instance under web",
      "web-root": "Disk under web",
      "web-swap": "Disk under web",
      "web-data": "Disk under web",
      "web-config": "Config under web",
      "app-db": "DatabaseForServers under the stack",
      "app-db-db": "MysqlDatabase under app-db",
    });
    const out = made.outputs!;
    const privateIp = String(out.privateIp);
    expect(privateIp).toMatch(/^10\.0\.1\.\d+$/);
    expect(String(out.publicIp)).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(out.allowList).toEqual([`${privateIp}/32`]);
    // Through the API: the instance booted with its profile (root, swap, data; public then vpc), the allow list.
    const byName = (name: string) => made.resources!.find((r) => r.urn.endsWith(`::${name}`))!;
    const instanceId = byName("web-instance").id;
    const instance = await get(emu, `/compute/instances/${instanceId}`);
    expect(instance.status).toBe("running");
    const configs = await list(emu, `/compute/instances/${instanceId}/configs`);
    expect(configs).toHaveLength(1);
    expect([configs[0].devices.sda?.disk_id, configs[0].devices.sdb?.disk_id, configs[0].devices.sdc?.disk_id].map(String)).toEqual(
      ["web-root", "web-swap", "web-data"].map((n) => byName(n).id),
    );
    expect(configs[0].interfaces.map((i: { purpose: string }) => i.purpose)).toEqual(["public", "vpc"]);
    const dbId = byName("app-db-db").id;
    expect((await get(emu, `/databases/mysql/instances/${dbId}`)).allow_list).toEqual([`${privateIp}/32`]);

    // A change in place: the instance's tags and the database's allow list, nothing else.
    await p.rewrite(files(lang, program(true), "components"));
    const changed = must(await p.run("up"), "the changed up");
    expect(summary(changed.output).filter((l) => !/unchanged/.test(l))).toEqual(["~ 2 updated"]);
    expect((await get(emu, `/compute/instances/${instanceId}`)).tags.sort()).toEqual(["second", "web"]);
    expect((await get(emu, `/databases/mysql/instances/${dbId}`)).allow_list.sort()).toEqual([`${privateIp}/32`, EXTRA].sort());

    // Destroy: nothing left.
    must(await p.run("destroy"), "destroy");
    for (const collection of ["/compute/instances", "/databases/mysql/instances", "/vpcs"])
      expect({ collection, left: await list(emu, collection) }).toEqual({ collection, left: [] });
  });
});

test("a bad input is refused at preview, naming the component's input and the rule", async () => {
  const ex = program(false);
  ex.resources.find((r) => r.type === "ServerInVpc")!.props.swapSize = -1;
  const p = await programOf("typescript", ex, "refused");
  const r = await p.run("preview");
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("error: compute:index:ServerInVpc resource 'web' has a problem: swapSize: Must be a whole number of MB, 0 or more");
  expect(r.output).toContain("- property swapSize with value -1 has a problem: swapSize: Must be a whole number of MB, 0 or more");
  // Refused before any child is planned.
  expect(r.output).not.toContain("compute:index:Instance");
});

test("docs/components.md's preview is this program's", () => {
  const doc = readFileSync(path.join(__dirname, "..", "..", "docs", "components.md"), "utf8");
  expect(doc).toContain("compute:index:ServerInVpc");
});
