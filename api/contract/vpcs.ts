import { z } from "zod";
import { vpcLabelError } from "../labels";
import { subnetIpv4Error } from "../network";
import { checkLength, LENGTH_LIMITS, checkPrintable } from "../text";
import { apiTime, int, page, pageQuery, refuse, ruled, recordId, typeText } from "./common";
import { empty, endpoint, ro, rw } from "./endpoint";

/**
 * compute-api.md "VPCs": VPCs, their subnets and the VPC addresses of the interfaces in them. The spec gives the
 * request fields; the records' other fields are "not shown", and are the real API's (recorded: GET /vpcs/{id},
 * the subnets, the addresses, POST /vpcs; docs/spec-gaps.md "VPCs, subnets and images").
 */

/** A range of a VPC or a subnet, as the real API lists them (`ipv4: [{range}]`; `ipv6` null here). */
export const vpcRange = z.strictObject({ range: z.string() });

/**
 * The ranges a VPC's subnets may be in, as `GET /vpcs/{id}` answers its `ipv4` (recorded): RFC 1918 but
 * 192.168.128.0/17, what the subnet `ipv4` rule allows (api/network.ts `subnetIpv4Error`).
 */
export const VPC_IPV4_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/17"] as const;

/** An interface of a subnet's instance: its id, whether it is active, its profile (recorded). */
export const subnetInterface = z.strictObject({ id: recordId, active: z.boolean(), config_id: int });

/** A subnet's instance and its interfaces in the subnet. */
export const subnetCompute = z.strictObject({ id: recordId, interfaces: z.array(subnetInterface) });

/**
 * A subnet, as the real API answers it (recorded): `label`, `ipv4` (its request fields), `computes` (the instances
 * whose profile interfaces use it), `ipv6`, `databases` and `nodebalancers` (whose items the spec does not show:
 * the emulator puts neither in a subnet), `created`, `updated`.
 */
export const subnet = z.strictObject({
  id: recordId,
  label: z.string(),
  ipv4: z.string(),
  ipv6: z.array(vpcRange).nullable(),
  computes: z.array(subnetCompute),
  databases: z.array(z.unknown()),
  nodebalancers: z.array(z.unknown()),
  created: apiTime,
  updated: apiTime,
});

/**
 * A VPC, as the real API answers it (recorded): its request fields, its subnets (whole records), `ipv4` (the
 * ranges its subnets may take), `ipv6` (null: IPv4 only here) and `vpc_type` (`regular`). The recorded answer of
 * an older POST /vpcs has neither `ipv4` nor `vpc_type`: they may be left out.
 */
export const vpc = z.strictObject({
  id: recordId,
  label: z.string(),
  description: z.string(),
  region: z.string(),
  ipv4: z.array(vpcRange).optional(),
  ipv6: z.array(vpcRange).nullable(),
  subnets: z.array(subnet),
  vpc_type: z.string().optional(),
  created: apiTime,
  updated: apiTime,
});

/**
 * A VPC address (`/vpcs/ips`, `/vpcs/{vpcId}/ips`), as the real API answers it (recorded): an interface's address
 * in a subnet, or one of its routed ranges (`address_range`), with the subnet's gateway, prefix and mask. An
 * address is an instance's (`compute_id`, `config_id`, `interface_id`), a NodeBalancer's or a database's: the
 * others are null (the emulator's are instances').
 */
export const vpcAddress = z.strictObject({
  address: z.string().nullable(),
  address_range: z.string().nullable(),
  vpc_id: int,
  subnet_id: int,
  region: z.string(),
  compute_id: int.nullable(),
  config_id: int.nullable(),
  interface_id: int.nullable(),
  nodebalancer_id: int.nullable(),
  database_id: int.nullable(),
  active: z.boolean(),
  nat_1_1: z.string().nullable(),
  gateway: z.string(),
  prefix: int,
  subnet_mask: z.string(),
});

/**
 * compute-api.md "VPC and subnet": a VPC's or a subnet's `label` (string 1..64), "ASCII letters, digits and
 * hyphens; no two consecutive hyphens" (api/labels.ts, with the real API's texts).
 */
export const vpcLabel = ruled(vpcLabelError, { notString: "Label must be a string", missing: "Label is required" });

const DESCRIPTION_TEXT = `Must be a string of at most ${LENGTH_LIMITS.vpcDescription[1]} characters`;

/** compute-api.md "Limits": "VPC description | at most 255 chars". */
export const vpcDescription = z.string({ error: DESCRIPTION_TEXT }).superRefine((v, ctx) => {
  const e = checkLength(v, "vpcDescription");
  if (e) return refuse(ctx, DESCRIPTION_TEXT, e);
  // Free text: line breaks and tabs, no other control character (docs/spec-gaps.md).
  const p = checkPrintable(v, true);
  if (p) refuse(ctx, `Description ${p}`, p);
});

/** compute-api.md "VPCs": "Subnet `ipv4` rules" (api/network.ts); the overlap with the VPC's other subnets needs them: the API's to say. */
export const subnetIpv4 = ruled(subnetIpv4Error, { subject: "ipv4", notString: "ipv4 must be a string", missing: "ipv4 is required" });

