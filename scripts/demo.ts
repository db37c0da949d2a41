#!/usr/bin/env node
/**
 * The demo: starts the emulator, prepares examples/sshkey (installed from the packed package), runs a
 * real `pulumi up` of it against the emulator and prints its outputs, then destroys it.
 *   npm run demo [-- --keep]     (--keep: leave the stack up and the emulator running)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator/server";
import { run } from "./pulumi";
import { repoRoot } from "./root";

const ROOT = repoRoot();

async function main(): Promise<void> {
  const keep = process.argv.includes("--keep");
  const t0 = Date.now();
  const step = (s: string) => console.log(`\n=== ${s} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);

  step("Pulumi CLI");
  execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { stdio: ["ignore", "ignore", "inherit"] });

  step("installing pulumi-compute into examples/sshkey from its packed tarball");
  execFileSync(path.join(ROOT, "scripts", "prepare-examples"), ["sshkey"], { stdio: "inherit" });

  step("starting the emulator");
  const emu = await startEmulator({});
  console.log(`emulator at ${emu.url}`);

  const stateDir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-demo-"));
  const opts = {
    dir: path.join(ROOT, "examples", "sshkey"),
    stack: "demo",
    stateDir,
    config: { "compute:apiUrl": emu.url },
    secrets: { "compute:token": emu.token },
  };
  try {
    step("pulumi up");
    const up = await run({ ...opts, op: "up" });
    console.log("\nStack outputs:", JSON.stringify(up.outputs, null, 2));
    console.log("The emulator now holds:", JSON.stringify(emu.store.data.sshkeys.map(({ username: _u, ...k }) => k), null, 2));
    if (keep) {
      console.log(`\nLeft running (--keep). Emulator: ${emu.url}  token: ${emu.token}\nState: ${stateDir}\nCtrl-C to stop.`);
      await new Promise(() => undefined);
    }
    step("pulumi destroy");
    await run({ ...opts, op: "destroy" });
    await run({ ...opts, op: "rm" });
    step(`done: the emulator holds ${emu.store.data.sshkeys.length} keys`);
  } finally {
    if (!keep) {
      rmSync(stateDir, { recursive: true, force: true });
      rmSync(path.join(opts.dir, "Pulumi.demo.yaml"), { force: true });
      await emu.close();
    }
  }
}

main().catch((err: Error) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
