import { z } from "zod";
import { checkInputs, describeFailure, diffInputs, restProvider, rule, UNKNOWN, type DynamicProviderImpl, type ResourceSpec } from "../resource";
import { cidrsOverlap, subnetIpv4Error, vpcLabelError } from "../rules";
import { client as settingsClient } from "../settings";
import { idInput } from "./disk";


export interface VpcApi {
  id: number;
  label: string;
  description: string;
  region: string;
  subnets: unknown[];
  created: string;
  updated: string;
}
export interface SubnetApi {
  id: number;
  label: string;
  ipv4: string;
  computes: Array<{ id: number; interfaces: Array<{ id: number; active: boolean; config_id: number }> }>;
  created: string;
  updated: string;
}

export const vpcSpec: ResourceSpec<VpcApi> = {
  type: "Vpc",
  noun: "VPC",
  uniqueLabel: true,
  description: "A VPC (`/vpcs`): a private network in one region; its subnets are Subnet resources.",
  idFormat: "The API's integer VPC id, as a string: the `vpcId` of its subnets.",
  example: `const net = new compute.Vpc("prod", { label: "prod", region: "us-east", description: "production" });`,
  fields: [
    { name: "label", kind: "input", required: true, schema: rule(vpcLabelError), description: "1..64 ASCII letters, digits and hyphens (no `--`); unique among your VPCs. Changed in place." },
    { name: "description", kind: "input", computed: true, schema: z.string().max(255, "must be at most 255 characters"), description: "At most 255 characters. Changed in place." },
    { name: "region", kind: "input", required: true, forceNew: true, schema: z.string().min(1), description: "Region id (one with VPC support). Changing it replaces the VPC." },
    { name: "created", kind: "output", description: "When the VPC was created." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  collectionPath: () => "/vpcs",
  itemPath: (id) => `/vpcs/${encodeURIComponent(id)}`,
  async findExisting(client, body) {
    return (await client.list<VpcApi>("/vpcs")).find((v) => v.label === body.label && v.region === body.region);
  },
};

export const subnetSpec: ResourceSpec<SubnetApi> = {
  type: "Subnet",
  noun: "subnet",
  uniqueLabel: true,
  description: "A subnet of a VPC (`/vpcs/{vpcId}/subnets`). Instances join it through a `vpc` interface (an Instance's `interfaces`, a Config's, or an Interface resource).",
  idFormat: "The API's integer subnet id, as a string: the `subnetId` of `vpc` interfaces.",
  example: `const web = new compute.Subnet("web", { vpcId: net.id, label: "web", ipv4: "10.0.1.0/24" });`,
  fields: [
    { name: "vpcId", kind: "input", required: true, forceNew: true, inPath: true, schema: idInput, description: "The VPC's id (`vpc.id`). Changing it replaces the subnet." },
    { name: "label", kind: "input", required: true, schema: rule(vpcLabelError), description: "1..64 ASCII letters, digits and hyphens (no `--`); unique in the VPC. Changed in place." },
    { name: "ipv4", kind: "input", required: true, forceNew: true, schema: rule(subnetIpv4Error), description: "IPv4 range in canonical CIDR form inside RFC 1918, prefix /1../29, not overlapping 192.168.128.0/17 nor another subnet of the VPC (checked at preview against the program's other subnets where known). Changing it replaces the subnet." },
    { name: "computes", kind: "output", outputType: "array", description: "The instances in the subnet: `[{ id, interfaces: [{ id, active, configId }] }]`." },
    { name: "created", kind: "output", description: "When the subnet was created." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  collectionPath: (inputs) => `/vpcs/${String(inputs.vpcId)}/subnets`,
  itemPath: (id, props) => `/vpcs/${String(props.vpcId)}/subnets/${encodeURIComponent(id)}`,
  async findExisting(client, body, inputs) {
    return (await client.list<SubnetApi>(`/vpcs/${String(inputs.vpcId)}/subnets`)).find((s) => s.label === body.label && s.ipv4 === body.ipv4);
  },
};

export const vpcProvider = restProvider(vpcSpec);

/**
 * The subnets this program declares, per VPC, by label (a label is unique in its VPC, so a resource
 * checked twice replaces its own entry): a preview can refuse two overlapping ranges before any request.
 */
const declared = new Map<string, Map<string, string>>();
export function resetDeclaredSubnets(): void {
  declared.clear();
}

const base = restProvider(subnetSpec);
export const subnetProvider: DynamicProviderImpl = {
  ...base,
  async check(olds, news) {
    const r = checkInputs(subnetSpec, news);
    const vpc = news.vpcId;
    const { label, ipv4 } = news as { label?: unknown; ipv4?: unknown };
    if (!r.failures.length && vpc !== undefined && vpc !== UNKNOWN && typeof label === "string" && typeof ipv4 === "string" && label !== UNKNOWN && ipv4 !== UNKNOWN) {
      const siblings = declared.get(String(vpc)) ?? new Map<string, string>();
      for (const [other, range] of siblings) {
        if (other !== label && other !== olds.label && cidrsOverlap(range, ipv4)) {
          r.failures.push({ property: "ipv4", reason: `ipv4: ${ipv4} overlaps ${range} of subnet ${other} of the same VPC` });
        }
      }
      // Only a subnet that passes is recorded: a refused one must not block its siblings.
      if (!r.failures.length) {
        if (typeof olds.label === "string" && olds.label !== label) siblings.delete(olds.label);
        siblings.set(label, ipv4);
        declared.set(String(vpc), siblings);
      }
    }
    return r;
  },
  async diff(id, olds, news) {
    const d = diffInputs(subnetSpec, olds, news);
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.replaces.length > 0 && !d.changed.includes("label") };
  },
  async delete(id, props) {
    try {
      await base.delete(id, props);
    } catch (err) {
      // The API refuses while interfaces use the subnet: say which, and what to do.
      const c = settingsClient();
      const s = await c.get<SubnetApi>(subnetSpec.itemPath(id, props), true).catch(() => undefined);
      if (s?.computes.length) {
        const who = s.computes.map((i) => `instance ${i.id} (interfaces ${i.interfaces.map((x) => `${x.id}${x.active ? " active" : ""}`).join(", ")})`).join("; ");
        throw new Error(`cannot delete subnet ${id} (${s.label}): it is still used by ${who}. Remove those interfaces first (from the Interface resources, or the Config/Instance interfaces lists); an active interface needs its instance shut down or rebooted with another profile.`);
      }
      throw err instanceof Error ? err : describeFailure(subnetSpec, "delete", id, err);
    }
  },
};
