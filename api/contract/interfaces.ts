import { z } from "zod";
import { INTERFACE_LIST_TEXTS, INTERFACE_PURPOSES, MAX_INTERFACES } from "../interfaces";
import { ipamAddressError, ipRangeError, ipv4AddressError, natError } from "../network";
import { checkLength, checkPrintable } from "../text";
import { bool, int, refuse, recordId, typeText } from "./common";
import { empty, endpoint, ro, rw } from "./endpoint";

/**
 * compute-api.md "Interface" and the interfaces' endpoints of "Configuration profiles and interfaces": the network
 * interfaces of a profile (or of an instance's create). Their purposes and their list's limits and texts are
 * api/interfaces.ts's.
 */

/** An interface's `ipv4` (compute-api.md: "`vpc` ... and `nat_1_1` ... Only for `vpc`"; the real API's is null on the others, or empty strings in older answers). */
export const interfaceIpv4 = z.strictObject({ vpc: z.string().nullable(), nat_1_1: z.string().nullable() });

/**
 * compute-api.md "Interface", with `ipv6`, the real API's: null, `{ vpc }` or absent in older recorded answers (the
 * emulator has no IPv6 in VPCs: null).
 */
export const iface = z.strictObject({
  id: recordId,
  purpose: z.enum(INTERFACE_PURPOSES),
  label: z.string().nullable(),
  ipam_address: z.string().nullable(),
  primary: z.boolean(),
  subnet_id: int.nullable(),
  vpc_id: int.nullable(),
  ipv4: interfaceIpv4.nullable(),
  ip_ranges: z.array(z.string()).nullable(),
  active: z.boolean(),
  ipv6: z.strictObject({ vpc: z.string() }).nullable().optional(),
});

const PURPOSE_TEXT = `must be one of ${INTERFACE_PURPOSES.join(", ")}`;

/** compute-api.md "Interface": "purpose | string enum | `public`, `vlan`, `vpc`. Required on add." */
export const interfacePurpose = z.enum(INTERFACE_PURPOSES, { error: (issue) => (issue.input === undefined ? "purpose is required" : PURPOSE_TEXT) });

/** compute-api.md "Interface": "label | string or null, 1..64 | ... used by `vlan`" (its length checked for a vlan interface). */
export const interfaceLabel = z.string({ error: "Must be a string or null" }).nullable();

const VLAN_LABEL_TEXT = "a vlan interface needs a label of 1 to 64 characters";

/** A VLAN's label, for a vlan interface: 1..64 characters of free text (no control character). */
export const vlanLabel = z.string({ error: VLAN_LABEL_TEXT }).superRefine((v, ctx) => {
  const e = checkLength(v, "interfaceLabel");
  if (e) return refuse(ctx, VLAN_LABEL_TEXT, e);
  const p = checkPrintable(v);
  if (p) refuse(ctx, `Label ${p}`, p);
});

/** compute-api.md "Interface": "ipam_address | string or null (ip/netmask CIDR) | Used by `vlan`" (api/network.ts). */
export const ipamAddress = z.string({ error: "Must be an IPv4 address with a netmask, for example 10.0.0.1/24" }).superRefine((v, ctx) => {
  const e = ipamAddressError(v);
  if (e) refuse(ctx, e, "must be an IPv4 address with a netmask, for example 10.0.0.1/24");
});

const RANGES_TEXT = "Must be an array of IPv4 CIDR ranges";
/** compute-api.md "Interface": "ip_ranges | array or null | IPv4 CIDR VPC subnet ranges routed to this interface". */
export const ipRanges = z.array(
  z.string({ error: RANGES_TEXT }).superRefine((v, ctx) => {
    const e = ipRangeError(v);
    if (e) refuse(ctx, e);
  }),
  { error: RANGES_TEXT },
);

const NAT_TEXT = "Must be an IPv4 address, any, or null";
/** compute-api.md "Interface": `nat_1_1`, an address mapped 1:1, or `any` (api/network.ts). */
export const natAddress = z.string({ error: NAT_TEXT }).superRefine((v, ctx) => {
  const e = natError(v);
  if (e) refuse(ctx, NAT_TEXT, e);
});

const VPC_ADDRESS_TEXT = "Must be an IPv4 address";
/**
 * compute-api.md "Interface": "ipv4 | object | `vpc` (IPv4 address inside the subnet)": an IPv4 address (api/network.ts;
 * which addresses the subnet holds, and which are taken, is the account's to say).
 */
export const vpcAddress = z.string({ error: VPC_ADDRESS_TEXT }).superRefine((v, ctx) => {
  const e = ipv4AddressError(v);
  if (e) refuse(ctx, VPC_ADDRESS_TEXT, e);
});

/** An interface's `ipv4` in a request: its address in the subnet (assigned when left out), and a 1:1 NAT (`any`: the API picks one). */
export const interfaceIpv4Request = z.object(
  {
    vpc: vpcAddress.optional(),
    nat_1_1: natAddress.nullable().optional(),
  },
  { error: "Must be an object: { vpc, nat_1_1 }" },
);

/** A subnet id in a request: an integer (one that names no subnet is the account's to refuse). */
const subnetId = z.number({ error: typeText("an integer") }).int("Must be an integer");

/**
 * An interface in a request (an item of a create's or a profile's list, or an add): compute-api.md "Interface"
 * fields, and its purpose's needs: a `vpc` interface needs `subnet_id`, a `vlan` interface a label. `id` (a
 * profile's update) keeps an existing interface's id.
 */
