import type { InterfaceRequest } from "../../../api/contract/interfaces";
import { ipv4Span, readIpv4Range } from "../../../api/network";
import type { Services } from "../../family";
import type { FieldErrors } from "../../http";
import { SUBNETS } from "../../lookups";
import type { ComputeBase, TakenAddresses } from "./base";
import type { ConfigRecord, InterfaceRecord } from "./records";

/** The n-th public IPv4 address the emulator hands out (203.0.113.1 on, 254 to a /24). */
export const publicIp = (n: number) => `203.0.${113 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;
/** The n-th private IPv4 address (192.168.128.1 on, 254 to a /24). */
export const privateIp = (n: number) => `192.168.${128 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;

/** The number `publicIp` (or `privateIp`) made an address of, or undefined for an address of another form. */
const numberOf = (address: string, prefix: string, base: number): number | undefined => {
  const m = new RegExp(`^${prefix.replace(/\./g, "\\.")}\\.(\\d{1,9})\\.(\\d{1,3})$`).exec(address);
  if (!m) return undefined;
  const [third, fourth] = [Number(m[1]), Number(m[2])];
  return third >= base && fourth >= 1 && fourth <= 254 ? (third - base) * 254 + fourth : undefined;
};
/** The number of a public address `publicIp` made (203.0.113.1 is 1), or undefined. */
export const publicIpNumber = (address: string) => numberOf(address, "203.0", 113);
/** The number of a private address `privateIp` made (192.168.128.1 is 1), or undefined. */
export const privateIpNumber = (address: string) => numberOf(address, "192.168", 128);

/**
 * Why `address` cannot be a VPC interface's in a subnet of range `cidr`, or undefined: the addresses a subnet hands
 * out are its own but its network's, its gateway's (the next) and its broadcast's (its last), as vpc-rules.ts
 * `freeAddress` hands them out (docs/spec-gaps.md).
 */
export function vpcAddressRefusal(address: string, cidr: string): string | undefined {
  const at = readIpv4Range(`${address}/32`);
  if (!at || !readIpv4Range(cidr)) return `${address} is not an IPv4 address`;
  const [first, last] = ipv4Span(cidr);
  if (at.first < first || at.first > last) return `${address} is outside the subnet's range ${cidr}`;
  return at.first < first + 2 || at.first === last ? `${address} is reserved in ${cidr} (its first two addresses and its last)` : undefined;
}

/** An interface's VPC and addresses in it (none but for a vpc interface). */
type VpcPart = Pick<InterfaceRecord, "vpc_id" | "ipv4">;
const NO_VPC: VpcPart = { vpc_id: null, ipv4: null };

export type ComputeNetwork = ReturnType<typeof computeNetwork>;

/** The addresses and network interfaces of instances and profiles; a VPC interface's subnet and address come from the VPC family. */
export function computeNetwork({ store, d }: ComputeBase, services: Services) {
  const subnet = services.use(SUBNETS);

  /** Whether an interface (but those of `except`) holds `address` in the subnet, or this request has handed it out (`taken`). */
  const held = (subnetId: number, address: string, taken: TakenAddresses, except: ReadonlySet<number> = new Set()) =>
    taken.includes(address) || d.configs.some((cfg) => cfg.interfaces.some((i) => i.subnet_id === subnetId && i.ipv4?.vpc === address && !except.has(i.id)));

  /** Why `address` cannot be a vpc interface's in the subnet (one that is not the subnet's, or is held: `held`), or undefined. */
  const addressRefusal = (subnetId: number, address: string, taken: TakenAddresses, except?: ReadonlySet<number>): string | undefined => {
    const s = subnet()(subnetId);
    if (!s) return `Subnet ${subnetId} not found`;
    return vpcAddressRefusal(address, s.ipv4) ?? (held(subnetId, address, taken, except) ? `${address} is already in use in subnet ${subnetId}` : undefined);
  };

  /**
   * A vpc interface's VPC and addresses: its subnet in the instance's region, the address given (in the subnet, held
   * by no interface but those of `except`, which a profile's update replaces) or a free one; then added to `taken`.
   */
  const vpcPart = (
    i: InterfaceRequest,
    errors: FieldErrors,
    field: string,
    region: string | undefined,
    taken: TakenAddresses,
    except?: ReadonlySet<number>,
  ): VpcPart => {
    const s = i.subnet_id == null ? undefined : subnet()(i.subnet_id);
    if (!s || i.subnet_id == null) {
      errors.add(`${field}.subnet_id`, `Subnet ${String(i.subnet_id)} not found`);
      return NO_VPC;
    }
    if (region && s.region !== region) {
      errors.add(`${field}.subnet_id`, `Subnet ${i.subnet_id} is in region ${s.region}, not ${region}`);
      return NO_VPC;
    }
    const given = i.ipv4?.vpc;
    if (given !== undefined) {
      const refusal = addressRefusal(i.subnet_id, given, taken, except);
      if (refusal) {
        errors.add(`${field}.ipv4.vpc`, refusal);
        return NO_VPC;
      }
    }
    const address = given ?? subnet().allocate?.(i.subnet_id, taken);
    if (!address) {
      errors.add(`${field}.subnet_id`, `Subnet ${i.subnet_id} has no free address`);
      return NO_VPC;
    }
    taken.push(address);
    return { vpc_id: s.vpc_id, ipv4: { vpc: address, nat_1_1: i.ipv4?.nat_1_1 ?? null } };
  };

  /** One interface record from a request item (`keepId`: a profile's update keeping an interface's id; `except`: the interfaces it replaces). */
  const ifaceRecord = (
    i: InterfaceRequest,
    errors: FieldErrors,
    field: string,
    region: string | undefined,
    taken: TakenAddresses,
    keepId?: number,
    except?: ReadonlySet<number>,
  ): InterfaceRecord => {
    const vpc = i.purpose === "vpc" ? vpcPart(i, errors, field, region, taken, except) : NO_VPC;
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

  /**
   * A profile's interfaces copied to another profile (a clone's, a backup's restore), each with a new id: a vpc
   * interface keeps its address when no interface holds it (a restore over the instance it was taken of), else takes
   * a free one of its subnet (a clone: its source keeps its own); one whose subnet is gone, full, or in another
   * region than the copy's instance (`region`) is left out (docs/spec-gaps.md). `nat`: what becomes of a 1:1 NAT
   * (a clone's is `any`).
   */
  const copyInterfaces = (
    list: ConfigRecord["interfaces"],
    region: string,
    taken: TakenAddresses,
    nat = (n: string | null): string | null => n,
  ): InterfaceRecord[] =>
    list.flatMap((i) => {
      if (i.purpose !== "vpc" || i.subnet_id === null || i.ipv4 === null) return [{ ...i, id: store.nextId("interface") }];
      const own = i.ipv4.vpc;
      const there = subnet()(i.subnet_id)?.region === region;
      const address = there && (held(i.subnet_id, own, taken) ? subnet().allocate?.(i.subnet_id, taken) : own);
      if (!address) return [];
      taken.push(address);
      return [{ ...i, id: store.nextId("interface"), ipv4: { vpc: address, nat_1_1: nat(i.ipv4.nat_1_1) } }];
    });

  return { publicIp, privateIp, ifaceRecord, buildInterfaces, copyInterfaces, addressRefusal };
}
