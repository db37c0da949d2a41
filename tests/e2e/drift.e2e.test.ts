/**
 * The drift report (`npx compute-drift`, provider/drift/) on real refreshes through the plain CLI: a YAML program
 * on the plugin, deployed, then changed out of band through the emulator's HTTP API (an instance renamed, its tags,
 * an alert and its type changed, a profile's interface relabelled, a database's allow list widened and its
 * credentials reset, an SSH key deleted). `pulumi refresh --preview-only --json` (and its other forms: streamed,
 * `--show-sames`, `pulumi preview --refresh --json`, `pulumi refresh --yes --json`) read by the command as a
 * scheduled job runs it: each drift before → after, nothing else, no secret, exit 1; a stack as deployed exits 0;
 * a refresh that fails, or an input that is not a refresh's, exits 2 with a report that says why; a refresh needs
 * neither the program's language nor the plugin installed beforehand (any language: the same job). Then the dynamic
 * TypeScript classes (examples/sshkey), whose provider gives the engine no detailed diff.
 *
 * DRIFT_RECORD=1 writes the CLI's outputs to tests/fixtures/drift/ (read by tests/unit/drift-report.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import { TEST_SPEED } from "../../emulator/timing";
import { runCommand } from "../helpers/command";
import { call, ed25519Key, emulator, get, list } from "../helpers/emulator";
import { acquirePlugin, PLUGIN_VERSION, type AcquiredPlugin } from "../helpers/plugin";
import { TestStack, type PulumiResult } from "../helpers/pulumi";
import { archiveName, hostPlatform } from "../../scripts/package-plugin";

jest.setTimeout(600_000);
const ROOT = path.resolve(__dirname, "..", "..");
const DRIFT = path.join(ROOT, "dist", "provider", "drift", "cli.js");
const FIXTURES = path.join(ROOT, "tests", "fixtures", "drift");
const ROOT_PASS = "Dr1ft-R00t-Pass!x";
const STREAM = { PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true" };
/** Each stack's secrets (its token, the program's root password). */
const SECRETS: Record<string, Record<string, string>> = {};

let emu: Emulator;
let plugin: AcquiredPlugin;
let stack: TestStack;
const dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-drift-"));

const options = [
  "    options:",
  `      version: ${PLUGIN_VERSION}`,
  `      pluginDownloadURL: https://github.com/pulumi-compute/pulumi-compute/releases/download/v${PLUGIN_VERSION}/`,
];
const PROGRAM = [
  "name: drift-e2e",
  "runtime: yaml",
  "config:",
  "  rootPass:",
  "    type: string",
  "    secret: true",
  "resources:",
  "  key:",
  "    type: compute:index:SshKey",
  `    properties: { label: deploy-key, sshKey: "${ed25519Key(81)}" }`,
  ...options,
  "  spare:",
  "    type: compute:index:SshKey",
  `    properties: { label: spare-key, sshKey: "${ed25519Key(82)}" }`,
  "  web:",
  "    type: compute:index:Instance",
  "    properties:",
  "      { label: web-1, region: us-east, type: c1-standard-2, tags: [web, production], alerts: { cpu: 90 }, allowAutoDiskResize: false }",
  "  root:",
  "    type: compute:index:Disk",
  "    properties: { computeId: '${web.id}', label: root, size: 4096, image: compute/debian12, rootPass: '${rootPass}' }",
  "  main:",
  "    type: compute:index:Config",
  "    properties:",
  "      computeId: ${web.id}",
  "      label: main",
  "      devices: { sda: { diskId: '${root.id}' } }",
  "      interfaces: [{ purpose: public, primary: true }, { purpose: vlan, label: backend, ipamAddress: 10.0.0.1/24 }]",
  "      booted: true",
  "  db:",
  "    type: compute:index:MysqlDatabase",
  "    properties: { label: db-1, region: us-east, type: c1-standard-2, engine: mysql/8.0.35, allowList: [203.0.113.0/24] }",
];

/** The CLI's output, kept as it is as a fixture when DRIFT_RECORD=1. */
function record(name: string, r: PulumiResult): string {
  if (process.env.DRIFT_RECORD === "1") {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(path.join(FIXTURES, name), r.stdout);
  }
  return r.stdout;
}

