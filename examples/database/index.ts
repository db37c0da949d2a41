import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const region = "us-east";

// The web tier: one instance in a VPC subnet.
const net = new compute.Vpc("net", { label: "db-example-net", region });
const subnet = new compute.Subnet("app", { vpcId: net.id, label: "app", ipv4: "10.10.0.0/24" });
const web = new compute.Instance("web", {
  label: "db-example-web",
  region,
  type: "c1-standard-2",
  image: "compute/debian12",
  rootPass: config.requireSecret("rootPass"),
  interfaces: [
    { purpose: "public", primary: true },
    { purpose: "vpc", subnetId: subnet.id },
  ],
});

// MySQL, open only to the web server's VPC address (plus any extra ranges from config).
const extra = config.getObject<string[]>("extraAllowed") ?? [];
const mysql = new compute.MysqlDatabase("app-db", {
  label: "app-db",
  region,
  type: "c1-standard-2",
  engine: "mysql/8.0.35",
  allowList: pulumi.all([web.vpcIpv4, extra]).apply(([ip, more]) => [`${ip}/32`, ...more]),
  // Rotate the root password by changing this value (a date, say): the credentials are reset in place.
  passwordRotation: config.get("passwordRotation"),
  // Restore one of its backups in place by setting this to the backup's id (getMysqlDatabaseBackups lists
  // them): the data is replaced by the backup's, the cluster keeps its id.
  restoreBackupId: config.get("restoreBackupId"),
});

// Snapshots of the MySQL database (the API keeps at most 3 per database; a fourth is refused at preview).
const snapshots = Array.from(
  { length: config.getNumber("snapshots") ?? 1 },
  (_, i) =>
    new compute.MysqlDatabaseSnapshot(`app-db-snapshot-${i + 1}`, {
      databaseId: mysql.id,
      target: i > 0 ? (config.get("snapshotTarget") as "primary" | "secondary" | undefined) : undefined,
    }),
);

// PostgreSQL, for reporting, with three nodes.
const postgres = new compute.PostgresDatabase("reports", {
  label: "reports",
  region,
  type: "c1-standard-2",
  engine: "postgresql/16.1",
  clusterSize: 3,
  replicationType: "asynch",
  replicationCommitType: "remote_write",
});

export const webVpcIp = web.vpcIpv4;
export const mysqlHost = mysql.hosts.apply((h) => h.primary);
export const mysqlAllowList = mysql.allowList;
export const mysqlPassword = mysql.password; // a secret output
export const mysqlId = mysql.id;
export const mysqlSnapshots = snapshots.map((s) => s.label);
export const postgresHost = postgres.hosts.apply((h) => h.primary);
export const postgresCa = postgres.caCertificate; // a secret output
