import type { InterfaceRequest } from "../../../api/contract/interfaces";
import { COMPUTE_PRIVATE_RANGE, ipv4Span, readIpv4Range } from "../../../api/network";
import type { Services } from "../../family";
import { badRequest, type FieldErrors } from "../../http";
import { SUBNETS } from "../../lookups";
import type { ComputeBase, TakenAddresses } from "./base";
import type { ConfigRecord, InterfaceRecord } from "./records";

/**
 * Where the emulator's instance addresses come from: each pool's ranges, cut into /24 blocks handed out in order,
 * each block's hosts from `firstHost` to .254 (its .0 and .255 never: no address a client could take for a
 * network's or a broadcast's; a public block's .1 is its gateway, as the real API's are).
 * The n-th address of a pool is the n-th of that sequence, for any n from 1 to the pool's size; the counters
 * (emulator/state.ts `nextId`: "ipv4", "private_ip") never give an n twice, so no two instances, in any account,
 * hold one address. Beyond the size, none: the request is refused (`noAddressLeft`) rather than given a wrong one.
 */
export interface AddressPool {
  /** What the refusal calls its addresses ("public IPv4", "private IPv4"). */
  name: string;
  /** The field of a create or clone the refusal names (the private pool's is `private_ip`, which asks for one). */
  field?: string;
  ranges: readonly string[];
  /** The first host of each /24 handed out: 2 where the .1 is the block's gateway, else 1. */
  firstHost: 1 | 2;
}

/**
 * Public addresses: documentation and test ranges, never a real host's (docs/spec-gaps.md "Addresses"): RFC 5737's
 * TEST-NET-3 (203.0.113.0/24, the first 254, as before) and TEST-NET-1 (192.0.2.0/24, the recordings' sanitized
 * address), then RFC 2544's benchmarking range (198.18.0.0/15, 512 blocks). TEST-NET-2 (198.51.100.0/24) is the
 * database clusters' members'. From each /24, .2 to .254 (the .1 its gateway): 130,042 addresses in all.
 */
export const PUBLIC_POOL: AddressPool = { name: "public IPv4", ranges: ["203.0.113.0/24", "192.0.2.0/24", "198.18.0.0/15"], firstHost: 2 };
/**
 * Private addresses (`private_ip`): the spec's range for them, 192.168.128.0/17, one network with no gateway (the
 * real API's private addresses: prefix 17, `gateway` null), .1 to .254 of each /24 (128 blocks: 32,512 addresses).
 */
export const PRIVATE_POOL: AddressPool = { name: "private IPv4", field: "private_ip", ranges: [COMPUTE_PRIVATE_RANGE], firstHost: 1 };

const LAST_HOST = 254;
const hostsPerBlock = (pool: AddressPool) => LAST_HOST - pool.firstHost + 1;

/** A pool's /24 blocks, in order: the first address (as an integer) of each. */
const blocksOf = (pool: AddressPool): number[] =>
  pool.ranges.flatMap((cidr) => {
    const [first, last] = ipv4Span(cidr);
    return Array.from({ length: Math.max(1, (last - first + 1) / 256) }, (_, i) => first + i * 256);
  });
const BLOCKS = new Map<AddressPool, number[]>([PUBLIC_POOL, PRIVATE_POOL].map((pool) => [pool, blocksOf(pool)]));
const blocks = (pool: AddressPool): number[] => BLOCKS.get(pool) ?? blocksOf(pool);

/** How many addresses a pool holds. */
export const poolSize = (pool: AddressPool): number => blocks(pool).length * hostsPerBlock(pool);

const dotted = (address: number) => [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join(".");

/** The n-th address of a pool (n from 1), or undefined when n is not a whole number from 1 to its size. */
export function nthAddress(pool: AddressPool, n: number): string | undefined {
  const all = blocks(pool);
  const per = hostsPerBlock(pool);
  if (!Number.isSafeInteger(n) || n < 1 || n > all.length * per) return undefined;
  return dotted(all[Math.floor((n - 1) / per)] + ((n - 1) % per) + pool.firstHost);
}

/** The n `nthAddress` made `address` of, or undefined for an address it does not make. */
export function addressNumber(pool: AddressPool, address: string): number | undefined {
  const at = readIpv4Range(`${address}/32`);
  if (!at) return undefined;
  const host = at.first % 256;
  const block = blocks(pool).indexOf(at.first - host);
  return block < 0 || host < pool.firstHost || host > LAST_HOST ? undefined : block * hostsPerBlock(pool) + host - pool.firstHost + 1;
}

/** The refusal when a pool is used up: a 400 naming it, its ranges and its size. */
export const noAddressLeft = (pool: AddressPool) =>
  badRequest(
    `No ${pool.name} address is left: the emulator's ${pool.ranges.join(", ")} (${poolSize(pool).toLocaleString("en-US")} addresses) are all handed out`,
    pool.field,
  );

/** The n-th address of a pool, or the refusal (400) when there is none. */
const addressOrRefusal = (pool: AddressPool, n: number): string => {
  const address = nthAddress(pool, n);
  if (address === undefined) throw noAddressLeft(pool);
  return address;
};

/** The n-th public IPv4 address the emulator hands out (203.0.113.2 on); a 400 once the pool is used up. */
export const publicIp = (n: number) => addressOrRefusal(PUBLIC_POOL, n);
/** The n-th private IPv4 address (192.168.128.1 on); a 400 once the pool is used up. */
export const privateIp = (n: number) => addressOrRefusal(PRIVATE_POOL, n);
/** The number of a public address `publicIp` made (203.0.113.2 is 1), or undefined. */
export const publicIpNumber = (address: string) => addressNumber(PUBLIC_POOL, address);
/** The number of a private address `privateIp` made (192.168.128.1 is 1), or undefined. */
export const privateIpNumber = (address: string) => addressNumber(PRIVATE_POOL, address);
/** Whether an instance's IPv4 address is a private one (in the spec's private range). */
export const isPrivateIp = (address: string) => {
  const at = readIpv4Range(`${address}/32`);
  const [first, last] = ipv4Span(COMPUTE_PRIVATE_RANGE);
  return at !== undefined && at.first >= first && at.first <= last;
};

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

  /** Where a subnet is (its VPC, region and range), or undefined. */
  const subnetPlace = (subnetId: number) => subnet()(subnetId);

  return { publicIp, privateIp, ifaceRecord, buildInterfaces, copyInterfaces, addressRefusal, subnetPlace };
}