/** A region a create names: whether it exists (and takes VPCs) is the catalogue's to say, with the same text. */
export const regionId = z.string({ error: typeText("a string", "region is required") });

/** compute-api.md `POST /vpcs/{vpcId}/subnets`: `ipv4` (required), `label` (required). */
export const subnetCreate = z.object({ label: vpcLabel, ipv4: subnetIpv4 });

/** The item of a VPC create's `subnets` (its shape "not shown": a subnet's create body, docs/spec-gaps.md). */
const subnetItem = z.object({ label: vpcLabel, ipv4: subnetIpv4 }, { error: "Must be an object with label and ipv4" });

/** compute-api.md `POST /vpcs`: `label` (required), `region` (required), `description`, `subnets` (array; null is none). */
export const vpcCreate = z.object({
  label: vpcLabel,
  description: vpcDescription.optional(),
  region: regionId,
  subnets: z.array(subnetItem, { error: "Must be an array of subnets" }).nullable().optional(),
});

/** compute-api.md `PUT /vpcs/{vpcId}`: `label`, `description`; a changed `region` is refused ("create only"). */
export const vpcUpdate = z.object({ label: vpcLabel.optional(), description: vpcDescription.optional(), region: z.unknown().optional() });

/** compute-api.md `PUT /vpcs/{vpcId}/subnets/{vpcSubnetId}`: `label`; a changed `ipv4` is refused ("create only"). */
export const subnetUpdate = z.object({ label: vpcLabel.optional(), ipv4: z.unknown().optional() });

const source = "compute-api.md";
const vpcRw = rw("vpc");
const ipsRo = ro("ips");

/** compute-api.md "VPCs": the VPCs, and the VPC addresses (scope "any": any valid token, docs/spec-gaps.md). */
export const vpcsApi = {
  list: endpoint({ method: "GET", path: "/vpcs", source, scope: null, auth: "required", summary: "List VPCs", query: pageQuery, answer: page(vpc) }),
  create: endpoint({ method: "POST", path: "/vpcs", source, scope: vpcRw, auth: "required", summary: "Create a VPC", body: vpcCreate, answer: vpc }),
  /** Before `get`: `{vpcId}` would take `ips` (and answer 404). */
  ips: endpoint({
    method: "GET",
    path: "/vpcs/ips",
    source,
    scope: ipsRo,
    auth: "required",
    summary: "List the VPC addresses and ranges of the account",
    query: pageQuery,
    answer: page(vpcAddress),
  }),
  get: endpoint({ method: "GET", path: "/vpcs/{vpcId}", source, scope: null, auth: "required", summary: "View a VPC", answer: vpc }),
  update: endpoint({ method: "PUT", path: "/vpcs/{vpcId}", source, scope: vpcRw, auth: "required", summary: "Update a VPC", body: vpcUpdate, answer: vpc }),
  delete: endpoint({
    method: "DELETE",
    path: "/vpcs/{vpcId}",
    source,
    scope: vpcRw,
    auth: "required",
    summary: "Delete a VPC and its subnets",
    answer: empty,
  }),
  vpcIps: endpoint({
    method: "GET",
    path: "/vpcs/{vpcId}/ips",
    source,
    scope: ipsRo,
    auth: "required",
    summary: "List a VPC's addresses",
    query: pageQuery,
    answer: page(vpcAddress),
  }),
};

/** compute-api.md "VPCs": a VPC's subnets. */
export const subnetsApi = {
  list: endpoint({
    method: "GET",
    path: "/vpcs/{vpcId}/subnets",
    source,
    scope: null,
    auth: "required",
    summary: "List a VPC's subnets",
    query: pageQuery,
    answer: page(subnet),
  }),
  create: endpoint({
    method: "POST",
    path: "/vpcs/{vpcId}/subnets",
    source,
    scope: vpcRw,
    auth: "required",
    summary: "Create a subnet",
    body: subnetCreate,
    answer: subnet,
  }),
  get: endpoint({
    method: "GET",
    path: "/vpcs/{vpcId}/subnets/{vpcSubnetId}",
    source,
    scope: null,
    auth: "required",
    summary: "View a subnet",
    answer: subnet,
  }),
  update: endpoint({
    method: "PUT",
    path: "/vpcs/{vpcId}/subnets/{vpcSubnetId}",
    source,
    scope: vpcRw,
    auth: "required",
    summary: "Update a subnet's label",
    body: subnetUpdate,
    answer: subnet,
  }),
  delete: endpoint({
    method: "DELETE",
    path: "/vpcs/{vpcId}/subnets/{vpcSubnetId}",
    source,
    scope: vpcRw,
    auth: "required",
    summary: "Delete a subnet",
    answer: empty,
  }),
};

export type Vpc = z.output<typeof vpc>;
export type Subnet = z.output<typeof subnet>;
export type VpcAddress = z.output<typeof vpcAddress>;
