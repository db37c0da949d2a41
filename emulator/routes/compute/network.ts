import type { Services } from "../../family";
import type { FieldErrors } from "../../http";
import { SUBNETS } from "../../lookups";
import { checkInterfaces, refusedAt } from "../../rules";
import { ipamAddressError } from "../../../api/network";
import { isInt, type Body, type ComputeBase, type TakenAddresses } from "./base";
import type { InterfaceRecord } from "./records";

/** The n-th public IPv4 address the emulator hands out (203.0.113.1 on, 254 to a /24). */
export const publicIp = (n: number) => `203.0.${113 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;
/** The n-th private IPv4 address (192.168.128.1 on, 254 to a /24). */
export const privateIp = (n: number) => `192.168.${128 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;

/** The addresses and network interfaces of instances and profiles; a VPC interface's subnet and address come from the VPC family. */
export function computeNetwork({ store }: ComputeBase, services: Services) {
  const subnet = services.use(SUBNETS);

  /** One interface record from a request item; a vpc interface without an address gets one not in `taken` (then added to it). */
  const ifaceRecord = (i: Body, errors: FieldErrors, field: string, region: string | undefined, taken: TakenAddresses, keepId?: number): InterfaceRecord => {
    let vpc_id: number | null = null;
    let ipv4: InterfaceRecord["ipv4"] = null;
    const id = keepId ?? store.nextId("interface");
    if (i.purpose === "vpc") {
      const s = isInt(i.subnet_id) ? subnet()(i.subnet_id) : undefined;
      if (!s) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} not found`);
      else if (region && s.region !== region) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} is in region ${s.region}, not ${region}`);
      else {
        vpc_id = s.vpc_id;
        const req = (i.ipv4 ?? {}) as { vpc?: unknown; nat_1_1?: unknown };
        const address = typeof req.vpc === "string" ? req.vpc : subnet().allocate?.(i.subnet_id as number, taken);
        if (!address) errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} has no free address`);
        else taken.push(address);
        ipv4 = { vpc: address ?? null, nat_1_1: req.nat_1_1 === "any" ? "any" : typeof req.nat_1_1 === "string" ? req.nat_1_1 : null };
      }
    }
    const ipamError = i.ipam_address === undefined || i.ipam_address === null ? undefined : ipamAddressError(i.ipam_address);
    if (ipamError) errors.add(`${field}.ipam_address`, ipamError);
    return {
      id,
      purpose: i.purpose as InterfaceRecord["purpose"],
      label: i.purpose === "vlan" ? (i.label as string) : null,
      ipam_address: i.purpose === "vlan" ? ((i.ipam_address as string | undefined) ?? null) : null,
      primary: i.primary === true,
      subnet_id: i.purpose === "vpc" ? (i.subnet_id as number) : null,
      vpc_id,
      ipv4,
      ip_ranges: i.purpose === "vpc" && Array.isArray(i.ip_ranges) ? (i.ip_ranges as string[]) : i.purpose === "vpc" ? [] : null,
    };
  };
  /** The interfaces of a create body (`allowEmpty` false) or a profile: checked as a list, then each built. */
  const buildInterfaces = (
    list: unknown,
    errors: FieldErrors,
    field: string,
    allowEmpty: boolean,
    region: string | undefined,
    taken: TakenAddresses,
  ): InterfaceRecord[] => {
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) {
      errors.add(field, "Must be an array of interfaces");
      return [];
    }
    const e = checkInterfaces(list, allowEmpty);
    if (e) {
      errors.add(refusedAt(field, e), e.reason);
      return [];
    }
    return (list as Body[]).map((i, index) => ifaceRecord(i, errors, `${field}[${index}]`, region, taken));
  };
  return { publicIp, privateIp, ifaceRecord, buildInterfaces };
}
