/**
 * The benchmark's sections through the real CLI at scale: bench/scale's N resources in each form beside its
 * do-nothing baseline (section 4), and a stack against the API's rate limit (section 7).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator/server";
import { busyMs, sumTimes } from "../../provider/plugin/rpc-times";
import { breakdown, bytes, fmt, median, pluginEnv, ROOT, runCli, type Exported, type Peaks, type StateResource } from "./common";

const DIR = path.join(ROOT, "bench", "scale");

/** The kinds of bench/scale, each form beside its baseline: the resource type each makes. */
const TYPES = {
  baseline: "pulumi-nodejs:dynamic/bench:Noop",
  compute: "pulumi-nodejs:dynamic/compute:SshKey",
  "noop-plugin": "noop:index:Key",
  plugin: "compute:index:SshKey",
} as const;
type Kind = keyof typeof TYPES;
const FORMS: Array<{ name: string; kind: Kind; baseline: Kind; target: number }> = [
  { name: "dynamic", kind: "compute", baseline: "baseline", target: 1.15 },
  { name: "plugin", kind: "plugin", baseline: "noop-plugin", target: 1.1 },
];
const LABEL: Record<Kind, string> = {
  baseline: "do-nothing dynamic provider",
  compute: "dynamic classes (pulumi-compute)",
  "noop-plugin": "do-nothing plugin (pulumi-resource-noop)",
  plugin: "plugin (pulumi-resource-compute)",
};

interface ScaleRun {
  up: number;
  refresh: number;
  destroy: number;
  peaks: Peaks;
  /** Bytes per resource of the measured type in the export after `up` (compact JSON), and the whole state's minus the empty stack's, per resource. */
  typeBytes: number;
  stateBytes: number;
  state: Exported;
  /** A plugin's time inside its RPCs, per operation: calls and milliseconds per RPC (provider/plugin/rpc-times.ts). */
  rpc?: Record<"up" | "refresh" | "destroy", Map<string, { calls: number; ms: number }>>;
  /** A plugin's wall time with a call under way, per operation (busyMs). */
  busy?: Record<"up" | "refresh" | "destroy", number>;
}

const OPS = ["up", "refresh", "destroy"] as const;

const config = (kind: Kind, shape: string, n: number, url: string) => ({
  "compute:apiUrl": url,
  "scale-bench:count": String(n),
  "scale-bench:kind": kind,
  "scale-bench:shape": shape,
});
const maxPeaks = (ps: Peaks[]): Peaks => ({
  cli: Math.max(...ps.map((p) => p.cli)),
  provider: Math.max(...ps.map((p) => p.provider)),
  program: Math.max(...ps.map((p) => p.program)),
});

/** The CLI's arguments for a stack (runCli's after the operation): the project, stack, state, config, secrets, env. */
type StackArgs = readonly [string, string, string, Record<string, string>, Record<string, string>, Record<string, string>];

/**
 * `run` on the stack `stack` of `n` keys of `kind` in `shape`, against a new emulator (`emulator`'s options) and
 * a state directory of its own; both, and the stack's config file, removed after it.
 */
async function withStack<T>(
  stack: string,
  kind: Kind,
  shape: string,
  n: number,
  emulator: Parameters<typeof startEmulator>[0],
  run: (s: { emu: Emulator; stateDir: string; args: StackArgs }) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator(emulator);
  const stateDir = mkdtempSync(path.join(tmpdir(), "bench-stack-"));
  try {
    return await run({ emu, stateDir, args: [DIR, stack, stateDir, config(kind, shape, n, emu.url), { "compute:token": emu.token }, pluginEnv()] });
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(path.join(DIR, `Pulumi.${stack}.yaml`), { force: true });
    await emu.close();
  }
}

