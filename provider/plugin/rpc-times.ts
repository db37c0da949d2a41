/**
 * Where a plugin's time goes, for the bench: with `PULUMI_COMPUTE_RPC_TIMES=<file>` in its environment, each
 * call of the plugin's gRPC service is timed from the request's arrival to its answer and appended to the file
 * as one JSON line (`{"rpc":"create","preview":true,"ms":1.25}`). scripts/bench/scale.ts sums them per RPC,
 * for pulumi-resource-compute and for the do-nothing plugin (which uses this too). Without the variable the
 * service is served as it is, unwrapped. Each start is a line too (`{"rpc":"start","ms":118,"codeCache":"used"}`):
 * from the process's start to its port on stdout, and whether the executable's code cache served
 * (scripts/plugin-loader.ts; absent when the plugin runs as a script).
 */
import { appendFileSync } from "node:fs";
import { z } from "zod";
import type * as grpc from "@grpc/grpc-js";

const codeCacheState = z.enum(["used", "refused", "none"]);

/**
 * One timed call, as a line of the file: `preview`, for Create and Update, whether the engine asked for a preview
 * (the planned outputs); `at`, when the call arrived (the start's line: when the port was printed), ms since the
 * epoch (a timeline of the operation); `codeCache`, on the start's line, what scripts/plugin-loader.ts says of the
 * executable's code cache.
 */
const rpcTime = z.object({
  rpc: z.string(),
  preview: z.boolean().optional(),
  ms: z.number(),
  ok: z.boolean(),
  at: z.number().optional(),
  codeCache: codeCacheState.optional(),
});
export type RpcTime = z.output<typeof rpcTime>;

/** Milliseconds since the epoch, with the monotonic clock's precision: the lines' `at`, and a call's `ms` (from its `at`). */
const epochMs = () => performance.timeOrigin + performance.now();

/** Where scripts/plugin-loader.ts leaves what became of the executable's code cache (the same key there). */
const CODE_CACHE = Symbol.for("pulumi-compute.codeCache");

/** The plugin printed its port: the start's line, when `file` is given. */
export function timedStart(file: string | undefined = process.env.PULUMI_COMPUTE_RPC_TIMES): void {
  if (!file) return;
  // Set on the global object by another script (the loader), under a shared symbol: read as what it must be.
  const cached = codeCacheState.safeParse(Reflect.get(globalThis, CODE_CACHE));
  const codeCache = cached.success ? cached.data : undefined;
  const line: RpcTime = {
    rpc: "start",
    ms: process.uptime() * 1000,
    ok: true,
    at: epochMs(),
    ...(codeCache ? { codeCache } : {}),
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

const hasPreview = (r: unknown): r is { getPreview(): boolean } =>
  typeof r === "object" && r !== null && "getPreview" in r && typeof r.getPreview === "function";

/** The service, each of its unary methods timed into `file` when one is given. */
export function timedService(
  impl: grpc.UntypedServiceImplementation,
  file: string | undefined = process.env.PULUMI_COMPUTE_RPC_TIMES,
): grpc.UntypedServiceImplementation {
  if (!file) return impl;
  const timed: grpc.UntypedServiceImplementation = {};
  for (const [rpc, handler] of Object.entries(impl)) {
    const unary = handler as grpc.handleUnaryCall<unknown, unknown>;
    timed[rpc] = (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      const at = epochMs();
      const preview = hasPreview(call.request) ? call.request.getPreview() : undefined;
      unary(call, (err, value, trailer, flags) => {
        const line: RpcTime = { rpc, ...(preview === undefined ? {} : { preview }), ms: epochMs() - at, ok: !err, at };
        appendFileSync(file, `${JSON.stringify(line)}\n`);
        cb(err, value, trailer, flags);
      });
    };
  }
  return timed;
}

/** The lines of a times file. */
const linesOf = (text: string): RpcTime[] =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => rpcTime.parse(JSON.parse(l)));

/** The lines of a times file, summed per RPC (`create (preview)` apart from `create`): calls and milliseconds. */
export function sumTimes(text: string): Map<string, { calls: number; ms: number }> {
  const sums = new Map<string, { calls: number; ms: number }>();
  for (const t of linesOf(text)) {
    const key = t.preview ? `${t.rpc} (preview)` : t.rpc;
    const s = sums.get(key) ?? { calls: 0, ms: 0 };
    s.calls++;
    s.ms += t.ms;
    sums.set(key, s);
  }
  return sums;
}

/**
 * The wall time during which at least one call (not a start) was under way in the plugin: the time the engine
 * could have been waiting on it, however many calls ran at once. Lines without `at` (older plugins) count nothing.
 */
export function busyMs(text: string): number {
  const spans = linesOf(text)
    .filter((t) => t.rpc !== "start" && t.at !== undefined)
    .map((t) => [t.at!, t.at! + t.ms] as const)
    .sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let end = -Infinity;
  for (const [from, to] of spans) {
    if (to <= end) continue;
    busy += to - Math.max(from, end);
    end = to;
  }
  return busy;
}
