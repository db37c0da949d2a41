import { catalog } from "../catalog";
import { collections, type ApiFamily, type FamilyContext } from "../family";
import { FieldErrors, jsonObject, badRequest, forbidden, notFound, paginate } from "../http";
import { type SignedInContext } from "../router";
import { SUBNETS, type SubnetLookup } from "../lookups";
import { SubnetSiblings } from "../vpc-rules";
import { ipv4Span, subnetIpv4Error } from "../../api/network";
import { vpcLabelError } from "../../api/labels";
import { checkLength, LENGTH_LIMITS } from "../../api/text";
import { asObject, readText } from "../body";
import { apiTime, eventEntity, settle } from "../state";
import { GONE } from "./compute/base";
import { computeState, type ConfigRecord } from "./compute/records";

const rw = { group: "vpc", level: "read_write" } as const;
const ipsRo = { group: "ips", level: "read_only" } as const;
type Body = Record<string, unknown>;

/** A VPC and a subnet as an event's entity (their API paths). */
const vpcEntity = (v: { id: number; label: string }) => eventEntity("vpc", v.id, v.label, `/vpcs/${v.id}`);
const subnetEntity = (s: { id: number; vpc_id: number; label: string }) => eventEntity("subnet", s.id, s.label, `/vpcs/${s.vpc_id}/subnets/${s.id}`);

export interface VpcRecord {
  id: number;
  label: string;
  description: string;
  region: string;
  created: string;
  updated: string;
  _owner: string;
}

export interface SubnetRecord {
  id: number;
  vpc_id: number;
  label: string;
  ipv4: string;
  created: string;
  updated: string;
}

/** The VPC family's collections in the state file. */
export interface VpcState {
  vpcs: VpcRecord[];
  subnets: SubnetRecord[];
}

export const vpcState = collections<VpcState>({ vpcs: [], subnets: [] });

/** The private ranges a VPC's subnets may be in (the subnet `ipv4` rule): what a VPC's `ipv4` lists. */
const VPC_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/17"];

const intToIp = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");

/** The VPC family: VPCs and subnets (`/vpcs`), and the lookup the compute routes use to put interfaces in subnets. */
export const vpcFamily: ApiFamily<VpcState> = { name: "vpc", state: vpcState, register: registerVpcRoutes };

