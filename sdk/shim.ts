import type * as pulumi from "@pulumi/pulumi";

/**
 * What the shim calls in provider/index.ts, loaded by package name when a method runs (the one untyped
 * boundary of the dynamic form: its compiled text is what the state holds, so the types stay out of it).
 * Each method resolves to what the engine expects of it (CheckResult, DiffResult...): `never` says so.
 */
interface Provider {
  call(type: string, m: number, args: unknown[]): Promise<never>;
}

/**
 * The dynamic provider object of one resource type. Pulumi serializes it, with what it captures, into
 * every resource's state as `__provider`, and runs that copy on refresh and destroy. So it captures only
 * the type name, and each method loads the implementation by package name when it runs: the state stays
 * small (bench/results.md measures it), and a newer installed pulumi-compute serves resources created by
 * an older one. Methods are passed by their index in `METHODS` (provider/index.ts), which saves bytes in
 * every resource's state; the names are accepted too.
 */
export function shim(type: string): pulumi.dynamic.ResourceProvider {
  const c = (m: number, a: unknown[]) => (require("pulumi-compute/dist/provider") as Provider).call(type, m, a);
  return {
    configure: (...a) => c(0, a),
    check: (...a) => c(1, a),
    diff: (...a) => c(2, a),
    create: (...a) => c(3, a),
    read: (...a) => c(4, a),
    update: (...a) => c(5, a),
    delete: (...a) => c(6, a),
  };
}