/** up, export, refresh, destroy, export of one stack against a new emulator (delays at zero). */
async function oneRun(kind: Kind, shape: string, n: number): Promise<ScaleRun> {
  return withStack(`scale-${kind}-${shape}-${n}`, kind, shape, n, { speed: 0 }, async ({ emu, stateDir, args }) => {
    // A plugin times its RPCs into a file of each operation's (both plugins alike: the same cost to each).
    const plugin = kind === "plugin" || kind === "noop-plugin";
    const times = (op: string) => path.join(stateDir, `rpc-${op}.jsonl`);
    const [dir, stack, state, cfg, secrets, env] = args;
    const timed = (op: (typeof OPS)[number]) => [dir, stack, state, cfg, secrets, plugin ? { ...env, PULUMI_COMPUTE_RPC_TIMES: times(op) } : env] as const;
    const text = (op: string) => (existsSync(times(op)) ? readFileSync(times(op), "utf8") : "");
    const up = await runCli("up", ...timed("up"));
    const full = JSON.parse((await runCli("export", ...args)).stdout) as Exported;
    const rf = await runCli("refresh", ...timed("refresh"));
    const ds = await runCli("destroy", ...timed("destroy"));
    const empty = JSON.parse((await runCli("export", ...args)).stdout) as Exported;
    const ofType = (full.deployment.resources ?? []).filter((r) => r.type === TYPES[kind]);
    if (ofType.length !== n) throw new Error(`${kind}: ${ofType.length} resources of ${TYPES[kind]} in the state, not ${n}`);
    if ((kind === "compute" || kind === "plugin") && emu.store.data.sshkeys.length !== 0) throw new Error(`${kind}: destroy left keys behind`);
    return {
      up: up.ms,
      refresh: rf.ms,
      destroy: ds.ms,
      peaks: maxPeaks([up.peaks, rf.peaks, ds.peaks]),
      typeBytes: ofType.reduce((a, r) => a + bytes(r), 0) / n,
      stateBytes: (bytes(full) - bytes(empty)) / n,
      state: full,
      ...(plugin ? timesOf(text) : {}),
    };
  });
}

const s = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const mb = (kb: number) => fmt(kb / 1024);

