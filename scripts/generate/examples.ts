/**
 * Each resource's example, in TypeScript, Python, Go and YAML, for its description in schema.json (Pulumi's
 * `{{% examples %}}` form: each SDK's code generator keeps its own language's block, `codegen.FilterExamples`).
 *
 * One structured program per resource type (the resource, with the parents it needs and what it exports),
 * rendered by a small printer per language, so the four cannot drift apart. The values are ones the provider
 * and the emulator accept (regions, types, images and engines of emulator/data/catalog.json). The examples are
 * compiled (TypeScript, Go), byte-compiled (Python) and run through the CLI (YAML) by
 * tests/integration/examples.test.ts.
 */
import { EXAMPLE_LANGUAGES, exampleCode } from "./example-code";
import { mapOf, obj, ref, resource, type Example, type Fields, type Res } from "./example-program";

export { EXAMPLE_LANGUAGES, type ExampleLanguage } from "./example-code";

const REGION = "us-east";
const TYPE = "c1-standard-2";
const IMAGE = "compute/debian12";
/** A real ed25519 public key (its private half was thrown away). */
const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINNGSGOUj+xUx2+sJzQ7ZxOFJwhk7EsCze6Ae+LDb5HD deploy@example.com";

// Parents several examples need, made anew in each example (an example is a whole program).
/** An instance created empty: its disks and profiles are resources of their own. */
const emptyHost = () => resource("Instance", "host", { region: REGION, type: TYPE });
/** A boot disk deployed from an image on an empty instance. */
const bootDisk = (host: Res) => resource("Disk", "boot", { computeId: ref(host), size: 20480, image: IMAGE, authorizedKeys: [PUBLIC_KEY] });
const device = (disk: Res) => obj("ConfigDevice", { diskId: ref(disk) });
const mysql = () =>
  resource("MysqlDatabase", "app-db", {
    region: REGION,
    type: TYPE,
    engine: "mysql/8.0.35",
    allowList: ["10.0.1.0/24"],
    updates: obj("MysqlDatabaseUpdates", { frequency: "weekly", duration: 2, hourOfDay: 3, dayOfWeek: 7 }),
  });
const postgres = (name: string, extra: Fields = {}) =>
  resource("PostgresDatabase", name, { region: REGION, type: "c1-standard-4", engine: "postgresql/16.1", allowList: ["10.0.1.0/24"], ...extra });

