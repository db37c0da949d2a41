import type { ApiFamily, FamilyContext } from "../family";
import { notFound, paginate } from "../http";
import { type SignedInContext } from "../router";
import { apiTime, type EventRecord } from "../state";

/**
 * The account's events (`/account/events`), as the real API serves them: compute-api.md lists the event kinds
 * and says how they are listed is "not shown", so the emulator follows the recordings (linodego's cassettes;
 * docs/spec-gaps.md "Events"). A list of the last 90 days, newest first, paged, filtered by X-Filter (dotted
 * names too: `entity.id`); each event's `status` and progress follow its operation on the emulator's clock.
 * `seen` marks every event up to one; `read` marks one. A restricted user sees the events it caused.
 */
export const eventsFamily: ApiFamily = { name: "events", register: registerEventRoutes };

const ro = { group: "events", level: "read_only" } as const;
const RETAINED_MS = 90 * 24 * 3600_000;

/** The API's view of an event at `now` (key order as recorded). */
export function eventView(e: EventRecord, now: number) {
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  let status: string;
  let percent: number | null;
  let duration: number | null;
  if (e._finish === null && !e._notification) {
    [status, percent, duration] = ["finished", 100, 0];
  } else if (e._finish !== null && now >= e._finish) {
    [status, percent, duration] = ["finished", 100, Math.round(seconds(e._finish - e._start))];
  } else if (e._notification) {
    [status, percent, duration] = ["notification", null, null];
  } else if (now < e._start) {
    [status, percent, duration] = ["scheduled", 0, null];
  } else {
    const span = e._finish! - e._start;
    const part = span > 0 ? Math.floor(((now - e._start) / span) * 100) : 99;
    [status, percent, duration] = ["started", Math.min(99, Math.max(0, part)), Math.round(seconds(now - e._start) * 1e6) / 1e6];
  }
  return {
    id: e.id,
    created: e.created,
    seen: e.seen,
    read: e.read,
    percent_complete: percent,
    // 0 once an operation is done, as recorded in 2024 (linodego's cassettes), but for a snapshot's and notifications.
    time_remaining: status === "finished" && !e._notification && e._finish !== null && e.action !== "compute_snapshot" ? 0 : null,
    rate: null,
    duration,
    action: e.action,
    username: e.username,
    entity: e.entity,
    status,
    secondary_entity: e.secondary_entity,
    message: "",
  };
}

function registerEventRoutes({ router, store, now }: FamilyContext): void {
  /** The events the caller may see: the last 90 days', its own if it is restricted; newest first. */
  const visible = (ctx: SignedInContext): EventRecord[] => {
    const since = apiTime(now() - RETAINED_MS);
    const user = ctx.user;
    return store.data.events.filter((e) => e.created >= since && (!user.restricted || e.username === user.username)).reverse();
  };
  const one = (ctx: SignedInContext): EventRecord => {
    const e = visible(ctx).find((x) => String(x.id) === ctx.params.eventId);
    if (!e) throw notFound();
    return e;
  };

  router.add("GET", "/account/events", { scope: ro, auth: "required" }, (ctx) => {
    const at = now();
    return paginate(
      visible(ctx).map((e) => eventView(e, at)),
      ctx,
    );
  });
  router.add("GET", "/account/events/{eventId}", { scope: ro, auth: "required" }, (ctx) => eventView(one(ctx), now()));
  router.add("POST", "/account/events/{eventId}/seen", { scope: ro, auth: "required" }, (ctx) => {
    const upTo = one(ctx).id;
    for (const e of visible(ctx)) if (e.id <= upTo) e.seen = true;
    return {};
  });
  router.add("POST", "/account/events/{eventId}/read", { scope: ro, auth: "required" }, (ctx) => {
    one(ctx).read = true;
    return {};
  });
}
