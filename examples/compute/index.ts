import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

// Settings: compute:apiUrl and compute:token (secret), or COMPUTE_API_URL / COMPUTE_TOKEN.
const config = new pulumi.Config();

// An instance created empty: its disks and profiles are declared below. (An image deploy would give it
// one disk that fills the type's whole disk allowance, leaving no room for a data disk.)
const web = new compute.Instance("web", {
  label: config.get("label") ?? "web-1",
  region: config.get("region") ?? "us-east",
  type: config.get("type") ?? "c1-standard-2",
  tags: ["web", "example"],
  allowAutoDiskResize: false,
});

const root = new compute.Disk("root", {
  computeId: web.id,
  label: "root",
  size: 8192,
  image: "compute/debian12",
  rootPass: config.requireSecret("rootPass"),
});
const swap = new compute.Disk("swap", { computeId: web.id, label: "swap", size: 512, filesystem: "swap" });
const data = new compute.Disk("data", { computeId: web.id, label: "data", size: 10240, filesystem: "ext4" });

// The profile the instance boots with: all three disks, a public and a VLAN interface (as a list).
const main = new compute.Config("main", {
  computeId: web.id,
  label: "main",
  devices: { sda: { diskId: root.id }, sdb: { diskId: swap.id }, sdc: { diskId: data.id } },
  interfaces: [
    { purpose: "public", primary: true },
    { purpose: "vlan", label: "backend", ipamAddress: "10.0.0.1/24" },
  ],
  booted: true,
});

// A second profile for maintenance (single-user mode, root disk only), with its VLAN interface
// managed as its own resource.
const maintenance = new compute.Config("maintenance", {
  computeId: web.id,
  label: "maintenance",
  devices: { sda: { diskId: root.id } },
  runLevel: "single",
});
const maintenanceVlan = new compute.Interface("maintenance-vlan", {
  computeId: web.id,
  configId: maintenance.id,
  purpose: "vlan",
  label: "backend",
  ipamAddress: "10.0.0.2/24",
});

export const instanceId = web.id;
export const instanceLabel = web.label;
export const instanceType = web.type;
export const publicIp = web.ipv4[0];
export const bootProfile = main.id;
export const disks = { root: root.id, swap: swap.id, data: data.id };
export const maintenanceInterface = maintenanceVlan.id;
