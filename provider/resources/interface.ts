import type { ExampleProps } from "../model/example";
import { z } from "zod";
import { defineResource } from "../definition";
import { ApiError } from "../transport/client";
import { say } from "../lifecycle/steps";
import { powerCycle } from "./instance-power";
import { claimOneByOne, INTERFACE_KEYS, interfaceLabelInput, ipamAddressInput } from "./instance/interfaces";
import type { CheckFailure } from "../model/check";
import { tableFor } from "../model/api-table";
import { UNKNOWN, isObject, type Props } from "../model/table";
import { idInput } from "../model/rules";
import { resource, ref, mapOf, emptyHost, bootDisk, configDevice, REGION } from "./example-parents";
import { pathOf } from "../../api/contract/endpoint";
import { interfacePurpose, interfacesApi, ipRanges, natAddress, vpcAddress as vpcAddressInput, type Interface } from "../../api/contract/interfaces";

/** An interface as the API answers it (api/contract/interfaces.ts). */
export type InterfaceApi = Interface;

/** The interface's profile, from its inputs or state: the path parameters of its rows. */
const profileOf = (props: Props) => ({ computeId: String(props.computeId), configId: String(props.configId) });

export const interfaceSpec = tableFor({ create: interfacesApi.create, get: interfacesApi.get, update: interfacesApi.update })({
  type: "Interface",
  noun: "interface",
  description:
    "One network interface of a configuration profile (`/compute/instances/{computeId}/configs/{configId}/interfaces`), added after the others (at most 3 per profile). It becomes active when the instance next boots with the profile. A profile's interfaces are managed either one by one with Interface resources or as a list (a Config's or an Instance's `interfaces`), never both: the provider refuses the mix.",
  idFormat: "The API's integer interface id, as a string.",
  deleteNote:
    "the API deletes no active interface (interfaces rule 4): an active one is deleted inside a shutdown and boot of its instance (a progress line says so). When the instance goes in the same run, `deletedWith: instance` spares that cycle.",
  fields: [
    { name: "computeId", kind: "input", required: true, forceNew: true, inPath: true, schema: idInput, description: "The instance's id." },
    {
      name: "configId",
      kind: "input",
      required: true,
      forceNew: true,
      inPath: true,
      schema: idInput,
      description: "The profile's id (`config.id`, or an instance's `bootConfigId`).",
    },
    {
      name: "purpose",
      kind: "input",
      required: true,
      forceNew: true,
      schema: interfacePurpose,
      description: "`public`, `vlan` or `vpc`. Cannot change: a change replaces the interface.",
    },
    {
      name: "label",
      kind: "input",
      forceNew: true,
      schema: interfaceLabelInput,
      description: "VLAN name (1..64), for `vlan`. A change replaces the interface.",
    },
    {
      name: "ipamAddress",
      kind: "input",
      forceNew: true,
      schema: ipamAddressInput,
      description: "The address on the VLAN, as `ip/netmask`, for `vlan`. A change replaces the interface.",
    },
    {
      name: "primary",
      kind: "input",
      computed: true,
      clearTo: false,
      schema: z.boolean(),
      description:
        "The default route (at most one per profile; setting it clears the others). Changed in place for `public` and `vpc`; replaces a `vlan` interface.",
    },
    {
      name: "subnetId",
      kind: "input",
      forceNew: true,
      schema: idInput,
      description: "The VPC subnet (`subnet.id`), for `vpc`. A change replaces the interface (the API cannot move it).",
    },
    {
      name: "ipv4",
      apiKeys: INTERFACE_KEYS,
      kind: "input",
      computed: true,
      partial: true,
      presentWhen: "the interface's `purpose` is `vpc`",
      schema: z.object({ vpc: vpcAddressInput, nat11: natAddress }).partial().strict(),
      description:
        "For `vpc`: `vpc` (the address in the subnet; assigned when left out) and `nat11` (a public address mapped 1:1, or `any`). Changed in place.",
    },
    {
      name: "ipRanges",
      kind: "input",
      computed: true,
      clearTo: [],
      schema: ipRanges,
      description: "For `vpc`: IPv4 ranges of the subnet routed to this interface. Changed in place.",
    },
    { name: "vpcId", kind: "output", outputType: "integer", description: "The VPC of the subnet, for `vpc`." },
    {
      name: "active",
      kind: "output",
      outputType: "boolean",
      changedBy: "the instance booting with its profile, or shutting down (a Config's `booted`, or the Instance's)",
      description: "Whether the interface is in use now (the instance runs with this profile and booted after it was added).",
    },
  ],
  collectionPath: (inputs) => pathOf(interfacesApi.list, profileOf(inputs)),
  itemPath: (id, props) => pathOf(interfacesApi.get, { ...profileOf(props), interfaceId: id }),
  // An interface has no label: after a lost answer, it is the profile's interface with the same purpose,
  // VLAN label, address and subnet. Reading the profile's interfaces before every create would tell a
  // pre-existing twin apart, at one more request per create: not done (docs/reliability.md).
  async findExisting(client, body, inputs) {
    const list = (await client.find(interfacesApi.list, { params: profileOf(inputs) })) ?? [];
    const vpcAddress = body.ipv4?.vpc;
    const made = list.filter(
      (i) =>
        i.purpose === body.purpose &&
        (body.label === undefined || i.label === body.label) &&
        (body.ipam_address === undefined || i.ipam_address === body.ipam_address) &&
        (body.subnet_id === undefined || i.subnet_id === body.subnet_id) &&
        (vpcAddress === undefined || i.ipv4?.vpc === vpcAddress),
    );
    if (made.length > 1) {
      throw new Error(
        `the answer to the interface create was lost, and profile ${String(inputs.configId)} of instance ${String(inputs.computeId)} has several interfaces like it (${made.map((i) => i.id).join(", ")}): one may have been there before, or another client adds interfaces there. Keep the one to manage, delete the others, then run pulumi up again (or import it: \`<instance id>/<profile id>/<interface id>\`)`,
      );
    }
    return made[0];
  },
});

