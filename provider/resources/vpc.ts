import type { ExampleProps } from "../model/example";
import { z } from "zod";
import type { ApiClient } from "../transport/client";
import { defineResource } from "../definition";
import { untilAccepted } from "../lifecycle/steps";
import { usersLeaving } from "./network-users";
import type { NameRule } from "../model/naming";
import { VPC_LABEL_CHARACTER } from "../../api/labels";
import { labelBounds, LENGTH_LIMITS } from "../../api/text";
import { pathOf } from "../../api/contract/endpoint";
import { subnetsApi, vpcDescription, vpcLabel, vpcsApi, type Vpc } from "../../api/contract/vpcs";
import { tableFor } from "../model/api-table";
import { resource, ref, REGION } from "./example-parents";

/** A VPC as the API answers it (api/contract/vpcs.ts). */
export type VpcApi = Vpc;

/** VPC and subnet labels (api/labels.ts): 1..64 ASCII letters, digits and hyphens, no `--`. */
export const VPC_LABEL: NameRule & { field: "label" } = { field: "label", ...labelBounds("vpcLabel"), allowed: VPC_LABEL_CHARACTER, separators: "-" };

/** "1..64" (api/text.ts), for the field descriptions. */
export const VPC_LABEL_LENGTH = LENGTH_LIMITS.vpcLabel.join("..");

export const vpcSpec = tableFor({ create: vpcsApi.create, get: vpcsApi.get, update: vpcsApi.update, list: vpcsApi.list })({
  type: "Vpc",
  noun: "VPC",
  uniqueLabel: true,
  description: "A VPC (`/vpcs`): a private network in one region; its subnets are Subnet resources.",
  deleteNote:
    "while interfaces of instances being deleted still use its subnets, the delete waits for them to go; interfaces of instances that stay fail it at once, naming them.",
  idFormat: "The API's integer VPC id, as a string: the `vpcId` of its subnets.",
  autoName: VPC_LABEL,
  fields: [
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: vpcLabel,
      description: `${VPC_LABEL_LENGTH} ASCII letters, digits and hyphens (no \`--\`); unique among your VPCs. Auto-named \`<resource name>-<suffix>\` when left out. Changed in place.`,
    },
    {
      name: "description",
      kind: "input",
      computed: true,
      clearTo: "",
      schema: vpcDescription,
      description: `At most ${LENGTH_LIMITS.vpcDescription[1]} characters. Changed in place.`,
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
    { name: "updated", kind: "output", changesWith: ["label", "description"], description: "When it last changed." },
  ],
  collectionPath: () => pathOf(vpcsApi.list, {}),
  readsFromList: true,
  itemPath: (id) => pathOf(vpcsApi.get, { vpcId: id }),
  async findExisting(client, body) {
    return (await client.all(vpcsApi.list, {})).find((v) => v.label === body.label && v.region === body.region);
  },
});

/** The instances using the VPC's subnets (`subnets[].computes`), with their subnet's label. */
async function usersOf(c: ApiClient, id: string) {
  const subnets = await c.all(subnetsApi.list, { params: { vpcId: id } });
  return subnets.flatMap((s) => s.computes.map((i) => ({ ...i, subnet: s.label })));
}

/**
 * A VPC: its table, plus a delete that waits while instances being deleted still use its subnets, and says
 * which instances hold it otherwise.
 */
export const vpc = defineResource({
  spec: vpcSpec,
  example: () => {
    const prod = resource("Vpc", "prod", { region: REGION, label: "prod", description: "production network" });
    return { title: "A VPC for production", resources: [prod], outputs: { vpcId: ref(prod) } };
  },
  lookup: { name: "getVpcs", scope: "any scope (a valid token)", listKey: "vpcs", description: "The VPCs of the account." },
  sdk: { file: "vpc" },
  hooks: {
    deleteSteps: ({ client: c, id, timeoutMs }, remove) =>
      untilAccepted(`VPC ${id}`, timeoutMs, remove, async () => usersLeaving(c, await usersOf(c, id).catch(() => []))),
    async deleteFailure({ client: c, id }) {
      const users = await usersOf(c, id).catch(() => []);
      if (!users.length) return undefined;
      const who = users.map(
        (i) => `instance ${i.id} in subnet ${i.subnet} (interfaces ${i.interfaces.map((x) => `${x.id}${x.active ? " active" : ""}`).join(", ")})`,
      );
      return new Error(
        `cannot delete VPC ${id}: its subnets are still used by ${who.join("; ")}. Remove those interfaces first; an active interface needs its instance shut down or rebooted with another profile.`,
      );
    },
  },
});
export const vpcProvider = vpc.provider;

// The inputs its examples may give (Vpc): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Vpc: ExampleProps<typeof vpcSpec.fields>;
  }
}
