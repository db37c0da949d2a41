import type { InterfaceRequest } from "../../../api/contract/interfaces";
import type { Services } from "../../family";
import type { FieldErrors } from "../../http";
import { SUBNETS } from "../../lookups";
import type { ComputeBase, TakenAddresses } from "./base";
import type { InterfaceRecord } from "./records";

/** The n-th public IPv4 address the emulator hands out (203.0.113.1 on, 254 to a /24). */
export const publicIp = (n: number) => `203.0.${113 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;
/** The n-th private IPv4 address (192.168.128.1 on, 254 to a /24). */
export const privateIp = (n: number) => `192.168.${128 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;

/** An interface's VPC and addresses in it (none but for a vpc interface). */
type VpcPart = Pick<InterfaceRecord, "vpc_id" | "ipv4">;
const NO_VPC: VpcPart = { vpc_id: null, ipv4: null };

/** The addresses and network interfaces of instances and profiles; a VPC interface's subnet and address come from the VPC family. */
export function computeNetwork({ store }: ComputeBase, services: Services) {
  const subnet = services.use(SUBNETS);

  /** A vpc interface's VPC and addresses: its subnet in the instance's region, an address in it not in `taken` (then added to it). */
  const vpcPart = (i: InterfaceRequest, errors: FieldErrors, field: string, region: string | undefined, taken: TakenAddresses): VpcPart => {
    const s = i.subnet_id == null ? undefined : subnet()(i.subnet_id);
    if (!s || i.subnet_id == null) {
      errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} not found`);
      return NO_VPC;
    }
    if (region && s.region !== region) {
      errors.add(`${field}.subnet_id`, `Subnet ${i.subnet_id} is in region ${s.region}, not ${region}`);
      return NO_VPC;
    }
    const address = i.ipv4?.vpc ?? subnet().allocate?.(i.subnet_id, taken);
    if (!address) errors.add(`${field}.subnet_id`, `Subnet ${i.subnet_id} has no free address`);
    else taken.push(address);
    return { vpc_id: s.vpc_id, ipv4: { vpc: address ?? null, nat_1_1: i.ipv4?.nat_1_1 ?? null } };
  };

  /** One interface record from a request item (`keepId`: a profile's update keeping an interface's id). */
  const ifaceRecord = (
    i: InterfaceRequest,
    errors: FieldErrors,
    field: string,
    region: string | undefined,
    taken: TakenAddresses,
    keepId?: number,
  ): InterfaceRecord => {
    const vpc = i.purpose === "vpc" ? vpcPart(i, errors, field, region, taken) : NO_VPC;
    return {
      id: keepId ?? store.nextId("interface"),
      purpose: i.purpose,
      label: i.purpose === "vlan" ? (i.label ?? null) : null,
      ipam_address: i.purpose === "vlan" ? (i.ipam_address ?? null) : null,
      primary: i.primary === true,
      subnet_id: i.purpose === "vpc" ? (i.subnet_id ?? null) : null,
      ...vpc,
      ip_ranges: i.purpose === "vpc" ? (i.ip_ranges ?? []) : null,
    };
  };

  /** The interfaces of a create body or a profile (their list's rules checked by the contract), each built. */
  const buildInterfaces = (list: readonly InterfaceRequest[], errors: FieldErrors, field: string, region: string | undefined, taken: TakenAddresses) =>
    list.map((i, index) => ifaceRecord(i, errors, `${field}[${index}]`, region, taken));

  return { publicIp, privateIp, ifaceRecord, buildInterfaces };
}
