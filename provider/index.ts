/**
 * The provider implementation, loaded by name (`require("pulumi-compute/dist/provider")`) inside the
 * dynamic provider process. Nothing here is serialized into the stack state.
 */
import { cancelOnSignals, counted } from "./lifecycle/cancel";
import { cancelOnEngineCancel, dropReportedStacks, reportOnce } from "./lifecycle/dynamic-provider-patch";
import { definitionOf } from "./registry";
import { withoutUndefined } from "./model/mapping";
import { z } from "zod";
import type { ResourceProvider } from "./lifecycle/hooks";
import type { Props } from "./model/table";
import { configure as configureSettings, configuredSettings, SettingsError, settingsProblems } from "./transport/settings";

export { definitions, providers, specs } from "./registry";

// Loaded by name inside the dynamic provider's process (Pulumi's cmd/dynamic-provider): Ctrl-C (the engine's
// Cancel, SIGINT, SIGTERM) ends the waits of the operations under way, which answer with what they made
// (provider/lifecycle/cancel.ts), and a failure is said once (the patches of
// provider/lifecycle/dynamic-provider-patch.ts, each with its reason). Loaded anywhere else (a program, a
// test), it leaves the process's signals, its gRPC servers and its console alone.
if (/[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(process.argv[1] ?? "")) {
  cancelOnSignals();
  cancelOnEngineCancel();
  dropReportedStacks();
}

export function provider(type: string): ResourceProvider {
  return definitionOf(type).provider;
}

export async function configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
  configureSettings(req.config);
}

export { ApiClient, ApiError } from "./transport/client";
export { withoutUndefined };

/** The shim's methods by index (sdk/shim.ts): the order is part of every stored state, never change it. */
export const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/** What the dynamic provider's configure passes: the stack's config, read by key. */
const configRequest = z.object({
  config: z.custom<{ get(key: string): string | undefined }>((c) => typeof c === "object" && c !== null && "get" in c && typeof c.get === "function"),
});

/** The engine's props (an object), as the dynamic provider passes them. */
const props = (v: unknown): Props => z.record(z.string(), z.unknown()).parse(v ?? {});

/**
 * The engine's arguments, by position, for the method named: the one untyped boundary of the dynamic form, each
 * argument read as what the method takes (an id is text, props an object).
 */
function operation(p: ResourceProvider, method: string, a: unknown[]): (() => Promise<unknown>) | undefined {
  switch (method) {
    case "check":
      return () => p.check(props(a[0]), props(a[1]));
    case "diff":
      return () => p.diff(String(a[0]), props(a[1]), props(a[2]));
    case "create":
      return () => p.create(props(a[0]));
    case "read":
      return () => p.read(String(a[0]), props(a[1]));
    case "update":
      return () => p.update(String(a[0]), props(a[1]), props(a[2]));
    case "delete":
      return () => p.delete(String(a[0]), props(a[1]));
    default:
      return undefined;
  }
}

/** The one entry point of the serialized shim (sdk/shim.ts): `call(type, method, args)`, method by index or name. */
export async function call(type: string, m: number | string, args: unknown[]): Promise<unknown> {
  const method = typeof m === "number" ? METHODS[m] : m;
  if (method === undefined) throw new Error(`pulumi-compute: unknown method index ${String(m)}`);
  if (method === "configure") return configure(configRequest.parse(args[0]));
  // At preview, before anything is planned: the settings every request needs (the dynamic provider has no
  // check of its configuration of its own).
  if (method === "check") {
    const problem = settingsProblems(configuredSettings(), { tokenRequired: true })[0];
    if (problem) throw reportOnce(new SettingsError(problem.reason));
  }
  const run = operation(provider(type), method, args);
  if (!run) throw new Error(`pulumi-compute: ${type} has no method "${method}"`);
  try {
    return withoutUndefined(await counted(run));
  } catch (err) {
    // A failure that keeps the resource carries its properties to the engine too.
    if (err && typeof err === "object" && "properties" in err) err.properties = withoutUndefined(err.properties);
    throw reportOnce(err);
  }
}
