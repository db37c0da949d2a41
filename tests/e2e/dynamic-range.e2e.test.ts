/**
 * The dynamic classes (`pulumi-compute`) on the LOWEST `@pulumi/pulumi` of the range package.json declares,
 * through the real CLI: a program whose `@pulumi/pulumi` is that version (package.json's alias devDependency
 * `pulumi-oldest`, so that the suite runs offline after `npm ci`) and whose `pulumi-compute` is the packed
 * tarball (scripts/prepare-examples packs it), run with `pulumi up`, a preview that plans nothing, and
 * `pulumi destroy` against the emulator. The dynamic provider runs the program's own `@pulumi/pulumi` (the
 * engine's pulumi-resource-pulumi-nodejs resolves it from the program's folder), so this is the old SDK's
 * provider server too.
 *
 * And the other end of the range: a program on today's `@pulumi/pulumi` (the examples' version) gets one
 * copy of it: npm takes the program's own for `pulumi-compute`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { ed25519Key, emulator, list } from "../helpers/emulator";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, "..", "..");
const readJson = (file: string): any => JSON.parse(readFileSync(file, "utf8"));
const PACKAGE = readJson(path.join(ROOT, "package.json"));
const RANGE: string = PACKAGE.dependencies["@pulumi/pulumi"];
const OLDEST = path.join(ROOT, "node_modules", "pulumi-oldest");
const TGZ = path.join(ROOT, ".pack", "pulumi-compute.tgz");

/** The lowest version of a caret range `^M.m.p`. */
function caretFloor(range: string): string {
  const m = /^\^([1-9]\d*\.\d+\.\d+)$/.exec(range);
  if (!m) throw new Error(`package.json's @pulumi/pulumi must be a caret range ^M.m.p, not ${JSON.stringify(range)}`);
  return m[1];
}

describe("the dynamic classes on the lowest @pulumi/pulumi of their range, through the CLI", () => {
  let emu: Emulator;
  let dir: string;
  let stack: TestStack;

  beforeAll(async () => {
    if (!existsSync(TGZ)) throw new Error(`${path.relative(ROOT, TGZ)} is missing: run scripts/prepare-examples (npm test does, before jest)`);
    dir = mkdtempSync(path.join(os.tmpdir(), "compute-dynamic-range-"));
    const modules = path.join(dir, "node_modules");
    const own = path.join(modules, "pulumi-compute");
    mkdirSync(own, { recursive: true });
    mkdirSync(path.join(modules, "@pulumi"));
    symlinkSync(OLDEST, path.join(modules, "@pulumi", "pulumi"), "dir");
    const tar = spawnSync("tar", ["-xzf", TGZ, "-C", own, "--strip-components=1"], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`tar -xzf ${TGZ}: ${tar.stderr}`);
    // pulumi-compute's other dependencies, as npm would put them beside it.
    for (const dep of Object.keys(readJson(path.join(own, "package.json")).dependencies)) {
      if (dep === "@pulumi/pulumi") continue;
      const target = path.join(modules, ...dep.split("/"));
      mkdirSync(path.dirname(target), { recursive: true });
      symlinkSync(path.join(ROOT, "node_modules", ...dep.split("/")), target, "dir");
    }
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: dynamic-range\nruntime: nodejs\ndescription: the dynamic classes on the lowest @pulumi/pulumi\n");
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "dynamic-range",
        main: "index.js",
        dependencies: { "@pulumi/pulumi": caretFloor(RANGE), "pulumi-compute": "file:pulumi-compute.tgz" },
      }),
    );
    writeFileSync(
      path.join(dir, "index.js"),
      [
        'const compute = require("pulumi-compute");',
        `const key = new compute.SshKey("deploy", { label: "range-key", sshKey: ${JSON.stringify(ed25519Key(7001))} });`,
        "exports.keyId = key.id;",
        'exports.pulumi = require("@pulumi/pulumi/package.json").version;',
        "",
      ].join("\n"),
    );
    emu = await emulator();
    stack = new TestStack(dir, `range-${process.pid}`, { config: { "compute:apiUrl": emu.url }, secrets: { "compute:token": emu.token } });
  });
  afterAll(async () => {
    stack?.cleanup();
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("package.json's range starts at the version the alias installs; the project's own is in it", () => {
    expect(readJson(path.join(OLDEST, "package.json")).version).toBe(caretFloor(RANGE));
    expect(PACKAGE.devDependencies["pulumi-oldest"]).toBe(`npm:@pulumi/pulumi@${caretFloor(RANGE)}`);
    const installed = readJson(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json")).version;
    expect(installed.split(".")[0]).toBe(caretFloor(RANGE).split(".")[0]);
  });

  test("up, a preview that plans nothing, destroy", async () => {
    const up = await stack.ok("up");
    expect(up.summary).toEqual({ create: 2 });
    expect(up.outputs.pulumi).toBe(caretFloor(RANGE));
    const keys = await list(emu, "/profile/sshkeys");
    expect(keys.map((k) => [String(k.id), k.label])).toEqual([[up.outputs.keyId, "range-key"]]);
    const again = await stack.run("preview", { flags: ["--expect-no-changes"] });
    expect(again.code).toBe(0);
    await stack.ok("destroy");
    expect(await list(emu, "/profile/sshkeys")).toEqual([]);
  });
});

test("a program on today's @pulumi/pulumi gets one copy: pulumi-compute takes the program's own", () => {
  const example = path.join(ROOT, "examples", "all", "node_modules");
  if (!existsSync(path.join(example, "pulumi-compute"))) throw new Error("examples/all is not prepared: run scripts/prepare-examples (npm test does)");
  expect(readJson(path.join(example, "@pulumi", "pulumi", "package.json")).version).toBe(
    readJson(path.join(ROOT, "examples", "all", "package.json")).dependencies["@pulumi/pulumi"],
  );
  expect(existsSync(path.join(example, "pulumi-compute", "node_modules", "@pulumi", "pulumi"))).toBe(false);
});
