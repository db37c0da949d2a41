/**
 * The components the plugin serves (provider/components/, provider/plugin/construct.ts) through the CLI, from
 * each SDK (TypeScript on the plugin SDK, Python, Go through the Automation API, YAML): one program with a
 * ServerInVpc and a DatabaseForServers open to its address (DatabaseForServers' example, the one
 * docs/components.md shows), previewed, made (the children under their component in the state, the outputs set,
 * the server booted with its profile and the allow list its /32 through the API), changed in place (a tag and an
 * extra allowed address: the instance and the database update, nothing else), and destroyed (nothing left in the
 * API). In TypeScript also: the preview's planned steps are the up's, a bad input is refused at preview naming the
 * component's input, a server's disks changed at once in one up (a new root, two resizes), and docs/components.md's
 * preview is this program's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { databaseForServers } from "../../provider/components/database-for-servers";
import { DEFAULT_ROOT_DISK_SIZE, serverInVpc } from "../../provider/components/server-in-vpc";
import { obj } from "../../provider/resources/example-parents";
import { ref, type Example, type Res } from "../../provider/model/example";
import { exampleProgram, type MatrixLanguage } from "../../scripts/generate/sdk-matrix";
import { PREVIEW_END, PREVIEW_START } from "../../scripts/generate/components-doc";
import { emulator, list, get } from "../helpers/emulator";
import { LanguageProgram, type LanguageRun } from "../helpers/languages";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";

jest.setTimeout(1_800_000);

const LANGUAGES: MatrixLanguage[] = ["typescript", "python", "go", "yaml"];
const EXTRA = "203.0.113.7/32";
const ARTIFACTS = path.join(__dirname, "..", "..", ".artifacts");
/** What the preview plans to create, in every language. */
const PLANNED = [
  "Config web-config",
  "DatabaseForServers app-db",
  "Disk web-data",
  "Disk web-root",
  "Disk web-swap",
  "Instance web-instance",
  "MysqlDatabase app-db-db",
  "ServerInVpc web",
  "Subnet app",
  "Vpc net",
];

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
      const planned = (preview.json.steps as Array<{ op: string; urn: string }>)
        .filter((s) => s.op === "create" && s.urn.includes("compute:index:"))
        .map((s) => `${s.urn.split("::")[2].split("$").pop()!.replace("compute:index:", "")} ${s.urn.split("::").pop()}`)
        .sort();
      expect(planned).toEqual(PLANNED);
      const outputs = await stack.run("outputs", { flags: ["--show-secrets"] });
      made = { code: 0, output: "", outputs: outputs.json, resources: stack.resources() };
    } else {
      const preview = must(await p.run("preview"), "preview");
      const planned = [...preview.output.matchAll(/^\s*\+\s+compute:index:(\w+) (\S+) create/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
      expect(planned).toEqual(PLANNED);
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

    // The children use the program's own default compute provider: the generated SDKs name the plugin's download URL
    // as schema.json has it (`${VERSION}` for the engine to fill in), as Construct does. A YAML program here names it
    // with the version filled in (scripts/generate/sdk-matrix.ts), a second default provider of the same plugin.
    const providers = new Set(
      made
        .resources!.filter((r) => r.type.startsWith("compute:index:") && !/ServerInVpc|DatabaseForServers/.test(r.type))
        .map((r) => (r as { provider?: string }).provider),
    );
    const download = "default_0_1_0_https_/github.com/pulumi-compute/pulumi-compute/releases/download/";
    expect([...providers].sort()).toEqual(
      [...(lang === "yaml" ? [`${download}v0.1.0`] : []), `${download}v__VERSION_`].map((name) =>
        expect.stringContaining(`::pulumi:providers:compute::${name}::`),
      ),
    );

    // A change in place: the instance's tags and the database's allow list, nothing else.
    await p.rewrite(files(lang, program(true), "components"));
    if (lang === "typescript") {
      // Planned so at preview (kept in .artifacts/ as a user reads it).
      const preview = must(await p.run("preview"), "the changed preview");
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(path.join(ARTIFACTS, "components-change-preview.txt"), previewText(preview.output, "components-typescript-typescript", "run-typescript"));
      expect(
        [...preview.output.matchAll(/^\s*([-+~]+)\s+compute:index:(\w+) (\S+) (create|update|replace|delete)\b/gm)].map((m) => m.slice(1).join(" ")),
      ).toEqual(["~ Instance web-instance update", "~ MysqlDatabase app-db-db update"]);
    }
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

test("an input that decides the children, unknown at preview, is refused saying so (not an engine's panic)", async () => {
  const ex = program(false);
  const net = ex.resources.find((r) => r.type === "Vpc")!;
  ex.resources.find((r) => r.type === "ServerInVpc")!.props.extraDisks = [obj("ServerInVpcExtraDisk", { label: ref(net), size: 1024 })];
  const p = await programOf("typescript", ex, "undecided");
  const r = await p.run("preview");
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("extraDisks: must be known at preview: it decides which resources the component makes");
  expect(r.output).not.toMatch(/panic|unsupported property value/);
});

test("disk changes in one up: the root replaced (a new image), the swap and a data disk resized, one disk at a time", async () => {
  const server = (change: boolean): Example => {
    const ex = serverInVpc.example();
    if (!change) return ex;
    const web = ex.resources.find((r) => r.type === "ServerInVpc")!;
    Object.assign(web.props, { image: "compute/debian11", swapSize: 1024, extraDisks: [obj("ServerInVpcExtraDisk", { label: "data", size: 3072 })] });
    return ex;
  };
  const p = await programOf("typescript", server(false), "disks");
  const made = must(await p.run("up"), "up");
  const instanceId = made.resources!.find((r) => r.urn.endsWith("::web-instance"))!.id;
  await p.rewrite(files("typescript", server(true), "disks"));
  must(await p.run("up"), "the disks' up");
  const disks = await list(emu, `/compute/instances/${instanceId}/disks`);
  expect(disks.map((d: { label: string; size: number }) => `${d.label} ${d.size}`).sort()).toEqual([
    `data 3072`,
    `root ${DEFAULT_ROOT_DISK_SIZE}`,
    "swap 1024",
  ]);
  must(await p.run("destroy"), "destroy");
});

/**
 * A preview's text as docs/components.md shows it: the stack named `dev` (project `app`), without progress lines or
 * the plugin's download (the first run's only), the disks (registered at once, planned in any order) sorted.
 */
function previewText(output: string, project: string, stack: string): string {
  const lines = output.split("\n").filter((l) => !/^(@ |Duration:|Downloading plugin|Installing plugin)/.test(l.trim()));
  const disks = lines.flatMap((l, i) => (l.includes("compute:index:Disk ") ? [i] : []));
  const sorted = disks.map((i) => lines[i]).sort();
  disks.forEach((i, n) => (lines[i] = sorted[n]));
  return lines
    .join("\n")
    .replaceAll(`${project}-${stack}`, "app-dev")
    .replaceAll(`(${stack})`, "(dev)")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

test("docs/components.md's preview is this program's (UPDATE_DOCS=1 writes it)", async () => {
  const p = await programOf("typescript", program(false), "docs");
  const r = must(await p.run("preview"), "preview");
  const text = ["```", previewText(r.output, "docs-typescript-typescript", "run-typescript"), "```"].join("\n");
  const page = path.join(__dirname, "..", "..", "docs", "components.md");
  const doc = readFileSync(page, "utf8");
  const [start, end] = [doc.indexOf(PREVIEW_START), doc.indexOf(PREVIEW_END)];
  if (process.env.UPDATE_DOCS) writeFileSync(page, `${doc.slice(0, start + PREVIEW_START.length)}\n${text}\n${doc.slice(end)}`);
  else expect(doc.slice(start + PREVIEW_START.length, end).trim()).toBe(text);
});
