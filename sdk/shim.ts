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
 * The dynamic provider object of one resource type. Pulumi serializes it into every resource's state as
 * `__provider`, and runs that copy on refresh and destroy. Each type's object is the exports of its own
 * module (sdk/providers/<resource>.ts), which Pulumi's serializer writes as a `require` of that module of
 * the installed package: a line, not this code. Where the package is not under node_modules (a link, the
 * tests) the object is serialized by value; so it captures only the type name, and each method loads the
 * implementation by package name when it runs: a newer installed pulumi-compute serves resources created
 * by an older one, whichever form their state holds. Methods are passed by their index in `METHODS`
 * (provider/index.ts); the names are accepted too.
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
