/**
 * The README's "Using it in a stack" block, run as it is with bash in an empty folder: a new project, the
 * package installed from its packed tarball, `pulumi stack init`, `config set`, `preview --diff`, `up`,
 * `refresh`, `stack export`, `destroy` with the plain CLI and its Node.js language host. Only the
 * placeholders are filled in.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { Project } from "../../scripts/pulumi";
import { call, emulator } from "../helpers/emulator";

jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, "..", "..");

/** The first sh block after the heading. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`## ${heading}`);
  expect(at).toBeGreaterThanOrEqual(0);
  const m = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  return m![1];
}

let emu: Emulator;
const work = mkdtempSync(path.join(tmpdir(), "pulumi-compute-readme-"));
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu?.close();
  rmSync(work, { recursive: true, force: true });
});

test("the README's steps make, refresh, export and destroy a stack", async () => {
  const block = readmeBlock("Using it in a stack");
  const script = block
    .replace("npm install pulumi-compute ", `npm install ${path.join(ROOT, ".pack", "pulumi-compute.tgz")} `)
    .replace("https://<api host>/v4", emu.url)
    .replace("<token>", emu.token);
  expect(script).not.toMatch(/<api host>|<token>/);
  // The environment of a pipeline: a local backend and a passphrase, nothing else.
  const env = new Project(work, "unused", path.join(work, "state")).env({ npm_config_audit: "false", npm_config_fund: "false" });
  const r = await new Promise<{ code: number; out: string }>((resolve) =>
    execFile("bash", ["-euo", "pipefail", "-c", script], { cwd: work, env, maxBuffer: 64 * 1024 * 1024, timeout: 480_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, out: `${stdout}\n${stderr}` }),
    ),
  );
  if (r.code !== 0) throw new Error(r.out);

  // One @pulumi/pulumi (the one pulumi-compute brings), and no warning from the Node.js host on a run.
  const copies = await new Promise<string>((resolve) =>
    execFile("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], { cwd: path.join(work, "infra"), env }, (_err, stdout) => resolve(stdout)),
  );
  expect(copies.trim().split("\n")).toEqual([path.join(work, "infra", "node_modules", "@pulumi", "pulumi")]);
  expect(r.out).not.toMatch(/Could not find entry point|warning:/i);

  // preview --diff, then up: the key was made with an auto-named label and then deleted by destroy.
  expect(r.out).toMatch(/\+ pulumi-nodejs:dynamic\/compute:SshKey: \(create\)/);
  const made = emu.log.filter((l) => l.method === "POST" && l.path === "/v4/profile/sshkeys");
  expect(made.map((l) => l.status)).toEqual([200]);
  expect(r.out).toMatch(/keyLabel\s*: "deploy-[0-9a-f]{7}"/);
  expect(emu.log.filter((l) => l.method === "DELETE" && /^\/v4\/profile\/sshkeys\/\d+$/.test(l.path)).map((l) => l.status)).toEqual([200]);
  expect((await call(emu, "GET", "/profile/sshkeys")).body.data).toEqual([]);
  // The exported state holds the token encrypted only.
  const exported = readFileSync(path.join(work, "infra", "state.json"), "utf8");
  expect(exported).toContain("deploy");
  expect(exported).not.toContain(emu.token);
  expect(r.out).not.toContain(emu.token);
});
