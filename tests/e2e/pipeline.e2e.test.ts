/**
 * docs/cost-and-policy.md's pipeline, its block run line by line as the page writes it, from a release folder (the
 * plugin archive the engine downloads, the Python wheel, the pipeline's two npm packages and checksums.txt, made
 * by the release's own functions), for a TypeScript program (tests/programs/pipeline, on the plugin SDK) and the
 * same program in Python (tests/programs/policy-python), against the emulator:
 * - the tools installed by the page's line, from the release folder's tarballs, in a folder beside the program;
 * - a pull request over the budget that breaks the rules: its cost comment says so, exit 1, and the policy gate fails;
 * - a misspelt policy in policy.json: refused, naming it;
 * - the pull request fixed: every step passes, and the merge's `up` makes the stack;
 * - a stale export refused, and the page's preview with --show-sames, which needs none;
 * - drift made out of band in the emulator: the scheduled steps' report names it, exit 1.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { writeChecksums } from "../../scripts/release";
import { packPipeline, packPolicy } from "../../scripts/package-pipeline";
import { runCommand } from "../helpers/command";
import { ed25519Key, emulator, inventory } from "../helpers/emulator";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";
import { activated, newestPulumi, pythonWheel, venvWith } from "../helpers/python";

jest.setTimeout(900_000);
const ROOT = path.resolve(__dirname, "..", "..");
const PAGE = readFileSync(path.join(ROOT, "docs", "cost-and-policy.md"), "utf8");
const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-pipeline-"));
const ARTIFACTS = path.join(ROOT, ".artifacts", "pipeline");

let emu: Emulator;
let plugin: AcquiredPlugin;

/** The page's block of `lang` after the marker. */
function pageBlock(marker: string, lang: string): string {
  const at = PAGE.indexOf(marker);
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(PAGE.slice(at));
  if (at < 0 || !m) throw new Error(`docs/cost-and-policy.md has no ${lang} block after "${marker}"`);
  return m[1];
}

/** The block's commands under each of its comments (`Once per job`, `On a pull request`, `On merge`, `On a schedule`). */
function pipeline(): Record<string, string[]> {
  const parts: Record<string, string[]> = {};
  let part = "";
  for (const line of pageBlock("<!-- pipeline", "sh").split("\n")) {
    if (line.startsWith("# ")) parts[(part = line.slice(2).split(":")[0])] = [];
    else if (line.trim()) parts[part].push(line);
  }
  return parts;
}

