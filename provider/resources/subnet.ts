import type { ExampleProps } from "../model/example";
import { RESOURCE_NAME } from "../model/marks";
import { z } from "zod";
import { deletesFirst, type CheckFailure } from "../model/check";
import { defineResource } from "../definition";
import type { ProgramContext } from "../program";
import type { ApiClient } from "../transport/client";
import { untilAccepted } from "../lifecycle/steps";
import { usersLeaving } from "./network-users";
import { ipv4SpansOverlap, subnetIpv4Error } from "../../api/network";
import { pathOf } from "../../api/contract/endpoint";
import { subnetIpv4, subnetsApi, vpcLabel, type Subnet } from "../../api/contract/vpcs";
import { tableFor } from "../model/api-table";
import { UNKNOWN } from "../model/table";
import { idInput } from "../model/rules";
import { VPC_LABEL, VPC_LABEL_LENGTH } from "./vpc";
import { resource, ref, REGION } from "./example-parents";

/** A subnet as the API answers it (api/contract/vpcs.ts). */
export type SubnetApi = Subnet;

/** The path of a subnet's VPC (the `vpcId` input, as given or kept in the state). */
const vpcOf = (props: { vpcId?: unknown }): string => String(props.vpcId);

/** A subnet, or undefined when it is gone. */
const findSubnet = (c: ApiClient, id: string, props: { vpcId?: unknown }) => c.find(subnetsApi.get, { params: { vpcId: vpcOf(props), vpcSubnetId: id } });

export const subnetSpec = tableFor({ create: subnetsApi.create, get: subnetsApi.get, update: subnetsApi.update, list: subnetsApi.list })({
  type: "Subnet",
  noun: "subnet",
  uniqueLabel: true,
  description:
    "A subnet of a VPC (`/vpcs/{vpcId}/subnets`). Instances join it through a `vpc` interface (an Instance's `interfaces`, a Config's, or an Interface resource).",
  deleteNote:
    "while interfaces of instances being deleted still use the subnet, the delete waits for them to go; interfaces of instances that stay fail it at once, naming them.",
  idFormat: "The API's integer subnet id, as a string: the `subnetId` of `vpc` interfaces.",
  replacementNote:
    "Two subnets of a VPC may not overlap: a new `ipv4` that overlaps the old one in the same VPC deletes the old subnet first. A subnet still used by an interface cannot be deleted: the error names the instances and interfaces.",
  autoName: VPC_LABEL,
  fields: [
    {
      name: "vpcId",
      kind: "input",
      required: true,
      forceNew: true,
      inPath: true,
      schema: idInput,
      description: "The VPC's id (`vpc.id`). Changing it replaces the subnet.",
    },
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: vpcLabel,
      description: `${VPC_LABEL_LENGTH} ASCII letters, digits and hyphens (no \`--\`); unique in the VPC. Auto-named \`<resource name>-<suffix>\` when left out. Changed in place.`,
    },
    {
      name: "ipv4",
      kind: "input",
      required: true,
      forceNew: true,
      schema: subnetIpv4,
      description:
        "IPv4 range in canonical CIDR form inside RFC 1918, prefix /1../29, not overlapping 192.168.128.0/17 nor another subnet of the VPC (checked at preview against the program's other subnets where known). Changing it replaces the subnet.",
    },
    {
      name: "computes",
      kind: "output",
      outputType: "array",
      schema: z.array(z.object({ id: z.number(), interfaces: z.array(z.object({ id: z.number(), active: z.boolean(), configId: z.number() })) })),
      changedBy: "an Instance, Config or Interface with a vpc interface in this subnet, made or changed after it",
      description: "The instances in the subnet: `[{ id, interfaces: [{ id, active, configId }] }]`.",
    },
    { name: "created", kind: "output", description: "When the subnet was created." },
    { name: "updated", kind: "output", changesWith: ["label"], description: "When it last changed." },
  ],
  collectionPath: (inputs) => pathOf(subnetsApi.list, { vpcId: vpcOf(inputs) }),
  itemPath: (id, props) => pathOf(subnetsApi.get, { vpcId: vpcOf(props), vpcSubnetId: id }),
  async findExisting(client, body, inputs) {
    return (await client.all(subnetsApi.list, { params: { vpcId: vpcOf(inputs) } })).find((s) => s.label === body.label && s.ipv4 === body.ipv4);
  },
});