export const interfaceRequest = z
  .object(
    {
      id: int.optional(),
      purpose: interfacePurpose,
      label: interfaceLabel.optional(),
      ipam_address: ipamAddress.nullable().optional(),
      primary: bool.optional(),
      subnet_id: subnetId.nullable().optional(),
      ipv4: interfaceIpv4Request.nullable().optional(),
      ip_ranges: ipRanges.nullable().optional(),
    },
    { error: "Must be an interface object" },
  )
  .superRefine((i, ctx) => {
    if (i.purpose === "vpc" && i.subnet_id == null) refuse(ctx, "a vpc interface needs a subnet_id", "a vpc interface needs a subnet_id", ["subnet_id"]);
    if (i.purpose === "vlan" && !vlanLabel.safeParse(i.label).success) refuse(ctx, VLAN_LABEL_TEXT, VLAN_LABEL_TEXT, ["label"]);
  });

/** What a list rule reads of an item: its purpose and whether it is primary (the API's names or the provider's alike). */
export interface InterfaceItem {
  purpose?: unknown;
  primary?: unknown;
}

/** A refusal of an interface list: of the list (`index` undefined), or of an item's field. */
export interface InterfaceRefusal {
  index?: number;
  field: string;
  reason: string;
}

/**
 * The rules on a whole list of interfaces, in the order they are tried: compute-api.md "Limits": "Interfaces per
 * profile or create request | 1 to 3" (a profile may have none: "An empty `interfaces` array yields a default
 * `public` interface only"); "Interface": "primary | ... At most one per profile"; at most one `public`
 * interface (docs/spec-gaps.md). The first rule the list breaks, or undefined.
 */
export function interfaceListRefusal(list: readonly InterfaceItem[], allowEmpty: boolean): InterfaceRefusal | undefined {
  if (list.length === 0 && !allowEmpty) return { field: "", reason: INTERFACE_LIST_TEXTS.none };
  if (list.length > MAX_INTERFACES) return { field: "", reason: INTERFACE_LIST_TEXTS.tooMany };
  if (list.filter((i) => i.primary === true).length > 1) return { field: "", reason: INTERFACE_LIST_TEXTS.twoPrimary };
  if (list.filter((i) => i.purpose === "public").length > 1)
    return { index: list.findIndex((i) => i.purpose === "public"), field: "purpose", reason: INTERFACE_LIST_TEXTS.twoPublic };
  return undefined;
}

/** A list of interfaces in a request, its rules checked (`allowEmpty`: a profile's, which may have none). */
export const interfaceList = (allowEmpty: boolean) =>
  z.array(interfaceRequest, { error: "Must be an array of interfaces" }).superRefine((list, ctx) => {
    const e = interfaceListRefusal(list, allowEmpty);
    if (e) refuse(ctx, e.reason, e.reason, e.index === undefined ? [] : [e.index, e.field]);
  });

/** compute-api.md "Configuration profile": "interfaces | array | See Interface; 1 to 3 items" (none: the default public interface). */
export const profileInterfaces = interfaceList(true);

/** compute-api.md `POST .../interfaces`: "interface fields (`purpose` required)". */
export const interfaceAdd = interfaceRequest;

/**
 * compute-api.md `PUT .../interfaces/{interfaceId}`: "`primary`, `ipv4`, `ip_ranges`"; rule 3: "`purpose` and
 * subnet cannot be updated" (a changed one is refused, as the state says).
 */
export const interfaceUpdate = z.object({
  primary: bool.optional(),
  ipv4: interfaceIpv4Request.optional(),
  ip_ranges: ipRanges.optional(),
  purpose: z.unknown().optional(),
  subnet_id: z.unknown().optional(),
});

const IDS_TEXT = "ids must list every interface of the profile exactly once";
/** compute-api.md `POST .../interfaces/order`: "`ids` (array of interface ids, required)". */
export const interfaceOrder = z.object({ ids: z.array(z.number({ error: IDS_TEXT }).int(IDS_TEXT), { error: IDS_TEXT }) });

const source = "compute-api.md";
const scope = { ro: ro("computes"), rw: rw("computes") };
const C = "/compute/instances/{computeId}/configs/{configId}";

/** compute-api.md "Configuration profiles and interfaces": a profile's interfaces. */
export const interfacesApi = {
  list: endpoint({
    method: "GET",
    path: `${C}/interfaces`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "List a profile's interfaces (an array, not an envelope), in order",
    answer: z.array(iface),
  }),
  create: endpoint({
    method: "POST",
    path: `${C}/interfaces`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Add an interface to a profile",
    body: interfaceAdd,
    answer: iface,
  }),
  order: endpoint({
    method: "POST",
    path: `${C}/interfaces/order`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Reorder a profile's interfaces",
    body: interfaceOrder,
    answer: empty,
  }),
  get: endpoint({
    method: "GET",
    path: `${C}/interfaces/{interfaceId}`,
    source,
    scope: scope.ro,
    auth: "required",
    summary: "View an interface",
    answer: iface,
  }),
  update: endpoint({
    method: "PUT",
    path: `${C}/interfaces/{interfaceId}`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Update an interface",
    body: interfaceUpdate,
    answer: iface,
  }),
  delete: endpoint({
    method: "DELETE",
    path: `${C}/interfaces/{interfaceId}`,
    source,
    scope: scope.rw,
    auth: "required",
    summary: "Delete an interface",
    answer: empty,
  }),
};

export type Interface = z.output<typeof iface>;
export type InterfaceRequest = z.output<typeof interfaceRequest>;
