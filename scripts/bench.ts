#!/usr/bin/env node
/**
 * The benchmark suite: `npm run bench [-- --sizes 10,200,1000] [-- --repeat 3] [-- --only requests,notice,state,scale,emulator,failures,rate,plugin-start]`,
 * or `npm run bench -- --quick` (one size of 100, one run, a smaller rate-limit stack: a few minutes, for a
 * developer's loop). Writes bench/results.md (machine, versions, date, figures); with --only, the other
 * sections are kept as they were, marked with the run that made them. Nothing here is a test: figures, not
 * pass/fail (the targets are printed beside them). The sections through the CLI run both front doors: the
 * dynamic classes (pulumi-compute) and the plugin (@pulumi-compute/plugin-sdk, its tarball made by
 * scripts/gen-sdks if missing or older than schema.json), each beside a do-nothing provider of its kind; the
 * plugins are installed with `pulumi plugin install` into a PULUMI_HOME of the run's own (scripts/bench/common.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { startEmulator, type Emulator } from "../emulator/server";
import type { DynamicProviderImpl } from "../provider/rest-provider";
import { bytes, ensurePluginSdk, fmt, median, pluginEnv, ROOT, runCli, type Exported, type Props } from "./bench/common";
import { rateLimited, stackScale } from "./bench/scale";
import { ed25519Key } from "./keys";
import { pulumiBin } from "./pulumi";

const PASS = "B3nch-R00t-Passw0rd!";

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const publicKey = (i: number) => ed25519Key(i, `bench-${i}`);

/** Loads the provider as the dynamic provider process does, configured for this emulator. */
async function providerFor(emu: Emulator): Promise<Record<string, DynamicProviderImpl>> {
  const mod = require(path.join(ROOT, "dist", "provider")) as typeof import("../provider");
  const settings = require(path.join(ROOT, "dist", "provider", "settings")) as typeof import("../provider/settings");
  settings.resetSettings();
  await mod.configure({ config: { get: (k: string) => ({ "compute:apiUrl": emu.url, "compute:token": emu.token })[k] } });
  return mod.providers;
}

// ---- 1. requests per lifecycle ---------------------------------------------------------------------

interface Lifecycle {
  type: string;
  setup?: (p: Record<string, DynamicProviderImpl>, emu: Emulator) => Promise<Props>;
  inputs: (ctx: Props) => Props;
  change: (ctx: Props) => Props;
  /** The least the API allows per operation (mutating requests, or GETs for a refresh). */
  min: { create: number; refresh: number; update: number; delete: number };
  /** Reads a create needs besides polls (a database's credentials and certificate: outputs). */
  createReads?: number;
  /** Paths whose GETs are status polls of this resource. */
  polls: RegExp;
}

