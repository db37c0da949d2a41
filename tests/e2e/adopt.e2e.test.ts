/**
 * Adopting an account (docs/adoption.md), as a user does it in each language: an emulator account filled by a
 * fixture with every resource type (tests/fixtures/adopt/account.json: an instance deployed from an image with a
 * VPC interface and a snapshot, one built from its own disks and profile in a subnet, one in another region, two
 * VPCs, a private image and one half uploaded, a MySQL and a PostgreSQL cluster with a snapshot each, an SSH key,
 * a token), `compute-adopt` writes the import file and the program, `pulumi import --file` imports it through the
 * plugin the engine downloads, and the next `pulumi preview` shows no change. Go runs its preview through the
 * Automation API (no Go language host is built here): its `main` is the driver's, its body compute-adopt's.
 */
import { execFile, spawn } from "node:child_process";
import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { goFile } from "../../scripts/generate/go-driver";
import { GO_SDK_IMPORT } from "../../scripts/generate/packages";
import type { MatrixLanguage } from "../../scripts/generate/sdk-matrix";
import { call, emulator, get } from "../helpers/emulator";
import { LanguageProgram } from "../helpers/languages";
import { acquirePlugin, type AcquiredPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(900_000);

const ROOT = path.resolve(__dirname, "..", "..");
const FIXTURE = JSON.parse(readFileSync(path.join(ROOT, "tests", "fixtures", "adopt", "account.json"), "utf8"));
const ADOPT = path.join(ROOT, "dist", "provider", "adopt", "cli.js");

let emu: Emulator;
let plugin: AcquiredPlugin;
let tmp: string;

beforeAll(async () => {
  emu = await emulator({ fixture: FIXTURE });
  plugin = await acquirePlugin({ withNode: true });
  tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-adopt-"));
});
afterAll(async () => {
  await plugin?.cleanup();
  await emu?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function adopt(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [ADOPT, ...args],
      { env: { ...process.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** What the account holds, by type, as the API lists it: what an adoption must name, adopted or not. */
const EXPECTED_ADOPTED = 19;

/** The Go program compute-adopt writes, its `main` made the Automation API driver's (the body left as written). */
function goDriven(main: string, project: string): string {
  const m = /func main\(\) \{\n\tpulumi\.Run\(func\(ctx \*pulumi\.Context\) error \{\n([\s\S]*)\t\treturn nil\n\t\}\)\n\}/.exec(main);
  if (!m) throw new Error(`compute-adopt's main.go is not the shape this test reads:\n${main}`);
  const body = m[1].split("\n").map((l) => l.replace(/^\t/, ""));
  return goFile(project, body.slice(0, -1), [], GO_SDK_IMPORT, "compute-adopt's program, run by the Automation API driver");
}

describe.each(["typescript", "python", "go", "yaml"] as const)("adopting the account in %s", (lang: MatrixLanguage) => {
  test("compute-adopt, then pulumi import --file, then a preview with no change", async () => {
    const dir = path.join(tmp, lang);
    mkdirSync(dir);
    const adopted = await adopt(["--language", lang, "--out", dir]);
    expect([adopted.code, adopted.stderr]).toEqual([0, expect.stringContaining(`${EXPECTED_ADOPTED} resources to import`)]);
    const report = readFileSync(path.join(dir, "adoption.md"), "utf8");
    // What cannot be adopted is named, with why.
    expect(report).toMatch(/- deploy-bot \(Token \d+\): a personal access token/);
    expect(report).toMatch(/- half-uploaded \(Image private\/\d+\): its status is pending_upload/);
    expect(report).toMatch(/- web-1-prod-debian-12-disk \(Disk \d+\/\d+\): made by the instance's deploy of compute\/debian12/);
    // The next step as docs/adoption.md gives it (the CLI's own code generation needs a language host that can).
    expect(report).toContain("Next: `pulumi import --file import.json --generate-code=false`");
    const importFile = JSON.parse(readFileSync(path.join(dir, "import.json"), "utf8"));
    expect(importFile.resources).toHaveLength(EXPECTED_ADOPTED);

    const env: Record<string, string> = { ...plugin.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token };
    const project = `adopt-${lang}`;
    if (lang === "go") writeFileSync(path.join(dir, "main.go"), goDriven(readFileSync(path.join(dir, "main.go"), "utf8"), project));
    if (lang === "yaml") writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${project}\nruntime: yaml\n`);
    const program = new LanguageProgram(lang, dir, env);
    await program.prepare();
    if (lang !== "go")
      writeFileSync(path.join(dir, "Pulumi.yaml"), readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").replace(/^name: .*$/m, `name: ${project}`));

    // Go: the stack the driver runs (its backend and name), imported into from a folder of the project's name whose
    // runtime needs no host (the import runs no program; no Go language host is built here).
    const goBackend = { PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`, PULUMI_CONFIG_PASSPHRASE: "language-program" };
    const importDir = lang === "go" ? path.join(tmp, "go-import") : dir;
    if (lang === "go") {
      mkdirSync(importDir);
      writeFileSync(path.join(importDir, "Pulumi.yaml"), `name: ${project}\nruntime: yaml\n`);
    }
    const stack = new TestStack(importDir, "run-go", { env: lang === "go" ? { ...env, ...goBackend } : env });
    // As docs/adoption.md says: protected (the CLI's default), as the program declares them.
    const imported = await stack.run("import", { flags: ["--file", path.join(dir, "import.json"), "--generate-code=false"] });
    expect([imported.code, imported.code === 0 ? "" : imported.output]).toEqual([0, ""]);
    expect(imported.json.summary).toMatchObject({ import: EXPECTED_ADOPTED });

    if (lang === "go") {
      const preview = await program.run("preview");
      expect([preview.code, preview.output]).toEqual([0, expect.stringMatching(new RegExp(`${EXPECTED_ADOPTED + 1} unchanged`))]);
      expect(preview.output).not.toMatch(/to (create|update|delete|replace)/);
    } else {
      const preview = await stack.run("preview", { flags: ["--expect-no-changes"] });
      expect([preview.code, preview.code === 0 ? "" : preview.output]).toEqual([0, ""]);
    }
    // Protected in the state, so that no up or destroy deletes an adopted server by mistake.
    const state =
      lang === "go"
        ? JSON.parse(readFileSync(path.join(dir, "state", ".pulumi", "stacks", project, "run-go.json"), "utf8")).checkpoint.latest.resources
        : stack.resources();
    expect(state.filter((r: { type: string; protect?: boolean }) => r.type.startsWith("compute:index:") && !r.protect)).toEqual([]);
    stack.cleanup();
    program.cleanup();
  });
});

test("the filters select what is adopted, a child with its parent; the account is only read", async () => {
  const dir = path.join(tmp, "filtered");
  const before = await get(emu, "/account/events?page_size=500");
  const r = await adopt(["--language", "yaml", "--out", dir, "--region", "us-east", "--tag", "team:data"]);
  expect(r.code).toBe(0);
  const names = JSON.parse(readFileSync(path.join(dir, "import.json"), "utf8")).resources.map((x: { name: string }) => x.name);
  expect(names).toEqual(["db-1", "db-1-root", "db-1-data", "db-1-boot", "db-1-boot-vpc"]);
  // A second run keeps what is there unless told: the report too.
  rmSync(path.join(dir, "import.json"));
  rmSync(path.join(dir, "Main.yaml"));
  const again = await adopt(["--language", "yaml", "--out", dir]);
  expect([again.code, again.stderr]).toEqual([2, expect.stringContaining("adoption.md already there: --force to overwrite")]);
  const after = await get(emu, "/account/events?page_size=500");
  expect(after.results).toBe(before.results);
});

test("a record is named the same whatever the filters, so that an account is adopted in parts into one stack", async () => {
  // Two instances whose labels make one name: the second listed is `dup-x-<its id>` in the whole account, and alone too.
  await call(emu, "POST", "/compute/instances", { body: { label: "dup-x", region: "us-east", type: "g6-nanode-1" } });
  await call(emu, "POST", "/compute/instances", { body: { label: "dup.x", region: "us-east", type: "g6-nanode-1" } });
  const namesOf = async (name: string, filters: string[]) => {
    const dir = path.join(tmp, name);
    expect((await adopt(["--language", "yaml", "--out", dir, ...filters])).code).toBe(0);
    return JSON.parse(readFileSync(path.join(dir, "import.json"), "utf8")).resources.map((x: { name: string; id: string }) => `${x.name} ${x.id}`);
  };
  const all = await namesOf("parts-all", []);
  const second = await namesOf("parts-label", ["--label", "dup.x"]);
  expect(second).toEqual([expect.stringMatching(/^dup-x-(\d+) \1$/)]);
  expect(all).toContain(second[0]);
  // A type alone (its lists read, the others' too): the same names.
  const vpcs = await namesOf("parts-type", ["--type", "Vpc"]);
  expect(vpcs.length).toBeGreaterThan(0);
  expect(all).toEqual(expect.arrayContaining(vpcs));
});

test("--api-url is the API of every call, the records' reads too", async () => {
  const dir = path.join(tmp, "api-url");
  const r = await adopt(["--language", "typescript", "--out", dir, "--api-url", emu.url, "--type", "SshKey"], { COMPUTE_API_URL: "" });
  expect([r.code, r.stderr]).toEqual([0, expect.stringContaining("1 resource to import, 0 not adopted")]);
});

test("files are replaced, never written through a link (to another file, to /dev/full)", async () => {
  const dir = path.join(tmp, "links");
  mkdirSync(dir);
  const target = path.join(tmp, "not-to-touch.md");
  writeFileSync(target, "mine\n");
  symlinkSync(target, path.join(dir, "adoption.md"));
  expect((await adopt(["--language", "yaml", "--out", dir, "--type", "SshKey"])).code).toBe(2);
  expect((await adopt(["--language", "yaml", "--out", dir, "--type", "SshKey", "--force"])).code).toBe(0);
  expect([readFileSync(target, "utf8"), lstatSync(path.join(dir, "adoption.md")).isSymbolicLink()]).toEqual(["mine\n", false]);
  // A program file that is a link to /dev/full: replaced, where it was written through and failed halfway.
  const full = path.join(tmp, "full");
  mkdirSync(full);
  symlinkSync("/dev/full", path.join(full, "Main.yaml"));
  const r = await adopt(["--language", "yaml", "--out", full, "--type", "SshKey", "--force"]);
  expect([r.code, existsSync(path.join(full, "import.json"))]).toEqual([0, true]);
  expect(lstatSync(path.join(full, "Main.yaml")).isSymbolicLink()).toBe(false);
});

test("a standard error that cannot be written is no failure: the files say what was done", async () => {
  const fd = openSync("/dev/full", "w");
  try {
    // Not spawnSync: the emulator answers from this process.
    const child = spawn(process.execPath, [ADOPT, "--language", "yaml", "--out", path.join(tmp, "quiet"), "--type", "SshKey"], {
      env: { ...process.env, COMPUTE_API_URL: emu.url, COMPUTE_TOKEN: emu.token },
      stdio: ["ignore", "ignore", fd],
    });
    expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
  } finally {
    closeSync(fd);
  }
  expect(existsSync(path.join(tmp, "quiet", "adoption.md"))).toBe(true);
});

test("nothing selected: the report alone, no program declaring nothing", async () => {
  const dir = path.join(tmp, "nothing");
  const r = await adopt(["--language", "go", "--out", dir, "--label", "no-such-*"]);
  expect([r.code, r.stderr]).toEqual([0, expect.stringContaining("Nothing to adopt: only `adoption.md` is written.")]);
  expect(["import.json", "main.go", "adoption.md"].map((f) => existsSync(path.join(dir, f)))).toEqual([false, false, true]);
});

test("a wrong argument or an account that cannot be read: exit 2, saying why", async () => {
  expect(await adopt(["--language", "cobol"])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--language: one of typescript, python, go, yaml, not "cobol"'),
  });
  expect(await adopt(["--language", "yaml", "--type", "Disk"])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining("--type: one of Instance, Vpc, Image, MysqlDatabase, PostgresDatabase, SshKey, Token (a record's disks"),
  });
  expect(await adopt(["--language", "yaml", "--region", ""])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining("--region: a value, not an empty one"),
  });
  expect(await adopt(["--language", "yaml", "--region", "us-eats", "--out", path.join(tmp, "typo")])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--region: "us-eats" is no region of the API ('),
  });
  const file = path.join(tmp, "a-file");
  writeFileSync(file, "");
  expect(await adopt(["--language", "yaml", "--out", file])).toMatchObject({ code: 2, stderr: `compute-adopt: --out ${file}: not a folder\n` });
  expect((await adopt(["--help"])).stdout).toContain("--api-url URL");
  expect(await adopt(["--language", "yaml", "--out", path.join(tmp, "bad-token")], { COMPUTE_TOKEN: "not-a-token-of-this-account" })).toMatchObject({
    code: 2,
    stderr: expect.stringContaining("the account could not be read"),
  });
});
