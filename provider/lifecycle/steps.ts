import { z } from "zod";
import { pause } from "./cancel";
import { ApiError, type ApiClient } from "../transport/client";
import { updateBody } from "../model/mapping";
import type { ApiRecord, Props, ResourceSpec, StatusWait } from "../model/table";

export type { StatusWait };
import { waitFor } from "./wait";

/** A record's `status`, if it has one. */
const statusOf = (record: unknown): unknown => {
  const r = z.object({ status: z.unknown() }).safeParse(record);
  return r.success ? r.data.status : undefined;
};

/**
 * The steps the hooks of several resources take, written once: a line for the user, a wait for a status,
 * the default update (one PUT), and a request sent again while the API refuses it for now. An instance's
 * power actions, which its children use too, are in resources/instance-power.ts.
 */

/** A line the user reads (the CLI shows a provider's stderr as info lines). */
export const say = (line: string): void => void process.stderr.write(`pulumi-compute: ${line}\n`);

/** Polls `path` until the wait is done (`who` names the record in messages: "disk 12"); returns the record then. */
export async function waitStatus<Api>(c: ApiClient, path: string, who: string, w: StatusWait<Api>, timeoutMs: number): Promise<Api> {
  const rec = await waitFor<Api>({
    client: c,
    path,
    what: `${who} ${w.what}`,
    done: (a) => w.done(a),
    failed: (a) => w.failed?.(a),
    maxMs: w.maxMs,
    progressEveryMs: w.progressEveryMs,
    timeoutMs,
    describe: (a) => `status ${String(statusOf(a))}`,
  });
  // waitFor returns undefined only when told that a record gone is done (a delete): never here.
  if (rec === undefined) throw new Error(`${who} is gone while waiting ${w.what}`);
  return rec;
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
  if (!sent.length) return { api: await c.get<Api>(path), sent };
  const body = opts.body ? opts.body(news, sent) : updateBody(spec, news, sent);
  return { api: (await c.request<Api>("PUT", path, { body })).body, sent };
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
