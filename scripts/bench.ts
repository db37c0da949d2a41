#!/usr/bin/env node
/**
 * The benchmark suite: `npm run bench [-- --sizes 10,50,200] [-- --repeat 3] [-- --only requests,notice,state,scale,emulator,failures]`.
 * Writes bench/results.md (machine, versions, date, figures); with --only, the other sections are kept as
 * they were, marked with the run that made them. Nothing here is a test: figures, not
 * pass/fail (the targets are printed beside them). The state and scale sections run both front doors: the
 * dynamic providers (pulumi-compute's classes) and the plugin (@pulumi-compute/plugin-sdk, its tarball made by
 * scripts/gen-sdks if missing or older than schema.json, with pulumi-resource-compute found on PATH).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { startEmulator, type Emulator } from "../emulator/server";
import type { DynamicProviderImpl } from "../provider/rest-provider";
import { ed25519Key } from "./keys";
import { Project, pulumiBin, type Op } from "./pulumi";
import { repoRoot } from "./root";

const ROOT = repoRoot();
const PASS = "B3nch-R00t-Passw0rd!";

type Props = Record<string, unknown>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (n: number, d = 0) => n.toFixed(d);

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

// ---- 3 and 4: through the real CLI ------------------------------------------------------------------

/** One CLI step in the program's folder (scripts/pulumi.ts), under /usr/bin/time for its peak memory. */
async function runCli(
  op: Op,
  dir: string,
  stack: string,
  stateDir: string,
  config: Record<string, string>,
  secrets: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ ms: number; rssKb: number; stdout: string }> {
  const project = new Project(dir, stack, stateDir, env);
  await project.configure(config, secrets);
  const t0 = Date.now();
  const r = await project.run(op, [], { wrap: ["/usr/bin/time", "-f", "%M"], timeoutMs: 1_800_000 });
  if (r.code !== 0) throw new Error(`${op} failed: ${r.stderr.slice(-2000)}`);
  return { ms: Date.now() - t0, rssKb: Number(r.stderr.trim().split("\n").pop()), stdout: r.stdout };
}

/** The plugin SDK's tarball (bench/scale installs it), made by scripts/gen-sdks when missing or older than schema.json. */
function ensurePluginSdk(): void {
  const tgz = path.join(ROOT, ".gen", "sdks", "compute-plugin-sdk.tgz");
  if (existsSync(tgz) && statSync(tgz).mtimeMs >= statSync(path.join(ROOT, "schema.json")).mtimeMs) return;
  console.error("bench: .gen/sdks/compute-plugin-sdk.tgz missing or older than schema.json, running scripts/gen-sdks...");
  execFileSync(path.join(ROOT, "scripts", "gen-sdks"), { stdio: ["ignore", "ignore", "inherit"] });
}

