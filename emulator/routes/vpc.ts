import { z } from "zod";
import { int } from "../../api/contract/common";
import { pathOf } from "../../api/contract/endpoint";
import {
  subnet,
  subnetIpv4,
  subnetsApi,
  VPC_IPV4_RANGES,
  vpc,
  vpcDescription,
  vpcLabel,
  vpcsApi,
  type Subnet,
  type Vpc,
  type VpcAddress,
} from "../../api/contract/vpcs";
import { catalog } from "../catalog";
import { collectionsOf, recordField, type ApiFamily, type FamilyContext, type Refusal } from "../family";
import { badRequest, FieldErrors, forbidden, notFound, paginate } from "../http";
import { SUBNETS, type SubnetLookup } from "../lookups";
import { rowsOf, type Req } from "../router";
import { apiTime, eventEntity, settle, type User } from "../state";
import { freeAddress, SubnetSiblings, subnetNetwork } from "../vpc-rules";
import { GONE } from "./compute/base";
import { computeState, type ConfigRecord } from "./compute/records";

/**
 * A VPC as the state keeps it: its own fields of the API's record (its subnets are theirs, the rest is derived),
 * its label and description by the create's rules, and its maker (its region is the catalogue's: `references`).
 */
export const storedVpc = vpc
  .pick({ id: true, region: true, created: true, updated: true })
  .extend({ label: vpcLabel, description: vpcDescription, _owner: z.string() })
  .strict();
/** A subnet as the state keeps it: its own fields of the API's record (its label and range by the API's rules) and its VPC. */
export const storedSubnet = subnet.pick({ id: true, created: true, updated: true }).extend({ vpc_id: int, label: vpcLabel, ipv4: subnetIpv4 }).strict();
export type VpcRecord = z.output<typeof storedVpc>;
export type SubnetRecord = z.output<typeof storedSubnet>;

/** The VPC family's collections in the state file. */
export const vpcState = collectionsOf({ vpcs: storedVpc, subnets: storedSubnet });

/** The VPC family: VPCs and subnets (`/vpcs`), and the lookup the compute routes use to put interfaces in subnets. */
export const vpcFamily: ApiFamily<ReturnType<typeof vpcState>> = {
  name: "vpc",
  state: vpcState,
  register: (family) => {
    const c = vpcContext(family);
    family.router.serve(ROWS, c);
    family.services.provide(SUBNETS, subnetLookup(c));
  },
  // A VPC's maker is a user of the account, its label unique among the VPCs, its region one of the catalogue's
  // that takes VPCs; a subnet's VPC exists, and its label and range are apart from its siblings' (the checks of a
  // new subnet assume it: vpc-rules.ts).
  references: (state) => {
    const { vpcs, subnets } = vpcState(state);
    const users = new Set(state.data.users.map((u) => u.username));
    const refusals: Refusal[] = [];
    const labels = new Set<string>();
    vpcs.forEach((v, i) => {
      if (!users.has(v._owner)) refusals.push({ field: recordField("vpcs", i, "_owner"), reason: `no user ${v._owner} in the account` });
      if (labels.has(v.label)) refusals.push({ field: recordField("vpcs", i, "label"), reason: "Label must be unique among your VPCs" });
      labels.add(v.label);
      const region = regionRefusal(v.region);
      if (region) refusals.push({ field: recordField("vpcs", i, "region"), reason: region });
    });
    const siblings = new Map(vpcs.map((v) => [v.id, new SubnetSiblings()]));
    subnets.forEach((s, i) => {
      const inVpc = siblings.get(s.vpc_id);
      if (!inVpc) return refusals.push({ field: recordField("subnets", i, "vpc_id"), reason: `no VPC ${s.vpc_id}` });
      refusals.push(...inVpc.conflicts(s).map((e) => ({ field: recordField("subnets", i, e.field), reason: e.reason })));
      inVpc.add(s);
    });
    return refusals;
  },
  renumber: (state, to) => {
    const { vpcs, subnets } = vpcState(state);
    for (const v of vpcs) v.id = to("vpc", v.id);
    for (const s of subnets) Object.assign(s, { id: to("subnet", s.id), vpc_id: to("vpc", s.vpc_id) });
    for (const user of state.data.users) if (user.grants) user.grants.vpc = user.grants.vpc.map((g) => ({ ...g, id: to("vpc", g.id) }));
  },
};

