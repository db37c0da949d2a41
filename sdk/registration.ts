import * as pulumi from "@pulumi/pulumi";
import type { NamingPolicy } from "../provider/model/naming";
import { namingPolicy } from "./naming";
import { TABLES, type ResourceType } from "./tables";

/** Wraps the given inputs as secrets (when set), so that they are encrypted in the state. */
export function secretInputs<T extends Record<string, unknown>>(args: T, names: string[]): T {
  const out: Record<string, unknown> = { ...args };
  for (const n of names) if (out[n] !== undefined) out[n] = pulumi.secret(out[n]);
  return out as T;
}

/**
 * Marks outputs as secret whatever the inputs were: a value the provider generates or reads back (a
 * generated root password, database credentials) has no secret input of the same name to inherit from.
 */
export function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, names: string[]): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...names])] };
}

/**
 * The props of a dynamic resource: every input and output name present (a name left out would get no
 * output property), the user's values over them, and the secret ones wrapped. The resource name goes
 * along as `__resourceName` for auto-naming: the provider's check reads it and keeps it out of the state.
 */
export function dynamicProps(name: string, names: readonly string[], args: object, secrets: readonly string[], naming?: NamingPolicy): Record<string, unknown> {
  const props: Record<string, unknown> = Object.fromEntries(names.map((n) => [n, undefined]));
  for (const [k, v] of Object.entries(args ?? {})) props[k] = v;
  props.__resourceName = name;
  // The stack's naming policy (pulumi:autonaming), for a label left out: check reads it and drops it.
  if (naming) props.__autonaming = naming;
  return secretInputs(props, [...secrets]);
}

/**
 * The props and options a dynamic resource of `type` is registered with, from its field table
 * (sdk/tables.ts): every property present, secret inputs wrapped, secret outputs marked.
 */
export function registration(
  type: ResourceType,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): [Record<string, unknown>, pulumi.CustomResourceOptions | undefined] {
  const t = TABLES[type];
  const props = dynamicProps(name, t.props, args, t.secretInputs, namingPolicy(type));
  // replaceOnChanges reaches no dynamic provider's diff through the engine (it names no field): passed along.
  if (opts?.replaceOnChanges?.length) props.__replaceOnChanges = [...opts.replaceOnChanges];
  return [props, t.secretOutputs.length ? withSecretOutputs(opts, [...t.secretOutputs]) : opts];
}
