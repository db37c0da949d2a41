import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";
import * as plugin from "@pulumi-compute/plugin-sdk";

// The benchmark's stack: `count` resources of `kind`, `independent` or in a `chain` (each one's label depends
// on the previous one's id):
// - compute: the dynamic SshKey of pulumi-compute; baseline: a dynamic resource that does nothing;
// - plugin: the same SshKey from the SDK generated from schema.json, served by pulumi-resource-compute;
//   noop-plugin: a `noop:index:Key` served by pulumi-resource-noop (scripts/noop-plugin.ts), which does nothing.
const config = new pulumi.Config();
const count = config.requireNumber("count");
const kind = config.require("kind");
const shape = config.require("shape");

// The baseline: the smallest dynamic provider there is.
const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `${inputs.label}-${Date.now()}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async diff() {
    return { changes: false };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};
class Noop extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  constructor(name: string, args: { label: pulumi.Input<string> }) {
    super(noop, name, { label: args.label }, undefined, "bench", "Noop");
  }
}

// The plugin baseline: a custom resource of the do-nothing plugin (installed as `resource noop 0.1.0`).
class NoopKey extends pulumi.CustomResource {
  declare readonly label: pulumi.Output<string>;
  constructor(name: string, args: { label: pulumi.Input<string>; sshKey: pulumi.Input<string> }) {
    super("noop:index:Key", name, { label: args.label, sshKey: args.sshKey, created: undefined }, { version: "0.1.0" });
  }
}

// A valid ed25519 public key line for key number i.
function publicKey(i: number): string {
  const type = Buffer.from("ssh-ed25519");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(type.length);
  const klen = Buffer.alloc(4);
  klen.writeUInt32BE(32);
  const key = Buffer.alloc(32, 7);
  key.writeUInt32BE(i, 0);
  return `ssh-ed25519 ${Buffer.concat([len, type, klen, key]).toString("base64")} bench-${i}`;
}

let previous: pulumi.Output<string> | undefined;
for (let i = 0; i < count; i++) {
  const label: pulumi.Input<string> = shape === "chain" && previous ? previous.apply((id) => `k${i}-after-${id}`.slice(0, 64)) : `k${i}`;
  const r =
    kind === "baseline"
      ? new Noop(`r${i}`, { label })
      : kind === "noop-plugin"
        ? new NoopKey(`r${i}`, { label, sshKey: publicKey(i) })
        : kind === "plugin"
          ? new plugin.SshKey(`r${i}`, { label, sshKey: publicKey(i) })
          : new compute.SshKey(`r${i}`, { label, sshKey: publicKey(i) });
  previous = r.id;
}
export const last = previous;
