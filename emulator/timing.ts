/**
 * How long each status lasts: shared by every route group (compute, images, databases). At `--speed 1` a duration
 * is as long as the real API's where the recordings show it (linodego's cassettes: the `duration` of each finished
 * event, and the time between a write and the first read of its end, by each answer's `Expires` header); `--speed`
 * multiplies them (the tests' emulators run at 0.01 or less, or on a clock they move). docs/spec-gaps.md
 * "Durations" gives the table with its sources.
 */

/**
 * How long each compute transition lasts at speed 1 (ms). Image captures use `provisioning`. `scheduled`: how long
 * a create's event is `scheduled` before it is `started` (today's API: the first poll right after a create reads it
 * so, the next, 15 s later, `started`; under a second here). The others are the emulator's shorter ones, kept
 * (docs/spec-gaps.md "Durations": the recorded ones are longer).
 */
export const BASE_MS = {
  scheduled: 1000,
  provisioning: 8000,
  booting: 3000,
  rebooting: 4000,
  shutting_down: 3000,
  rebuilding: 8000,
  migrating: 10000,
  cloning: 8000,
  restoring: 8000,
  disk: 3000,
  snapshot: 10000,
  deleting: 2000,
};

/**
 * How long a database cluster's transitions last at speed 1 (ms). `patching`: the `updating` a patch holds, a
 * minute (recorded at HEAD: MySQL 48 to 63 s, PostgreSQL 62 to 78 s between the patch and the first read of
 * `active`; linodego's database suites poll every 15 s, so they read `updating` several times, as recorded).
 * `updating`: an allow list's or a type's change (recorded in 2024: the `database_update` events took 29 s and
 * 61 s; a type change three times as long). `provisioning` stays 30 s (the real API's create takes 9 to 15
 * minutes: 560 to 902 s recorded, one of 1,716 s). `snapshot` and `restoring`: no recording of their times.
 */
export const DB_MS = { provisioning: 30_000, updating: 45_000, snapshot: 10_000, restoring: 10_000, patching: 60_000 };

/** The emulator's speed, changeable at run time (tests): durations are multiplied by `speed`. */
export interface Timing {
  speed: number;
}

/** A duration at the current speed, in whole milliseconds. */
export const scaled = (ms: number, timing: Timing): number => Math.round(ms * timing.speed);
