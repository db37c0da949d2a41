/**
 * The bench's view of a plugin's time (provider/plugin/rpc-times.ts), and its do-nothing plugin speaking what
 * pulumi-resource-compute speaks (scripts/noop-plugin.ts), so that the engine calls both as often.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { UNKNOWN } from "../../provider/model/table";
import { PROTOCOL } from "../../provider/plugin/engine";
import { busyMs, sumTimes, timedService, timedStart } from "../../provider/plugin/rpc-times";
import { service as noopService } from "../../scripts/noop-plugin";

/** Calls a unary method of a service with `request`, as grpc-js would: its answer. */
function callUnary<Res>(impl: grpc.UntypedServiceImplementation, method: string, request: unknown): Promise<Res> {
  const handler = impl[method] as grpc.handleUnaryCall<unknown, Res>;
  return new Promise((resolve, reject) =>
    handler({ request } as grpc.ServerUnaryCall<unknown, Res>, (err, value) => (err ? reject(new Error(String(err.details ?? err))) : resolve(value as Res))),
  );
}

describe("timedService", () => {
  it("leaves the service as it is without a file, and times every call into the file with one", async () => {
    const impl: grpc.UntypedServiceImplementation = {
      create: ((_c, cb) => setTimeout(() => cb(null, "made"), 20)) as grpc.handleUnaryCall<unknown, string>,
      check: ((_c, cb) => cb({ code: 2, details: "no" })) as grpc.handleUnaryCall<unknown, string>,
    };
    expect(timedService(impl, undefined)).toBe(impl);
    const dir = mkdtempSync(path.join(tmpdir(), "rpc-times-"));
    try {
      const file = path.join(dir, "times.jsonl");
      const timed = timedService(impl, file);
      const preview = new provproto.CreateRequest();
      preview.setPreview(true);
      expect(await callUnary(timed, "create", preview)).toBe("made");
      expect(await callUnary(timed, "create", new provproto.CreateRequest())).toBe("made");
      await expect(callUnary(timed, "check", new provproto.CheckRequest())).rejects.toThrow("no");
      const lines = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map(({ ms: _ms, at: _at, ...rest }) => rest)).toEqual([
        { rpc: "create", preview: true, ok: true },
        { rpc: "create", preview: false, ok: true },
        { rpc: "check", ok: false },
      ]);
      expect(lines[0].ms).toBeGreaterThanOrEqual(15);
      // When each arrived (a timeline): the second create after the first one's 20 ms.
      const at = lines.map((l) => l.at as number);
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(15);
      expect(Math.abs(at[0] - Date.now())).toBeLessThan(60_000);
      const sums = sumTimes(readFileSync(file, "utf8"));
      expect([...sums.keys()].sort()).toEqual(["check", "create", "create (preview)"]);
      expect(sums.get("create")?.calls).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("timedStart", () => {
  it("writes the process's start with what became of the code cache (scripts/plugin-loader.ts), and nothing without a file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rpc-times-"));
    const key = Symbol.for("pulumi-compute.codeCache");
    try {
      const file = path.join(dir, "times.jsonl");
      timedStart(undefined);
      timedStart(file);
      (globalThis as Record<symbol, unknown>)[key] = "used";
      timedStart(file);
      const lines = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toEqual([
        { rpc: "start", ms: expect.any(Number), ok: true, at: expect.any(Number) },
        { rpc: "start", ms: expect.any(Number), ok: true, at: expect.any(Number), codeCache: "used" },
      ]);
      expect(lines[0].ms).toBeCloseTo(process.uptime() * 1000, -4);
      expect([...sumTimes(readFileSync(file, "utf8")).keys()]).toEqual(["start"]);
    } finally {
      delete (globalThis as Record<symbol, unknown>)[key];
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("busyMs", () => {
  it("is the wall time with at least one call under way: overlapping calls once, gaps and starts not at all", () => {
    const line = (rpc: string, at: number, ms: number) => JSON.stringify({ rpc, at, ms, ok: true });
    const text = [
      line("start", 0, 120), // not a call
      line("read", 1000, 10), // 1000..1010
      line("read", 1005, 10), // ..1015: 15 ms together
      line("read", 1006, 2), // inside
      line("diff", 1100, 5), // after a gap: 5 ms
      JSON.stringify({ rpc: "read", ms: 50, ok: true }), // no arrival time: not counted
    ].join("\n");
    expect(busyMs(text)).toBe(20);
    expect(busyMs("")).toBe(0);
  });
});

describe("the do-nothing plugin", () => {
  const noop = noopService();

  it("answers the Handshake and Configure as pulumi-resource-compute does (PROTOCOL), preview included", async () => {
    const hs = await callUnary<provproto.ProviderHandshakeResponse>(noop, "handshake", new provproto.ProviderHandshakeRequest());
    expect([hs.getAcceptSecrets(), hs.getAcceptResources(), hs.getAcceptOutputs(), hs.getSupportsAutonamingConfiguration(), hs.getAcceptsByteString()]).toEqual(
      [PROTOCOL.acceptSecrets, PROTOCOL.acceptResources, PROTOCOL.acceptOutputs, PROTOCOL.supportsAutonamingConfiguration, PROTOCOL.acceptsByteString],
    );
    const cf = await callUnary<provproto.ConfigureResponse>(noop, "configure", new provproto.ConfigureRequest());
    expect([cf.getAcceptsecrets(), cf.getAcceptresources(), cf.getAcceptoutputs(), cf.getSupportspreview()]).toEqual([
      PROTOCOL.acceptSecrets,
      PROTOCOL.acceptResources,
      PROTOCOL.acceptOutputs,
      PROTOCOL.supportsPreview,
    ]);
  });

  it("plans a create at preview (no id, what it assigns unknown) and makes it in the up", async () => {
    const req = new provproto.CreateRequest();
    req.setProperties(structproto.Struct.fromJavaScript({ label: "k", sshKey: "ssh-ed25519 AAAA" }));
    req.setPreview(true);
    const planned = await callUnary<provproto.CreateResponse>(noop, "create", req);
    expect([planned.getId(), planned.getProperties()?.toJavaScript()]).toEqual(["", { label: "k", sshKey: "ssh-ed25519 AAAA", created: UNKNOWN }]);
    req.setPreview(false);
    const made = await callUnary<provproto.CreateResponse>(noop, "create", req);
    expect(made.getId()).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.getProperties()?.toJavaScript().created).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
