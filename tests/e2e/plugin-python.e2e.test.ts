/**
 * Python programs on the generated Python SDK run through the plain CLI, in both ways a user runs them:
 * - as an inline program of Pulumi's Automation API (tests/programs/python/driver.py: `pulumi.automation`
 *   serves the program to the CLI itself, no language host needed);
 * - as a `runtime: python` project (tests/programs/python-project), `pulumi up` in its folder with the
 *   virtual environment active: the CLI runs it through the Python language host scripts/build-python-host
 *   builds beside it (docs/pulumi-cli.md).
 * The SDK is the wheel `npm run release` builds (scripts/release.ts' buildPythonSdk, with the project's own
 * build environment, scripts/python-env), put in the release folder the loopback serves and installed from
 * there with pip into a virtual environment with `pulumi` from the Python package index: the newest, and
 * the lowest the SDK's requirement accepts (PYTHON_SDK_PULUMI_RANGE). The engine downloads the plugin by
 * itself from that release (tests/helpers/plugin.ts) into a fresh PULUMI_HOME; PATH holds the CLI (and the
 * virtual environment's bin), no `node`.
 *
 * On the newest `pulumi`, one stack through every step: up (the preview before it plans exactly the up's
 * steps, as before every up here), an update in place, a replacement of a VPC with a pinned label, refresh
 * after a change by hand, an import, an explicit provider, the token's value a secret output that stays
 * encrypted in `pulumi stack export`, destroy; the project: up, an update in place, export, destroy. Every
 * Python program of the docs' own pages runs in one preview through the plugin (the generated pages' examples,
 * every resource's and function's, run in the SDK matrix: tests/e2e/sdk-matrix.e2e.test.ts).
 * On the lowest `pulumi`, a preview, an up and a destroy.
 *
 * Needs Python 3.9 or later with its venv module and the Python package index (pip; PIP_INDEX_URL names a
 * mirror): without them the suite fails, naming what is missing (scripts/python-env). The host needs Go the
 * first time, as scripts/ensure-pulumi does.
 */
import { execFile, execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import type { Emulator } from "../../emulator/server";
import { PYTHON_SDK_PACKAGE, PYTHON_SDK_PULUMI_RANGE } from "../../scripts/generate/packages";
import { pulumiBin } from "../../scripts/pulumi";
import { buildPythonSdk, writeChecksums } from "../../scripts/release";
import { call, ed25519Key, emulator, inventory } from "../helpers/emulator";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";
import { buildPython, newestPulumi, pythonHost, venvWith } from "../helpers/python";
import { stepTimer } from "../helpers/timings";

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, "..", "..");
const DRIVER = path.join(ROOT, "tests", "programs", "python", "driver.py");
const LOWEST = /^>=(\d+\.\d+\.\d+),<4\.0\.0$/.exec(PYTHON_SDK_PULUMI_RANGE)![1];
const { timed, lines: timings } = stepTimer();

interface Answer {
  ok: boolean;
  error?: string;
  summary?: Record<string, number>;
  steps?: string[];
  outputs?: Record<string, { value: unknown; secret: boolean }>;
  deployment?: any;
  pulumi?: string;
  sdk?: string;
}

/** The driver in a virtual environment: one request a line, one answer a line. */
class Driver {
  private proc: ChildProcessWithoutNullStreams;
  private answers: Array<(a: Answer) => void> = [];
  private stderr = "";

  constructor(python: string, env: Record<string, string>) {
    this.proc = spawn(python, ["-u", DRIVER], { env, stdio: ["pipe", "pipe", "pipe"] });
    createInterface({ input: this.proc.stdout }).on("line", (line) => this.answers.shift()?.(JSON.parse(line) as Answer));
    this.proc.stderr.on("data", (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-20000)));
    this.proc.on("exit", (code) => {
      for (const f of this.answers.splice(0)) f({ ok: false, error: `the driver ended (${code}):\n${this.stderr}` });
    });
  }

  async ask(req: Record<string, unknown>): Promise<Answer> {
    const answer = await new Promise<Answer>((resolve) => {
      this.answers.push(resolve);
      this.proc.stdin.write(`${JSON.stringify(req)}\n`);
    });
    if (!answer.ok) throw new Error(`driver ${String(req.op)} on ${String(req.stack)}:\n${answer.error}\n${this.stderr.slice(-4000)}`);
    return answer;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.proc.exitCode !== null) return resolve();
      this.proc.on("exit", () => resolve());
      this.proc.stdin.end();
    });
  }
}

