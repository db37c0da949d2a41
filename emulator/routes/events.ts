import { eventsApi, type Event, type EventStatus } from "../../api/contract/events";
import type { ApiFamily, FamilyContext } from "../family";
import { notFound, paginate } from "../http";
import { rowsOf } from "../router";
import { apiTime, type EventRecord, type User } from "../state";

/**
 * The account's events (`/account/events`), as the real API serves them: compute-api.md lists the event kinds
 * and says how they are listed is "not shown", so the emulator follows the recordings (linodego's cassettes;
 * docs/spec-gaps.md "Events"; the rows are api/contract/events.ts). A list of the last 90 days, newest first,
 * paged, filtered by X-Filter (dotted names too: `entity.id`); each event's `status` and progress follow its
 * operation on the emulator's clock. `seen` marks every event up to one; `read` marks one. A restricted user
 * sees the events it caused. The events are the core state's (emulator/state.ts `Store.event` records them).
 */
export const eventsFamily: ApiFamily = { name: "events", register: (family) => family.router.serve(ROWS, eventsContext(family)) };

const RETAINED_MS = 90 * 24 * 3600_000;

/** Where an event is at `now`: its status, percent complete and duration (seconds). */
function progress(e: EventRecord, now: number): { status: EventStatus; percent: number | null; duration: number | null } {
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  const finish = e._finish;
  if (finish === null) return e._notification ? { status: "notification", percent: null, duration: null } : { status: "finished", percent: 100, duration: 0 };
  if (now >= finish && e._fails) return { status: "failed", percent: 0, duration: Math.round(seconds(finish - e._start)) };
  if (now >= finish) return { status: "finished", percent: 100, duration: Math.round(seconds(finish - e._start)) };
  if (e._notification) return { status: "notification", percent: null, duration: null };
  if (now < e._start) return { status: "scheduled", percent: 0, duration: null };
  const span = finish - e._start;
  const part = span > 0 ? Math.floor(((now - e._start) / span) * 100) : 99;
  return { status: "started", percent: Math.min(99, Math.max(0, part)), duration: Math.round(seconds(now - e._start) * 1e6) / 1e6 };
}

/** The API's view of an event at `now` (key order as recorded). */
export function eventView(e: EventRecord, now: number): Event {
  const { status, percent, duration } = progress(e, now);
  return {
    id: e.id,
    created: e.created,
    seen: e.seen,
    read: e.read,
    percent_complete: percent,
    // 0 once an operation is done, as recorded in 2024 (linodego's cassettes), but for a snapshot's, notifications and a
    // database's (docs/spec-gaps.md).
    time_remaining:
      status === "finished" && !e._notification && e._finish !== null && e.action !== "compute_snapshot" && !e.action.startsWith("database_") ? 0 : null,
    rate: null,
    duration,
    action: e.action,
    username: e.username,
    entity: e.entity,
    status,
    secondary_entity: e.secondary_entity,
    message: "",
    details: {},
  };
}

type EventsContext = ReturnType<typeof eventsContext>;

function eventsContext({ store, now }: FamilyContext) {
  return { store, now };
}

/** The events `user` may see: the last 90 days', its own if it is restricted; newest first. */
function visible({ store, now }: EventsContext, user: User): EventRecord[] {
  const since = apiTime(now() - RETAINED_MS);
  return store.data.events.filter((e) => e.created >= since && (!user.restricted || e.username === user.username)).reverse();
}

/** The visible event `eventId`, or 404. */
function one(c: EventsContext, { params, user }: { params: { eventId: number }; user: User }): EventRecord {
  const e = visible(c, user).find((x) => x.id === params.eventId);
  if (!e) throw notFound();
  return e;
}

const row = rowsOf<EventsContext>();

const ROWS = [
  row(eventsApi.list, (c, req) => {
    const at = c.now();
    return paginate(
      visible(c, req.user).map((e) => eventView(e, at)),
      req,
    );
  }),
  row(eventsApi.get, (c, req) => eventView(one(c, req), c.now())),
  row(eventsApi.seen, (c, req) => {
    const upTo = one(c, req).id;
    for (const e of visible(c, req.user)) if (e.id <= upTo) e.seen = true;
    return {};
  }),
  row(eventsApi.read, (c, req) => {
    one(c, req).read = true;
    return {};
  }),
];
