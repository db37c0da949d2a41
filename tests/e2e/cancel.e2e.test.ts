/**
 * Ctrl-C during a long wait, through the plain CLI, in both forms: SIGINT or SIGTERM to `pulumi up` (the
 * engine then sends its Cancel to the providers), or SIGINT to the whole process group (what a terminal's
 * Ctrl-C does: the provider's process gets it too). The run ends while the instance is still provisioning
 * (it would wait about 12 s), the instance made is in the stack with its id, and the next `up` goes on with
 * it (it waits for the provisioning to end): never a duplicate, never an orphan.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { pulumiBin } from "../../scripts/pulumi";
import { ed25519Key, emulator, list } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";
import { waitUntil } from "../helpers/wait";

jest.setTimeout(600_000);

let emu: Emulator;
let plugin: InstalledPlugin;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emu = await emulator();
  plugin = await installPlugin();
});
afterAll(async () => {
  for (const s of stacks) s.cleanup();
  plugin?.cleanup();
  await emu?.close();
});

/** `pulumi up` started as a user starts it, interrupted once its instance exists; what it printed, and the instance then. */
async function interruptedUp(stack: TestStack, label: string, extraEnv: Record<string, string>, signal: NodeJS.Signals, group: boolean) {
  const env = stack.project.env(extraEnv);
  const child = spawn(path.join(pulumiBin(), "pulumi"), ["up", "--yes", "--non-interactive", "--color", "never", "--stack", stack.stack], {
    cwd: stack.dir,
    env,
    detached: true, // its own process group, as a terminal gives a command
  });
  let output = "";
  child.stdout.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr.on("data", (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  const slow = async () => (await list(emu, "/compute/instances")).find((i) => i.label === label);
  await waitUntil(async () => (await slow())?.status === "provisioning", { timeoutMs: 120_000, what: `the instance ${label} to be made` });
  const startedAt = Date.now();
  process.kill(group ? -child.pid! : child.pid!, signal);
  const code = await exited;
  const tookMs = Date.now() - startedAt;
  return { code, output, tookMs, instance: await slow() };
}

const CASES = [
  ["plugin", "SIGINT", false],
  ["dynamic", "SIGTERM", false],
  ["dynamic", "SIGINT", true],
] as const;

/** One case: its own stack and instance; the run interrupted, what it kept, and the next up. */
async function interruptAndGoOn([form, signal, group]: (typeof CASES)[number]) {
  const what = `${form} ${signal}${group ? " (group)" : ""}`;
  const label = `slow-${form}-${signal.toLowerCase()}${group ? "-group" : ""}`;
  const stack = new TestStack("tests/programs/plans", `cancel-${form}-${signal}-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, form, publicKey: ed25519Key(62), withSlow: "true", slowLabel: label },
    secrets: { "compute:token": emu.token, rootPass: "Cancel-R00t-Pass!" },
    env: form === "plugin" ? plugin.env : {},
  });
  stacks.push(stack);
  await stack.run("outputs"); // the stack and its config, as `pulumi stack init` and `pulumi config set` make them
  const run = await interruptedUp(stack, label, form === "plugin" ? plugin.env : {}, signal, group);
  expect([what, run.output]).toEqual([what, expect.stringMatching(signal === "SIGTERM" ? /SIGTERM received; cancelling/ : /\^C received; cancelling/)]);
  expect([what, run.code === 0]).toEqual([what, false]);
  // It ended before the instance was done provisioning: the wait was cut short, not waited out.
  expect([what, run.instance?.status]).toEqual([what, "provisioning"]);
  console.log(`${what}: the run ended ${run.tookMs} ms after the signal`);
  // What was made is in the stack, with its id.
  const kept = resourcesOf(await stack.ok("export"), ":Instance");
  expect([what, kept.map((r: any) => r.id)]).toEqual([what, [String(run.instance!.id)]]);
  // The next up goes on with it: the same instance, running, and no second one.
  const up = await stack.ok("up");
  expect([what, up.outputs.slowId]).toEqual([what, String(run.instance!.id)]);
  const instances = (await list(emu, "/compute/instances")).filter((i) => i.label === label);
  expect([what, instances.map((i) => [i.id, i.status])]).toEqual([what, [[run.instance!.id, "running"]]]);
  return up.outputs.slowId as string;
}

test("Ctrl-C in both forms (the plugin; the dynamic classes with SIGTERM, and SIGINT to the process group): the runs end during the wait, keep the instance, and the next up goes on with it", async () => {
  // The instance provisions for 8 s and runs 12 s after its create: 1.5 when the create took 8 s at speed 1, 74 s now.
  emu.timing.speed = 1.5 * (8 / 74);
  const held = await Promise.all(CASES.map(interruptAndGoOn));
  // No orphan: every instance the API has is the one a stack holds (what a destroy of the stacks would delete).
  expect((await list(emu, "/compute/instances")).map((i) => String(i.id)).sort()).toEqual([...held].sort());
});
