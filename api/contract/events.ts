import { z } from "zod";
import { apiTime, int, page, pageQuery, recordId } from "./common";
import { empty, endpoint, ro } from "./endpoint";

/**
 * The account's events. compute-api.md lists the event kinds of some operations and says "The shape of an event
 * record, how events are listed or delivered ...: not shown"; the other documents say the same of theirs. So these
 * rows are the real API's, as linodego's recorded conversations show them (renamed: `linode_*` actions are
 * `compute_*`, the entity type `linode` is `compute`): docs/spec-gaps.md "Events".
 */

/** What an event is about (`entity`) or also touches (`secondary_entity`): its id (an image's is a string), type, label and API path (under `/v4`). */
export const eventEntityRecord = z.strictObject({
  id: z.union([int, z.string()]),
  type: z.string(),
  label: z.string().nullable(),
  url: z.string(),
});

/** An event's status (the real API's; the emulator's only `failed` is an image upload whose window closes without its data). */
export const EVENT_STATUSES = ["scheduled", "started", "finished", "failed", "notification"] as const;

/**
 * What today's real API adds at the end of every event (recorded since 2025: linodego HEAD's TestAccountEvents_List,
 * TestEventPoller_Secondary, TestInstance_Clone and others, 182 events): `details`, `{}` in every recording.
 */
export const eventDetails = z.strictObject({});

/**
 * An event, in the recorded order of its fields. `action` is an event kind (compute-api.md "Events": `vpc_create`,
 * `compute_config_update`, ...; the others are the real API's); `percent_complete`, `time_remaining` and `duration`
 * follow its operation, and are null for a notification; `rate` is null but while a clone runs (the real API's);
 * `details` is today's API's (`{}`).
 */
export const event = z.strictObject({
  id: recordId,
  created: apiTime,
  seen: z.boolean(),
  read: z.boolean(),
  percent_complete: int.nullable(),
  time_remaining: z.number().nullable(),
  rate: z.string().nullable(),
  duration: z.number().nullable(),
  action: z.string(),
  username: z.string(),
  entity: eventEntityRecord.nullable(),
  status: z.enum(EVENT_STATUSES),
  secondary_entity: eventEntityRecord.nullable(),
  message: z.string(),
  details: eventDetails,
});

const source = "recorded";
const scope = ro("events");

/** The real API's events endpoints (recorded); the marks answer `{}`. */
export const eventsApi = {
  list: endpoint({
    method: "GET",
    path: "/account/events",
    source,
    scope,
    auth: "required",
    summary: "List the account's events of the last 90 days, newest first",
    query: pageQuery,
    answer: page(event),
  }),
  get: endpoint({ method: "GET", path: "/account/events/{eventId}", source, scope, auth: "required", summary: "View an event", answer: event }),
  seen: endpoint({
    method: "POST",
    path: "/account/events/{eventId}/seen",
    source,
    scope,
    auth: "required",
    summary: "Mark every event up to this one as seen",
    answer: empty,
  }),
  read: endpoint({
    method: "POST",
    path: "/account/events/{eventId}/read",
    source,
    scope,
    auth: "required",
    summary: "Mark an event as read",
    answer: empty,
  }),
};

export type Event = z.output<typeof event>;
export type EventEntity = z.output<typeof eventEntityRecord>;
export type EventStatus = (typeof EVENT_STATUSES)[number];
