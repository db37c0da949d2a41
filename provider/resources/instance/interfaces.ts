import { z } from "zod";
import type { ApiClient } from "../../transport/client";
import { API } from "../../../api/contract";
import { refuse } from "../../../api/contract/common";
import {
  interfaceListRefusal,
  interfacePurpose,
  ipamAddress,
  ipRanges,
  natAddress,
  vlanLabel,
  vpcAddress as vpcAddressInput,
  type Interface,
} from "../../../api/contract/interfaces";
import type { Profile } from "../../../api/contract/configs";
import { apiKey, convertKeys, isObject, type Props } from "../../model/table";
import type { ProgramContext } from "../../program";

/**
 * Network interfaces as a list (an Instance's `interfaces`, on its boot profile, and a Config's): the input,
 * and how it is compared with what the API reports. The fields' rules and the list's are the contract's
 * (api/contract/interfaces.ts), under the provider's names.
 */

/** The interface keys the snake_case rule does not name as the API does (a field's `apiKeys`). */
export const INTERFACE_KEYS = { nat11: "nat_1_1" } as const;

/** Interfaces (or an interface's `ipv4`) under the API's names. */
export const interfacesToApi = (v: unknown): unknown => convertKeys(v, apiKey({ apiKeys: INTERFACE_KEYS }));

/** A VLAN interface's label (compute-api.md "Interface": 1..64), for the list's items and the Interface resource. */
export const interfaceLabelInput = vlanLabel;
/** A VLAN interface's address, `ip/netmask` (api/network.ts). */
export const ipamAddressInput = ipamAddress;

export const interfaceInput = z
  .object({
    purpose: interfacePurpose,
    label: interfaceLabelInput.optional(),
    ipamAddress: ipamAddressInput.optional(),
    primary: z.boolean().optional(),
    // A Subnet's `id` output is a string of its digits.
    subnetId: z
      .union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)], { error: "must be a subnet's id: an integer, or its digits as a string" })
      .optional(),
    ipv4: z.object({ vpc: vpcAddressInput.optional(), nat11: natAddress.optional() }).strict().optional(),
    ipRanges: ipRanges.optional(),
  })
  .strict()
  .superRefine((i, ctx) => {
    if (i.purpose === "vpc" && i.subnetId === undefined) ctx.addIssue({ code: "custom", path: ["subnetId"], message: "a vpc interface needs a subnetId" });
    if (i.purpose === "vlan" && !i.label) ctx.addIssue({ code: "custom", path: ["label"], message: "a vlan interface needs a label" });
  })
  // The name of its type in the generated sdk classes (Instance and Config share it).
  .meta({ typeName: "InterfaceArgs" });

/**
 * A list of 1 to 3 interfaces, the contract's list rules checked (api/contract/interfaces.ts
 * `interfaceListRefusal`: how many, one primary, one public interface).
 */
export const interfacesInput = z.array(interfaceInput).superRefine((list, ctx) => {
  const e = interfaceListRefusal(list, false);
  if (e) refuse(ctx, e.reason, e.reason, e.index === undefined ? [] : [e.index, e.field]);
});

/** The first vpc interface's address. */
export const vpcAddress = (list: readonly Interface[]): string | undefined => list.find((i) => i.purpose === "vpc")?.ipv4?.vpc ?? undefined;

/** Interfaces as the user declares them, from the API's records (for drift). */
export function interfacesFromApi(list: readonly Interface[]): Props[] {
  return list.map((i) => {
    const out: Props = { purpose: i.purpose };
    if (i.purpose === "vlan") {
      out.label = i.label;
      if (i.ipam_address) out.ipamAddress = i.ipam_address;
    }
    if (i.primary) out.primary = true;
    if (i.purpose === "vpc") {
      out.subnetId = i.subnet_id;
      const v4 = i.ipv4;
      if (v4) out.ipv4 = { vpc: v4.vpc, ...(v4.nat_1_1 ? { nat11: v4.nat_1_1 } : {}) };
      if (i.ip_ranges?.length) out.ipRanges = i.ip_ranges;
    }
    return out;
  });
}

/** Compares declared interfaces with what the API reports, ignoring what the user left to the service. */
export function interfacesMatch(declared: Props[], actual: Props[]): boolean {
  if (declared.length !== actual.length) return false;
  return declared.every((d, i) =>
    Object.entries(d).every(([k, v]) => {
      if (k === "ipv4" && v && typeof v === "object")
        return Object.entries(v).every(([kk, vv]) => {
          const got = actual[i].ipv4;
          return isObject(got) && got[kk] === vv;
        });
      if (k === "primary") return Boolean(v) === Boolean(actual[i].primary);
      return JSON.stringify(actual[i][k]) === JSON.stringify(v);
    }),
  );
}

/** The profile whose interfaces `interfaces` manages: the deploy's default profile (the first). */
export async function bootConfig(c: ApiClient, id: string): Promise<Profile | undefined> {
  return (await c.all(API.configs.list, { params: { computeId: id } }))[0];
}

/*
 * Who manages the interfaces of a configuration profile. A profile is always registered before the
 * Interface resources that point to it, so the session sees both sides within one `pulumi preview` or `up`.
 *
 * The rule (docs/resources/interface.md): a profile's interfaces are managed either as a list (a Config's
 * `interfaces`, or an Instance's `interfaces` on its boot profile) or one by one (Interface resources),
 * never both.
 */
const profileKey = (computeId: unknown, configId: unknown) => `${String(computeId)}/${String(configId)}`;

export function claimAsList(program: ProgramContext, computeId: unknown, configId: unknown, by: string): void {
  const k = profileKey(computeId, configId);
  const other = program.interfacesOneByOne.get(k);
  if (other)
    throw new Error(
      `configuration profile ${String(configId)} of instance ${String(computeId)} has its interfaces managed one by one (${other}): remove those Interface resources or leave out ${by}'s interfaces`,
    );
  program.interfacesAsList.set(k, by);
}

export function claimOneByOne(program: ProgramContext, computeId: unknown, configId: unknown, by: string): void {
  const k = profileKey(computeId, configId);
  const other = program.interfacesAsList.get(k);
  if (other)
    throw new Error(
      `configuration profile ${String(configId)} of instance ${String(computeId)} has its interfaces managed as a list by ${other}: declare this interface there instead of as an Interface resource`,
    );
  program.interfacesOneByOne.set(k, by);
}