/** One example per resource type of provider/registry.ts (tests/integration/examples.test.ts checks that none is missing). */
const EXAMPLES: Record<string, () => Example> = {
  Instance: () => {
    const net = resource("Vpc", "net", { region: REGION, description: "web tier" });
    const app = resource("Subnet", "app", { vpcId: ref(net), ipv4: "10.0.1.0/24" });
    const web = resource("Instance", "web", {
      region: REGION,
      type: TYPE,
      image: IMAGE,
      authorizedKeys: [PUBLIC_KEY],
      tags: ["web", "production"],
      backupsEnabled: true,
      interfaces: [obj("InstanceInterface", { purpose: "public", primary: true }), obj("InstanceInterface", { purpose: "vpc", subnetId: ref(app) })],
    });
    return {
      title: "A web server deployed from an image, with a public and a VPC interface",
      resources: [net, app, web],
      outputs: { publicIps: ref(web, "ipv4"), vpcIp: ref(web, "vpcIpv4") },
    };
  },
  Disk: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const data = resource("Disk", "data", { computeId: ref(host), size: 10240, label: "data", filesystem: "ext4" });
    return {
      title: "A boot disk from an image and a data disk on an instance created empty",
      resources: [host, boot, data],
      outputs: { bootDiskId: ref(boot), dataDiskStatus: ref(data, "status") },
    };
  },
  Config: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const data = resource("Disk", "data", { computeId: ref(host), size: 10240, filesystem: "ext4" });
    const profile = resource("Config", "profile", {
      computeId: ref(host),
      label: "debian12",
      devices: mapOf("ConfigDevice", { sda: device(boot), sdb: device(data) }),
      kernel: "compute/latest-64bit",
      rootDevice: "/dev/sda",
      booted: true,
    });
    return {
      title: "A profile that boots an instance from its own disks",
      resources: [host, boot, data, profile],
      outputs: { profileId: ref(profile), instanceStatus: ref(host, "status") },
    };
  },
  Interface: () => {
    const net = resource("Vpc", "net", { region: REGION });
    const backendSubnet = resource("Subnet", "backend-subnet", { vpcId: ref(net), ipv4: "10.0.2.0/24" });
    const host = emptyHost();
    const boot = bootDisk(host);
    const profile = resource("Config", "profile", { computeId: ref(host), devices: mapOf("ConfigDevice", { sda: device(boot) }), booted: true });
    const backend = resource("Interface", "backend", { computeId: ref(host), configId: ref(profile), purpose: "vpc", subnetId: ref(backendSubnet) });
    return {
      title: "A VPC interface added to an instance's profile",
      resources: [net, backendSubnet, host, boot, profile, backend],
      outputs: { interfaceId: ref(backend), addresses: ref(backend, "ipv4") },
    };
  },
  InstanceSnapshot: () => {
    const web = resource("Instance", "web", { region: REGION, type: TYPE, image: IMAGE, backupsEnabled: true });
    const snapshot = resource("InstanceSnapshot", "before-upgrade", { computeId: ref(web), label: "before-upgrade" });
    return {
      title: "A snapshot of an instance whose backup service is on",
      resources: [web, snapshot],
      outputs: { snapshotId: ref(snapshot), snapshotStatus: ref(snapshot, "status") },
    };
  },
  Vpc: () => {
    const prod = resource("Vpc", "prod", { region: REGION, label: "prod", description: "production network" });
    return { title: "A VPC for production", resources: [prod], outputs: { vpcId: ref(prod) } };
  },
  Subnet: () => {
    const net = resource("Vpc", "net", { region: REGION });
    const backend = resource("Subnet", "backend", { vpcId: ref(net), label: "backend", ipv4: "10.0.1.0/24" });
    return { title: "A subnet of a VPC", resources: [net, backend], outputs: { subnetId: ref(backend) } };
  },
  Image: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const golden = resource("Image", "golden", { diskId: ref(boot), label: "golden-debian12", description: "Debian 12 with the deploy key" });
    return {
      title: "A private image captured from a disk",
      resources: [host, boot, golden],
      outputs: { imageId: ref(golden), minimumSize: ref(golden, "size") },
    };
  },
  MysqlDatabase: () => {
    const db = mysql();
    return {
      title: "A MySQL cluster open to one subnet, with a weekly maintenance window",
      resources: [db],
      outputs: { hosts: ref(db, "hosts"), port: ref(db, "port"), password: ref(db, "password") },
    };
  },
  PostgresDatabase: () => {
    const db = postgres("analytics-db", { clusterSize: 3, replicationType: "asynch", replicationCommitType: "local" });
    return {
      title: "A three-node PostgreSQL cluster",
      resources: [db],
      outputs: { hosts: ref(db, "hosts"), port: ref(db, "port"), caCertificate: ref(db, "caCertificate") },
    };
  },
  MysqlDatabaseSnapshot: () => {
    const db = mysql();
    const snapshot = resource("MysqlDatabaseSnapshot", "before-migration", { databaseId: ref(db), label: "beforemigration" });
    return { title: "A snapshot of a MySQL cluster before a migration", resources: [db, snapshot], outputs: { snapshotId: ref(snapshot) } };
  },
  PostgresDatabaseSnapshot: () => {
    const db = postgres("app-db");
    const snapshot = resource("PostgresDatabaseSnapshot", "before-upgrade", { databaseId: ref(db), label: "beforeupgrade", target: "primary" });
    return {
      title: "A snapshot of a PostgreSQL cluster's primary node",
      resources: [db, snapshot],
      outputs: { snapshotId: ref(snapshot), snapshotCreated: ref(snapshot, "created") },
    };
  },
  SshKey: () => {
    const deploy = resource("SshKey", "deploy", { label: "deploy", sshKey: PUBLIC_KEY });
    return { title: "A public SSH key in the profile", resources: [deploy], outputs: { keyId: ref(deploy) } };
  },
  Token: () => {
    const monitoring = resource("Token", "monitoring", { label: "monitoring-agent", scopes: "computes:read_only databases:read_only" });
    return {
      title: "A read-only token for a monitoring agent",
      resources: [monitoring],
      outputs: { tokenId: ref(monitoring), token: ref(monitoring, "token") },
    };
  },
};
/**
 * The `{{% examples %}}` section appended to the description of resource `type` (a spec.type of
 * provider/registry.ts), or "" when the type has no example (the test names it).
 */
export function examplesSection(type: string): string {
  const make = EXAMPLES[type];
  if (!make) return "";
  const ex = make();
  const code = exampleCode(ex);
  const blocks = EXAMPLE_LANGUAGES.map((lang) => "```" + lang + "\n" + code[lang] + "\n```").join("\n");
  return `\n\n{{% examples %}}\n## Example Usage\n{{% example %}}\n### ${ex.title}\n\n${blocks}\n{{% /example %}}\n{{% /examples %}}`;
}