/** The command on `json` (written to a file, as a job does), in both formats. */
async function drift(json: string, args: string[] = []): Promise<{ code: number; stderr: string; markdown: string; report: any }> {
  const file = path.join(dir, "refresh.json");
  writeFileSync(file, json);
  const md = await runCommand(process.execPath, [DRIFT, "--refresh", file, ...args]);
  const js = await runCommand(process.execPath, [DRIFT, "--refresh", file, "--format", "json", ...args]);
  expect(js.code).toBe(md.code);
  return { code: md.code, stderr: md.stderr.trim(), markdown: md.stdout, report: JSON.parse(js.stdout) };
}

/**
 * `pulumi refresh --preview-only --json` in the stack's folder, as a job runs it (TestStack's refresh adds --yes, which
 * the CLI refuses beside --preview-only), with `flags` and `env`; `secrets` set for this run. Its exit code checked
 * (1 for a refresh that failed).
 */
async function refreshPreview(
  s: TestStack,
  extra: { flags?: string[]; env?: Record<string, string>; secrets?: Record<string, string> } = {},
  code = 0,
): Promise<PulumiResult> {
  await s.project.configure({ "compute:apiUrl": emu.url }, { ...SECRETS[s.stack], ...extra.secrets });
  const r = await s.project.cli(["refresh", "--preview-only", "--json", "--stack", s.stack, "--color", "never", "--non-interactive", ...(extra.flags ?? [])], {
    env: extra.env,
  });
  expect([r.code, r.stderr]).toEqual([code, expect.anything()]);
  return { ...r, output: `${r.stdout}\n${r.stderr}`, json: undefined };
}

/** Each drifted resource: what happened, and its fields `path: before → after` as the JSON gives them. */
const drifted = (report: any) =>
  Object.fromEntries(
    report.resources.map((r: any) => [
      r.name,
      [r.happened, ...r.fields.map((f: any) => `${f.path}: ${JSON.stringify(f.before) ?? "none"} → ${JSON.stringify(f.after) ?? "none"}`)],
    ]),
  );
const EXPECTED = {
  spare: ["deleted"],
  web: ["alerts.cpu: 90 → 50", 'label: "web-1" → "web-renamed"', 'tags[1]: "production" → "staging"', 'type: "c1-standard-2" → "c1-standard-4"'],
  db: ['allowList[1]: none → "0.0.0.0/0"'],
  main: ['interfaces[1].label: "backend" → "frontend"'],
};
const expected = () => ({
  spare: EXPECTED.spare,
  ...Object.fromEntries(
    Object.entries(EXPECTED)
      .slice(1)
      .map(([k, v]) => [k, ["changed", ...v]]),
  ),
});

beforeAll(async () => {
  emu = await emulator();
  emu.timing.speed = TEST_SPEED;
  plugin = await acquirePlugin();
  writeFileSync(path.join(dir, "Pulumi.yaml"), PROGRAM.join("\n") + "\n");
  SECRETS.prod = { "compute:token": emu.token, rootPass: ROOT_PASS };
  SECRETS["drift-ts"] = { "compute:token": emu.token };
  stack = new TestStack(dir, "prod", { config: { "compute:apiUrl": emu.url }, secrets: SECRETS.prod, env: plugin.env });
});
afterAll(async () => {
  stack?.cleanup();
  await plugin?.cleanup();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a stack as deployed: no drift, exit 0", async () => {
  await stack.ok("up");
  const r = await drift(record("refresh-preview-none.json", await refreshPreview(stack)));
  expect([r.code, r.stderr]).toEqual([0, ""]);
  expect(r.markdown.split("\n")[0]).toBe("### No drift in stack prod");
  expect(r.markdown).toContain("Stack **prod** of project drift-e2e, from `pulumi refresh --preview-only --json`: 6 resources checked, 0 drifted.");
  expect(r.report).toMatchObject({ made: true, complete: true, drift: false, stack: "prod", checked: 6, resources: [] });
});

