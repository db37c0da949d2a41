import { DEFAULT_CONFIG_ID, instanceActionsApi } from "../../../api/contract/instance-actions";
import { badRequest, FieldErrors } from "../../http";
import type { Req } from "../../router";
import { busyError } from "./base";
import { readDevices } from "./configs";
import { row, type ComputeContext } from "./context";
import type { ConfigRecord, InstanceRecord } from "./records";

/** An instance's power: boot, reboot, shutdown, rescue (compute-api.md "Instances", rules 2, 3, 8 and 9). */

/** Whether a boot's `config_id` names a profile (null, left out and `DEFAULT_CONFIG_ID` ask for the default one). */
const named = (configId: number | null | undefined): configId is number => configId != null && configId !== DEFAULT_CONFIG_ID;

/** The profile to boot with (rules 2 and 3): the one named, else as the rules pick. */
function pickConfig(c: ComputeContext, inst: InstanceRecord, configId: number | null | undefined, forReboot: boolean): ConfigRecord {
  const cfgs = c.configsOf(inst.id);
  if (named(configId)) {
    const cfg = cfgs.find((x) => x.id === configId);
    if (!cfg) throw badRequest(`Config ${configId} not found on this instance`, "config_id");
    return cfg;
  }
  const last = cfgs.find((x) => x.id === inst._lastBootedConfig);
  if (cfgs.length === 0) throw badRequest("The instance has no configuration profile to boot", "config_id");
  const picked = forReboot ? (last ?? (cfgs.length === 1 ? cfgs[0] : undefined)) : cfgs.length === 1 ? cfgs[0] : last;
  if (picked) return picked;
  throw badRequest("No configuration profile could be determined: the instance has several and none was booted last; give config_id", "config_id");
}

/** What a boot into the profile sets when it ends: the profile booted, and its interfaces then (`active`). */
const bootedWith = (cfg: ConfigRecord) => ({ _lastBootedConfig: cfg.id, _activeInterfaces: cfg.interfaces.map((i) => i.id) });

function bootInto(c: ComputeContext, inst: InstanceRecord, cfg: ConfigRecord, status: "booting" | "rebooting", ms: number): void {
  inst.status = status;
  inst._queue.push({ status: "running", at: c.now() + ms, patch: bootedWith(cfg) });
  c.settleAll(inst);
}

/**
 * A boot while other actions run: spec rule 9 does not list boot among the actions refused then, and the real API
 * accepted a boot sent right after a create (recorded): it is queued after what is under way. One that will run
 * anyway changes nothing, unless it names another profile, which it then boots into. Answered with an event all
 * the same (a client that waits on the event of its own boot request, linodego's event poller, gets one).
 */
function bootQueued(c: ComputeContext, req: Req<typeof instanceActionsApi.boot>, inst: InstanceRecord) {
  const last = inst._queue[inst._queue.length - 1];
  const willRun = last.status === "running";
  const anyway = () => {
    const booted = c.configsOf(inst.id).find((x) => x.id === last.patch?._lastBootedConfig);
    c.instanceEvent("compute_boot", req.user.username, inst, { start: last.at, secondary: booted ? c.configEntity(booted) : null });
    return {};
  };
  if (willRun && !named(req.body.config_id)) return anyway();
  const cfg = pickConfig(c, inst, req.body.config_id, false);
  if (willRun && last.patch?._lastBootedConfig === cfg.id) return anyway();
  // Once what is under way ends, the instance is seen booting (rebooting, into another profile) for the boot's time.
  const status = willRun ? "rebooting" : "booting";
  inst._queue.push({ status, at: last.at }, { status: "running", at: last.at + c.dur(status), patch: bootedWith(cfg) });
  // Queued behind what is under way: scheduled until then (recorded: a boot waits as scheduled while the create runs).
  c.instanceEvent("compute_boot", req.user.username, inst, { start: last.at, secondary: c.configEntity(cfg) });
  return {};
}

function boot(c: ComputeContext, req: Req<typeof instanceActionsApi.boot>) {
  const inst = c.instance(req, "read_write");
  if (inst.status === "deleting") throw badRequest("The instance is being deleted");
  if (c.busy(inst)) return bootQueued(c, req, inst);
  if (c.running(inst)) {
    // Already running: nothing to do (a repeated boot is harmless), and its event finished at once.
    const booted = c.configsOf(inst.id).find((x) => x.id === inst._lastBootedConfig);
    c.instanceNote("compute_boot", req.user.username, inst, { secondary: booted ? c.configEntity(booted) : null });
    return {};
  }
  const cfg = pickConfig(c, inst, req.body.config_id, false);
  bootInto(c, inst, cfg, "booting", c.dur("booting"));
  c.instanceEvent("compute_boot", req.user.username, inst, { secondary: c.configEntity(cfg) });
  return {};
}

function reboot(c: ComputeContext, req: Req<typeof instanceActionsApi.reboot>) {
  const inst = c.instance(req, "read_write");
  if (c.busy(inst)) throw busyError();
  const cfg = pickConfig(c, inst, req.body.config_id, true);
  bootInto(c, inst, cfg, "rebooting", c.dur("rebooting"));
  c.instanceEvent("compute_reboot", req.user.username, inst, { secondary: c.configEntity(cfg) });
  return {};
}

function shutdown(c: ComputeContext, req: Req<typeof instanceActionsApi.shutdown>) {
  const inst = c.instance(req, "read_write");
  if (c.busy(inst)) throw busyError();
  if (inst.status === "offline") {
    c.instanceNote("compute_shutdown", req.user.username, inst); // nothing to do: its event finished at once
    return {};
  }
  inst.status = "shutting_down";
  inst._queue.push({ status: "offline", at: c.now() + c.dur("shutting_down"), patch: { _activeInterfaces: [] } });
  c.settleAll(inst);
  c.instanceEvent("compute_shutdown", req.user.username, inst);
  return {};
}

/** A rescue (rule 8: `sdh` is reserved, which the contract refuses): the devices must be the instance's disks. */
function rescue(c: ComputeContext, req: Req<typeof instanceActionsApi.rescue>) {
  const inst = c.instance(req, "read_write");
  const errors = new FieldErrors();
  readDevices(c, inst, req.body.devices ?? {}, errors);
  errors.throwIfAny();
  if (c.busy(inst)) throw busyError();
  inst.status = "rebooting";
  inst._queue.push({ status: "running", at: c.now() + c.dur("rebooting"), patch: { _activeInterfaces: [] } });
  c.settleAll(inst);
  return {};
}

export const POWER_ROWS = [
  row(instanceActionsApi.boot, boot),
  row(instanceActionsApi.reboot, reboot),
  row(instanceActionsApi.shutdown, shutdown),
  row(instanceActionsApi.rescue, rescue),
];
