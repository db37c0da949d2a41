import { instanceActionsApi, type InstanceIps, type InstanceIpv4 } from "../../../api/contract/instance-actions";
import type { VpcAddress } from "../../../api/contract/vpcs";
import { COMPUTE_PRIVATE_RANGE } from "../../../api/network";
import { eventEntity } from "../../state";
import { subnetNetwork } from "../../vpc-rules";
import { row, type ComputeContext } from "./context";
import { isPrivateIp } from "./network";
import type { InstanceRecord } from "./records";

/**
 * The instance's link-local IPv6 address, its own as the real API's is: fe80:: and the interface identifier of its
 * MAC (EUI-64: the MAC's first byte with its universal/local bit flipped, ff:fe in its middle). The emulator's MAC
 * of an instance is f2:3c and the four bytes of its id, so that no two instances share one, and none is the gateway
 * (fe80::1): instance 1's is fe80::f03c:ff:fe00:1.
 */
export function linkLocalOf(id: number): string {
  const [a, b, c, d] = [(id >>> 24) & 0xff, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff];
  return `fe80::${[0xf03c, (a << 8) | 0xff, 0xfe00 | b, (c << 8) | d].map((n) => n.toString(16)).join(":")}`;
}

/**
 * An instance's networking view (`GET I/ips`: not in compute-api.md; the real API's, which
 * terraform-provider-linode reads for every instance), as today's recordings show it (docs/spec-gaps.md "An
 * instance's networking view"): its public addresses (each in a /24 whose .1 is the gateway, with the reverse
 * DNS name the real API gives by default), its private ones (the spec's 192.168.128.0/17, no gateway), none shared
 * or reserved, the VPC addresses of its profiles' interfaces (the VPC address record of `/vpcs/ips`), its SLAAC and
 * link-local IPv6 addresses, and no IPv6 range.
 */
function ipsView(c: ComputeContext, inst: InstanceRecord): InstanceIps {
  const vpc = vpcAddresses(c, inst);
  // The 1:1 NAT of a VPC interface is the instance's (first) public address (recorded: `vpc_nat_1_1` on it).
  const nat = vpc.find((a) => a.address !== null && a.nat_1_1 !== null);
  const publicOnes = inst.ipv4.filter((a) => !isPrivateIp(a));
  const v4 = (address: string, isPublic: boolean): InstanceIpv4 => ({
    address,
    ...(isPublic ? subnetNetwork(`${address.replace(/\.\d+$/, ".0")}/24`) : { ...subnetNetwork(COMPUTE_PRIVATE_RANGE), gateway: null }),
    type: "ipv4",
    public: isPublic,
    rdns: isPublic ? `${address.replace(/\./g, "-")}.ip.computeusercontent.com` : null,
    compute_id: inst.id,
    interface_id: null,
    region: inst.region,
    vpc_nat_1_1: isPublic && nat?.address && address === publicOnes[0] ? { vpc_id: nat.vpc_id, subnet_id: nat.subnet_id, address: nat.address } : null,
    reserved: false,
    assigned_entity: eventEntity("compute", inst.id, inst.label, `/compute/instances/${inst.id}`),
  });
  const ipv6 = (address: string, isPublic: boolean) => ({
    address,
    gateway: "fe80::1",
    subnet_mask: "ffff:ffff:ffff:ffff::",
    prefix: 64,
    type: "ipv6" as const,
    rdns: null,
    compute_id: inst.id,
    region: inst.region,
    public: isPublic,
  });
  const hex = inst.id.toString(16);
  return {
    ipv4: {
      public: publicOnes.map((a) => v4(a, true)),
      private: inst.ipv4.filter(isPrivateIp).map((a) => v4(a, false)),
      shared: [],
      reserved: [],
      vpc,
    },
    ipv6: {
      slaac: ipv6(inst.ipv6?.replace(/\/\d+$/, "") ?? `2001:db8::${hex}`, true),
      link_local: ipv6(linkLocalOf(inst.id), false),
      global: [],
      vpc: [],
    },
  };
}

/** The VPC addresses of the instance's profiles' interfaces (and their routed ranges), as `/vpcs/ips` lists them. */
function vpcAddresses(c: ComputeContext, inst: InstanceRecord): VpcAddress[] {
  return c.configsOf(inst.id).flatMap((cfg) =>
    cfg.interfaces.flatMap((i): VpcAddress[] => {
      const place = i.purpose === "vpc" && i.subnet_id !== null ? c.subnetPlace(i.subnet_id) : undefined;
      if (!place || i.subnet_id === null) return [];
      const owners = { compute_id: inst.id, config_id: cfg.id, interface_id: i.id, nodebalancer_id: null, database_id: null };
      const where = { vpc_id: place.vpc_id, subnet_id: i.subnet_id, region: place.region, ...subnetNetwork(place.ipv4) };
      const base = { ...where, ...owners, active: c.ifaceActive(inst, cfg, i) };
      return [
        { address: i.ipv4?.vpc ?? null, address_range: null, nat_1_1: i.ipv4?.nat_1_1 ?? null, ...base },
        ...(i.ip_ranges ?? []).map((r) => ({ address: null, address_range: r, nat_1_1: null, ...base })),
      ];
    }),
  );
}

export const IPS_ROWS = [row(instanceActionsApi.ips, (c, req) => ipsView(c, c.instance(req)))];
