/**
 * What a team deploys: an instance in a VPC, a MySQL cluster and a token for its CI. `secure: false` breaks
 * every rule of the policy pack (@pulumi-compute/policy): no backups, a root password without keys, a public
 * interface beside the VPC's, a database open to the world, a token with every scope and no expiry.
 */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "@pulumi-compute/plugin-sdk";

const config = new pulumi.Config();
const secure = config.getBoolean("secure") ?? true;

const net = new compute.Vpc("net", { region: "us-east" });
const app = new compute.Subnet("app", { vpcId: net.id, ipv4: "10.0.1.0/24" });
const web = new compute.Instance("web", {
  region: "us-east",
  type: config.get("type") ?? "c1-standard-2",
  image: "compute/debian12",
  backupsEnabled: secure,
  authorizedKeys: secure ? [config.require("publicKey")] : undefined,
  interfaces: secure
    ? [{ purpose: "vpc", subnetId: app.id, primary: true, ipv4: { nat11: "any" } }]
    : [
        { purpose: "public", primary: true },
        { purpose: "vpc", subnetId: app.id },
      ],
});
const db = new compute.MysqlDatabase("db", {
  region: "us-east",
  type: "c1-standard-2",
  engine: "mysql/8.0.35",
  allowList: secure ? ["10.0.1.0/24"] : ["0.0.0.0/0"],
});
const ci = new compute.Token("ci", secure ? { scopes: "computes:read_only", expiry: "2030-01-01T00:00:00" } : { scopes: "*" });

export const webMonthly = web.monthlyPrice;
export const dbMonthly = db.monthlyPrice;
export const tokenLabel = ci.label;
