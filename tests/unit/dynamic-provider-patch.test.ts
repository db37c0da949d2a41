/**
 * The patches of other libraries in the dynamic provider's process (provider/lifecycle/dynamic-provider-patch.ts):
 * what each does, and what upstream still does that makes it needed. When one of the "still needed" tests
 * fails, the upstream library changed: its message says which patch can go (or no longer applies).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { isCancelled } from "../../provider/lifecycle/cancel";
import { cancelOnEngineCancel, GRPC_SERVER_FILE, dropReportedStacks, REPORTED_MARK, reportOnce } from "../../provider/lifecycle/dynamic-provider-patch";
import { inSession, processSession, resetSession, Session } from "../../provider/session";

/** The dynamic provider server of the @pulumi/pulumi installed (resolved, never loaded: loading it starts it). */
const DYNAMIC = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js");
const dynamicSource = readFileSync(DYNAMIC, "utf8");
/** The grpc-js that server loads. */
const GRPC = require.resolve("@grpc/grpc-js", { paths: [path.dirname(DYNAMIC)] });

function stillNeeded(holds: boolean, message: string): void {
  if (!holds) throw new Error(message);
}

afterEach(() => resetSession());

describe("upstream still needs the patches", () => {
  test("Pulumi's dynamic provider server still answers Cancel doing nothing", () => {
    stillNeeded(
      /\bcancel\(call, callback\) \{\s*callback\(undefined, new emptyproto\.Empty\(\)\);\s*\}/.test(dynamicSource),
      `${DYNAMIC}: its Cancel is no longer the no-op it was: if it now ends the provider's waits, ` +
        "cancelOnEngineCancel (provider/lifecycle/dynamic-provider-patch.ts) can go, with this test.",
    );
  });

  test("its grpc-js still looks each call's handler up through Server.prototype._retrieveHandler", () => {
    const server = path.join(path.dirname(GRPC), "server.js");
    stillNeeded(
      GRPC_SERVER_FILE.test(server),
      `grpc-js keeps its Server in ${server} now: cancelOnEngineCancel no longer finds it; change GRPC_SERVER_FILE or the patch.`,
    );
    const proto = (require(server) as { Server: { prototype: Record<string, unknown> } }).Server.prototype;
    stillNeeded(
      typeof proto._retrieveHandler === "function",
      "grpc-js's Server no longer has the private _retrieveHandler: cancelOnEngineCancel no longer reaches the " +
        "engine's Cancel; find another hook, or drop the patch if Pulumi's dynamic provider server now cancels.",
    );
  });

  test("the dynamic provider server still prints each failure with its stack", () => {
    stillNeeded(
      dynamicSource.includes("console.error(`${e}: ${e.stack}`)"),
      `${DYNAMIC} no longer prints each failure with its stack: dropReportedStacks and reportOnce ` +
        "(provider/lifecycle/dynamic-provider-patch.ts) can go, with this test.",
    );
  });
});

describe("the patches", () => {
  test("the engine's Cancel, answered by a server as Pulumi's, cancels the process's session", async () => {
    const proto = grpc.Server.prototype as unknown as Record<string, unknown>;
    const before = proto._retrieveHandler;
    expect(cancelOnEngineCancel()).toBe(true);
    const wrapped = proto._retrieveHandler;
    expect(wrapped).not.toBe(before);
    expect(cancelOnEngineCancel()).toBe(true);
    expect(proto._retrieveHandler).toBe(wrapped); // once per prototype: no second wrapper
    const server = new grpc.Server();
    server.addService(provrpc.ResourceProviderService, {
      cancel: (_call: unknown, cb: grpc.sendUnaryData<emptyproto.Empty>) => cb(null, new emptyproto.Empty()),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    const other = new Session();
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      expect(isCancelled()).toBe(false);
      // Sent from code running in another session: the Cancel is the process's (its engine's), not the sender's.
      await inSession(other, () => new Promise<void>((resolve, reject) => client.cancel(new emptyproto.Empty(), (err) => (err ? reject(err) : resolve()))));
      expect(processSession().cancellation.reason).toBe("the engine's Cancel: Ctrl-C");
      expect(isCancelled()).toBe(true);
      expect(other.cancellation.reason).toBeUndefined();
    } finally {
      client.close();
      await new Promise<void>((r) => server.tryShutdown(() => r()));
    }
  });

  test("a failure reported is dropped from the console once, every other line kept", () => {
    const lines: unknown[][] = [];
    const target = { error: (...args: unknown[]) => void lines.push(args) };
    dropReportedStacks(target);
    dropReportedStacks(target); // once per console
    const err = reportOnce(new Error("the API refused it")) as Error;
    expect(err.stack).toBe(REPORTED_MARK);
    target.error(`${err}: ${err.stack}`);
    target.error("pulumi-resource-compute: something else");
    target.error("two", "arguments");
    expect(lines).toEqual([["pulumi-resource-compute: something else"], ["two", "arguments"]]);
  });
});
