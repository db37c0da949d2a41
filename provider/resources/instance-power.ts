import { API } from "../../api/contract";
import { pathOf, type AnyEndpoint, type BodyIn, type PathArgs } from "../../api/contract/endpoint";
import type { Instance } from "../../api/contract/instances";
import { ApiError, type ApiClient } from "../transport/client";
import type { Props } from "../model/table";
import { act } from "../lifecycle/lost-answers";
import { waitStatus } from "../lifecycle/steps";

/**
 * An instance's path, status and power actions: what the Instance's steps use, and its children's (a disk
 * resized or a profile's interface changed inside a power cycle, a delete refused while it runs).
 */

/** An instance's path (api/contract/instances.ts `INSTANCE_PATH`); the parent of disks, profiles and interfaces. */
export const instancePath = (computeId: string | number): string => pathOf(API.instances.get, { computeId });
export type PowerAction = "boot" | "reboot" | "shutdown";

/** The instance, or undefined when it is gone. */
export const findInstance = (c: ApiClient, computeId: string | number): Promise<Instance | undefined> => c.find(API.instances.get, { params: { computeId } });

/** The instance (an error when it is gone). */
export const readInstance = (c: ApiClient, computeId: string | number): Promise<Instance> => c.call(API.instances.get, { params: { computeId } });

/**
 * POSTs an action of the contract (`e`, its path filled with `params`, its body as the contract types it) through
 * the lost-answer protocol (provider/lifecycle/lost-answers.ts `act`): when its answer is lost, `applied` tells
 * from the resource whether it took effect.
 */
export const actOn = <E extends AnyEndpoint>(
  c: ApiClient,
  e: E,
  params: PathArgs<E>,
  body: BodyIn<E> & Props,
  applied?: () => Promise<boolean>,
): Promise<void> => act(c, pathOf(e, params), body, applied);

/** Whether the instance runs now (false when it is gone). */
export const isRunning = async (c: ApiClient, computeId: string): Promise<boolean> => (await findInstance(c, computeId))?.status === "running";

/** Whether a delete was refused because the instance runs with what is deleted (its profile, a disk of it). */
export const refusedWhileRunning = async (c: ApiClient, computeId: string, err: unknown): Promise<boolean> =>
  err instanceof ApiError && err.status === 400 && (await isRunning(c, computeId));

/** The statuses that show the action was taken (when its answer was lost). */
const UNDER_WAY: Record<PowerAction, readonly Instance["status"][]> = {
  boot: ["booting", "running"],
  reboot: ["rebooting"],
  shutdown: ["shutting_down", "offline"],
};

/** The action's row of the contract. */
const ROWS = { boot: API.instanceActions.boot, reboot: API.instanceActions.reboot, shutdown: API.instanceActions.shutdown } as const;

/**
 * Boots (with a profile when given), reboots or shuts down an instance, and waits until it runs (or is
 * offline). A lost answer is recognised from the instance's status before anything is sent again.
 * Returns the instance as it is then.
 */
export async function power(
  c: ApiClient,
  computeId: string | number,
  action: PowerAction,
  opts: { configId?: string | number; timeoutMs: number; why?: string },
): Promise<Instance> {
  const want = action === "shutdown" ? "offline" : "running";
  const applied = async () => UNDER_WAY[action].includes((await readInstance(c, computeId)).status);
  if (action === "shutdown") await actOn(c, ROWS.shutdown, { computeId }, {}, applied);
  else await actOn(c, ROWS[action], { computeId }, opts.configId === undefined ? {} : { config_id: Number(opts.configId) }, applied);
  return waitStatus<Instance>(
    c,
    instancePath(computeId),
    `instance ${String(computeId)}`,
    { what: opts.why ?? `to be ${want}`, done: (i) => i.status === want },
    opts.timeoutMs,
  );
}

/**
 * A change the API makes only while the instance is shut down (a disk resize, a password reset): a running
 * instance is shut down, `change` runs, and the instance is booted again whether the change went through or
 * was refused. `seen` gets the instance record each time it is read (what a failure keeps).
 */
export async function powerCycle<T>(
  c: ApiClient,
  computeId: string | number,
  opts: { timeoutMs: number; why: string; seen?: (instance: Instance) => void },
  change: () => Promise<T>,
): Promise<T> {
  const seen = opts.seen ?? (() => undefined);
  const now = await readInstance(c, computeId);
  seen(now);
  const wasRunning = now.status === "running";
  if (wasRunning) seen(await power(c, computeId, "shutdown", { timeoutMs: opts.timeoutMs, why: `to shut down for ${opts.why}` }));
  try {
    return await change();
  } finally {
    if (wasRunning) seen(await power(c, computeId, "boot", { timeoutMs: opts.timeoutMs, why: `to boot after ${opts.why}` }));
  }
}
