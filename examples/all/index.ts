import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const region = "us-east";
const rootPass = config.requireSecret("rootPass");
const scriptData = config.requireSecretObject<Record<string, string>>("scriptData");
const userData = config.requireSecret("userData");
const publicKey = config.require("publicKey");

// Every resource type, at least once (tests/unit/registry-coverage.test.ts). About half of the resources pin a
// label; the others (net, subnet, host, data, image, postgres, copy, agent, postgres-snapshot) are auto-named
// "<name>-<7 hex>" (a database snapshot: letters and digits), so that the chaos run covers both ways of
// identifying a create whose answer was lost.
const key = new compute.SshKey("key", { label: "all-key", sshKey: publicKey });
const net = new compute.Vpc("net", { region });
const subnet = new compute.Subnet("subnet", { vpcId: net.id, ipv4: "10.20.0.0/24" });

// An instance deployed from an image with a script, user data and keys, in the VPC.
const web = new compute.Instance("web", {
  label: "all-web",
  region,
  type: "c1-standard-2",
  image: "compute/ubuntu24.04",
  rootPass,
  authorizedKeys: [key.sshKey],
  scriptId: 101,
  scriptData,
  metadata: { userData },
  backupsEnabled: true,
  interfaces: [
    { purpose: "public", primary: true },
    { purpose: "vpc", subnetId: subnet.id },
  ],
});

// An instance built from its own disks, booted with its own profile, with an extra interface.
const host = new compute.Instance("host", { region, type: "c1-standard-2" });
const root = new compute.Disk("root", { computeId: host.id, label: "root", size: 4096, image: "compute/debian12", rootPass, scriptId: 101, scriptData });
const data = new compute.Disk("data", { computeId: host.id, size: 2048 });
const profile = new compute.Config("boot", {
  computeId: host.id,
  label: "boot",
  devices: { sda: { diskId: root.id }, sdb: { diskId: data.id } },
  booted: true,
});
const vpcInterface = new compute.Interface("vpc", { computeId: host.id, configId: profile.id, purpose: "vpc", subnetId: subnet.id });
const image = new compute.Image("image", { diskId: root.id });

// A snapshot of the web instance (its backup service is on), a clone of the host's root disk, and a token
// for an agent that only reads instances.
const snapshot = new compute.InstanceSnapshot("snapshot", { computeId: web.id, label: "all-snapshot" });
const copy = new compute.Instance("copy", { region, type: "c1-standard-2", cloneFrom: { computeId: host.id, disks: [root.id], configs: [] } });
const agent = new compute.Token("agent", { scopes: "computes:read_only" });

const mysql = new compute.MysqlDatabase("mysql", {
  label: "all-mysql",
  region,
  type: "c1-standard-2",
  engine: "mysql/8.0.35",
  allowList: [pulumi.interpolate`${web.vpcIpv4}/32`],
});
const postgres = new compute.PostgresDatabase("postgres", { region, type: "c1-standard-2", engine: "postgresql/16.1" });
const mysqlSnapshot = new compute.MysqlDatabaseSnapshot("mysql-snapshot", { databaseId: mysql.id, label: "allsnapshot" });
const postgresSnapshot = new compute.PostgresDatabaseSnapshot("postgres-snapshot", { databaseId: postgres.id });

export const ids = {
  key: key.id,
  vpc: net.id,
  subnet: subnet.id,
  web: web.id,
  host: host.id,
  root: root.id,
  data: data.id,
  profile: profile.id,
  interface: vpcInterface.id,
  image: image.id,
  mysql: mysql.id,
  postgres: postgres.id,
  snapshot: snapshot.id,
  copy: copy.id,
  agent: agent.id,
  mysqlSnapshot: mysqlSnapshot.id,
  postgresSnapshot: postgresSnapshot.id,
};
export const agentToken = agent.token;
export const webRootPass = web.rootPass;
export const mysqlPassword = mysql.password;
export const postgresCa = postgres.caCertificate;