/** The subnets this program declares in a VPC, by resource name (a preview refuses two overlapping ranges). */
function subnetsOf(program: ProgramContext, vpcId: string): Map<string, { label: string; ipv4: string }> {
  const all = program.subnets;
  let siblings = all.get(vpcId);
  if (!siblings) all.set(vpcId, (siblings = new Map<string, { label: string; ipv4: string }>()));
  return siblings;
}

/** A subnet: its table, plus overlap checks between the program's subnets, delete-first over its own range, and who uses it. */
export const subnet = defineResource({
  spec: subnetSpec,
  example: () => {
    const net = resource("Vpc", "net", { region: REGION });
    const backend = resource("Subnet", "backend", { vpcId: ref(net), label: "backend", ipv4: "10.0.1.0/24" });
    return { title: "A subnet of a VPC", resources: [net, backend], outputs: { subnetId: ref(backend) } };
  },
  lookup: { name: "getSubnets", scope: "any scope (a valid token)", listKey: "subnets", description: "The subnets of a VPC.", parents: { vpcId: "VPC" } },
  sdk: { file: "subnet" },
  hooks: {
    validate(news, _olds, r) {
      const failures: CheckFailure[] = [];
      const vpc = news.vpcId;
      const { label, ipv4 } = r.inputs;
      const name = typeof news[RESOURCE_NAME] === "string" ? news[RESOURCE_NAME] : String(label);
      if (
        !r.failures.length &&
        vpc !== undefined &&
        vpc !== UNKNOWN &&
        typeof label === "string" &&
        typeof ipv4 === "string" &&
        label !== UNKNOWN &&
        ipv4 !== UNKNOWN
      ) {
        const siblings = subnetsOf(r.program, String(vpc));
        for (const [other, s] of siblings) {
          if (other !== name && ipv4SpansOverlap(s.ipv4, ipv4)) {
            failures.push({ property: "ipv4", reason: `ipv4: ${ipv4} overlaps ${s.ipv4} of subnet ${s.label} of the same VPC` });
          }
        }
        // Only a subnet that passes is recorded: a refused one must not block its siblings.
        if (!failures.length) siblings.set(name, { label, ipv4 });
      }
      return failures;
    },
    diff(_client, _id, olds, news, d) {
      // Two subnets of a VPC must not overlap: a new range over the old one in the same VPC deletes first.
      const sameVpc = !d.changed.includes("vpcId");
      const overlaps =
        sameVpc &&
        typeof olds.ipv4 === "string" &&
        typeof news.ipv4 === "string" &&
        news.ipv4 !== UNKNOWN &&
        !subnetIpv4Error(news.ipv4) &&
        ipv4SpansOverlap(olds.ipv4, news.ipv4);
      // (Said whether or not this diff replaces: the engine may force a replacement, replaceOnChanges say.)
      d.deleteBeforeReplace = overlaps || deletesFirst(subnetSpec, d.replaces, d.changed, news);
    },
    // Interfaces of instances being deleted still hold it for a while: waited for, as the delete of those goes on.
    deleteSteps: ({ client: c, id, props, timeoutMs }, remove) =>
      untilAccepted(`subnet ${id}`, timeoutMs, remove, async () => {
        const s = await findSubnet(c, id, props);
        return usersLeaving(c, s?.computes ?? []);
      }),
    async deleteFailure({ client: c, id, props }) {
      // The API refuses while interfaces use the subnet: say which, and what to do.
      const s = await findSubnet(c, id, props).catch(() => undefined);
      if (!s?.computes.length) return undefined;
      const who = s.computes
        .map((i) => `instance ${i.id} (interfaces ${i.interfaces.map((x) => `${x.id}${x.active ? " active" : ""}`).join(", ")})`)
        .join("; ");
      return new Error(
        `cannot delete subnet ${id} (${s.label}): it is still used by ${who}. Remove those interfaces first (from the Interface resources, or the Config/Instance interfaces lists); an active interface needs its instance shut down or rebooted with another profile.`,
      );
    },
  },
});
export const subnetProvider = subnet.provider;

// The inputs its examples may give (Subnet): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Subnet: ExampleProps<typeof subnetSpec.fields>;
  }
}
