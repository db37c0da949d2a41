import type * as pulumi from "@pulumi/pulumi";

/**
 * The dynamic provider object of one resource type. Pulumi serializes it, with what it captures, into
 * every resource's state as `__provider`, and runs that copy on refresh and destroy. So it captures only
 * the type name, and each method loads the implementation by package name when it runs: the state stays
 * small (measured by the benchmarks), and a newer installed pulumi-compute serves resources created by an
 * older one.
 */
export function shim(type: string): pulumi.dynamic.ResourceProvider {
  const c = (m: string, a: unknown[]) => require("pulumi-compute/dist/provider").call(type, m, a);
  return {
    configure: (...a) => c("configure", a),
    check: (...a) => c("check", a),
    diff: (...a) => c("diff", a),
    create: (...a) => c("create", a),
    read: (...a) => c("read", a),
    update: (...a) => c("update", a),
    delete: (...a) => c("delete", a),
  };
}
