/**
 * schema.json through Pulumi's own schema binder and code generators (tools/sdkgen, scripts/gen-sdks):
 * it binds with no error, and the Node.js, Python and Go SDKs generated from it compile; the Node.js SDK
 * packs and installs offline into a program that type-checks against it. See docs/sdks.md.
 *
 * Needs Go (>= 1.25.11, as scripts/ensure-pulumi does to build the CLI) and python3; without Go the suite
 * fails, naming Go (`COMPUTE_SKIP_GO=1` skips it outside CI: tests/helpers/go.ts). The tool's first build takes about a minute, the Go program's first build about
 * two (the Pulumi Go SDK's dependencies); both are cached after that.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { specs } from "../../provider";
import { components } from "../../provider/components";
import { functionSpecs } from "../../provider/functions";
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, NODE_SDK_PULUMI_RANGE, PROJECT, PYTHON_SDK_PACKAGE } from "../../scripts/generate/packages";
import { pulumiBin } from "../../scripts/pulumi";
import { describeWithGo } from "../helpers/go";

const ROOT = path.resolve(__dirname, "..", "..");
const GEN_SDKS = path.join(ROOT, "scripts", "gen-sdks");
const TSC = path.join(ROOT, "node_modules", ".bin", "tsc");
const PULUMI_VERSION = (JSON.parse(readFileSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}
/** Runs a command to its end (never throws); the timings of every step are printed at the end. */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("error", (e) => resolve({ code: -1, stdout, stderr: stderr + String(e), ms: Date.now() - t0 }));
    p.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}
const timings: string[] = [];
async function step(name: string, cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const r = await run(cmd, args, opts);
  timings.push(`${name}: ${(r.ms / 1000).toFixed(1)}s`);
  if (r.code !== 0) throw new Error(`${name} failed (exit ${r.code}):\n${r.stderr}\n${r.stdout}`.slice(0, 8000));
  return r;
}

/** The replaceOnChanges / additionalSecretOutputs names listed in a generated file ("a[*]", "b.*" -> "a", "b"). */
function listed(code: string, key: string): string[] {
  const m = new RegExp(`${key}\\s*[=:(]\\s*\\[((?:\\s*"[^"]*",?)*)\\s*\\]`).exec(code);
  return m ? [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1].replace(/(\[\*\]|\.\*)$/, "")).sort() : [];
}
const snakeFile = (type: string) => type.replace(/[A-Z]/g, (c, i: number) => (i ? "_" : "") + c.toLowerCase());
const camelFile = (type: string) => type.charAt(0).toLowerCase() + type.slice(1);

