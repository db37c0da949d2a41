import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const release = config.get("release") ?? "1";

// An instance with its own disks and the paid backup service: snapshots need it.
const web = new compute.Instance("web", { label: "snapshot-web", region: "us-east", type: "c1-standard-2", backupsEnabled: true });
const root = new compute.Disk("root", {
  computeId: web.id,
  label: "root",
  size: 4096,
  image: "compute/debian12",
  rootPass: config.requireSecret("rootPass"),
});

// A snapshot taken before each release's change: its label names the release, so a new release takes a
// new snapshot (which replaces the last one: an instance has one snapshot slot).
const before = new compute.InstanceSnapshot("before-release", { computeId: web.id, label: `before-release-${release}` }, { dependsOn: [root] });

// The change a release brings (here the data disk's size) waits for the snapshot.
const data = new compute.Disk("data", { computeId: web.id, label: "data", size: config.getNumber("dataSize") ?? 1024 }, { dependsOn: [before] });

export const instanceId = web.id;
export const snapshotId = before.id;
export const snapshotLabel = before.label;
export const snapshotStatus = before.status;
export const dataSize = data.size;
