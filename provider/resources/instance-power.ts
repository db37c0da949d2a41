import { ApiError, type ApiClient } from "../transport/client";
import { act } from "../lifecycle/lost-answers";
import { waitStatus } from "../lifecycle/steps";

/**
 * An instance's path, status and power actions: what the Instance's steps use, and its children's (a disk
 * resized or a profile's interface changed inside a power cycle, a delete refused while it runs).
 */

/** An instance's path; the parent of disks, profiles and interfaces. */
export const instancePath = (computeId: unknown): string => `/compute/instances/${encodeURIComponent(String(computeId))}`;
export type PowerAction = "boot" | "reboot" | "shutdown";

/** Whether the instance runs now (false when it is gone). */
export const isRunning = async (c: ApiClient, computeId: string): Promise<boolean> =>
  (await c.get<InstanceStatus>(instancePath(computeId), true))?.status === "running";

/** Whether a delete was refused because the instance runs with what is deleted (its profile, a disk of it). */
export const refusedWhileRunning = async (c: ApiClient, computeId: string, err: unknown): Promise<boolean> =>
  err instanceof ApiError && err.status === 400 && (await isRunning(c, computeId));

/** The statuses that show the action was taken (when its answer was lost). */
const UNDER_WAY: Record<PowerAction, string[]> = { boot: ["booting", "running"], reboot: ["rebooting"], shutdown: ["shutting_down", "offline"] };

export interface InstanceStatus {
  status: string;
}

/**
 * Boots (with a profile when given), reboots or shuts down an instance, and waits until it runs (or is
 * offline). A lost answer is recognised from the instance's status before anything is sent again.
 * Returns the instance as it is then.
 */
export async function power<T extends InstanceStatus>(
  c: ApiClient,
  computeId: string | number,
  action: PowerAction,
  opts: { configId?: string | number; timeoutMs: number; why?: string },
): Promise<T> {
  const path = instancePath(computeId);
  const want = action === "shutdown" ? "offline" : "running";
  const body = action !== "shutdown" && opts.configId !== undefined ? { config_id: Number(opts.configId) } : {};
  await act(c, `${path}/${action}`, body, async () => UNDER_WAY[action].includes((await c.get<InstanceStatus>(path)).status));
  return waitStatus<T>(c, path, `instance ${String(computeId)}`, { what: opts.why ?? `to be ${want}`, done: (i) => i.status === want }, opts.timeoutMs);
}

/**
 * A change the API makes only while the instance is shut down (a disk resize, a password reset): a running
 * instance is shut down, `change` runs, and the instance is booted again whether the change went through or
 * was refused. `seen` gets the instance record each time it is read (what a failure keeps).
 */
export async function powerCycle<T, I extends InstanceStatus = InstanceStatus>(
  c: ApiClient,
  computeId: string | number,
  opts: { timeoutMs: number; why: string; seen?: (instance: I) => void },
  change: () => Promise<T>,
): Promise<T> {
  const seen = opts.seen ?? (() => undefined);
  const now = await c.get<I>(instancePath(computeId));
  seen(now);
  const wasRunning = now.status === "running";
  if (wasRunning) seen(await power<I>(c, computeId, "shutdown", { timeoutMs: opts.timeoutMs, why: `to shut down for ${opts.why}` }));
  try {
    return await change();
  } finally {
    if (wasRunning) seen(await power<I>(c, computeId, "boot", { timeoutMs: opts.timeoutMs, why: `to boot after ${opts.why}` }));
  }
}