/** The page's line that installs the tools from a release folder, with the folder's path where it says `path/to/release`. */
function installFromRelease(folder: string): string {
  const m = /`(npm install --prefix ci-tools path\/to\/release\/[^`]+)`/.exec(PAGE);
  if (!m) throw new Error("docs/cost-and-policy.md has no install line from a release folder");
  return m[1].replaceAll("path/to/release", folder);
}

beforeAll(async () => {
  emu = await emulator();
  emu.timing.speed = TEST_SPEED;
  plugin = await acquirePlugin({ withNode: true });
  // The rest of the release folder, by the release's own functions, and its checksums.
  packPipeline(plugin.folder, PLUGIN_VERSION);
  packPolicy(plugin.folder, PLUGIN_VERSION);
  pythonWheel(plugin.folder);
  writeChecksums(plugin.folder);
  expect(execFileSync("sha256sum", ["-c", "checksums.txt"], { cwd: plugin.folder, encoding: "utf8" })).not.toMatch(/FAILED/);
});
afterAll(async () => {
  await plugin?.cleanup();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A language's program: its stack, and a shell line run in its folder as a CI job runs it. */
interface Program {
  language: string;
  stack: TestStack;
  /** `pulumi config set` of the program's settings and these. */
  configure(config: Record<string, string>): Promise<void>;
  run(line: string): Promise<{ code: number; stdout: string; stderr: string }>;
}

function program(language: "TypeScript" | "Python"): Program {
  const settings = { config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(62) }, secrets: { "compute:token": emu.token } };
  let env: Record<string, string> = plugin.env;
  if (language === "Python") {
    // The program's setup, as the page's table says: a virtual environment with the release's wheel.
    const wheel = path.join(plugin.folder, `pulumi_compute-${PLUGIN_VERSION}-py3-none-any.whl`);
    const python = activated(venvWith(newestPulumi(), wheel));
    env = { ...plugin.env, ...python, PATH: [python.PATH, plugin.env.PATH].join(path.delimiter) };
  }
  const folder = language === "TypeScript" ? "tests/programs/pipeline" : "tests/programs/policy-python";
  const stack = new TestStack(folder, `pipeline-${language === "TypeScript" ? "ts" : "py"}-${process.pid}`, { ...settings, env });
  return {
    language,
    stack,
    configure: (config) => stack.project.configure({ ...settings.config, ...config }, settings.secrets),
    run: (line) =>
      runCommand("/bin/bash", ["-c", line], {
        cwd: stack.dir,
        // A CI job's shell: the CLI (and the program's environment), then the system's tools (node, npm).
        env: stack.project.env({ ...env, PATH: [env.PATH, process.env.PATH].join(path.delimiter) }),
      }),
  };
}

const FILES = ["ci-tools", "policy.json", "preview.json", "partial.json", "stale.json", "cost.md", "refresh.json", "drift.md"];

for (const language of ["TypeScript", "Python"] as const) {
  test(`${language}: the page's pipeline from a release folder: a pull request over budget and breaking the rules, a misspelt policy, the fix merged, a stale export, drift`, async () => {
    const p = program(language);
    const steps = pipeline();
    expect(Object.keys(steps)).toEqual(["Once per job", "On a pull request", "On merge", "On a schedule"]);
    const ok = async (line: string) => {
      const r = await p.run(line);
      expect([line, r.code, r.code ? r.stdout + r.stderr : ""]).toEqual([line, 0, ""]);
      return r;
    };
    const file = (name: string) => readFileSync(path.join(p.stack.dir, name), "utf8");
    try {
      // The tools, from the release folder, as the page says before the packages are published.
      const install = steps["Once per job"];
      expect(install).toEqual(["npm install --prefix ci-tools @pulumi-compute/pipeline@0.1.0 @pulumi-compute/policy@0.1.0"]);
      expect(PLUGIN_VERSION).toBe("0.1.0"); // the page names the version of this tree
      await ok(installFromRelease(plugin.folder));
      expect(existsSync(path.join(p.stack.dir, "ci-tools", "node_modules", ".bin", "compute-cost"))).toBe(true);
      writeFileSync(path.join(p.stack.dir, "policy.json"), pageBlock("<!-- policy.json", "json"));
      const [preview, cost, policy] = steps["On a pull request"];

      // A pull request that breaks the rules and the budget: g6-standard-20 (576) without backups, the cluster (30).
      await p.configure({ secure: "false", type: "g6-standard-20" });
      await ok(preview);
      const over = await p.run(cost);
      expect(over.code).toBe(1);
      const comment = file("cost.md").split("\n");
      expect(comment.slice(0, 3)).toEqual([
        `### Monthly cost of stack \`${p.stack.stack}\`: $0.00 → $606.00 (+$606.00)`,
        "",
        "**Over the budget**: $606.00 a month after the change is $106.00 over the budget of $500.00.",
      ]);
      expect(comment).toContain("| web (Instance) | create | g6-standard-20 in us-east | $0.00 | $576.00 | +$576.00 |");
      // The policy step runs all the same (the page's job: `if: !cancelled()`), and its gate fails.
      const gate = await p.run(policy);
      expect(gate.code).not.toBe(0);
      expect(gate.stdout).toMatch(/\[mandatory\]\s+database-open-to-the-world/);

      // A misspelt policy name in policy.json: refused, naming it.
      writeFileSync(path.join(p.stack.dir, "policy.json"), JSON.stringify({ "instance-backup": "mandatory" }));
      await p.configure({ secure: "true", type: "c1-standard-2" });
      const misspelt = await p.run(policy);
      expect(misspelt.code).not.toBe(0);
      expect(misspelt.stdout + misspelt.stderr).toContain("instance-backup");
      writeFileSync(path.join(p.stack.dir, "policy.json"), pageBlock("<!-- policy.json", "json"));

      // Fixed: every step passes (13.14 + 3.29 with backups, and 30), and the merge's up makes the stack.
      for (const line of [preview, cost, policy]) await ok(line);
      expect(file("cost.md").split("\n")[2]).toBe("**Within the budget**: $46.43 a month after the change, $453.57 under the budget of $500.00.");
      writeFileSync(path.join(p.stack.dir, "stale.json"), (await p.stack.run("export")).stdout);
      for (const line of steps["On merge"]) await ok(line);
      expect(await p.stack.project.outputs()).toMatchObject({ webMonthly: 16.43, dbMonthly: 30 });

      // The next pull request (c1-standard-4): the page's preview is all the report needs; an export from before the
      // merge given beside it is refused, and so is a preview without --show-sames.
      await p.configure({ type: "c1-standard-4" });
      await ok(preview);
      const stale = await p.run("ci-tools/node_modules/.bin/compute-cost --preview preview.json --state stale.json --out cost.md");
      expect([stale.code, file("cost.md")]).toEqual([2, expect.stringContaining("does not match the preview: the state has no resources")]);
      await ok("pulumi preview --json > partial.json");
      const partial = await p.run("ci-tools/node_modules/.bin/compute-cost --preview partial.json --out cost.md");
      expect([partial.code, file("cost.md")]).toEqual([2, expect.stringContaining("without listing them")]);
      await ok(cost);
      // 26.28 + 6.57 + 30.
      expect(file("cost.md").split("\n")[0]).toBe(`### Monthly cost of stack \`${p.stack.stack}\`: $46.43 → $62.85 (+$16.42)`);
      await p.configure({ type: "c1-standard-2" });

      // On a schedule: no drift, then drift made out of band (the instance renamed through the API).
      const [refresh, drift] = steps["On a schedule"];
      await ok(refresh);
      await ok(drift);
      const [web] = (await inventory(emu)).instances;
      const renamed = await fetch(`${emu.url}/compute/instances/${web.id}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
        body: JSON.stringify({ label: "renamed-by-hand" }),
      });
      expect(renamed.status).toBe(200);
      await ok(refresh);
      const drifted = await p.run(drift);
      expect(drifted.code).toBe(1);
      expect(file("drift.md")).toContain("renamed-by-hand");
      expect(file("drift.md")).toContain(web.label);
      // The comments as a reviewer sees them, kept for the run's artifacts.
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(path.join(ARTIFACTS, `${language}-over-budget-cost.md`), comment.join("\n"));
      writeFileSync(path.join(ARTIFACTS, `${language}-drift.md`), file("drift.md"));
      expect((await p.stack.run("destroy")).code).toBe(0);
    } finally {
      for (const f of FILES) rmSync(path.join(p.stack.dir, f), { recursive: true, force: true });
      p.stack.cleanup();
    }
  });
}
