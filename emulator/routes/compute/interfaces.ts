import { interfaceListRefusal, interfacesApi, type Interface, type InterfaceRequest } from "../../../api/contract/interfaces";
import { badRequest, FieldErrors, notFound } from "../../http";
import type { Req } from "../../router";
import type { InstanceRequest } from "./access";
import { row, type ComputeContext } from "./context";
import type { ConfigRecord, InstanceRecord, InterfaceRecord } from "./records";

/** A profile's interfaces (`I/configs/{configId}/interfaces...`): compute-api.md "Configuration profiles and interfaces", rules 1 to 5. */

/** What names an interface's profile: the path's instance and profile, and who asks. */
type ProfileReq = InstanceRequest & { params: { configId: number } };

/** The instance and profile of the path (`read_write`: for a change). */
function profileOf(c: ComputeContext, req: ProfileReq, level: "read_only" | "read_write" = "read_only") {
  const inst = c.instance(req, level);
  return { inst, cfg: c.configOf(inst, req.params.configId) };
}

/** The profile's interface `interfaceId`, or 404. */
function ifaceOf(cfg: ConfigRecord, interfaceId: number): InterfaceRecord {
  const i = cfg.interfaces.find((x) => x.id === interfaceId);
  if (!i) throw notFound();
  return i;
}

/** Rule 1: adding, updating and deleting an interface each trigger a `compute_config_update` event. */
const changed = (c: ComputeContext, req: ProfileReq, inst: InstanceRecord, cfg: ConfigRecord) =>
  c.instanceNote("compute_config_update", req.user.username, inst, { notification: true, secondary: c.configEntity(cfg) });

/** Rule 2: a new primary interface takes the role from the others. The profile's list with it must keep the list's rules. */
function addInterface(c: ComputeContext, req: Req<typeof interfacesApi.create>): Interface {
  const { inst, cfg } = profileOf(c, req, "read_write");
  const body: InterfaceRequest = req.body;
  const others = cfg.interfaces.map((i) => ({ purpose: i.purpose, primary: body.primary === true ? false : i.primary }));
  const e = interfaceListRefusal([...others, body], true);
  if (e) throw badRequest(e.reason, e.index === undefined ? "interfaces" : e.field);
  const errors = new FieldErrors();
  const rec = c.ifaceRecord(body, errors, "interface", inst.region, []);
  errors.throwIfAny();
  if (rec.primary) for (const i of cfg.interfaces) i.primary = false;
  cfg.interfaces.push(rec);
  changed(c, req, inst, cfg);
  return c.ifaceView(inst, cfg, rec);
}

function orderInterfaces(c: ComputeContext, req: Req<typeof interfacesApi.order>) {
  const { inst, cfg } = profileOf(c, req, "read_write");
  const { ids } = req.body;
  const ordered = ids.map((id) => cfg.interfaces.find((i) => i.id === id));
  const every = new Set(ids).size === ids.length && ids.length === cfg.interfaces.length;
  const found = ordered.filter((i): i is InterfaceRecord => i !== undefined);
  if (!every || found.length !== ids.length) throw badRequest("ids must list every interface of the profile exactly once", "ids");
  cfg.interfaces = found;
  changed(c, req, inst, cfg);
  return {};
}

/**
 * Rule 3: an update applies to `vpc` and `public` interfaces only; `purpose` and the subnet cannot change (a
 * new `vpc` interface joins another subnet); only `primary` changes on a `public` one.
 */
function checkUpdate(i: InterfaceRecord, body: Req<typeof interfacesApi.update>["body"]): void {
  if (i.purpose === "vlan") throw badRequest("vlan interfaces cannot be updated: delete it and add a new one");
  if (body.purpose !== undefined && body.purpose !== i.purpose) throw badRequest("purpose cannot be changed", "purpose");
  if (body.subnet_id !== undefined && body.subnet_id !== i.subnet_id) {
    throw badRequest("subnet_id cannot be changed: add a new vpc interface to join another subnet", "subnet_id");
  }
  const extra = i.purpose === "public" ? (["subnet_id", "ipv4", "ip_ranges"] as const).find((k) => body[k] !== undefined) : undefined;
  if (extra) throw badRequest("Only primary can be updated on a public interface", extra);
}

function updateInterface(c: ComputeContext, req: Req<typeof interfacesApi.update>): Interface {
  const { inst, cfg } = profileOf(c, req, "read_write");
  const i = ifaceOf(cfg, req.params.interfaceId);
  const { body } = req;
  checkUpdate(i, body);
  // A vpc interface's new address (checkUpdate: only they take ipv4) is one of the subnet's, held by no other interface.
  const vpc = body.ipv4?.vpc;
  if (vpc !== undefined && i.subnet_id !== null && vpc !== i.ipv4?.vpc) {
    const refusal = c.addressRefusal(i.subnet_id, vpc, [], new Set([i.id]));
    if (refusal) throw badRequest(refusal, "ipv4.vpc");
  }
  if (body.primary === true) for (const x of cfg.interfaces) x.primary = false;
  if (body.primary !== undefined) i.primary = body.primary;
  if (body.ipv4 && i.ipv4) {
    const nat = body.ipv4.nat_1_1 === undefined ? i.ipv4.nat_1_1 : body.ipv4.nat_1_1;
    i.ipv4 = { vpc: vpc ?? i.ipv4.vpc, nat_1_1: nat };
  }
  if (body.ip_ranges) i.ip_ranges = body.ip_ranges;
  changed(c, req, inst, cfg);
  return c.ifaceView(inst, cfg, i);
}

/** Rule 4: an active interface cannot be deleted. */
function deleteInterface(c: ComputeContext, req: Req<typeof interfacesApi.delete>) {
  const { inst, cfg } = profileOf(c, req, "read_write");
  const i = ifaceOf(cfg, req.params.interfaceId);
  if (c.ifaceActive(inst, cfg, i)) {
    throw badRequest("An active interface cannot be deleted: shut the instance down, or reboot it with another profile, first");
  }
  cfg.interfaces = cfg.interfaces.filter((x) => x !== i);
  changed(c, req, inst, cfg);
  return {};
}

export const INTERFACE_ROWS = [
  row(interfacesApi.list, (c, req) => {
    const { inst, cfg } = profileOf(c, req);
    return cfg.interfaces.map((i) => c.ifaceView(inst, cfg, i));
  }),
  row(interfacesApi.create, addInterface),
  row(interfacesApi.order, orderInterfaces),
  row(interfacesApi.get, (c, req) => {
    const { inst, cfg } = profileOf(c, req);
    return c.ifaceView(inst, cfg, ifaceOf(cfg, req.params.interfaceId));
  }),
  row(interfacesApi.update, updateInterface),
  row(interfacesApi.delete, deleteInterface),
];