/** Why a VPC cannot be in a region: one the catalogue has not, or one without the `VPCs` capability (undefined: it can). */
function regionRefusal(id: string): string | undefined {
  const region = catalog.regions.find((r) => r.id === id);
  if (!region) return `Region ${id} not found`;
  return region.capabilities.includes("VPCs") ? undefined : `Region ${region.id} does not support VPCs`;
}

type VpcContext = ReturnType<typeof vpcContext>;

function vpcContext({ store, now }: FamilyContext) {
  // The profiles and instances whose interfaces are in the subnets.
  return { store, now, d: vpcState(store), compute: computeState(store), stamp: () => apiTime(now()) };
}

/** A VPC and a subnet as an event's entity (their API paths). */
const vpcEntity = (v: VpcRecord) => eventEntity("vpc", v.id, v.label, pathOf(vpcsApi.get, { vpcId: v.id }));
const subnetEntity = (s: SubnetRecord) => eventEntity("subnet", s.id, s.label, pathOf(subnetsApi.get, { vpcId: s.vpc_id, vpcSubnetId: s.id }));

/** Every profile interface in a subnet, with its profile and whether it is active. */
function usersOf({ compute, now }: VpcContext, subnetId: number) {
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
}

/**
 * A subnet as the real API answers it: its instances' interfaces; no IPv6 (the emulator's VPCs are IPv4 only),
 * no databases or NodeBalancers (the emulator puts neither in VPCs).
 */
function subnetView(c: VpcContext, s: SubnetRecord): Subnet {
  const byInstance = new Map<number, Subnet["computes"][number]["interfaces"]>();
  for (const u of usersOf(c, s.id))
    byInstance.set(u.cfg.compute_id, [...(byInstance.get(u.cfg.compute_id) ?? []), { id: u.iface.id, active: u.active, config_id: u.cfg.id }]);
  return {
    id: s.id,
    label: s.label,
    ipv4: s.ipv4,
    ipv6: null,
    computes: [...byInstance].map(([id, interfaces]) => ({ id, interfaces })),
    databases: [],
    nodebalancers: [],
    created: s.created,
    updated: s.updated,
  };
}

/** A VPC as the real API answers it: `ipv4`, the ranges its subnets may take; no IPv6; `vpc_type` regular. */
const vpcView = (c: VpcContext, v: VpcRecord): Vpc => ({
  id: v.id,
  label: v.label,
  description: v.description,
  region: v.region,
  ipv4: VPC_IPV4_RANGES.map((range) => ({ range })),
  ipv6: null,
  subnets: c.d.subnets.filter((s) => s.vpc_id === v.id).map((s) => subnetView(c, s)),
  vpc_type: "regular",
  created: v.created,
  updated: v.updated,
});

/** Whether a user sees a VPC (`write`: may change it): a restricted one by its grants. */
const granted = (user: User, v: VpcRecord, write = false) =>
  !user.restricted || (user.grants?.vpc ?? []).some((g) => g.id === v.id && (write ? g.permissions === "read_write" : g.permissions));

/** The caller's VPC `vpcId` (404 when not seen; 403 when only read, for a `write`). */
function vpcOf({ d }: VpcContext, { params, user }: { params: { vpcId: number }; user: User }, write = false): VpcRecord {
  const v = d.vpcs.find((x) => x.id === params.vpcId);
  if (!v || !granted(user, v)) throw notFound();
  if (write && !granted(user, v, true)) throw forbidden("You have only read access to this VPC");
  return v;
}

/** The subnet `vpcSubnetId` of the caller's VPC `vpcId`, or 404. */
function subnetOf(c: VpcContext, req: { params: { vpcId: number; vpcSubnetId: number }; user: User }, write = false): SubnetRecord {
  const v = vpcOf(c, req, write);
  const s = c.d.subnets.find((x) => x.vpc_id === v.id && x.id === req.params.vpcSubnetId);
  if (!s) throw notFound();
  return s;
}