/** The plugin is found on PATH, as `npm install pulumi-compute` leaves it (node_modules/.bin of bench/scale). */
const pluginEnv = (): Record<string, string> => ({
  PATH: [path.join(ROOT, "bench", "scale", "node_modules", ".bin"), pulumiBin(), path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
});

interface StateResource {
  type: string;
  urn: string;
  inputs?: Props & { __provider?: string };
  outputs?: Props;
}
interface Exported {
  deployment: { resources?: StateResource[] };
}
const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/** Where the bytes of state entries go (compact JSON), summed over the entries given. */
function breakdown(rs: StateResource[]): { total: number; provider: number; declared: number; data: number; engine: number; replace: number } {
  const field = (o: Props | undefined, k: string) => (o && k in o ? bytes({ [k]: o[k] }) - 1 : 0); // `"k":v,`
  const out = { total: 0, provider: 0, declared: 0, data: 0, engine: 0, replace: 0 };
  for (const r of rs) {
    const total = bytes(r);
    const props = bytes(r.inputs ?? {}) + bytes(r.outputs ?? {});
    const provider = field(r.inputs, "__provider") + field(r.outputs, "__provider");
    const declared = field(r.inputs, "__declared") + field(r.outputs, "__declared");
    out.total += total;
    out.provider += provider;
    out.declared += declared;
    out.data += props - provider - declared;
    out.engine += total - props;
    out.replace += field(r as unknown as Props, "replaceOnChanges");
  }
  return out;
}

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
  const dynamic = await exportOfAll(path.join(ROOT, "examples", "all"));
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

interface ScaleRun {
  up: number;
  refresh: number;
  destroy: number;
  rss: number;
  /** Bytes per resource of the measured type in the export after `up` (compact JSON), and the whole state's minus the empty stack's, per resource. */
  typeBytes: number;
  stateBytes: number;
  /** The export after `up`. */
  state: Exported;
}

/** The resource type each kind of bench/scale makes. */
const SCALE_TYPES: Record<string, string> = {
  baseline: "pulumi-nodejs:dynamic/bench:Noop",
  compute: "pulumi-nodejs:dynamic/compute:SshKey",
  plugin: "compute:index:SshKey",
};

/** The targets, met or missed, over the rows of the plugin table. */
function verdict(rows: Array<{ times: number[]; entries: number; whole: number; lean: number }>): string {
  const range = (xs: number[], d: number) => `${fmt(Math.min(...xs), d)}x to ${fmt(Math.max(...xs), d)}x`;
  const times = rows.flatMap((r) => r.times);
  const slower = times.filter((x) => x > 1).length;
  const met = (xs: number[]) => `${xs.filter((x) => x <= 0.25).length} of ${xs.length} rows (${range(xs, 3)})`;
  const entries = rows.map((r) => r.entries);
  return [
    `**Targets.** No slower: ${slower ? `**missed** in ${slower} of ${times.length} times` : `met in every row`} (plugin time ${range(times, 2)} of the dynamic form's).`,
    `A quarter of the state per resource: met by the SshKey entries in ${met(entries)}, by the whole state in ${met(rows.map((r) => r.whole))}.`,
    ...(entries.some((x) => x > 0.25)
      ? [
          `The plugin stores no \`__provider\`; what is left is mostly the engine's own fields, the same in both forms, so the ratio sits near 0.25, and a chain's longer labels and property dependencies push it over.`,
          `Without the plugin's \`__declared\` output and the generated SDK's \`replaceOnChanges\` the entries would be ${range(
            rows.map((r) => r.lean),
            3,
          )}.`,
        ]
      : []),
  ].join(" ");
}

async function stackScale(sizes: number[], repeat: number): Promise<string> {
  const dir = path.join(ROOT, "bench", "scale");
  // The same PATH for every kind (the plugin first, as after `npm install pulumi-compute`).
  const env = pluginEnv();
  // Unmeasured: one up and destroy of one resource of each kind, so that no kind pays for a cold disk cache.
  for (const kind of ["baseline", "compute", "plugin"]) {
    const emu = await startEmulator({ speed: 0 });
    const stateDir = mkdtempSync(path.join(tmpdir(), "bench-scale-"));
    const config = { "compute:apiUrl": emu.url, "scale-bench:count": "1", "scale-bench:kind": kind, "scale-bench:shape": "independent" };
    try {
      for (const op of ["up", "destroy"] as const) await runCli(op, dir, `warm-${kind}`, stateDir, config, { "compute:token": emu.token }, env);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
      rmSync(path.join(dir, `Pulumi.warm-${kind}.yaml`), { force: true });
      await emu.close();
    }
  }
  const rows: string[] = [];
  const pluginRows: string[] = [];
  let where = "";
  /** Per row: the plugin's time ratios to the dynamic form's, and its state ratios (entries, whole state, entries without `__declared` and `replaceOnChanges`). */
  const verdicts: Array<{ times: number[]; entries: number; whole: number; lean: number }> = [];
  for (const shape of ["independent", "chain"]) {
    for (const n of sizes) {
      const runs: Record<string, ScaleRun[]> = { baseline: [], compute: [], plugin: [] };
      // With --repeat, the kinds take turns, and each figure is the median of its runs.
      for (let round = 0; round < repeat; round++)
        for (const kind of Object.keys(runs)) {
          const emu = await startEmulator({ speed: 0 });
          const stateDir = mkdtempSync(path.join(tmpdir(), "bench-scale-"));
          const stack = `scale-${kind}-${shape}-${n}`;
          const config = { "compute:apiUrl": emu.url, "scale-bench:count": String(n), "scale-bench:kind": kind, "scale-bench:shape": shape };
          const secrets = { "compute:token": emu.token };
          try {
            const up = await runCli("up", dir, stack, stateDir, config, secrets, env);
            const full = JSON.parse((await runCli("export", dir, stack, stateDir, config, secrets, env)).stdout) as Exported;
            const rf = await runCli("refresh", dir, stack, stateDir, config, secrets, env);
            const ds = await runCli("destroy", dir, stack, stateDir, config, secrets, env);
            const empty = JSON.parse((await runCli("export", dir, stack, stateDir, config, secrets, env)).stdout) as Exported;
            const ofType = (full.deployment.resources ?? []).filter((r) => r.type === SCALE_TYPES[kind]);
            if (ofType.length !== n) throw new Error(`${kind}: ${ofType.length} resources of ${SCALE_TYPES[kind]} in the state, not ${n}`);
            runs[kind].push({
              up: up.ms,
              refresh: rf.ms,
              destroy: ds.ms,
              rss: Math.max(up.rssKb, rf.rssKb, ds.rssKb),
              typeBytes: ofType.reduce((a, r) => a + bytes(r), 0) / n,
              stateBytes: (bytes(full) - bytes(empty)) / n,
              state: full,
            });
            if (kind !== "baseline" && emu.store.data.sshkeys.length !== 0) throw new Error(`${kind}: destroy left keys behind`);
          } finally {
            rmSync(stateDir, { recursive: true, force: true });
            rmSync(path.join(dir, `Pulumi.${stack}.yaml`), { force: true });
            await emu.close();
          }
        }
      const med = (xs: ScaleRun[]): ScaleRun => ({
        ...xs[0],
        up: median(xs.map((x) => x.up)),
        refresh: median(xs.map((x) => x.refresh)),
        destroy: median(xs.map((x) => x.destroy)),
        rss: Math.max(...xs.map((x) => x.rss)),
      });
      const b = med(runs.baseline);
      const c = med(runs.compute);
      const p = med(runs.plugin);
      const keys = (x: ScaleRun, t: string) => (x.state.deployment.resources ?? []).filter((r) => r.type === t);
      const d = breakdown(keys(c, SCALE_TYPES.compute));
      const g = breakdown(keys(p, SCALE_TYPES.plugin));
      verdicts.push({
        times: [p.up / c.up, p.refresh / c.refresh, p.destroy / c.destroy],
        entries: p.typeBytes / c.typeBytes,
        whole: p.stateBytes / c.stateBytes,
        lean: (g.total - g.declared - g.replace) / d.total,
      });
      if (!where) {
        const per = (v: number) => fmt(v / n);
        const providerOf = (x: ScaleRun, t: string) => bytes((x.state.deployment.resources ?? []).find((r) => r.type === t) ?? {});
        where = [
          `Where the bytes go (${shape}, N = ${n}, bytes per key): a dynamic SshKey entry is ${per(d.total)}, of which \`__provider\` (inputs and outputs) ${per(d.provider)}, \`__declared\` ${per(d.declared)}, the key's own inputs and outputs ${per(d.data)}, and the engine's own fields ${per(d.engine)} (URN, type, parent, provider reference, the declaring line's \`sourcePosition\` and \`stackTrace\`, timestamps, property dependencies);`,
          `a plugin SshKey entry is ${per(g.total)}: \`__provider\` ${per(g.provider)}, \`__declared\` ${per(g.declared)}, inputs and outputs ${per(g.data)}, the engine's own fields ${per(g.engine)} (the same fields with a shorter type, and \`replaceOnChanges\` from the generated SDK, ${per(g.replace)}).`,
          `Once per stack: the default provider resource, ${providerOf(c, "pulumi:providers:pulumi-nodejs")} bytes for the dynamic form (\`pulumi:providers:pulumi-nodejs\`, the whole stack config) and ${providerOf(p, "pulumi:providers:compute")} for the plugin (\`pulumi:providers:compute\`).`,
        ].join(" ");
      }
      const r = (x: number, y: number) => `${fmt(x / 1000, 1)} s (${fmt(x / y, 2)}x)`;
      rows.push(
        `| ${shape} | ${n} | ${r(c.up, b.up)} | ${r(c.refresh, b.refresh)} | ${r(c.destroy, b.destroy)} | ${fmt(b.up / 1000, 1)} / ${fmt(b.refresh / 1000, 1)} / ${fmt(b.destroy / 1000, 1)} s | ${fmt(c.rss / 1024)} MB (${fmt(b.rss / 1024)} MB) |`,
      );
      const miss = (ok: boolean, cell: string) => (ok ? cell : `**${cell}**`);
      const t = (x: number, y: number) => miss(x <= y, r(x, y));
      const st = (x: number, y: number) => miss(x <= y / 4, `${fmt(y)} → ${fmt(x)} (${fmt(x / y, 3)}x)`);
      pluginRows.push(
        `| ${shape} | ${n} | ${t(p.up, c.up)} | ${t(p.refresh, c.refresh)} | ${t(p.destroy, c.destroy)} | ${st(p.typeBytes, c.typeBytes)} | ${st(p.stateBytes, c.stateBytes)} | ${fmt(p.rss / 1024)} MB |`,
      );
      console.error(`bench: scale ${shape} ${n} done`);
    }
  }
  return [
    "## 4. Stack scale",
    "",
    "Wall time of `pulumi up`, `refresh` and `destroy` through the real CLI for N SSH keys, against a baseline dynamic provider that does nothing (same program shape), emulator delays at zero; `independent` resources, or a `chain` where each depends on the one before. Ratio to the baseline in brackets; peak memory is the largest resident set of the run's processes (the CLI, the program, the provider). Target: at most 1.25x the baseline, growing linearly.",
    "",
    "| Shape | N | up | refresh | destroy | baseline up / refresh / destroy | peak memory (baseline) |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "### The plugin form beside the dynamic form",
    "",
    (repeat > 1 ? `Each time is the median of ${repeat} runs per kind, the kinds taking turns. ` : "") +
      "The same stacks (same inputs, same run) on `@pulumi-compute/plugin-sdk`'s SshKey, served by pulumi-resource-compute found on PATH (bench/scale's node_modules/.bin, first on PATH for every kind). Times with their ratio to the dynamic form's (the table above). State in bytes per key, dynamic → plugin (ratio): **SshKey entries** counts the resources of the type only (`pulumi-nodejs:dynamic/compute:SshKey` or `compute:index:SshKey`, compact JSON of `pulumi stack export` after `up`); **whole state** is the export after `up` minus the export of the same stack once destroyed, divided by N (so it includes the stack and the default provider resources, shared by all keys). Targets: plugin state at most a quarter of the dynamic form's per resource (0.25x), and no slower (1.00x at most); a missed target is in bold.",
    "",
    "| Shape | N | up | refresh | destroy | SshKey entries, bytes per key | whole state, bytes per key | peak memory |",
    "|---|---|---|---|---|---|---|---|",
    ...pluginRows,
    "",
    verdict(verdicts),
    "",
    where,
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
async function failingPrograms(): Promise<string> {
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
      const guarded = [0, 1, 2].map(() => time(bin, fail));
      const stock = time(bare, fail);
      rows.push(`| ${what} | ${fmt(median(guarded) / 1000, 1)} s | ${fmt(stock / 1000, 1)} s |`);
    }
    return [
      "## 6. Failing programs",
      "",
      "`pulumi preview` of tests/programs/errors (JavaScript, no resource of ours) until the CLI exits: with the Node.js language host that scripts/ensure-pulumi builds (it preloads the stack-trace guard beside it; median of 3), and once without the guard. Target: every failing program ends within seconds of its error (under 15 s).",
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { sizes: { type: "string", default: "10,50,200" }, repeat: { type: "string", default: "1" }, only: { type: "string" } },
  });
  const sizes = values.sizes.split(",").map(Number);
  const only = values.only ? values.only.split(",") : ["requests", "notice", "state", "scale", "emulator", "failures"];
  const sections: string[] = [];
  const run = async (name: string, fn: () => Promise<string>) => {
    if (!only.includes(name)) return;
    const t0 = Date.now();
    console.error(`bench: ${name}...`);
    sections.push(await fn());
    console.error(`bench: ${name} took ${fmt((Date.now() - t0) / 1000, 1)} s`);
  };
  // examples/all, and bench/scale with the plugin SDK for the state and scale sections (made if missing).
  const viaCli = only.includes("state") || only.includes("scale");
  if (viaCli) ensurePluginSdk();
  execFileSync(path.join(ROOT, "scripts", "prepare-examples"), ["all", "tests/programs/errors", ...(viaCli ? ["bench/scale"] : [])], { stdio: "ignore" });
  await run("requests", requestsPerLifecycle);
  await run("notice", timeToNotice);
  await run("state", stateSize);
  await run("scale", () => stackScale(sizes, Math.max(1, Number(values.repeat))));
  await run("emulator", emulatorThroughput);
  await run("failures", failingPrograms);
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