/** Section 4: each form beside its do-nothing baseline, at each size and shape. */
export async function stackScale(sizes: number[], repeat: number): Promise<string> {
  // Unmeasured: one up and destroy of one resource of each kind, so that no kind pays for a cold disk cache.
  for (const kind of Object.keys(TYPES) as Kind[]) await oneRun(kind, "independent", 1);
  const rows: string[] = [];
  const stateRows: string[] = [];
  const ratios: Record<string, number[]> = { dynamic: [], plugin: [] };
  const stateRatios: number[] = [];
  const perKey: Record<string, Record<number, number>> = {};
  let where = "";
  const rpcRows: string[] = [];
  const missRows: string[] = [];
  for (const shape of ["independent", "chain"]) {
    for (const n of sizes) {
      const runs: Record<Kind, ScaleRun[]> = { baseline: [], compute: [], "noop-plugin": [], plugin: [] };
      // With --repeat, the kinds take turns, and each time is the median of its runs.
      for (let round = 0; round < repeat; round++) for (const kind of Object.keys(runs) as Kind[]) runs[kind].push(await oneRun(kind, shape, n));
      const med = (xs: ScaleRun[]): ScaleRun => ({
        ...xs[0],
        up: median(xs.map((x) => x.up)),
        refresh: median(xs.map((x) => x.refresh)),
        destroy: median(xs.map((x) => x.destroy)),
        peaks: maxPeaks(xs.map((x) => x.peaks)),
      });
      const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, med(v)])) as Record<Kind, ScaleRun>;
      for (const form of FORMS) {
        const x = m[form.kind];
        const b = m[form.baseline];
        const cell = (op: "up" | "refresh" | "destroy") => {
          const ratio = x[op] / b[op];
          ratios[form.name].push(ratio);
          const text = `${s(x[op])} (${fmt(ratio, 2)}x)`;
          return ratio <= form.target ? text : `**${text}**`;
        };
        const peak = (r: ScaleRun) => `${mb(r.peaks.cli)} / ${mb(r.peaks.provider)} MB`;
        rows.push(`| ${shape} | ${n} | ${LABEL[form.baseline]} | ${s(b.up)} | ${s(b.refresh)} | ${s(b.destroy)} | ${peak(b)} | ${fmt(b.typeBytes)} |`);
        rows.push(`| ${shape} | ${n} | ${LABEL[form.kind]} | ${cell("up")} | ${cell("refresh")} | ${cell("destroy")} | ${peak(x)} | ${fmt(x.typeBytes)} |`);
        for (const k of [form.baseline]) {
          perKey[k] ??= {};
          if (shape === "independent") perKey[k][n] = b.destroy / n;
        }
      }
      if (n === Math.max(...sizes)) rpcRows.push(...rpcTable(shape, n, m.plugin, m["noop-plugin"]));
      missRows.push(...missTable(shape, n, m.plugin, m["noop-plugin"], FORMS.find((f) => f.kind === "plugin")!.target));
      const c = m.compute;
      const p = m.plugin;
      const entry = p.typeBytes / c.typeBytes;
      stateRatios.push(entry);
      const st = (x: number, y: number) => {
        const text = `${fmt(y)} → ${fmt(x)} (${fmt(x / y, 3)}x)`;
        return x <= y / 4 ? text : `**${text}**`;
      };
      stateRows.push(`| ${shape} | ${n} | ${st(p.typeBytes, c.typeBytes)} | ${st(p.stateBytes, c.stateBytes)} |`);
      if (!where && n === Math.max(...sizes)) {
        const of = (x: ScaleRun, t: string) => (x.state.deployment.resources ?? []).filter((r: StateResource) => r.type === t);
        const d = breakdown(of(c, TYPES.compute));
        const g = breakdown(of(p, TYPES.plugin));
        const per = (v: number) => fmt(v / n);
        where = [
          `Where the bytes go (${shape}, N = ${n}, bytes per key): a dynamic SshKey entry is ${per(d.total)}: \`__provider\` (inputs and outputs) ${per(d.provider)}, \`__declared\` ${per(d.declared)}, the key's own inputs and outputs ${per(d.data)}, the engine's own fields ${per(d.engine)};`,
          `a plugin SshKey entry is ${per(g.total)}: inputs and outputs ${per(g.data)}, the engine's own fields ${per(g.engine)} (URN, type, parent, provider reference, timestamps, property dependencies, and ${per(g.trace)} of them the declaring line's \`sourcePosition\` and \`stackTrace\`, which @pulumi/pulumi records for every resource).`,
        ].join(" ");
      }
      console.error(`bench: scale ${shape} ${n} done`);
    }
  }
  const range = (xs: number[], d = 2) => `${fmt(Math.min(...xs), d)}x to ${fmt(Math.max(...xs), d)}x`;
  const verdict = FORMS.map((f) => {
    const xs = ratios[f.name];
    const over = xs.filter((x) => x > f.target).length;
    return `${f.name}: ${range(xs)} of its baseline, ${over ? `**missed** in ${over} of ${xs.length} times (target ${fmt(f.target, 2)}x)` : `met in every row (target ${fmt(f.target, 2)}x)`}`;
  }).join("; ");
  const sizesSorted = [...sizes].sort((a, b) => a - b);
  const growth =
    sizesSorted.length > 1
      ? Object.entries(perKey)
          .map(([k, byN]) => {
            const lo = byN[sizesSorted[sizesSorted.length - 2]];
            const hi = byN[sizesSorted[sizesSorted.length - 1]];
            return lo && hi
              ? `${LABEL[k as Kind]}'s destroy takes ${fmt(hi, 1)} ms a key at ${sizesSorted[sizesSorted.length - 1]} against ${fmt(lo, 1)} ms at ${sizesSorted[sizesSorted.length - 2]} (${fmt(hi / lo, 2)}x)`
              : "";
          })
          .filter(Boolean)
          .join("; ")
      : "";
  return [
    "## 4. Stack scale",
    "",
    `Wall time of \`pulumi up\`, \`refresh\` and \`destroy\` through the real CLI for N resources, emulator delays at zero; \`independent\` resources, or a \`chain\` where each one's label depends on the one before's id. Each form beside its own baseline, the least the engine takes for the same stack: the dynamic classes' SshKey beside a dynamic provider that does nothing, the plugin's SshKey beside a plugin that does nothing (pulumi-resource-noop: the same protocol, gRPC modules and packaging, no API). Both plugins are installed with \`pulumi plugin install\` into the run's PULUMI_HOME. Ratio to the baseline in brackets. Peak memory: the largest resident set of the CLI, and of the provider process (the plugin, or the dynamic provider's Node.js). Targets: the plugin within 1.10x of the do-nothing plugin, the dynamic classes within 1.15x of the do-nothing dynamic provider, at every size (a missed one is in bold).${repeat > 1 ? ` Each time is the median of ${repeat} runs, the kinds taking turns.` : ""}`,
    "",
    "| Shape | N | Form | up | refresh | destroy | peak memory: CLI / provider | bytes per resource |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `**Targets.** ${verdict}.${growth ? ` The engine's own time per resource grows with N (the file backend writes the whole state after every step): ${growth}.` : ""}`,
    "",
    "### Where the plugin's time goes",
    "",
    `Time inside each RPC of the plugin (from the request's arrival in the plugin to its answer; \`PULUMI_COMPUTE_RPC_TIMES\`, provider/plugin/rpc-times.ts), summed over an operation, beside the do-nothing plugin's for the same stack (N = ${Math.max(...sizes)}; the last run); \`start\` is each plugin process's start, from the process's start to its port on stdout (the engine starts a plugin for the preview and again for the operation). The rest of an operation's wall time is the engine's and the program's.`,
    "",
    "| Shape | Operation | RPC | plugin: calls, total | do-nothing plugin: calls, total |",
    "|---|---|---|---|---|",
    ...rpcRows,
    "",
    ...(missRows.length
      ? [
          "### The plugin's missed rows, measured",
          "",
          "Each plugin row over its target, its time over the do-nothing plugin's split by the plugins' own records (`PULUMI_COMPUTE_RPC_TIMES`): **starts**, each plugin process's start to its port, summed (the engine starts one for the preview and one for the operation, one after the other); **calls**, the wall time with at least one call under way in the plugin (the engine waits on its calls: the API's round trips, and the plugin's own work), ours minus the do-nothing plugin's; **the rest**, what neither accounts for (the engine's own work, slowed by the plugin's use of the same 2 cores, and noise).",
          "",
          "| Shape | N | operation | over the baseline | starts | calls | the rest |",
          "|---|---|---|---|---|---|---|",
          ...missRows,
          "",
          "**What it would take.** *Starts*: the plugin loads the provider before it prints its port (zod, the table model, every resource's table, undici's client), the do-nothing plugin only gRPC. Tried by hand and not kept (2026-11-26): undici and the functions' tables loaded on first use took a few milliseconds off a start; a V8 startup snapshot (Node's `--build-snapshot`) cannot hold the gRPC server or undici (Node refuses their HTTP/2 and HTTP parser bindings), and a snapshot of the tables with the gRPC server loaded after it started no faster than the executable does now (deserializing the larger heap costs what it saves); V8's `--no-opt` (less compiling beside the engine) shortened no operation. What is left is mostly zod and the table model, which every table shares: only the stack's tables built on first use would save the other tables' share (about a third of it), the rest would take validation schemas built on first use. *Calls*: each API round trip the engine waits on (a create, a delete, the first wave of a refresh's reads; the others come from one list), `--parallel` at once; fewer would need a batch API, which the spec has not. *The rest*: the engine's own work beside the plugin on the same cores, and one run's noise (`--repeat 3` takes medians).",
          "",
        ]
      : []),
    "### State per resource",
    "",
    "Bytes per key, dynamic → plugin (ratio): **SshKey entries** counts the resources of the type only (compact JSON of `pulumi stack export` after `up`); **whole state** is the export after `up` minus the export of the same stack once destroyed, divided by N (so it includes the stack and the default provider resources, shared by all keys). Target: the plugin's at most a quarter of the dynamic form's (0.25x).",
    "",
    "| Shape | N | SshKey entries | whole state |",
    "|---|---|---|---|",
    ...stateRows,
    "",
    `A quarter of the state: the entries ${stateRatios.every((r) => r <= 0.25) ? "meet it in every row" : `**miss** it in ${stateRatios.filter((r) => r > 0.25).length} of ${stateRatios.length} rows`} (${range(stateRatios, 3)}).`,
    "",
    where,
    "",
  ].join("\n");
}