/**
 * A preview's steps and an up's (their engine events), compared: what changes. A replacement is three
 * events (`create-replacement`, `replace`, `delete-replaced`) in both: `replace` stands for it.
 */
function asPlanned(preview: Answer, up: Answer): string[] {
  const changes = (steps: string[]) => steps.filter((s) => !/^(same|refresh|create-replacement|delete-replaced) /.test(s));
  const [planned, made] = [changes(preview.steps!), changes(up.steps!)];
  expect({ planned: planned.filter((s) => !made.includes(s)), made: made.filter((s) => !planned.includes(s)) }).toEqual({ planned: [], made: [] });
  return made;
}

/**
 * The Python programs of the docs' hand-written pages (docs/_index.md...). The generated pages print the
 * resources' and functions' examples (docs/resources, docs/functions.md), which the SDK matrix runs in every
 * language (tests/e2e/sdk-matrix.e2e.test.ts).
 */
function pythonExamples(publicKey: string): Array<{ prefix: string; code: string }> {
  const out: Array<{ prefix: string; code: string }> = [];
  const docs = execFileSync("grep", ["-rl", "^```python$", path.join(ROOT, "docs")], { encoding: "utf8" })
    .trim()
    .split("\n")
    .filter((f) => f && !f.includes(`${path.sep}resources${path.sep}`) && path.basename(f) !== "functions.md");
  for (const file of docs) {
    const text = readFileSync(file, "utf8");
    [...text.matchAll(/^```python\n([\s\S]*?)\n```$/gm)].forEach((m, i) =>
      out.push({
        prefix: `${path.basename(file, ".md").replace(/\W/g, "")}${i}`,
        // The docs' placeholder key, a real one (the provider checks the key's form at preview).
        code: m[1].replace(/"ssh-ed25519 AAAA\.\.\. [^"]*"/g, JSON.stringify(publicKey)),
      }),
    );
  }
  return out;
}

