/**
 * One program in both forms: the dynamic classes (`pulumi-compute`) or the plugin's SDK
 * (`@pulumi-compute/plugin-sdk`), chosen by the stack's `form` config. Its parts are switched on by config,
 * so that a test makes only what it looks at: a key whose `created` a VPC's description uses; two instances
 * whose VPC addresses a database's allow list takes, and a VPC whose description names the database's host;
 * an instance whose create waits.
 */
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-compute";
import * as plugin from "@pulumi-compute/plugin-sdk";

const config = new pulumi.Config();
const compute = (config.get("form") === "plugin" ? plugin : dynamic) as unknown as typeof dynamic;

const key = new compute.SshKey("key", { label: config.get("keyLabel") ?? "plans-key", sshKey: config.require("publicKey") });
const net = new compute.Vpc("net", { region: "us-east", description: pulumi.interpolate`key made ${key.created}` });
export const keyCreated = key.created;
export const netId = net.id;

function database() {
  const subnet = new compute.Subnet("subnet", { vpcId: net.id, ipv4: "10.30.0.0/24" });
  const app = (name: string, type: string) =>
    new compute.Instance(name, {
      region: "us-east",
      type,
      image: "compute/debian12",
      rootPass: config.requireSecret("rootPass"),
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id }],
    });
  const a = app("app-a", config.get("typeA") ?? "c1-standard-2");
  const b = app("app-b", "c1-standard-2");
  const extra = config.get("extraAllow");
  const db = new compute.MysqlDatabase("db", {
    region: "us-east",
    type: "c1-standard-2",
    engine: "mysql/8.0.35",
    allowList: [pulumi.interpolate`${a.vpcIpv4}/32`, pulumi.interpolate`${b.vpcIpv4}/32`, ...(extra ? [extra] : [])],
  });
  const downstream = new compute.Vpc("downstream", {
    region: "us-east",
    description: pulumi.interpolate`database at ${db.hosts.apply((h) => h?.primary)}:${db.port}`,
  });
  return { dbHost: db.hosts, downstreamDescription: downstream.description };
}
export const withDatabase = config.getBoolean("withDatabase") ? database() : undefined;

// An instance deployed from an image: a create that waits (the Ctrl-C tests slow the emulator down).
export const slowId = config.getBoolean("withSlow")
  ? new compute.Instance("slow", {
      label: config.get("slowLabel"),
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      rootPass: config.requireSecret("rootPass"),
    }).id
  : undefined;
