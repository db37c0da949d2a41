import * as pulumi from "@pulumi/pulumi";

/**
 * Where a read function reads from, as the resources do: the stack's `compute:apiUrl` and `compute:token`,
 * then the COMPUTE_API_URL and COMPUTE_TOKEN environment variables, unless given here.
 */
export interface ReadOptions {
  apiUrl?: string;
  /** Only needed to see private resources. Regions, types, kernels and public images need none. */
  token?: string;
}

/** The provider's modules, loaded when a function is called: the program needs no client until it reads. */
const provider = () => ({
  settings: require("../provider/transport/settings") as typeof import("../provider/transport/settings"),
  functions: require("../provider/functions") as typeof import("../provider/functions"),
});

/**
 * Runs a read function of provider/functions/index.ts, the one implementation the plugin's Invoke runs too, with
 * the provider's one API client (its retry policy and URL checks).
 */
export async function runFunction(name: string, args: Record<string, unknown>, opts: ReadOptions = {}): Promise<Record<string, unknown>> {
  const { settings, functions } = provider();
  const config = new pulumi.Config("compute");
  // The token is a secret in the stack's config: read here as a plain value, it is only ever sent to the API.
  const given = { apiUrl: opts.apiUrl ?? config.get("apiUrl"), token: opts.token ?? config.get("token") };
  return functions.invoke(settings.clientFor(given, { tokenRequired: false }), name, args);
}

/** Fails at once on a filter or order field that the function's items do not have (plain values only). */
export function checkFieldNames(name: string, args: Record<string, unknown>): void {
  provider().functions.checkFieldNames(name, args);
}

/**
 * The options of a read function's Output form: where it reads from, and the resources it reads after
 * (`dependsOn`, as Pulumi's invoke options have it): `getTokensOutput({}, { dependsOn: token })` lists the
 * tokens once `token` exists. At preview, while one of them is still to be made, the result is unknown.
 */
export interface ReadOutputOptions extends ReadOptions {
  dependsOn?: pulumi.Resource | pulumi.Resource[];
}

/** An Output that resolves once every resource of `dependsOn` exists (its id known), and carries them as dependencies. */
export function afterDependencies(opts?: ReadOutputOptions): pulumi.Output<unknown> {
  const deps = opts?.dependsOn === undefined ? [] : Array.isArray(opts.dependsOn) ? opts.dependsOn : [opts.dependsOn];
  return pulumi.all(deps.map((r) => (pulumi.CustomResource.isInstance(r) ? r.id : r.urn)));
}