describe("Python programs on the wheel of a release folder: the Automation API, and a project through the language host", () => {
  let emu: Emulator;
  let plugin: AcquiredPlugin;
  let tmp: string;
  let wheel: string;
  let env: Record<string, string>;
  const drivers: Driver[] = [];
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    emu = await emulator();
    tmp = mkdtempSync(path.join(tmpdir(), "pulumi-compute-python-"));
    mkdirSync(path.join(tmp, "state"));
    plugin = await timed("the plugin's release folder and server", () => acquirePlugin());
    // The SDKs `npm test` generates (.gen/sdks), else generated here.
    let sdks = path.join(ROOT, ".gen", "sdks");
    if (!existsSync(path.join(sdks, "python", "pyproject.toml"))) {
      sdks = path.join(tmp, "sdks");
      execFileSync(path.join(ROOT, "scripts", "gen-sdks"), [sdks], { stdio: ["ignore", "ignore", "inherit"] });
    }
    // The release folder gets the sdist and the wheel, as `npm run release` puts them there.
    const release = path.join(plugin.server.dir, `v${PLUGIN_VERSION}`);
    wheel = await timed("the sdist and the wheel (scripts/python-env, python -m build)", () =>
      buildPythonSdk(path.join(sdks, "python"), release, PLUGIN_VERSION),
    );
    writeChecksums(release);
    env = {
      ...(process.env as Record<string, string>),
      ...plugin.env,
      PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "python-program-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    delete env.PYTHONPATH;
  });
  afterAll(async () => {
    for (const d of drivers) await d.close();
    for (const st of stacks) st.cleanup();
    await plugin?.cleanup();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    await emu?.close();
    process.stderr.write(`plugin-python.e2e timings:\n  ${timings.join("\n  ")}\n`);
  });

  function driverOn(version: string): Driver {
    const python = venvWith(version, wheel);
    const d = new Driver(python, env);
    drivers.push(d);
    return d;
  }

  const settings = (extra: Record<string, string> = {}) => ({
    config: { apiUrl: emu.url, publicKey: ed25519Key(93, "python@laptop"), keyLabel: "py-key", region: "us-east", prefix: "py", ...extra },
    secrets: { apiToken: emu.token },
  });

  test("on the newest pulumi: up, in place, a pinned-label replacement, refresh with drift, import, destroy; the secret stays encrypted", async () => {
    const newest = newestPulumi(buildPython());
    const py = await timed(`the virtual environment: pulumi ${newest} and the wheel`, () => driverOn(newest));
    expect(await py.ask({ op: "version", stack: "dev" })).toMatchObject({ pulumi: newest, sdk: PLUGIN_VERSION });

    // Every up: its preview first, which plans exactly the up's steps.
    const upAsPlanned = async (label: string, config: Record<string, string> = {}) =>
      timed(label, async () => {
        const req = { stack: "dev", ...settings(config) };
        const preview = await py.ask({ op: "preview", ...req });
        const up = await py.ask({ op: "up", ...req });
        return { preview, up, made: asPlanned(preview, up) };
      });

    expect(plugin.installed()).toEqual([]);
    const first = await upAsPlanned("up (the preview before it, the plugin downloaded)");
    expect(first.up.summary).toEqual({ create: 6 });
    expect(first.made).toEqual(
      [
        "create python-program-dev (pulumi:pulumi:Stack)",
        "create emu (pulumi:providers:compute)",
        "create key (compute:index:SshKey)",
        "create net (compute:index:Vpc)",
        "create backend (compute:index:Subnet)",
        "create ci (compute:index:Token)",
      ].sort(),
    );
    expect(plugin.installed()).toEqual([`resource-compute-v${PLUGIN_VERSION}`]);
    expect(plugin.server.requests).toEqual([expect.stringMatching(/^200 .*pulumi-resource-compute-v.*\.tar\.gz$/)]);
    const outputs = first.up.outputs!;
    expect(outputs.keyLabel).toEqual({ value: "py-key", secret: false });
    expect(outputs.tokenValue.secret).toBe(true);
    const tokenValue = String(outputs.tokenValue.value);
    expect(tokenValue.length).toBeGreaterThan(20);
    let inv = await inventory(emu);
    expect(inv.sshkeys.map((k) => [String(k.id), k.label])).toEqual([[outputs.keyId.value, "py-key"]]);
    expect(inv.vpcs.map((v) => [String(v.id), v.label, v.region, v.description])).toEqual([[outputs.vpcId.value, "py-net", "us-east", "made from Python"]]);
    expect(inv.subnets.map((s) => [String(s.id), s.label, s.ipv4])).toEqual([[outputs.subnetId.value, "backend", "10.0.1.0/24"]]);

    // In place: the key keeps its id.
    const renamed = await upAsPlanned("an update in place", { keyLabel: "py-key-2" });
    expect([renamed.up.summary, renamed.made]).toEqual([{ same: 5, update: 1 }, ["update key (compute:index:SshKey)"]]);
    expect(renamed.up.outputs!.keyId.value).toBe(outputs.keyId.value);
    expect((await inventory(emu)).sshkeys.map((k) => k.label)).toEqual(["py-key-2"]);

    // The VPC's region forces a replacement; its label is pinned, and the API keeps VPC labels unique: the old
    // one goes first (its subnet with it), then the new one takes the label.
    const moved = await upAsPlanned("a replacement with a pinned label", { keyLabel: "py-key-2", region: "us-ord" });
    expect(moved.made).toEqual(["replace backend (compute:index:Subnet)", "replace net (compute:index:Vpc)"]);
    expect(moved.up.summary).toEqual({ same: 4, replace: 2 });
    expect(moved.up.outputs!.vpcId.value).not.toBe(outputs.vpcId.value);
    inv = await inventory(emu);
    expect(inv.vpcs.map((v) => [String(v.id), v.label, v.region])).toEqual([[moved.up.outputs!.vpcId.value, "py-net", "us-ord"]]);
    expect(inv.subnets.map((s) => [String(s.id), s.label])).toEqual([[moved.up.outputs!.subnetId.value, "backend"]]);

    // A change by hand: refresh brings it into the state; the next up puts the program's value back.
    const now = { keyLabel: "py-key-2", region: "us-ord" };
    await call(emu, "PUT", `/profile/sshkeys/${String(outputs.keyId.value)}`, { body: { label: "by-hand" } });
    const refreshed = await timed("refresh with drift", () => py.ask({ op: "refresh", stack: "dev", ...settings(now) }));
    expect(refreshed.summary).toEqual({ same: 5, update: 1 });
    const back = await upAsPlanned("the up after the refresh", now);
    expect([back.up.summary, back.made]).toEqual([{ same: 5, update: 1 }, ["update key (compute:index:SshKey)"]]);
    expect((await inventory(emu)).sshkeys.map((k) => k.label).sort()).toEqual(["py-key-2"]);

    // An SSH key made by hand, imported: the program declares it with its id (`import_`).
    const made = await call(emu, "POST", "/profile/sshkeys", { body: { label: "py-by-hand", ssh_key: settings().config.publicKey } });
    const importId = String(made.body.id);
    const imported = await upAsPlanned("an import", { ...now, importId, importLabel: "py-by-hand" });
    expect([imported.up.summary, imported.made]).toEqual([{ same: 6, import: 1 }, ["import imported (compute:index:SshKey)"]]);
    expect(imported.up.outputs!.importedId.value).toBe(importId);

    // `pulumi stack export`, as a user types it (the Automation API's export_stack adds --show-secrets): the
    // token's value and the API token only as ciphertext; the explicit provider `emu` is every resource's.
    const exported = await timed("pulumi stack export", () =>
      promisify(execFile)(path.join(pulumiBin(), "pulumi"), ["stack", "export", "--stack", "organization/python-program/dev"], { env, encoding: "utf8" }),
    );
    const { deployment } = JSON.parse(exported.stdout) as { deployment: any };
    const text = JSON.stringify(deployment);
    expect([text.includes(tokenValue), text.includes(emu.token)]).toEqual([false, false]);
    const resources: Array<{ type: string; urn: string; provider?: string; outputs?: Record<string, any> }> = deployment.resources;
    const stackOutputs = resources.find((r) => r.type === "pulumi:pulumi:Stack")!.outputs!;
    expect(stackOutputs.tokenValue).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    const token = resources.find((r) => r.type === "compute:index:Token")!;
    expect(token.outputs!.token).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    const provider = resources.find((r) => r.type === "pulumi:providers:compute")!;
    expect(provider.urn).toMatch(/::emu$/);
    for (const r of resources.filter((x) => x.type.startsWith("compute:index:")))
      expect([r.type, r.provider?.split("::").slice(-2, -1)[0]]).toEqual([r.type, "emu"]);

    const down = await timed("destroy", () => py.ask({ op: "destroy", stack: "dev", ...settings({ ...now, importId, importLabel: "py-by-hand" }) }));
    expect(down.summary).toEqual({ delete: 7 });
    inv = await inventory(emu);
    expect([inv.sshkeys, inv.vpcs, inv.subnets]).toEqual([[], [], []]);
    expect((await call(emu, "GET", "/profile/tokens")).body.data.map((t: { label: string }) => t.label)).not.toContain("py-ci");
  });

  test("a `runtime: python` project, `pulumi up` in its folder: the language host runs it in the active virtual environment", async () => {
    // The host beside the CLI (scripts/build-python-host: a no-op where it is there already).
    const bin = await timed("the Python language host (scripts/build-python-host)", () => pythonHost());
    const venvBin = path.dirname(venvWith(newestPulumi(buildPython()), wheel));
    // As a user with the virtual environment activated: its bin folder first on PATH, then the CLI's.
    const stack = new TestStack("tests/programs/python-project", `python-project-${process.pid}`, {
      config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(95, "project@laptop"), keyLabel: "py-project-key" },
      secrets: { "compute:token": emu.token },
      env: { ...plugin.env, VIRTUAL_ENV: path.dirname(venvBin), PATH: [venvBin, bin].join(path.delimiter) },
    });
    stacks.push(stack);
    const first = await timed("pulumi preview, pulumi up (a project)", () => stack.upAsPlanned());
    expect(first.up.json.summary).toEqual({ create: 5 });
    const outputs = first.up.json.outputs;
    expect(outputs).toMatchObject({ keyLabel: "py-project-key", regionCount: expect.any(Number) });
    expect(outputs.regionCount).toBeGreaterThan(0);
    expect((await inventory(emu)).sshkeys.map((k) => k.label)).toContain("py-project-key");
    const renamed = await timed("pulumi preview, pulumi up: in place (a project)", () => stack.upAsPlanned({ config: { keyLabel: "py-project-key-2" } }));
    expect([renamed.up.json.summary, renamed.up.json.steps]).toEqual([{ same: 4, update: 1 }, ["update key (compute:index:SshKey)"]]);
    const exported = await stack.ok("export");
    const token = resourcesOf(exported, ":Token")[0];
    expect(token.outputs.token).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    const down = await timed("pulumi destroy (a project)", () => stack.run("destroy"));
    expect(down.code).toBe(0);
    const inv = await inventory(emu);
    expect([inv.sshkeys.map((k) => k.label), inv.subnets.map((s) => s.ipv4)]).toEqual([
      expect.not.arrayContaining(["py-project-key-2"]),
      expect.not.arrayContaining(["10.0.2.0/24"]),
    ]);
  });

  test("every Python program of the docs' own pages runs: one preview through the plugin plans its resources", async () => {
    const py = drivers[0] ?? driverOn(newestPulumi());
    const examples = pythonExamples(ed25519Key(94, "examples@laptop"));
    expect(examples.length).toBeGreaterThan(0);
    const preview = await timed(`the preview of the ${examples.length} Python examples`, () =>
      py.ask({
        op: "preview",
        stack: "examples",
        program: "examples",
        examples,
        config: { "compute:apiUrl": emu.url },
        secrets: { "compute:token": emu.token },
      }),
    );
    const creates = preview.steps!.filter((s) => /^create .* \(compute:index:\w+\)$/.test(s));
    // Each example's own resources, under its prefix; every resource type of the schema among them.
    for (const { prefix, code } of examples) {
      const made = [...code.matchAll(/compute\.(\w+)\(\n?\s*"([\w-]+)"/g)].map((m) => `create ${prefix}-${m[2]} (compute:index:${m[1]})`);
      expect([prefix, made.filter((s) => !creates.includes(s))]).toEqual([prefix, []]);
    }
    expect(preview.steps!.filter((s) => !s.startsWith("create "))).toEqual([]);
  });

  test(`on the lowest pulumi the SDK accepts (${PYTHON_SDK_PULUMI_RANGE}): up and destroy`, async () => {
    const py = await timed(`the virtual environment: pulumi ${LOWEST} and the wheel`, () => driverOn(LOWEST));
    expect(await py.ask({ op: "version", stack: "lowest" })).toMatchObject({ pulumi: LOWEST, sdk: PLUGIN_VERSION });
    const req = { stack: "lowest", ...settings({ keyLabel: "py-lowest", prefix: "py-lowest" }) };
    const preview = await timed("the preview on the lowest", () => py.ask({ op: "preview", ...req }));
    const up = await timed("up on the lowest", () => py.ask({ op: "up", ...req }));
    expect(up.summary).toEqual({ create: 6 });
    asPlanned(preview, up);
    expect(up.outputs!.tokenValue.secret).toBe(true);
    const inv = await inventory(emu);
    const lowest = (records: Array<{ label: string }>) => records.map((r) => r.label).filter((l) => l.startsWith("py-lowest"));
    expect([lowest(inv.sshkeys), lowest(inv.vpcs)]).toEqual([["py-lowest"], ["py-lowest-net"]]);
    const down = await timed("destroy on the lowest", () => py.ask({ op: "destroy", ...req }));
    expect(down.summary).toEqual({ delete: 6 });
    expect(lowest((await inventory(emu)).vpcs)).toEqual([]);
  });

  test("the wheel and the sdist are in the release folder the engine downloads the plugin from", () => {
    expect(path.dirname(wheel)).toBe(path.join(plugin.server.dir, `v${PLUGIN_VERSION}`));
    expect(path.basename(wheel)).toBe(`${PYTHON_SDK_PACKAGE}-${PLUGIN_VERSION}-py3-none-any.whl`);
    expect(existsSync(path.join(path.dirname(wheel), `${PYTHON_SDK_PACKAGE}-${PLUGIN_VERSION}.tar.gz`))).toBe(true);
  });
});
