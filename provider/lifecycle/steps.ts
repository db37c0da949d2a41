import { pause } from "./cancel";
import { ApiError, type ApiClient } from "./client";
import { act } from "./lost-answers";
import { updateBody } from "./mapping";
import type { ApiRecord, Props, ResourceSpec } from "./table";
import { waitFor } from "./wait";

/**
 * The steps the hooks of several resources take, written once: a wait for a status, the default update
 * (one PUT), a power action of an instance, and a power cycle around a change the API makes only while
 * the instance is shut down.
 */

/** A line the user reads (the CLI shows a provider's stderr as info lines). */
export const say = (line: string): void => void process.stderr.write(`pulumi-compute: ${line}\n`);

/** An instance's path; the parent of disks, profiles and interfaces. */
export const instancePath = (computeId: unknown): string => `/compute/instances/${encodeURIComponent(String(computeId))}`;
/** An instance type's path (its disk allowance). */
export const typePath = (type: unknown): string => `/compute/types/${encodeURIComponent(String(type))}`;

/** Waiting for a status after create or update: done, or failed for good (with a message). */
export interface StatusWait<Api> {
  /** "to be ready", for messages. */
  what: string;
  done: (api: Api) => boolean;
  failed?: (api: Api) => string | undefined;
  /** Polling cap (ms): 2 s by default; a database that takes minutes polls every 10 s. */
  maxMs?: number;
  /** How often a progress line is printed (ms): 10 s by default. */
  progressEveryMs?: number;
}

/** Polls `path` until the wait is done (`who` names the record in messages: "disk 12"); returns the record then. */
export async function waitStatus<Api>(c: ApiClient, path: string, who: string, w: StatusWait<Api>, timeoutMs: number): Promise<Api> {
  const rec = await waitFor<Api>({
    client: c,
    path,
    what: `${who} ${w.what}`,
    done: w.done,
    failed: w.failed,
    maxMs: w.maxMs,
    progressEveryMs: w.progressEveryMs,
    timeoutMs,
    describe: (a) => `status ${String((a as { status?: unknown }).status)}`,
  });
  // waitFor returns undefined only when told that a record gone is done (a delete): never here.
  return rec as Api;
}

/**
 * The default update: one PUT of the changed fields the API takes (`only`, else every changed field but the
 * control ones), with `clearTo` for removed ones; a GET when nothing is to be sent. Returns the record and
 * the fields sent.
 */
export async function putChanged<Api extends ApiRecord>(
  c: ApiClient,
  spec: ResourceSpec<Api>,
  id: string,
  olds: Props,
  news: Props,
  changed: string[],
  opts: { only?: string[]; body?: (news: Props, sent: string[]) => Props } = {},
): Promise<{ api: Api; sent: string[] }> {
  const sent = changed.filter((f) => (opts.only ? opts.only.includes(f) : !spec.fields.find((x) => x.name === f)?.control));
  const path = spec.itemPath(id, olds);
  if (!sent.length) return { api: (await c.get<Api>(path)) as Api, sent };
  const body = opts.body ? opts.body(news, sent) : updateBody(spec, news, sent);
  return { api: (await c.request<Api>("PUT", path, { body })).body, sent };
}

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
  await act(c, `${path}/${action}`, body, async () => UNDER_WAY[action].includes(((await c.get<InstanceStatus>(path)) as InstanceStatus).status));
  return waitStatus<T>(c, path, `instance ${String(computeId)}`, { what: opts.why ?? `to be ${want}`, done: (i) => i.status === want }, opts.timeoutMs);
}

/**
 * A change the API makes only while the instance is shut down (a disk resize, a password reset): a running
 * instance is shut down, `change` runs, and the instance is booted again whether the change went through or
 * was refused. `seen` gets the instance record each time it is read (what a failure keeps).
 */
export async function powerCycle<T>(
  c: ApiClient,
  computeId: string | number,
  opts: { timeoutMs: number; why: string; seen?: (instance: InstanceStatus) => void },
  change: () => Promise<T>,
): Promise<T> {
  const seen = opts.seen ?? (() => undefined);
  const now = (await c.get<InstanceStatus>(instancePath(computeId))) as InstanceStatus;
  seen(now);
  const wasRunning = now.status === "running";
  if (wasRunning) seen(await power(c, computeId, "shutdown", { timeoutMs: opts.timeoutMs, why: `to shut down for ${opts.why}` }));
  try {
    return await change();
  } finally {
    if (wasRunning) seen(await power(c, computeId, "boot", { timeoutMs: opts.timeoutMs, why: `to boot after ${opts.why}` }));
  }
}

/**
 * Sends a request the API refuses for a while (a delete while a clone of the instance is under way, or
 * while interfaces of deleting instances still use a subnet): while `waitable` says the refusal will pass,
 * it is sent again (every 1 to 5 s, a line saying why), until `timeoutMs`; any other failure is thrown.
 */
export async function untilAccepted<T>(
  what: string,
  timeoutMs: number,
  send: () => Promise<T>,
  waitable: (err: ApiError) => boolean | Promise<boolean>,
): Promise<T> {
  const start = Date.now();
  let told = false;
  for (let i = 0; ; i++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 400 || Date.now() - start >= timeoutMs || !(await waitable(err))) throw err;
      if (!told) say(`${what}: the API refuses for now (${err.reasons}); waiting, then trying again`);
      told = true;
      await pause(Math.min(1000 * (i + 1), 5000), `waiting until the API accepts: ${what}`);
    }
  }
}

/**
 * Whether the instances using a subnet are all going away (deleting, or gone): a delete of the subnet, or
 * of its VPC, is then worth waiting for (their interfaces go with them).
 */
export async function usersLeaving(c: ApiClient, computes: ReadonlyArray<{ id: number }>): Promise<boolean> {
  for (const i of computes) {
    const inst = await c.get<InstanceStatus>(instancePath(i.id), true);
    if (inst && inst.status !== "deleting") return false;
  }
  return true;
}