async function requestsPerLifecycle(): Promise<string> {
  const emu = await startEmulator({ speed: 0.02 });
  const p = await providerFor(emu);
  const make = async (type: string, news: Props) => {
    const r = await p[type].check({}, news);
    if (r.failures.length) throw new Error(`${type}: ${JSON.stringify(r.failures)}`);
    return { ...(await p[type].create(r.inputs)), inputs: r.inputs };
  };
  const instance = async (label: string, image = true) =>
    (await make("Instance", { region: "us-east", type: "c1-standard-2", label, ...(image ? { image: "compute/debian12", rootPass: PASS } : {}) })).id;
  const cases: Lifecycle[] = [
    {
      type: "SshKey",
      inputs: () => ({ label: "k", sshKey: publicKey(1) }),
      change: () => ({ label: "k2", sshKey: publicKey(1) }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /sshkeys\/\d+$/,
    },
    {
      type: "Vpc",
      inputs: () => ({ label: "net", region: "us-east" }),
      change: () => ({ label: "net", region: "us-east", description: "d" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /vpcs\/\d+$/,
    },
    {
      type: "Subnet",
      setup: async () => ({ vpcId: (await make("Vpc", { label: "net-s", region: "us-east" })).id }),
      inputs: (c) => ({ vpcId: c.vpcId, label: "s", ipv4: "10.0.1.0/24" }),
      change: (c) => ({ vpcId: c.vpcId, label: "s2", ipv4: "10.0.1.0/24" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /subnets\/\d+$/,
    },
    {
      type: "Instance",
      inputs: () => ({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "life-1" }),
      change: () => ({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "life-2" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /instances\/\d+$/,
    },
    {
      type: "Disk",
      setup: async () => ({ computeId: await instance("disk-host", false) }),
      inputs: (c) => ({ computeId: c.computeId, label: "d", size: 1000 }),
      change: (c) => ({ computeId: c.computeId, label: "d2", size: 1000 }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /disks\/\d+$/,
    },
    {
      type: "Config",
      setup: async () => {
        const computeId = await instance("cfg-host", false);
        return { computeId, diskId: (await make("Disk", { computeId, label: "d", size: 100 })).id };
      },
      inputs: (c) => ({ computeId: c.computeId, label: "c", devices: { sda: { diskId: c.diskId } } }),
      change: (c) => ({ computeId: c.computeId, label: "c2", devices: { sda: { diskId: c.diskId } } }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /configs\/\d+$/,
    },
    {
      type: "Interface",
      setup: async () => {
        const computeId = await instance("if-host");
        return { computeId, configId: emu.store.data.configs.find((x) => String(x.compute_id) === computeId)!.id };
      },
      inputs: (c) => ({ computeId: c.computeId, configId: c.configId, purpose: "public" }),
      change: (c) => ({ computeId: c.computeId, configId: c.configId, purpose: "public", primary: true }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /interfaces\/\d+$/,
    },
    {
      type: "Image",
      setup: async () => {
        const computeId = await instance("img-host");
        return { diskId: emu.store.data.disks.find((x) => String(x.compute_id) === computeId)!.id };
      },
      inputs: (c) => ({ diskId: c.diskId, label: "img" }),
      change: (c) => ({ diskId: c.diskId, label: "img2" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /images\/private\/\d+$/,
    },
    {
      type: "MysqlDatabase",
      inputs: () => ({ label: "bench-my", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" }),
      change: () => ({ label: "bench-my-2", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" }),
      min: { create: 1, refresh: 3, update: 1, delete: 1 },
      createReads: 2,
      polls: /instances\/\d+$/,
    },
    {
      type: "PostgresDatabase",
      inputs: () => ({ label: "bench-pg", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" }),
      change: () => ({ label: "bench-pg-2", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" }),
      min: { create: 1, refresh: 3, update: 1, delete: 1 },
      createReads: 2,
      polls: /instances\/\d+$/,
    },
  ];
  const rows: string[] = [];
  const measure = async (fn: () => Promise<unknown>, polls: RegExp) => {
    const start = emu.log.length;
    await fn();
    const reqs = emu.log.slice(start).filter((l) => l.path.startsWith("/v4/"));
    const mutating = reqs.filter((l) => l.method !== "GET").length;
    const pollCount = reqs.filter((l) => l.method === "GET" && polls.test(l.path.split("?")[0])).length;
    const otherGets = reqs.filter((l) => l.method === "GET" && !polls.test(l.path.split("?")[0])).length;
    return { total: reqs.length, mutating, polls: pollCount, otherGets };
  };
  for (const c of cases) {
    const ctx = c.setup ? await c.setup(p, emu) : {};
    const impl = p[c.type];
    const ins = (await impl.check({}, c.inputs(ctx))).inputs;
    let created!: { id: string; outs: Props };
    const cr = await measure(async () => (created = await impl.create(ins)), c.polls);
    const rf = await measure(() => impl.read(created.id, created.outs), c.polls);
    const news = (await impl.check({}, c.change(ctx))).inputs;
    let outs = created.outs;
    const up = await measure(async () => (outs = (await impl.update(created.id, created.outs, news)).outs), c.polls);
    const dl = await measure(() => impl.delete(created.id, outs), c.polls);
    const cell = (m: { total: number; mutating: number; polls: number; otherGets: number }, min: number, refresh = false, reads = 0) => {
      const extra = refresh ? m.total - min : m.mutating - min + m.otherGets - reads;
      return `${m.total} (${refresh ? `${m.total} GET` : `${m.mutating} write, ${m.polls} polls`}${m.otherGets && !refresh ? `, ${m.otherGets} other GET` : ""})${extra > 0 ? ` **+${extra}**` : ""}`;
    };
    rows.push(
      `| ${c.type} | ${cell(cr, c.min.create, false, c.createReads ?? 0)} | ${cell(rf, c.min.refresh, true)} | ${cell(up, c.min.update)} | ${cell(dl, c.min.delete)} |`,
    );
  }
  await emu.close();
  return [
    "## 1. Requests per lifecycle",
    "",
    "HTTP requests the provider makes per operation, from the emulator's request log (emulator speed 0.02). The minimum is one write per create, update and delete, and one GET per refresh; a database's create and refresh also read its credentials and certificate (secret outputs the user needs), so its refresh takes three GETs. **+N**: requests beyond the minimum other than status polls. Target: none.",
    "",
    "| Resource | create | refresh | update in place | delete |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

// ---- 2. time to notice ----------------------------------------------------------------------------

async function timeToNotice(): Promise<string> {
  const emu = await startEmulator({ speed: 0.25 });
  const p = await providerFor(emu);
  const lags: number[] = [];
  const rates: number[] = [];
  for (let i = 0; i < 8; i++) {
    // Provisioning of 0.8 s to 4.4 s (8 s at speed 1, scaled).
    emu.timing.speed = 0.1 + (i % 4) * 0.15;
    const ins = (await p.Instance.check({}, { region: "us-east", type: "c1-nano-1", image: "compute/debian12", rootPass: PASS, label: `notice-${i}` })).inputs;
    const start = emu.log.length;
    const t0 = Date.now();
    let due = 0;
    const watcher = setInterval(() => {
      const inst = emu.store.data.instances.find((x) => x.label === `notice-${i}`);
      if (inst && !due && inst._queue[0]) due = inst._queue[0].at;
    }, 1);
    const c = await p.Instance.create(ins);
    const t1 = Date.now();
    clearInterval(watcher);
    lags.push(t1 - due);
    const polls = emu.log.slice(start).filter((l) => l.method === "GET" && /instances\/\d+$/.test(l.path)).length;
    rates.push(polls / ((t1 - t0) / 1000));
    await p.Instance.delete(c.id, c.outs);
  }
  // A long wait: a database provisioning (7.5 s).
  emu.timing.speed = 0.25;
  const dbIns = (await p.MysqlDatabase.check({}, { label: "notice-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" })).inputs;
  const start = emu.log.length;
  const t0 = Date.now();
  let dbDue = 0;
  const dbWatch = setInterval(() => {
    const db = emu.store.data.databases[0];
    if (db && !dbDue && db._queue[0]) dbDue = db._queue[0].at;
  }, 1);
  await p.MysqlDatabase.create(dbIns);
  const t1 = Date.now();
  clearInterval(dbWatch);
  const dbPolls = emu.log.slice(start).filter((l) => l.method === "GET" && /mysql\/instances\/\d+$/.test(l.path)).length;
  await emu.close();
  return [
    "## 2. Time to notice",
    "",
    "How long after the emulator reaches the target status the provider returns: 8 instance creates (provisioning of 0.8 to 4.4 s), and one database (7.5 s; on the real service 15 to 30 minutes, where the provider polls every 10 s at most). Target: median under 250 ms, at most a few polls a second, backing off on long waits.",
    "",
    "| Wait | median | p90 | polls per second |",
    "|---|---|---|---|",
    `| instance provisioning (0.8 to 4.4 s) | ${fmt(median(lags))} ms | ${fmt(pct(lags, 0.9))} ms | ${fmt(median(rates), 1)} |`,
    `| database provisioning (7.5 s) | ${fmt(t1 - dbDue)} ms (one run) | | ${fmt(dbPolls / ((t1 - t0) / 1000), 1)} |`,
    "",
  ].join("\n");
}

// ---- 3. state size (4 and 7: scripts/bench/scale.ts) ------------------------------------------------

/** examples/all's state (`pulumi stack export` after `up`), then destroyed. */
async function exportOfAll(dir: string, env: Record<string, string> = {}): Promise<Exported> {
  const emu = await startEmulator({ speed: 0 });
  const stateDir = mkdtempSync(path.join(tmpdir(), "bench-state-"));
  const config = { "compute:apiUrl": emu.url, "all-example:publicKey": publicKey(1) };
  const secrets = {
    "compute:token": emu.token,
    "all-example:rootPass": PASS,
    "all-example:scriptData": '{"greeting":"x"}',
    "all-example:userData": Buffer.from("#cloud-config\n").toString("base64"),
  };
  try {
    await runCli("up", dir, "bench", stateDir, config, secrets, env);
    const exported = JSON.parse((await runCli("export", dir, "bench", stateDir, config, secrets, env)).stdout) as Exported;
    await runCli("destroy", dir, "bench", stateDir, config, secrets, env);
    return exported;
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(path.join(dir, "Pulumi.bench.yaml"), { force: true });
    await emu.close();
  }
}

async function stateSize(): Promise<string> {
  const dynamic = await exportOfAll(path.join(ROOT, "examples", "all"), pluginEnv());
  const byType = new Map<string, { provider: number; resource: number; plugin?: number }>();
  for (const r of dynamic.deployment.resources ?? []) {
    if (!r.type.startsWith("pulumi-nodejs:dynamic/compute:")) continue;
    const t = r.type.split(":").pop()!;
    const cur = byType.get(t) ?? { provider: 0, resource: 0 };
    byType.set(t, { provider: Math.max(cur.provider, r.inputs?.__provider?.length ?? 0), resource: Math.max(cur.resource, bytes(r)) });
  }
  // The same program on the plugin SDK (its classes take the same inputs): a copy of examples/all importing
  // @pulumi-compute/plugin-sdk, with bench/scale's node_modules (which holds the SDK and the plugin).
  const pluginDir = mkdtempSync(path.join(tmpdir(), "bench-all-plugin-"));
  let pluginProvider = 0;
  try {
    const all = path.join(ROOT, "examples", "all");
    const program = readFileSync(path.join(all, "index.ts"), "utf8");
    if (!program.includes('from "pulumi-compute"')) throw new Error("examples/all/index.ts no longer imports pulumi-compute");
    writeFileSync(path.join(pluginDir, "index.ts"), program.replace('from "pulumi-compute"', 'from "@pulumi-compute/plugin-sdk"'));
    for (const f of ["Pulumi.yaml", "tsconfig.json"]) copyFileSync(path.join(all, f), path.join(pluginDir, f));
    copyFileSync(path.join(ROOT, "bench", "scale", "package.json"), path.join(pluginDir, "package.json"));
    symlinkSync(path.join(ROOT, "bench", "scale", "node_modules"), path.join(pluginDir, "node_modules"));
    const plugin = await exportOfAll(pluginDir, pluginEnv());
    for (const r of plugin.deployment.resources ?? []) {
      if (r.type === "pulumi:providers:compute") pluginProvider = Math.max(pluginProvider, bytes(r));
      const t = /^compute:index:(\w+)$/.exec(r.type)?.[1];
      const cur = t ? byType.get(t) : undefined;
      if (cur) cur.plugin = Math.max(cur.plugin ?? 0, bytes(r));
    }
  } finally {
    rmSync(pluginDir, { recursive: true, force: true });
  }
  return [
    "## 3. State size",
    "",
    "Bytes in `pulumi stack export` of examples/all (every resource type; the largest of each type; compact JSON). `__provider` is stored twice per resource (inputs and outputs), and is the same for every resource of a type. **plugin form**: the same program on `@pulumi-compute/plugin-sdk` (type `compute:index:<Resource>`, served by pulumi-resource-compute), which has no `__provider`; its one default provider resource (`pulumi:providers:compute`, the config) takes " +
      `${pluginProvider} bytes per stack. Target: \`__provider\` under 2 KB.`,
    "",
    "| Resource | `__provider` | whole resource | plugin form |",
    "|---|---|---|---|",
    ...[...byType]
      .sort()
      .map(([t, v]) => `| ${t} | ${v.provider} | ${v.resource} | ${v.plugin === undefined ? "?" : `${v.plugin} (${fmt(v.plugin / v.resource, 2)}x)`} |`),
    "",
  ].join("\n");
}

// ---- 5. emulator throughput --------------------------------------------------------------------------

async function emulatorThroughput(): Promise<string> {
  const emu = await startEmulator({ speed: 0 });
  const d = emu.store.data;
  for (let i = 1; i <= 10_000; i++)
    d.sshkeys.push({ id: emu.store.nextId("sshkey"), label: `k${i}`, ssh_key: publicKey(i), created: "2026-01-01T00:00:00", username: "admin" });
  const vpcBase = { description: "", region: "us-east", created: "2026-01-01T00:00:00", updated: "2026-01-01T00:00:00", _owner: "admin" };
  for (let i = 1; i <= 10_000; i++) d.vpcs.push({ id: emu.store.nextId("vpc"), label: `v${i}`, ...vpcBase });
  const origin = emu.url.replace(/\/v4$/, "");
  const pool = new Pool(origin, { connections: 32, pipelining: 1 });
  const headers = { authorization: `Bearer ${emu.token}` };
  const load = async (pathFor: (i: number) => string, seconds = 3) => {
    const until = Date.now() + seconds * 1000;
    let n = 0;
    let errors = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        for (let i = w; Date.now() < until; i += 32) {
          const r = await pool.request({ method: "GET", path: pathFor(i), headers });
          await r.body.text();
          if (r.statusCode !== 200) errors++;
          n++;
        }
      }),
    );
    return { rps: n / seconds, errors };
  };
  const rows = [];
  for (const [name, fn] of [
    ["list SSH keys (page of 100)", () => "/v4/profile/sshkeys"],
    ["list SSH keys (page of 500)", (i: number) => `/v4/profile/sshkeys?page_size=500&page=${(i % 20) + 1}`],
    ["view an SSH key", (i: number) => `/v4/profile/sshkeys/${(i % 10_000) + 1}`],
    ["list VPCs (page of 100)", () => "/v4/vpcs"],
    ["view a VPC", (i: number) => `/v4/vpcs/${(i % 10_000) + 1}`],
  ] as Array<[string, (i: number) => string]>) {
    const r = await load(fn);
    rows.push(`| ${name} | ${fmt(r.rps)} | ${r.errors} |`);
  }
  await pool.close();
  await emu.close();
  return [
    "## 5. Emulator throughput",
    "",
    "Requests per second with 10,000 SSH keys and 10,000 VPCs in the emulator, 32 keep-alive connections from this process for 3 s each (one process drives the load and serves it, on 2 cores).",
    "",
    "| Route | requests/s | errors |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

// ---- 6. failing programs ----------------------------------------------------------------------------

/**
 * How long `pulumi preview` of a program that throws takes to end (tests/programs/errors: no resource of
 * ours), with the language host scripts/ensure-pulumi builds, and once with a copy of that folder without
 * the stack-trace guard beside the host (what a failing run took before: Node's colouring of
 * @pulumi/pulumi's mapped frames runs out of memory first).
 */
async function failingPrograms(runs: number): Promise<string> {
  const dir = path.join(ROOT, "tests", "programs", "errors");
  const bin = pulumiBin();
  // The same CLI and hosts, hard-linked into a folder without the guard (the CLI finds its hosts beside itself).
  const bare = mkdtempSync(path.join(path.dirname(bin), "bench-bare-"));
  for (const f of ["pulumi", "pulumi-language-nodejs", "pulumi-language-yaml", "pulumi-resource-pulumi-nodejs"])
    linkSync(path.join(bin, f), path.join(bare, f));
  const env = (pathBin: string) => ({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: [pathBin, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
  });
  const stateDir = mkdtempSync(path.join(tmpdir(), "bench-errors-"));
  const time = (pathBin: string, fail: string): number => {
    const cli = path.join(pathBin, "pulumi");
    execFileSync(cli, ["config", "set", "fail", fail, "--stack", "bench"], { cwd: dir, env: env(pathBin), stdio: "ignore" });
    const t0 = Date.now();
    try {
      execFileSync(cli, ["preview", "--stack", "bench", "--non-interactive"], { cwd: dir, env: env(pathBin), stdio: "ignore", timeout: 600_000 });
    } catch {
      // it fails: that is the point
    }
    return Date.now() - t0;
  };
  try {
    execFileSync(path.join(bin, "pulumi"), ["stack", "init", "bench"], { cwd: dir, env: env(bin), stdio: "ignore" });
    const rows: string[] = [];
    for (const [what, fail] of [
      ["a throw inside an apply", "apply"],
      ["a throw at the top level", "top"],
    ]) {
      const guarded = Array.from({ length: runs }, () => time(bin, fail));
      const stock = time(bare, fail);
      rows.push(`| ${what} | ${fmt(median(guarded) / 1000, 1)} s | ${fmt(stock / 1000, 1)} s |`);
    }
    return [
      "## 6. Failing programs",
      "",
      `\`pulumi preview\` of tests/programs/errors (JavaScript, no resource of ours) until the CLI exits: with the Node.js language host that scripts/ensure-pulumi builds (it preloads the stack-trace guard beside it; median of ${runs}), and once without the guard. Target: every failing program ends within seconds of its error (under 15 s).`,
      "",
      "| Program | with the guard | without it |",
      "|---|---|---|",
      ...rows,
      "",
    ].join("\n");
  } finally {
    rmSync(path.join(dir, "Pulumi.bench.yaml"), { force: true });
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
  }
}

/**
 * Section 8: the plugin as it ships, one executable (a Node.js single executable application) beside the
 * bundled script run by `node`: size, and time from start to the port on stdout (what the engine waits for
 * before its first call), median of `repeat` starts each.
 */
async function pluginStart(repeat: number): Promise<string> {
  const { archiveName, bundlePlugin, executableName, hostPlatform, packagePlugin } = await import("./package-plugin");
  const dir = mkdtempSync(path.join(tmpdir(), "bench-plugin-start-"));
  try {
    const platform = hostPlatform();
    const [archive] = packagePlugin(path.join(dir, "archive"), [platform]);
    execFileSync("tar", ["-xzf", archive, "-C", dir]);
    const script = path.join(dir, "script");
    mkdirSync(script);
    bundlePlugin(path.join(ROOT, "dist", "provider", "plugin", "main.js"), script, "compute");
    const node = path.join(ROOT, "node_modules", "node", "bin", "node");
    const forms: Array<[string, string, string[], string]> = [
      ["single executable (the archive's)", path.join(dir, executableName(platform)), [], path.join(dir, executableName(platform))],
      ["bundled script, run by node", node, [path.join(script, "pulumi-resource-compute")], path.join(script, "pulumi-resource-compute")],
    ];
    const rows: string[] = [];
    for (const [label, cmd, args, file] of forms) {
      const times: number[] = [];
      for (let i = 0; i < repeat; i++) times.push(await timeToPort(cmd, args));
      rows.push(`| ${label} | ${fmt(statSync(file).size / 1024 ** 2, 1)} MB | ${fmt(median(times) * 1000, 0)} ms | ${fmt(Math.min(...times) * 1000, 0)} ms |`);
    }
    return [
      "## 8. Plugin start",
      "",
      `The plugin for ${platform} as it ships (${archiveName("<v>", platform)}, ${fmt(statSync(archive).size / 1024 ** 2, 1)} MB): one executable that needs nothing on PATH, beside the same bundled script run by the Node.js it is made of (node_modules/node, ${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()}). Start: from spawning it to its port on stdout, ${repeat} starts each. Target: the executable no slower than the script.`,
      "",
      "| Form | size | start (median) | start (least) |",
      "|---|---|---|---|",
      ...rows,
      "",
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Seconds from spawning `cmd` to its first line on stdout (the plugin's port); then it is killed. */
function timeToPort(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "ignore"], env: { PATH: "/nonexistent" } });
    child.stdout.once("data", () => {
      resolve(Number(process.hrtime.bigint() - t0) / 1e9);
      child.kill("SIGKILL");
    });
    child.once("error", reject);
    child.once("exit", (code) => code !== null && reject(new Error(`${cmd} exited ${code} before printing its port`)));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string" },
      repeat: { type: "string", default: "1" },
      only: { type: "string" },
      quick: { type: "boolean", default: false },
      "rate-count": { type: "string" },
    },
  });
  const quick = values.quick;
  const sizes = (values.sizes ?? (quick ? "100" : "10,200,1000")).split(",").map(Number);
  const rateCount = Number(values["rate-count"] ?? (quick ? 200 : 1000));
  const only = values.only ? values.only.split(",") : ["requests", "notice", "state", "scale", "emulator", "failures", "rate", "plugin-start"];
  const sections: string[] = [];
  const run = async (name: string, fn: () => Promise<string>) => {
    if (!only.includes(name)) return;
    const t0 = Date.now();
    console.error(`bench: ${name}...`);
    sections.push(await fn());
    console.error(`bench: ${name} took ${fmt((Date.now() - t0) / 1000, 1)} s`);
  };
  // examples/all, and bench/scale with the plugin SDK for the state and scale sections (made if missing).
  const viaCli = only.includes("state") || only.includes("scale") || only.includes("rate");
  if (viaCli) ensurePluginSdk();
  execFileSync(path.join(ROOT, "scripts", "prepare-examples"), ["all", "tests/programs/errors", ...(viaCli ? ["bench/scale"] : [])], { stdio: "ignore" });
  await run("requests", requestsPerLifecycle);
  await run("notice", timeToNotice);
  await run("state", stateSize);
  await run("scale", () => stackScale(sizes, Math.max(1, Number(values.repeat))));
  await run("emulator", emulatorThroughput);
  await run("failures", () => failingPrograms(quick ? 1 : 3));
  await run("rate", () => rateLimited(rateCount, 64, 20));
  await run("plugin-start", () => pluginStart(quick ? 5 : 20));
  const pulumiVersion = execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const cli = execFileSync(path.join(pulumiVersion, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  const sdk = (JSON.parse(readFileSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
  const head = [
    "# Benchmarks",
    "",
    `Made by \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${fmt(totalmem() / 1024 ** 3)} GB. Node ${process.version}, Pulumi CLI ${cli}, @pulumi/pulumi ${sdk}.`,
    "",
  ];
  const out = path.join(ROOT, "bench", "results.md");
  writeFileSync(out, [...head, ...merged(out, sections, values.only !== undefined)].join("\n"));
  console.log(`wrote ${out}`);
}

/**
 * The sections to write: those just made, and (with --only) the other sections of the file as they were,
 * each marked with the run that made it. Sections are in their number order.
 */
function merged(file: string, made: string[], partial: boolean): string[] {
  const numberOf = (section: string) => Number(/^## (\d+)\./.exec(section)?.[1] ?? 0);
  const byNumber = new Map<number, string>();
  if (partial && existsSync(file)) {
    const old = readFileSync(file, "utf8");
    const run = /^Made by (.*?) on (\S+ \S+) UTC/m.exec(old);
    for (const part of old.split(/\n(?=## \d+\.)/).slice(1)) {
      const section = part.endsWith("\n") ? part : `${part}\n`;
      const mark = run ? `\n_Kept from an earlier run: ${run[1]} on ${run[2]} UTC._\n` : "";
      byNumber.set(numberOf(section), section.includes("_Kept from an earlier run") || !mark ? section : section.replace("\n", `\n${mark}`));
    }
  }
  for (const section of made) byNumber.set(numberOf(section), section);
  return [...byNumber.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
