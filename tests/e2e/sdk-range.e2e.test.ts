/**
 * The generated Node.js SDK (`@pulumi-compute/plugin-sdk`, .gen/sdks/compute-plugin-sdk.tgz, which `npm test`
 * builds with scripts/gen-sdks) on the LOWEST `@pulumi/pulumi` its package.json allows, not only on the
 * project's own: the SDK depends on `NODE_SDK_PULUMI_RANGE` (scripts/generate/packages.ts, `^<lowest>`), and a
 * program may have any version of that range.
 *
 * The lowest version comes in through package.json as an alias devDependency, `"pulumi-oldest":
 * "npm:@pulumi/pulumi@<lowest>"`, so the suite runs offline from a clean clone after `npm ci`. A temporary
 * program gets `node_modules/@pulumi/pulumi` (a link to node_modules/pulumi-oldest) and the SDK's tarball
 * extracted, then, in child Node processes (no Pulumi CLI):
 *  - the SDK's declarations type-check against that `@pulumi/pulumi` (what a program's `tsc` does without
 *    `skipLibCheck`). This is what fails below 3.141.0: the generated `get...Output` functions take
 *    `pulumi.InvokeOutputOptions` (with `dependsOn`), which @pulumi/pulumi exports from 3.141.0 on (3.140.0
 *    was never published; 3.136.0 to 3.139.0 have `runtime.invokeOutput` but not the type, older ones neither);
 *  - the SDK runs on it with `pulumi.runtime.setMocks`: a Vpc, a Subnet in it, a Provider with a secret
 *    token, an output-form invoke with `dependsOn` and a plain one through that provider. The floor is
 *    3.145.0, not 3.141.0: before it, an Output form's `dependsOn` did not wait for the resources it names
 *    (pulumi/pulumi#18152), which docs/functions.md promises; the order check below fails on 3.141.0.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NODE_SDK_PACKAGE, NODE_SDK_PULUMI_RANGE } from "../../scripts/generate/packages";

const ROOT = path.resolve(__dirname, "..", "..");
const TGZ = path.join(ROOT, ".gen", "sdks", "compute-plugin-sdk.tgz");
const OLDEST = path.join(ROOT, "node_modules", "pulumi-oldest");
const ALIAS = "pulumi-oldest";

const readJson = (file: string): any => JSON.parse(readFileSync(file, "utf8"));

/** The lowest version of a caret range `^M.m.p` (M >= 1, the only form the SDK's range takes). */
function caretFloor(range: string): string {
  const m = /^\^([1-9]\d*)\.(\d+)\.(\d+)$/.exec(range);
  if (!m) throw new Error(`NODE_SDK_PULUMI_RANGE must be a caret range ^M.m.p with M >= 1, not ${JSON.stringify(range)}`);
  return `${m[1]}.${m[2]}.${m[3]}`;
}
/** Whether a version `M.m.p` is in a caret range `^M.m.p` (same major, not lower), as npm's semver decides for M >= 1. */
function inCaret(range: string, version: string): boolean {
  const parse = (v: string) => {
    const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
    if (!m) throw new Error(`not a release version: ${JSON.stringify(v)}`);
    return m.slice(1).map(Number);
  };
  const [low, v] = [parse(caretFloor(range)), parse(version)];
  if (v[0] !== low[0]) return false;
  return v[1] > low[1] || (v[1] === low[1] && v[2] >= low[2]);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}
/** A child Node running `file` in `cwd`, with no PULUMI_* variable of the test's environment. */
function node(file: string, cwd: string): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PULUMI_")));
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [file], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("error", (e) => resolve({ code: -1, stdout, stderr: stderr + String(e), ms: Date.now() - t0 }));
    p.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}
/** The JSON a child printed on its `RESULT ` line; the child's output in the error when there is none. */
function result(r: Run): any {
  const line = r.stdout.split("\n").find((l) => l.startsWith("RESULT "));
  if (r.code !== 0 || !line) throw new Error(`child failed (exit ${r.code}):\n${r.stderr}\n${r.stdout}`.slice(0, 8000));
  return JSON.parse(line.slice("RESULT ".length));
}