test("drift made through the API: each resource and field before → after, nothing else, no secret; exit 1", async () => {
  const [inst] = await list(emu, "/compute/instances");
  const I = `/compute/instances/${inst.id}`;
  const spare = (await list(emu, "/profile/sshkeys")).find((k) => k.label === "spare-key");
  const [db] = await list(emu, "/databases/mysql/instances");
  const [profile] = await list(emu, `${I}/configs`);
  const ok = async (method: string, p: string, body?: unknown) => expect((await call(emu, method, p, { body })).status).toBe(200);
  await ok("PUT", I, { label: "web-renamed", tags: ["web", "staging"], alerts: { cpu: 50 } });
  await ok("DELETE", `/profile/sshkeys/${spare.id}`);
  const interfaces = [
    { purpose: "public", primary: true },
    { purpose: "vlan", label: "frontend", ipam_address: "10.0.0.1/24" },
  ];
  await ok("PUT", `${I}/configs/${profile.id}`, { interfaces });
  await ok("PUT", `/databases/mysql/instances/${db.id}`, { allow_list: ["203.0.113.0/24", "0.0.0.0/0"] });
  // A resize that keeps the disks as they are (a grown disk would not fit the declared type again).
  await ok("POST", `${I}/resize`, { type: "c1-standard-4", allow_auto_disk_resize: false });
  const settled = async () => {
    const [now, cluster] = [await get(emu, I), await get(emu, `/databases/mysql/instances/${db.id}`)];
    return now.status === "running" && now.type === "c1-standard-4" && cluster.status === "active";
  };
  for (let i = 0; i < 200 && !(await settled()); i++) await new Promise((r) => setTimeout(r, 250));
  expect(await settled()).toBe(true);
  // The root password reset: an output that moves (secret), which the engine does not count as drift.
  await ok("POST", `/databases/mysql/instances/${db.id}/credentials/reset`);
  const password = (await get(emu, `/databases/mysql/instances/${db.id}/credentials`)).password;
  expect(password).toEqual(expect.any(String));

  const json = record("refresh-preview-drift.json", await refreshPreview(stack));
  const r = await drift(json);
  expect([r.code, r.stderr]).toEqual([1, "compute-drift: Drift in stack prod: 4 resources"]);
  expect(drifted(r.report)).toEqual(expected());
  expect(r.markdown.split("\n")[0]).toBe("### Drift in stack prod: 4 resources");
  for (const line of [
    "- **spare** (`compute:index:SshKey`): deleted out of band (`pulumi up` creates it again)",
    "- **web** (`compute:index:Instance`): changed out of band",
    '  - `label`: `"web-1"` → `"web-renamed"`',
    '  - `tags[1]`: `"production"` → `"staging"`',
    "  - `alerts.cpu`: `90` → `50`",
    '  - `type`: `"c1-standard-2"` → `"c1-standard-4"`',
    '  - `interfaces[1].label`: `"backend"` → `"frontend"`',
    '  - `allowList[1]`: (none) → `"0.0.0.0/0"` (added)',
  ]) {
    expect(r.markdown.split("\n")).toContain(line);
  }
  // Outputs the service moved by itself (timestamps, the host, the boot state, the reset password) are not drift:
  // the engine's detailed diff does not name them, though the JSON's states differ there.
  const web = JSON.parse(json).steps.find((s: any) => s.urn.endsWith("::web"));
  expect([web.oldState.outputs.hostUuid === web.newState.outputs.hostUuid, web.oldState.outputs.booted, web.newState.outputs.booted]).toEqual([
    false,
    false,
    true,
  ]);
  expect(r.markdown).not.toMatch(/updated|hostUuid|booted|password|status/);
  // Secrets: "[secret]" in the engine's JSON, and in no form in the report.
  expect(json).toContain('"rootPass": "[secret]"');
  for (const text of [json, r.markdown, JSON.stringify(r.report)]) {
    expect(text).not.toContain(ROOT_PASS);
    expect(text).not.toContain(password);
  }

  // --report-only: the same report, exit 0; --out writes it too.
  const out = path.join(dir, "drift.md");
  const quiet = await runCommand(process.execPath, [DRIFT, "--refresh", path.join(dir, "refresh.json"), "--report-only", "--out", out]);
  expect([quiet.code, quiet.stdout]).toEqual([0, r.markdown]);
  expect(readFileSync(out, "utf8")).toBe(r.markdown);

  // The other forms of the same refresh: the same drift.
  expect(drifted((await drift((await refreshPreview(stack, { flags: ["--show-sames"] })).stdout)).report)).toEqual(expected());
  const streamed = await drift(record("refresh-preview-stream-drift.jsonl", await refreshPreview(stack, { env: STREAM })));
  expect([streamed.code, drifted(streamed.report)]).toEqual([1, expected()]);
  const preview = await stack.run("preview", { flags: ["--refresh", "--show-sames"] });
  const fromPreview = await drift(record("preview-refresh-drift.json", preview));
  expect([fromPreview.code, fromPreview.report.source, fromPreview.report.baseline, drifted(fromPreview.report)]).toEqual([
    1,
    "pulumi preview --refresh --json",
    "program",
    expected(),
  ]);
  const previewStream = await drift((await stack.run("preview", { flags: ["--refresh"], env: STREAM })).stdout);
  expect([previewStream.report.baseline, drifted(previewStream.report)]).toEqual(["state", expected()]);
});