/**
 * Section 7: N independent keys with `--parallel 64` against the emulator's `--rate-limit` (per second,
 * per token), in both forms: up and destroy, their 429s and failures, and their time beside the least the
 * limit allows (the requests answered beyond the first burst, at the limit's rate).
 */
export async function rateLimited(n: number, parallel: number, limit: number): Promise<string> {
  const rows: string[] = [];
  const ratios: number[] = [];
  const spans: number[] = [];
  const againstAlone: Array<{ ratio: number; over: boolean }> = [];
  for (const kind of ["compute", "plugin"] as const) {
    // The engine's own time for the same stack and --parallel: the form's do-nothing provider (no API, no limit).
    const alone = await engineAlone(kind === "compute" ? "baseline" : "noop-plugin", n, parallel);
    await withStack(`rate-${kind}-${n}`, kind, "independent", n, { speed: 0, rateLimit: limit }, async ({ emu, args }) => {
      for (const op of ["up", "refresh", "destroy"] as const) {
        const from = emu.log.length;
        let failed = "";
        let ms = 0;
        // When the API's requests began and ended (the log grows as answers go; sampled every 20 ms).
        let first = 0;
        let last = 0;
        let seen = from;
        const watch = setInterval(() => {
          if (emu.log.length === seen) return;
          seen = emu.log.length;
          first ||= Date.now();
          last = Date.now();
        }, 20);
        try {
          ms = (await runCli(op, ...args, [`--parallel=${parallel}`])).ms;
        } catch (e) {
          failed = (e as Error).message.split("\n")[0];
        } finally {
          clearInterval(watch);
        }
        const span = last - first;
        const log = emu.log.slice(from).filter((l) => l.path.startsWith("/v4/"));
        const refused = log.filter((l) => l.status === 429).length;
        const answered = log.length - refused;
        const least = (Math.max(0, answered - limit) / limit) * 1000;
        const ratio = ms / least;
        // Beside it, the engine's own time for the step (context: an unthrottled run of the same steps).
        const aloneRatio = op === "refresh" ? 0 : ms / alone[op];
        // The target is on up and destroy (one request a key); a refresh reads from lists (a few requests).
        const judged = op !== "refresh" && least > 0;
        if (judged) {
          if (!failed) ratios.push(ratio);
          spans.push(span / least);
          if (!failed) againstAlone.push({ ratio: aloneRatio, over: alone[op] > least });
        } else if (failed) ratios.push(Infinity);
        const keys = emu.store.data.sshkeys.length;
        const left = op === "destroy" ? (keys === 0 ? "0 left" : `**${keys} left**`) : String(keys);
        const ratioCell = !judged ? "–" : ratio <= 1.25 ? `${fmt(ratio, 2)}x` : `**${fmt(ratio, 2)}x**`;
        rows.push(
          `| ${LABEL[kind]} | ${op} | ${answered} | ${refused} | ${failed ? `**${failed}**` : "0"} | ${left} | ${s(ms)} | ${s(span)} | ${s(least)} | ${op === "refresh" ? "–" : `${s(alone[op])} (${fmt(aloneRatio, 2)}x)`} | ${ratioCell} |`,
        );
      }
    });
  }
  return [
    "## 7. Rate limits",
    "",
    `${n} independent SSH keys, \`pulumi up\`, \`refresh\` and \`destroy\` with \`--parallel ${parallel}\`, against the emulator with \`--rate-limit ${limit}\` (${limit} requests per second per token, bursts of ${limit}, 429 with Retry-After beyond; the spec shows no limit: docs/spec-gaps.md). The provider process keeps one request budget per API and token (docs/reliability.md). **Least**: the time the limit allows for the requests answered, beyond the first burst (answered − ${limit}) / ${limit} per second. **Engine alone**: the same step of the same stack with the same \`--parallel\` by the form's do-nothing provider (section 4's baselines; no API, no limit): the engine's own time, and the step's time over it in brackets (context, not a floor: unthrottled, its 64 steps at once contend for the same cores). **Time** is the whole CLI step (start, plan, the steps, the state's last write); **requests** is the time from the API's first request to its last. Target: no failure, the time of up and destroy within 1.25x of the least (the ratio).`,
    "",
    "| Form | step | requests answered | 429 | failures | keys | time | requests | least | engine alone | ratio |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `**Target.** ${ratios.length === 4 && ratios.every((r) => r <= 1.25) ? "met" : "**missed**"}: ${ratios.map((r) => `${fmt(r, 2)}x`).join(", ")} of the least (the requests alone: ${spans.map((r) => `${fmt(r, 2)}x`).join(", ")}).${
      againstAlone.some((a) => a.over)
        ? ` The engine alone takes longer than the least in ${againstAlone.filter((a) => a.over).length} of ${againstAlone.length} of these steps, so there the least cannot be reached; the steps take ${againstAlone.map((a) => `${fmt(a.ratio, 2)}x`).join(", ")} of the engine alone.`
        : ""
    }`,
    "",
  ].join("\n");
}

/** Each operation's times file, read once: its sums per RPC and its busy wall time. */
function timesOf(read: (op: (typeof OPS)[number]) => string): Pick<ScaleRun, "rpc" | "busy"> {
  const text = { up: read("up"), refresh: read("refresh"), destroy: read("destroy") };
  return {
    rpc: { up: sumTimes(text.up), refresh: sumTimes(text.refresh), destroy: sumTimes(text.destroy) },
    busy: { up: busyMs(text.up), refresh: busyMs(text.refresh), destroy: busyMs(text.destroy) },
  };
}

/** Wall time of up and destroy of `n` resources of a do-nothing kind with `--parallel`: the engine's own. */
async function engineAlone(kind: "baseline" | "noop-plugin", n: number, parallel: number): Promise<{ up: number; destroy: number }> {
  return withStack(`rate-${kind}-${n}`, kind, "independent", n, { speed: 0 }, async ({ args }) => {
    const up = (await runCli("up", ...args, [`--parallel=${parallel}`])).ms;
    const destroy = (await runCli("destroy", ...args, [`--parallel=${parallel}`])).ms;
    return { up, destroy };
  });
}

/** The plugin's rows over `target`, their time over the baseline split into starts, calls and the rest. */
function missTable(shape: string, n: number, ours: ScaleRun, noop: ScaleRun, target: number): string[] {
  const rows: string[] = [];
  const ms = (v: number) => `${v >= 0 ? "+" : "−"}${fmt(Math.abs(v), 0)} ms`;
  for (const op of OPS) {
    if (ours[op] / noop[op] <= target) continue;
    const starts = (r: ScaleRun) => r.rpc?.[op].get("start")?.ms ?? 0;
    const over = ours[op] - noop[op];
    const start = starts(ours) - starts(noop);
    const calls = (ours.busy?.[op] ?? 0) - (noop.busy?.[op] ?? 0);
    rows.push(`| ${shape} | ${n} | ${op} | ${ms(over)} (${fmt(ours[op] / noop[op], 2)}x) | ${ms(start)} | ${ms(calls)} | ${ms(over - start - calls)} |`);
  }
  return rows;
}

/** The per-RPC rows of one shape and size: each operation's RPCs, the plugin's and the do-nothing plugin's. */
function rpcTable(shape: string, n: number, ours: ScaleRun, noop: ScaleRun): string[] {
  const rows: string[] = [];
  const cell = (v?: { calls: number; ms: number }) => (v ? `${v.calls}, ${fmt(v.ms, 0)} ms` : "-");
  for (const op of OPS) {
    const a = ours.rpc?.[op] ?? new Map<string, { calls: number; ms: number }>();
    const b = noop.rpc?.[op] ?? new Map<string, { calls: number; ms: number }>();
    const names = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => (a.get(y)?.ms ?? 0) - (a.get(x)?.ms ?? 0));
    const total = (m: Map<string, { calls: number; ms: number }>) =>
      [...m.values()].reduce((t, v) => ({ calls: t.calls + v.calls, ms: t.ms + v.ms }), { calls: 0, ms: 0 });
    for (const name of names) rows.push(`| ${shape} | ${op} | ${name} | ${cell(a.get(name))} | ${cell(b.get(name))} |`);
    rows.push(`| ${shape} | ${op} | **all** (N = ${n}) | ${cell(total(a))} | ${cell(total(b))} |`);
  }
  return rows;
}