/** An interface: its table, plus the per-purpose rules, updates only where the API has them, and ownership claims. */
export const iface = defineResource({
  spec: interfaceSpec,
  example: () => {
    const net = resource("Vpc", "net", { region: REGION });
    const backendSubnet = resource("Subnet", "backend-subnet", { vpcId: ref(net), ipv4: "10.0.2.0/24" });
    const host = emptyHost();
    const boot = bootDisk(host);
    const profile = resource("Config", "profile", { computeId: ref(host), devices: mapOf("ConfigDevice", { sda: configDevice(boot) }), booted: true });
    const backend = resource("Interface", "backend", { computeId: ref(host), configId: ref(profile), purpose: "vpc", subnetId: ref(backendSubnet) });
    return {
      title: "A VPC interface added to an instance's profile",
      resources: [net, backendSubnet, host, boot, profile, backend],
      outputs: { interfaceId: ref(backend), addresses: ref(backend, "ipv4") },
    };
  },
  lookup: {
    name: "getInterfaces",
    scope: "`computes:read_only`",
    listKey: "interfaces",
    description: "The interfaces of an instance's profile, in order.",
    parents: { computeId: "instance", configId: "profile" },
    plainArray: true,
  },
  sdk: { file: "interface", argsName: "InterfaceResourceArgs" },
  hooks: {
    validate(news) {
      const failures: CheckFailure[] = [];
      const p = news.purpose;
      if (p === "vlan" && news.label === undefined) failures.push({ property: "label", reason: "label: a vlan interface needs a label" });
      if (p === "vpc" && news.subnetId === undefined) failures.push({ property: "subnetId", reason: "subnetId: a vpc interface needs a subnet" });
      for (const f of ["ipv4", "ipRanges", "subnetId"] as const)
        if (news[f] !== undefined && p !== "vpc") failures.push({ property: f, reason: `${f}: only for a vpc interface` });
      for (const f of ["label", "ipamAddress"] as const)
        if (news[f] !== undefined && p !== "vlan") failures.push({ property: f, reason: `${f}: only for a vlan interface` });
      return failures;
    },
    diff(_client, id, olds, news, d, program) {
      claimOneByOne(program, olds.computeId, olds.configId, `Interface ${id}`);
      // The API updates vpc interfaces (primary, ipv4, ipRanges) and the primary flag of a public one;
      // nothing of a vlan interface.
      if (news.purpose === "vlan") d.replaces = d.changed;
      d.deleteBeforeReplace = false;
    },
    // A 1:1 NAT of `any` is answered with the address the API picks.
    plan(_ctx, outs) {
      if (isObject(outs.ipv4) && outs.ipv4.nat11 === "any") outs.ipv4 = UNKNOWN;
    },
    // Rule 4: the API deletes no active interface. Its instance is shut down for the delete, then booted again.
    async deleteSteps({ client: c, id, props, timeoutMs }, remove) {
      try {
        return await remove();
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 400) throw err;
        const i = await c.find(interfacesApi.get, { params: { ...profileOf(props), interfaceId: id } });
        if (!i?.active) throw err;
        const computeId = String(props.computeId);
        say(`interface ${id} is active: instance ${computeId} is shut down to delete it (the API deletes no active interface), then booted again`);
        return powerCycle(c, computeId, { timeoutMs, why: `the delete of its active interface ${id}` }, remove);
      }
    },
    send(create, { inputs, program }) {
      claimOneByOne(program, inputs.computeId, inputs.configId, `Interface (${String(inputs.purpose)})`);
      return create();
    },
  },
});
export const interfaceProvider = iface.provider;

// The inputs its examples may give (Interface): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Interface: ExampleProps<typeof interfaceSpec.fields>;
  }
}
