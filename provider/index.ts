/**
 * The provider implementation, loaded by name (`require("pulumi-compute/dist/provider")`) inside the
 * dynamic provider process. Nothing here is serialized into the stack state.
 */
import { definitionOf } from "./registry";
import type { DynamicProviderImpl } from "./rest-provider";
import { configure as configureSettings } from "./settings";

export { definitions, providers, specs } from "./registry";

export function provider(type: string): DynamicProviderImpl {
  return definitionOf(type).provider;
}

export async function configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
  configureSettings(req.config);
}

export { ApiClient, ApiError } from "./client";

/** The shim's methods by index (sdk/shim.ts): the order is part of every stored state, never change it. */
export const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/** The one entry point of the serialized shim (sdk/shim.ts): `call(type, method, args)`, method by index or name. */
export async function call(type: string, m: number | string, args: unknown[]): Promise<unknown> {
  const method = typeof m === "number" ? METHODS[m] : m;
  if (method === undefined) throw new Error(`pulumi-compute: unknown method index ${String(m)}`);
  if (method === "configure") return configure(args[0] as Parameters<typeof configure>[0]);
  // The engine's arguments, by position, for the method named: the one untyped boundary of the dynamic form.
  const p = provider(type) as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
  const fn = p[method];
  if (typeof fn !== "function") throw new Error(`pulumi-compute: ${type} has no method "${method}"`);
  try {
    return withoutUndefined(await fn.apply(p, args));
  } catch (err) {
    // A failure that keeps the resource carries its properties to the engine too.
    if (err && typeof err === "object" && "properties" in err) err.properties = withoutUndefined(err.properties);
    throw err;
  }
}

/** Pulumi's wire format (protobuf Struct) has no undefined: drop such keys, at any depth. */
export function withoutUndefined<T>(v: T): T {
  if (Array.isArray(v)) return (v as unknown[]).map((x) => (x === undefined ? null : withoutUndefined(x))) as T;
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, withoutUndefined(x)]),
    ) as T;
  }
  return v;
}
