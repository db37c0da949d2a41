import type { ApiClient } from "../client";
import { act } from "../resource";
import { waitFor } from "../wait";

export type PowerAction = "boot" | "reboot" | "shutdown";

/** The statuses that show the action was taken (when its answer was lost). */
const UNDER_WAY: Record<PowerAction, string[]> = { boot: ["booting", "running"], reboot: ["rebooting"], shutdown: ["shutting_down", "offline"] };

/**
 * Boots (with a profile when given), reboots or shuts down an instance, and waits until it runs (or is
 * offline). A lost answer is recognised from the instance's status before anything is sent again.
 * Returns the instance as it is then. Used by Instance, Disk (a resize) and Config (`booted`).
 */
export async function power<T extends { status: string }>(
  c: ApiClient,
  computeId: string | number,
  action: PowerAction,
  opts: { configId?: string | number; timeoutMs: number; why?: string },
): Promise<T> {
  const path = `/compute/instances/${String(computeId)}`;
  const want = action === "shutdown" ? "offline" : "running";
  const body = action !== "shutdown" && opts.configId !== undefined ? { config_id: Number(opts.configId) } : {};
  await act(c, `${path}/${action}`, body, async () => UNDER_WAY[action].includes((await c.get<{ status: string }>(path))!.status));
  return (await waitFor<T>({
    client: c,
    path,
    what: `instance ${String(computeId)} ${opts.why ?? `to be ${want}`}`,
    done: (i) => i.status === want,
    timeoutMs: opts.timeoutMs,
    describe: (i) => `status ${i.status}`,
  }))!;
}