test("a refresh that fails (a token the API refuses): the report says it is incomplete and why; exit 2", async () => {
  // --run-program: the providers take the program's config (a refresh alone reads them from the state).
  const failed = await refreshPreview(stack, { flags: ["--run-program"], secrets: { "compute:token": "revoked-token-0123456789" } }, 1);
  const r = await drift(record("refresh-preview-failed.json", failed));
  expect(r.code).toBe(2);
  expect(r.markdown.split("\n")[0]).toMatch(/^### Drift check incomplete for stack prod: the refresh failed \(\d+ errors?\)$/);
  expect(r.markdown).toContain("The refresh failed, so this report is incomplete. The engine's errors:");
  expect(r.markdown).toContain("- web: Preview failed: cannot read instance 1: the API answered HTTP 401: Invalid Token");
  expect(r.report).toMatchObject({ made: true, complete: false, checked: 0, unreadable: 4 });
});

test("`pulumi refresh --yes --json`: the refresh applied reads the same; then the state holds the drift, and preview --refresh still shows it", async () => {
  const applied = await stack.run("refresh", { flags: ["--json"] });
  expect(applied.code).toBe(0);
  const r = await drift(record("refresh-yes-drift.json", applied));
  expect([r.code, r.report.source, drifted(r.report)]).toEqual([1, "pulumi refresh --yes --json", expected()]);
  expect(r.markdown).toContain("The refresh was applied: the state now records what was found.");
  // Against the state it recorded, nothing drifted; the program still differs from the cloud.
  expect((await drift((await refreshPreview(stack)).stdout)).code).toBe(0);
  // (The deleted key is out of the state now: the program adds it, which is not drift.)
  const program = await drift((await stack.run("preview", { flags: ["--refresh"] })).stdout);
  const { spare: _spare, ...changed } = expected();
  expect([drifted(program.report), program.report.programChanges]).toEqual([changed, 1]);
  expect(program.markdown).toContain("Not drift: 1 resource the program adds or no longer declares.");
});

test("a refresh runs no program: a runtime no host serves, a PULUMI_HOME without the plugin (installed from what the state names)", async () => {
  const manifest = path.join(dir, "Pulumi.yaml");
  writeFileSync(manifest, PROGRAM.join("\n").replace("runtime: yaml", "runtime: cobol") + "\n");
  const fresh = await acquirePlugin();
  try {
    const r = await drift((await refreshPreview(stack, { env: fresh.env })).stdout);
    // Five resources: the refresh applied above took the deleted key out of the state.
    expect([r.code, r.report.checked, r.report.complete]).toEqual([0, 5, true]);
    expect(fresh.server.requests).toEqual([`200 /v${PLUGIN_VERSION}/${archiveName(PLUGIN_VERSION, hostPlatform())}`]);
  } finally {
    writeFileSync(manifest, PROGRAM.join("\n") + "\n");
    await fresh.cleanup();
  }
});

test("an input that is not a refresh's: exit 2, and a report that says so", async () => {
  const cases: Array<[string, string, RegExp]> = [
    ["empty.json", "", /it holds no JSON/],
    ["preview.json", (await stack.run("preview")).stdout, /not the JSON of a refresh: the engine did not refresh the stack/],
    ["export.json", (await stack.run("export")).stdout, /a stack's export/],
    ["mixed.json", `error: no stack selected\n${(await refreshPreview(stack)).stdout}`, /not JSON at line 1: error: no stack selected/],
  ];
  for (const [name, text, why] of cases) {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    const r = await runCommand(process.execPath, [DRIFT, "--refresh", file, "--stack", "prod"]);
    expect([name, r.code, r.stdout.split("\n")[0]]).toEqual([name, 2, "### Drift report for stack prod could not be made"]);
    expect(r.stdout).toMatch(why);
  }
  for (const args of [[], ["--refresh", path.join(dir, "missing.json")], ["--refresh", path.join(dir, "empty.json"), "--format", "yaml"], ["--bogus"]]) {
    const r = await runCommand(process.execPath, [DRIFT, ...args]);
    expect([args, r.code, r.stdout.split("\n")[0]]).toEqual([args, 2, "### Drift report could not be made"]);
    expect(r.stdout).toMatch(/The report could not be made: ./);
  }
});

test("the dynamic TypeScript classes (examples/sshkey): a change the digest counts but cannot name, named when streamed; a deletion", async () => {
  const ts = new TestStack("sshkey", "drift-ts", { config: { "compute:apiUrl": emu.url }, secrets: SECRETS["drift-ts"] });
  try {
    const id = (await ts.ok("up")).outputs.keyId;
    const tsRefresh = (env: Record<string, string> = {}) => refreshPreview(ts, { env });
    expect((await drift((await tsRefresh()).stdout)).code).toBe(0);
    await call(emu, "PUT", `/profile/sshkeys/${id}`, { body: { label: "edited-by-hand" } });
    const digest = await drift(record("dynamic-refresh-preview-drift.json", await tsRefresh()));
    expect([digest.code, digest.report.unnamed, digest.report.resources]).toEqual([1, 1, []]);
    expect(digest.markdown.split("\n")[0]).toBe("### Drift in stack drift-ts: 1 resource");
    expect(digest.markdown).toContain("- 1 more resource drifted that the engine's JSON does not name");
    const streamed = await drift(record("dynamic-refresh-preview-stream-drift.jsonl", await tsRefresh(STREAM)));
    expect([streamed.code, drifted(streamed.report), streamed.report.resources[0].fieldsFrom]).toEqual([
      1,
      { "deploy-key": ["changed", 'label: "deploy-key" → "edited-by-hand"'] },
      "compared",
    ]);
    await call(emu, "DELETE", `/profile/sshkeys/${id}`);
    const deleted = await drift(record("dynamic-refresh-preview-deleted.json", await tsRefresh()));
    expect([deleted.code, drifted(deleted.report)]).toEqual([1, { "deploy-key": ["deleted"] }]);
  } finally {
    ts.cleanup();
  }
});

test("a resize made out of band whose disks grew with it (the API's default): the refresh reports it; the preview refuses the resize back, naming the rule", async () => {
  const own = path.join(dir, "resized");
  mkdirSync(own);
  writeFileSync(
    path.join(own, "Pulumi.yaml"),
    [
      "name: drift-resize",
      "runtime: yaml",
      "resources:",
      "  box:",
      "    type: compute:index:Instance",
      "    properties: { region: us-east, type: c1-standard-2, image: compute/debian12, rootPass: Dr1ft-R00t-Pass!y, label: box-1 }",
      ...options,
    ].join("\n") + "\n",
  );
  const s = new TestStack(own, "resized", { config: { "compute:apiUrl": emu.url }, secrets: { "compute:token": emu.token }, env: plugin.env });
  SECRETS.resized = { "compute:token": emu.token };
  try {
    await s.ok("up");
    const box = (await list(emu, "/compute/instances")).find((i) => i.label === "box-1");
    const I = `/compute/instances/${box.id}`;
    expect((await call(emu, "POST", `${I}/resize`, { body: { type: "c1-standard-4" } })).status).toBe(200);
    const grown = async () => {
      const [now, disks] = [await get(emu, I), await list(emu, `${I}/disks`)];
      return now.status === "running" && now.type === "c1-standard-4" && disks.reduce((n: number, d: any) => n + d.size, 0) > 51200;
    };
    for (let i = 0; i < 200 && !(await grown()); i++) await new Promise((r) => setTimeout(r, 250));
    expect(await grown()).toBe(true);
    // Before: the refresh failed, its Diff refusing the resize back ("the disks of instance 1 use 81920 MB, more than
    // the 51200 MB of type c1-standard-2"), so a scheduled drift check saw an error instead of the drift.
    const r = await drift((await refreshPreview(s)).stdout);
    expect([r.code, drifted(r.report)]).toEqual([1, { box: ["changed", 'type: "c1-standard-2" → "c1-standard-4"'] }]);
    // The program's preview still refuses what it cannot do, naming the rule.
    const back = await s.run("preview", { flags: ["--refresh"] });
    expect([back.code === 0, back.output]).toEqual([false, expect.stringMatching(/a resize needs the disks to fit the new type/)]);
  } finally {
    s.cleanup();
  }
});
