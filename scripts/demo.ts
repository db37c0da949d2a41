#!/usr/bin/env node
/**
 * The demo: starts the emulator (statuses take seconds, as on the real service but faster), installs the
 * packed package into the examples, and in each example's folder runs the plain CLI as a user types it
 * (`pulumi stack init`, `pulumi config set [--secret]`, `pulumi up --yes`), prints the outputs, then
 * `pulumi destroy --yes` and `pulumi stack rm --yes`.
 *   npm run demo [-- --keep]     (--keep: leave the stacks up and the emulator running)
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator/server";
import { Project } from "./pulumi";
import { repoRoot } from "./root";
import { commandLine } from "./command-line";

const ROOT = repoRoot();
const EXAMPLES: Array<{ name: string; secrets?: Record<string, string> }> = [
  { name: "sshkey" },
  { name: "compute", secrets: { "compute-example:rootPass": `Demo-${randomBytes(9).toString("base64url")}-9a` } },
  { name: "network", secrets: { "network-example:rootPass": `Demo-${randomBytes(9).toString("base64url")}-9a` } },
  { name: "database", secrets: { "database-example:rootPass": `Demo-${randomBytes(9).toString("base64url")}-9a` } },
];

async function main(): Promise<void> {
  const { values } = commandLine({
    name: "npm run demo --",
    usage: `Usage: npm run demo [-- --keep]

Starts the emulator, installs the packed package into the examples, and in each example's folder runs the plain
Pulumi CLI as a user types it (stack init, config set, up), prints the outputs, then destroys the stacks.
  --keep       leave the stacks up and the emulator running (it says how to reach them)
  -h, --help   this text`,
    options: { keep: { type: "boolean" } },
  });
  const keep = values.keep === true;
  const t0 = Date.now();
  const step = (s: string) => console.log(`\n=== ${s} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);

  step("Pulumi CLI");
  execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { stdio: ["ignore", "ignore", "inherit"] });

  step("installing pulumi-compute into the examples from its packed tarball");
  execFileSync(
    path.join(ROOT, "scripts", "prepare-examples"),
    EXAMPLES.map((e) => e.name),
    { stdio: "inherit" },
  );

  step("starting the emulator");
  const emu = await startEmulator({ speed: 0.25 });
  console.log(`emulator at ${emu.url}`);

  const stateDir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-demo-"));
  const stacks = EXAMPLES.map((e) => ({
    name: e.name,
    project: new Project(path.join(ROOT, "examples", e.name), "demo", path.join(stateDir, e.name)),
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, ...e.secrets },
  }));
  // Each step as a user types it, its output shown as it would be in their terminal.
  const cli = async (s: (typeof stacks)[number], op: "up" | "destroy" | "rm") => {
    console.log(`$ pulumi ${op === "rm" ? "stack rm" : op} --yes`);
    const r = await s.project.run(op);
    process.stdout.write(r.stdout);
    if (r.code !== 0) throw new Error(`pulumi ${op} in examples/${s.name} failed:\n${r.stderr}`);
    return r;
  };
  try {
    for (const s of stacks) {
      step(`examples/${s.name}`);
      console.log(
        `$ cd examples/${s.name} && pulumi stack init demo && pulumi config set compute:apiUrl ${emu.url} && pulumi config set --secret compute:token ...`,
      );
      await s.project.configure(s.config, s.secrets);
      await cli(s, "up");
    }
    const d = emu.store.data;
    console.log(
      `\nThe emulator now holds ${d.sshkeys.length} SSH key(s), ${d.instances.length} instance(s) (${d.instances.map((x) => `${x.label}: ${x.status}`).join(", ")}), ${d.disks.length} disks, ${d.configs.length} profiles, ${d.vpcs.length} VPC(s) with ${d.subnets.length} subnets, ${d.images.length} private images, ${d.databases.length} databases.`,
    );
    if (keep) {
      console.log(
        `\nLeft running (--keep). Emulator: ${emu.url}  token: ${emu.token}\nState: ${stateDir} (PULUMI_BACKEND_URL=file://${stateDir}/<example>)\nCtrl-C to stop.`,
      );
      await new Promise(() => undefined);
    }
    for (const s of [...stacks].reverse()) {
      step(`examples/${s.name}: destroy`);
      await cli(s, "destroy");
      await cli(s, "rm");
    }
    await fetch(`${emu.url}/compute/instances`, { headers: { authorization: `Bearer ${emu.token}` } }); // lets deletions finish
    step(
      `done: the emulator holds ${d.sshkeys.length + d.instances.length + d.disks.length + d.configs.length + d.vpcs.length + d.subnets.length + d.images.length + d.databases.length} objects`,
    );
  } finally {
    if (!keep) {
      rmSync(stateDir, { recursive: true, force: true });
      for (const s of stacks) rmSync(path.join(s.project.dir, "Pulumi.demo.yaml"), { force: true });
      await emu.close();
    }
  }
}

main().catch((err: Error) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