/** Why a subnet cannot be deleted now, or undefined. */
function inUse(c: VpcContext, s: SubnetRecord): string | undefined {
  // An instance being deleted gives its interfaces up: the real API deleted a VPC right after the instance that
  // used its subnet (recorded, while that instance was still `deleting`; usersOf settled it).
  const users = usersOf(c, s.id).filter((x) => {
    const inst = c.compute.instances.find((i) => i.id === x.cfg.compute_id);
    return inst !== undefined && inst.status !== "deleting" && inst.status !== GONE;
  });
  if (!users.length) return undefined;
  const list = users.map((x) => `instance ${x.cfg.compute_id} (profile ${x.cfg.id}, interface ${x.iface.id}${x.active ? ", active" : ""})`).join(", ");
  return `Subnet ${s.label} (${s.id}) is in use by ${list}: delete those interfaces first (an active one needs its instance shut down)`;
}

function newSubnet(c: VpcContext, vpcId: number, body: { label: string; ipv4: string }, username: string): SubnetRecord {
  const s: SubnetRecord = { id: c.store.nextId("subnet"), vpc_id: vpcId, label: body.label, ipv4: body.ipv4, created: c.stamp(), updated: c.stamp() };
  c.d.subnets.push(s);
  c.store.event("subnet_create", username, subnetEntity(s));
  return s;
}

/** A new VPC: the body's rules passed (api/contract/vpcs.ts); then its label among the VPCs, its region, its subnets among themselves. */
function createVpc(c: VpcContext, { user, body }: Req<typeof vpcsApi.create>): Vpc {
  if (user.restricted && !user.grants?.global.add_vpcs) throw forbidden("You do not have permission to add VPCs: the add_vpcs grant is needed");
  const errors = new FieldErrors();
  if (c.d.vpcs.some((v) => v.label === body.label)) errors.add("label", "Label must be unique among your VPCs");
  const region = regionRefusal(body.region);
  if (region) errors.add("region", region);
  const subnets = body.subnets ?? [];
  // Each subnet given is a sibling of the next ones, refused or not: its label, and its range when apart.
  const seen = new SubnetSiblings();
  subnets.forEach((s, i) => {
    seen.refuse(s, errors, `subnets[${i}].`);
    seen.add(s);
  });
  errors.throwIfAny();
  const v: VpcRecord = {
    id: c.store.nextId("vpc"),
    label: body.label,
    description: body.description ?? "",
    region: body.region,
    created: c.stamp(),
    updated: c.stamp(),
    _owner: user.username,
  };
  c.d.vpcs.push(v);
  if (user.restricted) user.grants?.vpc.push({ id: v.id, label: v.label, permissions: "read_write" });
  c.store.event("vpc_create", user.username, vpcEntity(v));
  for (const s of subnets) newSubnet(c, v.id, s, user.username);
  return vpcView(c, v);
}

function updateVpc(c: VpcContext, req: Req<typeof vpcsApi.update>): Vpc {
  const v = vpcOf(c, req, true);
  const { label, description, region } = req.body;
  const errors = new FieldErrors();
  if (label !== undefined && c.d.vpcs.some((x) => x.label === label && x !== v)) errors.add("label", "Label must be unique among your VPCs");
  if (region !== undefined && region !== v.region) errors.add("region", "The region of a VPC cannot be changed");
  errors.throwIfAny();
  if (label !== undefined) v.label = label;
  if (description !== undefined) v.description = description;
  v.updated = c.stamp();
  c.store.event("vpc_update", req.user.username, vpcEntity(v));
  return vpcView(c, v);
}

function deleteVpc(c: VpcContext, req: Req<typeof vpcsApi.delete>): Record<string, never> {
  const v = vpcOf(c, req, true);
  const subnets = c.d.subnets.filter((s) => s.vpc_id === v.id);
  // All or nothing: every subnet must be deletable.
  const blocked = subnets.map((s) => inUse(c, s)).filter(Boolean);
  if (blocked.length) throw badRequest(`The VPC cannot be deleted. ${blocked.join(". ")}`);
  c.d.subnets = c.d.subnets.filter((s) => s.vpc_id !== v.id);
  c.d.vpcs = c.d.vpcs.filter((x) => x !== v);
  c.store.event("vpc_delete", req.user.username, vpcEntity(v));
  for (const s of subnets) c.store.event("subnet_delete", req.user.username, subnetEntity(s));
  return {};
}

