/**
 * The provider implementation, loaded by name (`require("pulumi-compute/dist/provider")`) inside the
 * dynamic provider process. Nothing here is serialized into the stack state.
 */
import { cancelOnSignals, counted } from "./lifecycle/cancel";
import { cancelOnEngineCancel, dropReportedStacks, reportOnce } from "./lifecycle/dynamic-provider-patch";
import { definitionOf } from "./registry";
import { withoutUndefined } from "./model/mapping";
import type { ResourceProvider } from "./lifecycle/hooks";
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

/** The one entry point of the serialized shim (sdk/shim.ts): `call(type, method, args)`, method by index or name. */
export async function call(type: string, m: number | string, args: unknown[]): Promise<unknown> {
  const method = typeof m === "number" ? METHODS[m] : m;
  if (method === undefined) throw new Error(`pulumi-compute: unknown method index ${String(m)}`);
  if (method === "configure") return configure(args[0] as Parameters<typeof configure>[0]);
  // At preview, before anything is planned: the settings every request needs (the dynamic provider has no
  // check of its configuration of its own).
  if (method === "check") {
    const problem = settingsProblems(configuredSettings(), { tokenRequired: true })[0];
    if (problem) throw reportOnce(new SettingsError(problem.reason));
  }
  // The engine's arguments, by position, for the method named: the one untyped boundary of the dynamic form.
  const p = provider(type) as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
  const fn = p[method];
  if (typeof fn !== "function") throw new Error(`pulumi-compute: ${type} has no method "${method}"`);
  try {
    return withoutUndefined(await counted(() => fn.apply(p, args)));
  } catch (err) {
    // A failure that keeps the resource carries its properties to the engine too.
    if (err && typeof err === "object" && "properties" in err) err.properties = withoutUndefined(err.properties);
    throw reportOnce(err);
  }
}