function registerVpcRoutes({ router, store, now, services }: FamilyContext): void {
  const d = vpcState(store);
  // The profiles and instances whose interfaces are in the subnets.
  const compute = computeState(store);
  const stamp = () => apiTime(now());

  /** Every profile interface in a subnet, with its instance and whether it is active. */
  const users = (subnetId: number) => {
    const out: Array<{ cfg: ConfigRecord; iface: ConfigRecord["interfaces"][number]; active: boolean }> = [];
    for (const cfg of compute.configs) {
      for (const iface of cfg.interfaces) {
        if (iface.subnet_id !== subnetId) continue;
        const inst = compute.instances.find((i) => i.id === cfg.compute_id);
        if (inst) settle(inst, now());
        const active = Boolean(inst && inst.status === "running" && inst._lastBootedConfig === cfg.id && inst._activeInterfaces.includes(iface.id));
        out.push({ cfg, iface, active });
      }
    }
    return out;
  };
  const subnetView = (s: SubnetRecord) => {
    const byInstance = new Map<number, Array<{ id: number; active: boolean; config_id: number }>>();
    for (const u of users(s.id))
      byInstance.set(u.cfg.compute_id, [...(byInstance.get(u.cfg.compute_id) ?? []), { id: u.iface.id, active: u.active, config_id: u.cfg.id }]);
    // As the real API answers it: no IPv6 (the emulator's VPCs are IPv4 only), no databases or NodeBalancers
    // in a subnet (the emulator puts neither in VPCs).
    return {
      id: s.id,
      label: s.label,
      ipv4: s.ipv4,
      ipv6: null,
      computes: [...byInstance].map(([id, interfaces]) => ({ id, interfaces })),
      databases: [] as unknown[],
      nodebalancers: [] as unknown[],
      created: s.created,
      updated: s.updated,
    };
  };
  /**
   * A VPC as the real API answers it: `ipv4`, the ranges its subnets may take (RFC 1918 but 192.168.128.0/17,
   * the subnet rule), no IPv6, `vpc_type` regular.
   */
  const vpcView = (v: VpcRecord) => ({
    id: v.id,
    label: v.label,
    description: v.description,
    region: v.region,
    ipv4: VPC_RANGES.map((range) => ({ range })),
    ipv6: null,
    subnets: d.subnets.filter((s) => s.vpc_id === v.id).map(subnetView),
    vpc_type: "regular",
    created: v.created,
    updated: v.updated,
  });
  const canSee = (ctx: SignedInContext, v: VpcRecord) => !ctx.user.restricted || ctx.user.grants!.vpc.some((g) => g.id === v.id && g.permissions);
  const canWrite = (ctx: SignedInContext, v: VpcRecord) =>
    !ctx.user.restricted || ctx.user.grants!.vpc.some((g) => g.id === v.id && g.permissions === "read_write");
  const vpc = (ctx: SignedInContext, write = false) => {
    const v = d.vpcs.find((x) => String(x.id) === ctx.params.vpcId);
    if (!v || !canSee(ctx, v)) throw notFound();
    if (write && !canWrite(ctx, v)) throw forbidden("You have only read access to this VPC");
    return v;
  };
  const subnet = (ctx: SignedInContext, v: VpcRecord) => {
    const s = d.subnets.find((x) => x.vpc_id === v.id && String(x.id) === ctx.params.vpcSubnetId);
    if (!s) throw notFound();
    return s;
  };
  /** A VPC's or a subnet's label, as the API rules it. */
  const readLabel = (value: unknown, field: string, errors: FieldErrors) => readText(value, field, vpcLabelError, errors, { notText: "is required" });
  /** compute-api.md "Limits": "VPC description | at most 255 chars". */
  const readDescription = (value: unknown, errors: FieldErrors): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === "string" && checkLength(value, "vpcDescription") === undefined) return value;
    errors.add("description", `Must be a string of at most ${LENGTH_LIMITS.vpcDescription[1]} characters`);
  };
  /** A new subnet, checked against the rules and its siblings (existing and new in the same request). */
  const readSubnet = (body: Body, field: string, siblings: SubnetSiblings, errors: FieldErrors): { label: string; ipv4: string } | undefined => {
    const label = readLabel(body.label, `${field}label`, errors);
    const unique = label !== undefined && !siblings.hasLabel(label);
    if (label !== undefined && !unique) errors.add(`${field}label`, "Label must be unique among the VPC's subnets");
    const ipv4 = body.ipv4;
    if (typeof ipv4 !== "string") return void errors.add(`${field}ipv4`, "ipv4 is required");
    const e = subnetIpv4Error(ipv4);
    if (e) return void errors.add(`${field}ipv4`, `ipv4 ${e}`);
    const clash = siblings.clash(ipv4);
    if (clash) return void errors.add(`${field}ipv4`, `ipv4 ${ipv4} overlaps ${clash.ipv4} of subnet ${clash.label}`);
    return label !== undefined && unique ? { label, ipv4 } : undefined;
  };
  /** Why a subnet cannot be deleted now, or undefined. */
  const inUse = (s: SubnetRecord) => {
    // An instance being deleted gives its interfaces up: the real API deleted a VPC right after the instance
    // that used its subnet (recorded, while that instance was still `deleting`).
    const u = users(s.id).filter((x) => {
      const inst = compute.instances.find((i) => i.id === x.cfg.compute_id);
      // (users() settled it: being deleted, it is `deleting` until it is gone.)
      return inst !== undefined && inst.status !== "deleting" && inst.status !== GONE;
    });
    if (!u.length) return undefined;
    const list = u.map((x) => `instance ${x.cfg.compute_id} (profile ${x.cfg.id}, interface ${x.iface.id}${x.active ? ", active" : ""})`).join(", ");
    return `Subnet ${s.label} (${s.id}) is in use by ${list}: delete those interfaces first (an active one needs its instance shut down)`;
  };
  const newSubnet = (vpcId: number, label: string, ipv4: string, username: string): SubnetRecord => {
    const s = { id: store.nextId("subnet"), vpc_id: vpcId, label, ipv4, created: stamp(), updated: stamp() };
    d.subnets.push(s);
    store.event("subnet_create", username, subnetEntity(s));
    return s;
  };

  router.add("GET", "/vpcs", { scope: null, auth: "required" }, (ctx) => paginate(d.vpcs.filter((v) => canSee(ctx, v)).map(vpcView), ctx));
  router.add("POST", "/vpcs", { scope: rw, auth: "required" }, (ctx) => {
    const u = ctx.user;
    if (u.restricted && !u.grants?.global.add_vpcs) throw forbidden("You do not have permission to add VPCs: the add_vpcs grant is needed");
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = readLabel(body.label, "label", errors);
    if (label !== undefined && d.vpcs.some((v) => v.label === label)) errors.add("label", "Label must be unique among your VPCs");
    const description = readDescription(body.description, errors);
    const region = catalog.regions.find((r) => r.id === body.region);
    if (body.region === undefined) errors.add("region", "region is required");
    else if (!region) errors.add("region", `Region ${String(body.region)} not found`);
    else if (!region.capabilities.includes("VPCs")) errors.add("region", `Region ${region.id} does not support VPCs`);
    const given: unknown = body.subnets ?? [];
    const subnets: Array<{ label: string; ipv4: string }> = [];
    if (!Array.isArray(given)) errors.add("subnets", "Must be an array of subnets");
    else {
      const seen = new SubnetSiblings();
      given.forEach((item: unknown, i) => {
        const s = asObject(item);
        if (!s) return errors.add(`subnets[${i}]`, "Must be an object with label and ipv4");
        const subnet = readSubnet(s, `subnets[${i}].`, seen, errors);
        // Each subnet given is a sibling of the next ones, refused or not: its label, and its range when valid.
        seen.add({ label: typeof s.label === "string" ? s.label : "", ipv4: typeof s.ipv4 === "string" ? s.ipv4 : "" });
        if (subnet) subnets.push(subnet);
      });
    }
    errors.throwIfAny();
    // With no refusal, the label was read and the region found.
    if (label === undefined || !region) throw badRequest("label and region are required");
    const v: VpcRecord = {
      id: store.nextId("vpc"),
      label,
      description: description ?? "",
      region: region.id,
      created: stamp(),
      updated: stamp(),
      _owner: u.username,
    };
    d.vpcs.push(v);
    if (u.restricted) u.grants?.vpc.push({ id: v.id, label: v.label, permissions: "read_write" });
    store.event("vpc_create", u.username, vpcEntity(v));
    for (const s of subnets) newSubnet(v.id, s.label, s.ipv4, u.username);
    return vpcView(v);
  });
  router.add("GET", "/vpcs/ips", { scope: ipsRo, auth: "required" }, (ctx) => paginate(ips(d.vpcs.filter((v) => canSee(ctx, v))), ctx));
  router.add("GET", "/vpcs/{vpcId}", { scope: null, auth: "required" }, (ctx) => vpcView(vpc(ctx)));
  router.add("PUT", "/vpcs/{vpcId}", { scope: rw, auth: "required" }, (ctx) => {
    const v = vpc(ctx, true);
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = body.label === undefined ? undefined : readLabel(body.label, "label", errors);
    if (label !== undefined && d.vpcs.some((x) => x.label === label && x !== v)) errors.add("label", "Label must be unique among your VPCs");
    const description = readDescription(body.description, errors);
    if (body.region !== undefined && body.region !== v.region) errors.add("region", "The region of a VPC cannot be changed");
    errors.throwIfAny();
    if (label !== undefined) v.label = label;
    if (description !== undefined) v.description = description;
    v.updated = stamp();
    store.event("vpc_update", ctx.user.username, vpcEntity(v));
    return vpcView(v);
  });
  router.add("DELETE", "/vpcs/{vpcId}", { scope: rw, auth: "required" }, (ctx) => {
    const v = vpc(ctx, true);
    const subnets = d.subnets.filter((s) => s.vpc_id === v.id);
    // All or nothing: every subnet must be deletable.
    const blocked = subnets.map(inUse).filter(Boolean);
    if (blocked.length) throw badRequest(`The VPC cannot be deleted. ${blocked.join(". ")}`);
    d.subnets = d.subnets.filter((s) => s.vpc_id !== v.id);
    d.vpcs = d.vpcs.filter((x) => x !== v);
    store.event("vpc_delete", ctx.user.username, vpcEntity(v));
    for (const s of subnets) store.event("subnet_delete", ctx.user.username, subnetEntity(s));
    return {};
  });
  router.add("GET", "/vpcs/{vpcId}/ips", { scope: ipsRo, auth: "required" }, (ctx) => paginate(ips([vpc(ctx)]), ctx));
  router.add("GET", "/vpcs/{vpcId}/subnets", { scope: null, auth: "required" }, (ctx) => {
    const v = vpc(ctx);
    return paginate(d.subnets.filter((s) => s.vpc_id === v.id).map(subnetView), ctx);
  });
  router.add("POST", "/vpcs/{vpcId}/subnets", { scope: rw, auth: "required" }, (ctx) => {
    const v = vpc(ctx, true);
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const subnet = readSubnet(body, "", new SubnetSiblings(d.subnets.filter((s) => s.vpc_id === v.id)), errors);
    errors.throwIfAny();
    if (!subnet) throw badRequest("label and ipv4 are required");
    return subnetView(newSubnet(v.id, subnet.label, subnet.ipv4, ctx.user.username));
  });
  router.add("GET", "/vpcs/{vpcId}/subnets/{vpcSubnetId}", { scope: null, auth: "required" }, (ctx) => subnetView(subnet(ctx, vpc(ctx))));
  router.add("PUT", "/vpcs/{vpcId}/subnets/{vpcSubnetId}", { scope: rw, auth: "required" }, (ctx) => {
    const v = vpc(ctx, true);
    const s = subnet(ctx, v);
    const body = jsonObject(ctx);
    const errors = new FieldErrors();
    const label = body.label === undefined ? undefined : readLabel(body.label, "label", errors);
    if (label !== undefined && d.subnets.some((x) => x.vpc_id === v.id && x !== s && x.label === label))
      errors.add("label", "Label must be unique among the VPC's subnets");
    if (body.ipv4 !== undefined && body.ipv4 !== s.ipv4) errors.add("ipv4", "The ipv4 range of a subnet cannot be changed");
    errors.throwIfAny();
    if (label !== undefined) s.label = label;
    s.updated = stamp();
    store.event("subnet_update", ctx.user.username, subnetEntity(s));
    return subnetView(s);
  });
  router.add("DELETE", "/vpcs/{vpcId}/subnets/{vpcSubnetId}", { scope: rw, auth: "required" }, (ctx) => {
    const s = subnet(ctx, vpc(ctx, true));
    const why = inUse(s);
    if (why) throw badRequest(why);
    d.subnets = d.subnets.filter((x) => x !== s);
    store.event("subnet_delete", ctx.user.username, subnetEntity(s));
    return {};
  });

  /** The VPC addresses of interfaces (and their routed ranges) in these VPCs. */
  function ips(vpcs: VpcRecord[]) {
    const out: Record<string, unknown>[] = [];
    for (const v of vpcs) {
      for (const s of d.subnets.filter((x) => x.vpc_id === v.id)) {
        const [start] = ipv4Span(s.ipv4);
        const prefix = Number(s.ipv4.split("/")[1]);
        const mask = intToIp(prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);
        for (const u of users(s.id)) {
          const base = {
            vpc_id: v.id,
            subnet_id: s.id,
            region: v.region,
            compute_id: u.cfg.compute_id,
            config_id: u.cfg.id,
            interface_id: u.iface.id,
            nodebalancer_id: null,
            database_id: null,
            active: u.active,
            gateway: intToIp(start + 1),
            prefix,
            subnet_mask: mask,
          };
          out.push({ address: u.iface.ipv4?.vpc ?? null, address_range: null, nat_1_1: u.iface.ipv4?.nat_1_1 ?? null, ...base });
          for (const r of u.iface.ip_ranges ?? []) out.push({ address: null, address_range: r, nat_1_1: null, ...base });
        }
      }
    }
    return out;
  }

  // What the compute routes need: where a subnet is, and a free address in it.
  const lookup = ((id: number) => {
    const s = d.subnets.find((x) => x.id === id);
    const v = s && d.vpcs.find((x) => x.id === s.vpc_id);
    return s && v ? { vpc_id: v.id, region: v.region, ipv4: s.ipv4 } : undefined;
  }) as SubnetLookup;
  lookup.allocate = (id: number, taken: string[] = []) => {
    const s = d.subnets.find((x) => x.id === id)!;
    const used = new Set([...users(id).map((u) => u.iface.ipv4?.vpc), ...taken]);
    const [start, end] = ipv4Span(s.ipv4);
    for (let n = start + 2; n < end; n++) if (!used.has(intToIp(n))) return intToIp(n);
    return undefined;
  };
  services.provide(SUBNETS, lookup);
}
