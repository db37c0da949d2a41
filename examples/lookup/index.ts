/**
 * Finding what already exists: a VPC and its subnet made elsewhere (another team's stack, the console) are
 * looked up by label, and a new instance is attached to that subnet. Also: a lookup in its Output form that
 * depends on a resource of this program, and an existing instance read (not managed) with `Instance.get`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const vpcLabel = config.get("vpcLabel") ?? "shared-net";
const subnetLabel = config.get("subnetLabel") ?? "apps";

// Promise form: the VPC by its label (filters run on every page of the list).
const vpc = compute.getVpcs({ filters: [{ name: "label", values: [vpcLabel] }] }).then((r) => {
  if (r.vpcs.length !== 1) throw new Error(`expected one VPC labelled ${vpcLabel}, found ${r.vpcs.length}`);
  return r.vpcs[0];
});
// Output form: the subnet of that VPC, by label.
const subnet = compute.getSubnetsOutput({ vpcId: pulumi.output(vpc).id, filters: [{ name: "label", values: [subnetLabel] }] }).apply((r) => {
  if (r.subnets.length !== 1) throw new Error(`expected one subnet labelled ${subnetLabel} in VPC ${vpcLabel}, found ${r.subnets.length}`);
  return r.subnets[0];
});

const app = new compute.Instance("app", {
  region: pulumi.output(vpc).apply((v) => v.region!),
  type: "c1-standard-2",
  image: "compute/debian12",
  rootPass: config.requireSecret("rootPass"),
  interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: subnet.id }],
});

// An Output-form lookup that depends on a resource of this program: the app's ext4 disks.
const disks = compute.getDisksOutput({ computeId: app.id, filters: [{ name: "filesystem", values: ["ext4"] }], orderBy: "label" });

// An instance made elsewhere, read by its id: not managed (destroy leaves it alone).
const existingId = config.get("existingInstanceId");
const existing = existingId ? compute.Instance.get("existing", existingId) : undefined;

// A lookup on any field of the items: `instanceFilter` names the field (an unknown one fails, naming it).
const field = config.get("instanceFilter") ?? "region";
const inRegion = compute.getInstancesOutput({ filters: [{ name: field, values: [pulumi.output(vpc).apply((v) => v.region!)] }] });

export const vpcId = pulumi.output(vpc).id;
export const subnetId = subnet.id;
export const appVpcIp = app.vpcIpv4;
export const appDisks = disks.apply((r) => r.disks.map((d) => d.label));
export const existingLabel = existing?.label;
export const existingStatus = existing?.status;
export const existingIpv4 = existing?.ipv4;
export const instancesInRegion = inRegion.apply((r) => r.instances.map((i) => i.label).sort());