describeWithGo("sdkgen.test")("SDKs generated from schema.json with Pulumi's code generators", () => {
  let tmp: string;
  let out: string;
  let gen: Run;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "compute-sdkgen-"));
    out = path.join(tmp, "sdks");
    gen = await step("scripts/gen-sdks (tool build if needed, bind, generate, Node.js build and pack)", GEN_SDKS, [out]);
  }, 900_000);

  afterAll(() => {
    process.stderr.write(`sdkgen.test timings:\n  ${timings.join("\n  ")}\n`);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("schema.json binds with Pulumi's schema binder: no error, no warning", async () => {
    expect(gen.stderr).toMatch(
      new RegExp(`schema\\.json binds: ${specs.length + components.length} resources, ${functionSpecs.length} functions, \\d+ types, 0 warning\\(s\\)`),
    );
    const check = await step("gen-sdks --check", GEN_SDKS, ["--check"]);
    expect(check.stderr).toMatch(`binds: ${specs.length + components.length} resources`);
  });

  test("the Pulumi CLI loads schema.json (pulumi package get-schema)", async () => {
    const cli = path.join(pulumiBin(), "pulumi");
    const r = await step("pulumi package get-schema schema.json", cli, ["package", "get-schema", path.join(ROOT, "schema.json")], {
      env: { PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
    const loaded = JSON.parse(r.stdout);
    expect(Object.keys(loaded.resources).sort()).toEqual([...specs, ...components].map((s) => `compute:index:${s.type}`).sort());
    expect(Object.keys(loaded.functions)).toHaveLength(functionSpecs.length);
  }, 600_000);

  test("the binder refuses a schema with JSON Schema's own keywords (what z.toJSONSchema wrote before) and an external package", async () => {
    const tool = (await run(GEN_SDKS, ["--tool"])).stdout.trim();
    const schema = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8"));
    // What the binder said of the old schema.json, and a keyword it would have ignored without a word.
    for (const [label, refused] of [
      [{ type: "string", additionalProperties: false }, /cannot unmarshal bool into Go struct field .*additionalProperties/],
      [{ type: "string", minLength: 1 }, /unknown field "minLength"/],
    ] as const) {
      const bad = structuredClone(schema);
      bad.resources["compute:index:SshKey"].properties.label = label;
      writeFileSync(path.join(tmp, "bad.json"), JSON.stringify(bad));
      const r = await run(tool, ["-schema", path.join(tmp, "bad.json"), "-check"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(refused);
    }

    const external = structuredClone(schema);
    external.resources["compute:index:SshKey"].properties.label = { $ref: "/random/v4.16.0/schema.json#/types/random:index:Thing" };
    writeFileSync(path.join(tmp, "external.json"), JSON.stringify(external));
    const ext = await run(tool, ["-schema", path.join(tmp, "external.json"), "-check"]);
    expect(ext.code).toBe(1);
    expect(ext.stderr).toMatch(/only the builtin pulumi package is allowed/);
  });

  test("every SDK names the plugin's version, and aliases each resource to its dynamic type", () => {
    const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const node = JSON.parse(readFileSync(path.join(out, "nodejs", "package.json"), "utf8"));
    const server = PROJECT.pluginDownloadURL; // where the engine downloads the plugin from (docs/releases.md)
    expect(node.pulumi).toEqual({ resource: true, name: "compute", version, server });
    expect(JSON.parse(readFileSync(path.join(out, "go", "compute", "pulumi-plugin.json"), "utf8"))).toEqual({
      resource: true,
      name: "compute",
      version,
      server,
    });
    // Every resource and invoke is registered with that version (PkgResourceDefaultOpts, PkgInvokeDefaultOpts).
    expect(
      readFileSync(path.join(out, "go", "compute", "internal", "pulumiUtilities.go"), "utf8").split(`version := semver.MustParse("${version}")`),
    ).toHaveLength(3);
    for (const spec of specs) {
      const ts = readFileSync(path.join(out, "nodejs", `${spec.type === "Config" ? "config_" : camelFile(spec.type)}.ts`), "utf8");
      expect([spec.type, ts.includes(`aliases: [{ type: "pulumi-nodejs:dynamic/compute:${spec.type}" }]`)]).toEqual([spec.type, true]);
    }
  });

  test("Node.js: a class for every resource and the provider, a function for every read function; it compiles", async () => {
    const dir = path.join(out, "nodejs");
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      name: NODE_SDK_PACKAGE,
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      dependencies: { "@pulumi/pulumi": NODE_SDK_PULUMI_RANGE },
    });
    const index = readFileSync(path.join(dir, "index.ts"), "utf8");
    for (const name of [...specs.map((s) => s.type), "Provider", ...functionSpecs.map((f) => f.name)]) expect(index).toContain(`export const ${name}:`);
    // Config's file is config_.ts: config/ holds the provider's configuration variables.
    expect(readFileSync(path.join(dir, "config_.ts"), "utf8")).toContain("export class Config extends pulumi.CustomResource");
    // gen-sdks compiled it to bin/ with the project's TypeScript; --noEmit again for the record.
    await step("Node.js SDK tsc --noEmit", TSC, ["-p", dir, "--noEmit"]);
    const loaded = await step("Node.js SDK require(bin/index.js)", process.execPath, [
      "-e",
      "const m = require(process.argv[1]); console.log(JSON.stringify(Object.keys(m).filter((k) => typeof m[k] === 'function')))",
      path.join(dir, "bin", "index.js"),
    ]);
    expect(JSON.parse(loaded.stdout)).toEqual(expect.arrayContaining([...specs.map((s) => s.type), "Provider", "getRegions"]));
  }, 120_000);

  test("secrets reach the generated code (Node.js, Python, Go); replacements stay the plugin's", () => {
    for (const spec of specs) {
      const secret = spec.fields.filter((f) => f.secret).map((f) => f.name);
      const ts = readFileSync(path.join(out, "nodejs", `${spec.type === "Config" ? "config_" : camelFile(spec.type)}.ts`), "utf8");
      const py = readFileSync(path.join(out, "python", PYTHON_SDK_PACKAGE, `${spec.type === "Config" ? "config_" : snakeFile(spec.type)}.py`), "utf8");
      const go = readFileSync(path.join(out, "go", "compute", `${camelFile(spec.type)}.go`), "utf8");
      expect([spec.type, listed(ts, "additionalSecretOutputs")]).toEqual([spec.type, [...secret].sort()]);
      expect([spec.type, listed(py, "additional_secret_outputs")]).toEqual([spec.type, [...secret].sort()]);
      // Replacements are the plugin's diff's to say: no SDK registers replaceOnChanges (it would sit in every state entry).
      expect([spec.type, listed(ts, "replaceOnChanges"), listed(py, "replace_on_changes"), go.includes("pulumi.ReplaceOnChanges(")]).toEqual([
        spec.type,
        [],
        [],
        false,
      ]);
      if (secret.length) expect(go).toContain("pulumi.AdditionalSecretOutputs(");
      // Secret inputs are wrapped as secrets before they are sent.
      for (const f of spec.fields.filter((f) => f.secret && f.kind === "input")) expect(ts).toContain(`pulumi.secret(args.${f.name})`);
    }
    expect(listed(readFileSync(path.join(out, "nodejs", "mysqlDatabase.ts"), "utf8"), "additionalSecretOutputs")).toEqual([
      "caCertificate",
      "password",
      "username",
    ]);
  });

  test("the packed Node.js SDK installs offline into a new program, which type-checks against it", async () => {
    const tgz = gen.stdout.trim().split("\n").pop()!;
    expect(tgz).toBe(path.join(out, "compute-plugin-sdk.tgz"));
    const prog = path.join(tmp, "node-program");
    mkdirSync(prog);
    writeFileSync(path.join(prog, "package.json"), JSON.stringify({ name: "sdkgen-program", version: "0.0.0", private: true }));
    await step(
      "npm install --offline (the SDK tarball and @pulumi/pulumi)",
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", tgz, `@pulumi/pulumi@${PULUMI_VERSION}`],
      { cwd: prog },
    );
    writeFileSync(
      path.join(prog, "index.ts"),
      [
        `import * as compute from "${NODE_SDK_PACKAGE}";`,
        `const provider = new compute.Provider("api", { apiUrl: "http://127.0.0.1:8787/v4", token: "dev-token" });`,
        `const key = new compute.SshKey("deploy", { sshKey: "ssh-ed25519 AAAA me@host" }, { provider });`,
        `const vpc = new compute.Vpc("net", { region: "us-east" }, { provider });`,
        `const subnet = new compute.Subnet("sub", { vpcId: vpc.id, ipv4: "10.0.0.0/24" }, { provider });`,
        `const db = new compute.MysqlDatabase("db", { region: "us-east", type: "g6-nanode-1", engine: "mysql/8" }, { provider });`,
        `const regions = compute.getRegionsOutput({}, { provider });`,
        `export const out = { label: key.label, subnet: subnet.id, password: db.password, first: regions.regions[0].id };`,
        ``,
      ].join("\n"),
    );
    writeFileSync(
      path.join(prog, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "commonjs", target: "ES2022", types: [], skipLibCheck: true }, files: ["index.ts"] }),
    );
    await step("program tsc --noEmit against the installed SDK", TSC, ["-p", prog, "--noEmit"]);
  }, 300_000);

  test("Python: byte-compiles, one module per resource", async () => {
    const dir = path.join(out, "python");
    for (const spec of specs)
      expect(existsSync(path.join(dir, PYTHON_SDK_PACKAGE, `${spec.type === "Config" ? "config_" : snakeFile(spec.type)}.py`))).toBe(true);
    expect(existsSync(path.join(dir, PYTHON_SDK_PACKAGE, "instance.py"))).toBe(true);
    expect(readFileSync(path.join(dir, "pyproject.toml"), "utf8")).toContain(`name = "${PYTHON_SDK_PACKAGE}"`);
    await step("python3 -m compileall", "python3", ["-m", "compileall", "-q", dir]);
  }, 120_000);

  test("Go: a program that imports the generated package and calls compute.NewSshKey in pulumi.Run builds", async () => {
    const mod = path.dirname(GO_SDK_IMPORT);
    const sdkVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(readFileSync(path.join(out, "go", "go.mod"), "utf8"))![1];
    // The Go SDK needs the sdk/v3 of the generators that wrote it (tools/sdkgen's pkg/v3).
    const codegen = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(readFileSync(path.join(ROOT, "tools", "sdkgen", "go.mod"), "utf8"))![1];
    expect(sdkVersion).toBe(codegen);
    const prog = path.join(tmp, "go-program");
    mkdirSync(prog);
    writeFileSync(
      path.join(prog, "go.mod"),
      `module example.com/sdkgen-program\n\ngo 1.25.11\n\nrequire (\n\t${mod} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${sdkVersion}\n)\n\nreplace ${mod} => ${path.join(out, "go")}\n`,
    );
    writeFileSync(
      path.join(prog, "main.go"),
      `package main

import (
	"${GO_SDK_IMPORT}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		key, err := compute.NewSshKey(ctx, "deploy", &compute.SshKeyArgs{SshKey: pulumi.String("ssh-ed25519 AAAA me@host")})
		if err != nil {
			return err
		}
		regions, err := compute.GetRegions(ctx, nil)
		if err != nil {
			return err
		}
		ctx.Export("label", key.Label)
		ctx.Export("regions", pulumi.Int(len(regions.Regions)))
		return nil
	})
}
`,
    );
    // -mod=mod fills go.sum from the module cache (the proxy only for what is not there yet: the first run).
    await step("go build of a program using the Go SDK", "go", ["build", "-o", path.join(prog, "program"), "."], { cwd: prog, env: { GOFLAGS: "-mod=mod" } });
    await step("go vet of the Go SDK", "go", ["vet", `${GO_SDK_IMPORT}/...`], { cwd: prog, env: { GOFLAGS: "-mod=mod" } });
  }, 600_000);
});
