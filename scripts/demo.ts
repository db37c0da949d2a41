#!/usr/bin/env node
/**
 * The demo: starts the emulator (statuses take seconds, as on the real service but faster), installs the
 * packed package into the examples, runs a real `pulumi up` of each against the emulator and prints
 * the outputs, then destroys them.
 *   npm run demo [-- --keep]     (--keep: leave the stacks up and the emulator running)
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator/server";
import { run } from "./pulumi";
import { repoRoot } from "./root";

const ROOT = repoRoot();
const EXAMPLES: Array<{ name: string; secrets?: Record<string, string> }> = [
  { name: "sshkey" },
  { name: "compute", secrets: { "compute-example:rootPass": `Demo-${randomBytes(9).toString("base64url")}-9a` } },
  { name: "network", secrets: { "network-example:rootPass": `Demo-${randomBytes(9).toString("base64url")}-9a` } },
  { name: "database", secrets: { "database-example:rootPass": `Demo-${randomBytes(9).toString("base64url")}-9a` } },
];

async function main(): Promise<void> {
  const keep = process.argv.includes("--keep");
  const t0 = Date.now();
  const step = (s: string) => console.log(`\n=== ${s} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);

  step("Pulumi CLI");
  execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { stdio: ["ignore", "ignore", "inherit"] });

  step("installing pulumi-compute into the examples from its packed tarball");
  execFileSync(path.join(ROOT, "scripts", "prepare-examples"), EXAMPLES.map((e) => e.name), { stdio: "inherit" });

  step("starting the emulator");
  const emu = await startEmulator({ speed: 0.25 });
  console.log(`emulator at ${emu.url}`);

  const stateDir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-demo-"));
  const stacks = EXAMPLES.map((e) => ({
    dir: path.join(ROOT, "examples", e.name),
    stack: "demo",
    stateDir: path.join(stateDir, e.name),
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token, ...e.secrets },
  }));
  try {
    for (const [i, opts] of stacks.entries()) {
      step(`pulumi up: examples/${EXAMPLES[i].name}`);
      const up = await run({ ...opts, op: "up" });
      console.log(`\nStack outputs of examples/${EXAMPLES[i].name}:`, JSON.stringify(up.outputs, null, 2));
    }
    const d = emu.store.data;
    console.log(`\nThe emulator now holds ${d.sshkeys.length} SSH key(s), ${d.instances.length} instance(s) (${d.instances.map((x) => `${x.label}: ${x.status}`).join(", ")}), ${d.disks.length} disks, ${d.configs.length} profiles, ${d.vpcs.length} VPC(s) with ${d.subnets.length} subnets, ${d.images.length} private images, ${d.databases.length} databases.`);
    if (keep) {
      console.log(`\nLeft running (--keep). Emulator: ${emu.url}  token: ${emu.token}\nState: ${stateDir}\nCtrl-C to stop.`);
      await new Promise(() => undefined);
    }
    for (const [i, opts] of [...stacks.entries()].reverse()) {
      step(`pulumi destroy: examples/${EXAMPLES[i].name}`);
      await run({ ...opts, op: "destroy" });
      await run({ ...opts, op: "rm" });
    }
    await fetch(`${emu.url}/compute/instances`, { headers: { authorization: `Bearer ${emu.token}` } }); // lets deletions finish
    step(`done: the emulator holds ${d.sshkeys.length + d.instances.length + d.disks.length + d.configs.length + d.vpcs.length + d.subnets.length + d.images.length + d.databases.length} objects`);
  } finally {
    if (!keep) {
      rmSync(stateDir, { recursive: true, force: true });
      for (const opts of stacks) rmSync(path.join(opts.dir, "Pulumi.demo.yaml"), { force: true });
      await emu.close();
    }
  }
}

main().catch((err: Error) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