function createSubnet(c: VpcContext, req: Req<typeof subnetsApi.create>): Subnet {
  const v = vpcOf(c, req, true);
  const errors = new FieldErrors();
  new SubnetSiblings(c.d.subnets.filter((s) => s.vpc_id === v.id)).refuse(req.body, errors);
  errors.throwIfAny();
  return subnetView(c, newSubnet(c, v.id, req.body, req.user.username));
}

function updateSubnet(c: VpcContext, req: Req<typeof subnetsApi.update>): Subnet {
  const s = subnetOf(c, req, true);
  const { label, ipv4 } = req.body;
  const errors = new FieldErrors();
  if (label !== undefined && c.d.subnets.some((x) => x.vpc_id === s.vpc_id && x !== s && x.label === label))
    errors.add("label", "Label must be unique among the VPC's subnets");
  if (ipv4 !== undefined && ipv4 !== s.ipv4) errors.add("ipv4", "The ipv4 range of a subnet cannot be changed");
  errors.throwIfAny();
  if (label !== undefined) s.label = label;
  s.updated = c.stamp();
  c.store.event("subnet_update", req.user.username, subnetEntity(s));
  return subnetView(c, s);
}

/** The VPC addresses of the interfaces (and their routed ranges) in these VPCs. */
function addresses(c: VpcContext, vpcs: VpcRecord[]): VpcAddress[] {
  const out: VpcAddress[] = [];
  for (const v of vpcs) {
    for (const s of c.d.subnets.filter((x) => x.vpc_id === v.id)) {
      const network = subnetNetwork(s.ipv4);
      for (const u of usersOf(c, s.id)) {
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
          ...network,
        };
        out.push({ address: u.iface.ipv4?.vpc ?? null, address_range: null, nat_1_1: u.iface.ipv4?.nat_1_1 ?? null, ...base });
        for (const r of u.iface.ip_ranges ?? []) out.push({ address: null, address_range: r, nat_1_1: null, ...base });
      }
    }
  }
  return out;
}

/** What the compute routes need: where a subnet is, and a free address in it. */
function subnetLookup(c: VpcContext): SubnetLookup {
  const place = (id: number) => {
    const s = c.d.subnets.find((x) => x.id === id);
    const v = s && c.d.vpcs.find((x) => x.id === s.vpc_id);
    return s && v ? { vpc_id: v.id, region: v.region, ipv4: s.ipv4 } : undefined;
  };
  const allocate = (id: number, taken: string[] = []) => {
    const s = c.d.subnets.find((x) => x.id === id);
    return s && freeAddress(s.ipv4, new Set([...usersOf(c, id).map((u) => u.iface.ipv4?.vpc), ...taken]));
  };
  return Object.assign(place, { allocate });
}

const row = rowsOf<VpcContext>();
const seen = (c: VpcContext, user: User) => c.d.vpcs.filter((v) => granted(user, v));

const ROWS = [
  row(vpcsApi.list, (c, req) =>
    paginate(
      seen(c, req.user).map((v) => vpcView(c, v)),
      req,
    ),
  ),
  row(vpcsApi.create, createVpc),
  row(vpcsApi.ips, (c, req) => paginate(addresses(c, seen(c, req.user)), req)),
  row(vpcsApi.get, (c, req) => vpcView(c, vpcOf(c, req))),
  row(vpcsApi.update, updateVpc),
  row(vpcsApi.delete, deleteVpc),
  row(vpcsApi.vpcIps, (c, req) => paginate(addresses(c, [vpcOf(c, req)]), req)),
  row(subnetsApi.list, (c, req) => {
    const v = vpcOf(c, req);
    return paginate(
      c.d.subnets.filter((s) => s.vpc_id === v.id).map((s) => subnetView(c, s)),
      req,
    );
  }),
  row(subnetsApi.create, createSubnet),
  row(subnetsApi.get, (c, req) => subnetView(c, subnetOf(c, req))),
  row(subnetsApi.update, updateSubnet),
  row(subnetsApi.delete, (c, req) => {
    const s = subnetOf(c, req, true);
    const why = inUse(c, s);
    if (why) throw badRequest(why);
    c.d.subnets = c.d.subnets.filter((x) => x !== s);
    c.store.event("subnet_delete", req.user.username, subnetEntity(s));
    return {};
  }),
];