/** The program: the SDK on mocks; prints what the outputs resolved to and what the mocks saw. */
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const seen = { resources: [], calls: [], order: [] };
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      seen.resources.push({ type: args.type, name: args.name, inputs: args.inputs });
      seen.order.push(args.name);
      return { id: args.type === "compute:index:Vpc" ? "101" : args.name + "-id", state: { ...args.inputs, created: "2024-01-02T03:04:05" } };
    },
    call: (args) => {
      seen.calls.push({ token: args.token, inputs: args.inputs });
      seen.order.push(args.token);
      if (args.token === "compute:index:getRegions") return { regions: [{ id: "us-east", country: "us", capabilities: ["VPCs"], status: "ok" }] };
      if (args.token === "compute:index:getImages") return { images: [{ id: "linode/debian12", label: "Debian 12" }] };
      throw new Error("unexpected invoke " + args.token);
    },
  },
  "project",
  "stack",
  false,
);
const compute = require(${JSON.stringify(NODE_SDK_PACKAGE)});
const value = (o) => new Promise((resolve) => o.apply(resolve));
(async () => {
  const vpc = new compute.Vpc("net", { region: "us-east", label: "net" });
  const subnet = new compute.Subnet("sub", { vpcId: vpc.id, ipv4: "10.0.0.0/24" });
  const provider = new compute.Provider("p", { token: "t0ken" });
  const regions = compute.getRegionsOutput({}, { dependsOn: [vpc] });
  const images = await compute.getImages({}, { provider });
  const fromSdk = require.resolve("@pulumi/pulumi", { paths: [require.resolve(${JSON.stringify(NODE_SDK_PACKAGE)})] });
  console.log("RESULT " + JSON.stringify({
    pulumi: require("@pulumi/pulumi/package.json").version,
    sameInstance: fromSdk === require.resolve("@pulumi/pulumi"),
    debugGuard: require("@pulumi/pulumi/log")[Symbol.for("pulumi-compute.debugRedaction")] === true,
    vpc: { id: await value(vpc.id), created: await value(vpc.created), urn: await value(vpc.urn) },
    subnet: { id: await value(subnet.id), vpcId: await value(subnet.vpcId) },
    regions: await value(regions),
    images,
    seen,
  }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

/** Type-checks the SDK's declarations as a program's tsc would (skipLibCheck off); prints the diagnostics. */
const TYPECHECK = `
const ts = require(${JSON.stringify(path.join(ROOT, "node_modules", "typescript"))});
const fs = require("node:fs");
const path = require("node:path");
const sdk = path.dirname(require.resolve(${JSON.stringify(NODE_SDK_PACKAGE + "/package.json")}));
const files = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith(".d.ts")) files.push(p);
  }
})(sdk);
const program = ts.createProgram(files, {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  types: ["node"],
  typeRoots: [${JSON.stringify(path.join(ROOT, "node_modules", "@types"))}],
});
const diagnostics = files.flatMap((f) => program.getSemanticDiagnostics(program.getSourceFile(f)).concat(program.getSyntacticDiagnostics(program.getSourceFile(f))));
const pulumi = ts.resolveModuleName("@pulumi/pulumi", files[0], program.getCompilerOptions(), ts.sys).resolvedModule;
console.log("RESULT " + JSON.stringify({
  files: files.length,
  pulumi: pulumi && pulumi.resolvedFileName,
  diagnostics: diagnostics.map((d) => (d.file ? path.relative(sdk, d.file.fileName) + ": " : "") + ts.flattenDiagnosticMessageText(d.messageText, "\\n")),
}));
`;

describe("the generated Node.js SDK on the lowest @pulumi/pulumi of its range", () => {
  const floor = caretFloor(NODE_SDK_PULUMI_RANGE);
  let tmp: string;
  let sdkPackage: any;
  let oldest: { name: string; version: string };
  // Both children start together (each is mostly CPU: about 5 s for the type-check, 1 s for the program).
  let typecheck: Promise<Run>;
  let program: Promise<Run>;
  const timings: string[] = [];

  beforeAll(() => {
    if (!existsSync(path.join(OLDEST, "package.json")))
      throw new Error(
        `node_modules/${ALIAS} is missing: package.json's devDependencies need "${ALIAS}": "npm:@pulumi/pulumi@${floor}" (the floor of NODE_SDK_PULUMI_RANGE), then npm install`,
      );
    if (!existsSync(TGZ)) throw new Error(`${path.relative(ROOT, TGZ)} is missing: run scripts/gen-sdks (npm test does, before jest)`);
    oldest = readJson(path.join(OLDEST, "package.json"));
    tmp = mkdtempSync(path.join(os.tmpdir(), "compute-sdk-range-"));
    const modules = path.join(tmp, "node_modules");
    const sdk = path.join(modules, ...NODE_SDK_PACKAGE.split("/"));
    mkdirSync(sdk, { recursive: true });
    mkdirSync(path.join(modules, "@pulumi"));
    symlinkSync(OLDEST, path.join(modules, "@pulumi", "pulumi"), "dir");
    const t0 = Date.now();
    const tar = spawnSync("tar", ["-xzf", TGZ, "-C", sdk, "--strip-components=1"], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`tar -xzf ${TGZ}: ${tar.stderr}`);
    timings.push(`extract the SDK: ${Date.now() - t0}ms`);
    sdkPackage = readJson(path.join(sdk, "package.json"));
    writeFileSync(path.join(tmp, "program.js"), PROGRAM);
    writeFileSync(path.join(tmp, "typecheck.js"), TYPECHECK);
    typecheck = node("typecheck.js", tmp);
    program = node("program.js", tmp);
  });

  afterAll(async () => {
    await Promise.all([typecheck, program]);
    process.stderr.write(`sdk-range.test timings:\n  ${timings.join("\n  ")}\n`);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("the SDK declares NODE_SDK_PULUMI_RANGE; the lowest version and the project's are in it; package.json installs the lowest", () => {
    expect(sdkPackage.name).toBe(NODE_SDK_PACKAGE);
    expect(sdkPackage.dependencies).toEqual({ "@pulumi/pulumi": NODE_SDK_PULUMI_RANGE });
    const project = readJson(path.join(ROOT, "package.json"));
    expect(project.devDependencies?.[ALIAS]).toBe(`npm:@pulumi/pulumi@${floor}`);
    expect(oldest).toMatchObject({ name: "@pulumi/pulumi", version: floor });
    expect(inCaret(NODE_SDK_PULUMI_RANGE, oldest.version)).toBe(true);
    const own = readJson(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json")).version as string;
    expect(inCaret(NODE_SDK_PULUMI_RANGE, own)).toBe(true);
    // The range says something: 3.139.0 (the last release without InvokeOutputOptions) is out of it, and so is 4.x.
    expect(inCaret(NODE_SDK_PULUMI_RANGE, "3.139.0")).toBe(false);
    expect(inCaret(NODE_SDK_PULUMI_RANGE, "4.0.0")).toBe(false);
  });

  test("its declarations type-check against the lowest version (skipLibCheck off)", async () => {
    const r = await typecheck;
    timings.push(`type-check the SDK's declarations: ${r.ms}ms`);
    const out = result(r);
    expect(out.files).toBeGreaterThan(40);
    expect(out.pulumi).toBe(path.join(realpathSync(OLDEST), "index.d.ts"));
    expect(out.diagnostics).toEqual([]);
  }, 120_000);

  test("it runs on the lowest version: resources, an output invoke with dependsOn and a plain one, on mocks", async () => {
    const r = await program;
    timings.push(`run the program on mocks: ${r.ms}ms`);
    const out = result(r);
    expect(out.pulumi).toBe(floor);
    expect(out.sameInstance).toBe(true);
    expect(out.debugGuard).toBe(true);
    expect(out.vpc).toEqual({ id: "101", created: "2024-01-02T03:04:05", urn: "urn:pulumi:stack::project::compute:index:Vpc::net" });
    expect(out.subnet).toEqual({ id: "sub-id", vpcId: "101" });
    expect(out.regions).toEqual({ regions: [{ id: "us-east", country: "us", capabilities: ["VPCs"], status: "ok" }] });
    expect(out.images).toEqual({ images: [{ id: "linode/debian12", label: "Debian 12" }] });
    expect(out.seen.calls.map((c: any) => c.token).sort()).toEqual(["compute:index:getImages", "compute:index:getRegions"]);
    // dependsOn holds: the read waits for the VPC (from 3.145.0 on; 3.141.0 to 3.144.1 read first).
    expect(out.seen.order.indexOf("net")).toBeLessThan(out.seen.order.indexOf("compute:index:getRegions"));
    const byName = Object.fromEntries(out.seen.resources.map((x: any) => [x.name, x]));
    expect(byName.net).toMatchObject({ type: "compute:index:Vpc", inputs: { region: "us-east", label: "net" } });
    expect(byName.sub).toMatchObject({ type: "compute:index:Subnet", inputs: { vpcId: "101", ipv4: "10.0.0.0/24" } });
    expect(byName.p.type).toBe("pulumi:providers:compute");
    // The SDK marks the provider's token secret: the mock gets it wrapped with Pulumi's secret signature.
    expect(byName.p.inputs.token).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "t0ken" });
  }, 120_000);
});
