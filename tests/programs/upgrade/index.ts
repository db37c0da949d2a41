import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const region = "us-east";
const rootPass = config.requireSecret("rootPass");
const scriptData = config.requireSecretObject<Record<string, string>>("scriptData");
const userData = config.requireSecret("userData");
const publicKey = config.require("publicKey");

const key = new compute.SshKey("key", { label: "upg-key", sshKey: publicKey });
const net = new compute.Vpc("net", { label: "upg-net", region });
const subnet = new compute.Subnet("subnet", { vpcId: net.id, label: "upg-subnet", ipv4: "10.20.0.0/24" });

// An instance deployed from an image with a script, user data and keys, in the VPC.
const web = new compute.Instance("web", {
  label: "upg-web",
  region,
  type: "c1-standard-2",
  image: "compute/ubuntu24.04",
  rootPass,
  authorizedKeys: [key.sshKey],
  scriptId: 101,
  scriptData,
  metadata: { userData },
  interfaces: [
    { purpose: "public", primary: true },
    { purpose: "vpc", subnetId: subnet.id },
  ],
});

// An instance built from its own disks, booted with its own profile, with an extra interface.
const host = new compute.Instance("host", { label: "upg-host", region, type: "c1-standard-2" });
const root = new compute.Disk("root", { computeId: host.id, label: "root", size: 4096, image: "compute/debian12", rootPass, scriptId: 101, scriptData });
const data = new compute.Disk("data", { computeId: host.id, label: "data", size: 2048 });
const profile = new compute.Config("boot", {
  computeId: host.id,
  label: "boot",
  devices: { sda: { diskId: root.id }, sdb: { diskId: data.id } },
  booted: true,
});
const vpcInterface = new compute.Interface("vpc", { computeId: host.id, configId: profile.id, purpose: "vpc", subnetId: subnet.id });
const image = new compute.Image("image", { diskId: root.id, label: "upg-image" });

const mysql = new compute.MysqlDatabase("mysql", {
  label: "upg-mysql",
  region,
  type: "c1-standard-2",
  engine: "mysql/8.0.35",
  allowList: [pulumi.interpolate`${web.vpcIpv4}/32`],
});
const postgres = new compute.PostgresDatabase("postgres", { label: "upg-postgres", region, type: "c1-standard-2", engine: "postgresql/16.1" });

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
};
export const webRootPass = web.rootPass;
export const mysqlPassword = mysql.password;
export const postgresCa = postgres.caCertificate;

// Written for the previous release: an instance without a label, with the swap size it was made with,
// tags and a group.
const bare = new compute.Instance("bare", {
  region,
  type: "c1-standard-2",
  image: "compute/debian12",
  rootPass,
  swapSize: 512,
  tags: ["alpha", "beta"],
  group: "grp",
});
export const bareId = bare.id;
