import { z } from "zod";
import { defineResource } from "../definition";
import type { NameRule } from "../naming";
import { vpcLabelError } from "../rules";
import { rule, type ResourceSpec } from "../table";

export interface VpcApi {
  id: number;
  label: string;
  description: string;
  region: string;
  subnets: unknown[];
  created: string;
  updated: string;
}

/** VPC and subnet labels: 1..64 ASCII letters, digits and hyphens, no `--`. */
export const VPC_LABEL: NameRule = { field: "label", min: 1, max: 64, allowed: /[A-Za-z0-9-]/, separators: "-" };

export const vpcSpec: ResourceSpec<VpcApi> = {
  type: "Vpc",
  noun: "VPC",
  uniqueLabel: true,
  description: "A VPC (`/vpcs`): a private network in one region; its subnets are Subnet resources.",
  idFormat: "The API's integer VPC id, as a string: the `vpcId` of its subnets.",
  example: `const net = new compute.Vpc("prod", { region: "us-east", description: "production" }); // label: prod-<suffix>`,
  autoName: VPC_LABEL,
  fields: [
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: rule(vpcLabelError),
      description:
        "1..64 ASCII letters, digits and hyphens (no `--`); unique among your VPCs. Auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    {
      name: "description",
      kind: "input",
      computed: true,
      clearTo: "",
      schema: z.string().max(255, "must be at most 255 characters"),
      description: "At most 255 characters. Changed in place.",
    },
    {
      name: "region",
      kind: "input",
      required: true,
      forceNew: true,
      schema: z.string().min(1),
      description: "Region id (one with VPC support). Changing it replaces the VPC.",
    },
    { name: "created", kind: "output", description: "When the VPC was created." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  collectionPath: () => "/vpcs",
  readsFromList: true,
  itemPath: (id) => `/vpcs/${encodeURIComponent(id)}`,
  async findExisting(client, body) {
    return (await client.list<VpcApi>("/vpcs")).find((v) => v.label === body.label && v.region === body.region);
  },
};

export const vpc = defineResource({
  spec: vpcSpec,
  lookup: { name: "getVpcs", listKey: "vpcs", description: "The VPCs of the account." },
  sdk: { file: "vpc" },
});
export const vpcProvider = vpc.provider;
