/**
 * How long each status lasts: shared by every route group (compute, images, databases). At `--speed 1` a duration
 * is as long as the real API's where the recordings show it (linodego's cassettes: the `duration` of each finished
 * event, and the time between a write and the first read of its end, by each answer's `Expires` header); `--speed`
 * multiplies them (the tests' emulators run at a thousandth or so, or on a clock they move). docs/spec-gaps.md
 * "Durations" gives the table with its sources.
 */

/**
 * How long each compute transition lasts at speed 1 (ms), as the real API's (docs/spec-gaps.md "Durations": the
 * recordings of linodego at HEAD, the median where there are several). `provisioning`: a create from an image
 * (or a backup) until its disks are made: its event `scheduled` for `scheduled`, then `started` for 49 s
 * (`compute_create` 41, 47, 51, 65 s); a create that boots is `booting` after it, as recorded. `booting`: `compute_boot` 24 s. `shutting_down`: `compute_shutdown` 28 s. `rebooting`
 * (no reboot recorded): a shutdown and a boot. `rebuilding` (not recorded): a create's deploy. `disk`: a disk's
 * create or resize (`disk_create` 17 s). `snapshot`: `compute_snapshot` 260 s. `cloning`: `compute_clone` 110 s.
 * `restoring`: `backups_restore` 19 s. `imagize`: an image captured from a disk, `creating` (`disk_imagize`
 * 144 s). `uploaded`: an uploaded image's `creating` once its data is in (available 31 to 46 s after the upload's
 * create, the data sent right after it). `scheduled`: how long a create's event is `scheduled` before it is
 * `started` (the first poll right after a create reads it so, the next, 15 s later, `started`). `migrating`
 * and `deleting` are not recorded: the emulator's own, kept.
 */
export const BASE_MS = {
  scheduled: 1000,
  provisioning: 50_000,
  booting: 24_000,
  rebooting: 52_000,
  shutting_down: 28_000,
  rebuilding: 50_000,
  migrating: 10_000,
  cloning: 110_000,
  restoring: 19_000,
  disk: 17_000,
  snapshot: 260_000,
  imagize: 144_000,
  uploaded: 30_000,
  deleting: 2000,
};

/**
 * How long a database cluster's transitions last at speed 1 (ms). `provisioning`: a create, 11 minutes (663 s:
 * the median of the `database_create` events recorded at HEAD, 560, 654, 657, 668, 902 and 1,716 s, is 662.5). `patching`:
 * the `updating` a patch holds, a minute (recorded at HEAD: MySQL 48 to 63 s, PostgreSQL 62 to 78 s between the
 * patch and the first read of `active`; linodego's database suites poll every 15 s, so they read `updating`
 * several times, as recorded). `updating`: an allow list's or a type's change (recorded in 2024: the
 * `database_update` events took 29 s and 61 s; a type change three times as long). `snapshot` and `restoring`:
 * no recording of their times, the emulator's own.
 */
export const DB_MS = { provisioning: 663_000, updating: 45_000, snapshot: 10_000, restoring: 10_000, patching: 60_000 };

/**
 * The speed `startEmulator` runs at when none is given: the tests' (the CLI's is 1). 0.01 when an instance create
 * (with its boot) took 8 s at speed 1; 74 s now (`provisioning` and `booting`), so 0.01 * 8 / 74: a create still
 * takes 80 ms, a boot 26 ms (30 before), a snapshot 281 ms (100), a database create 717 ms (300).
 */
export const TEST_SPEED = 0.01 * (8 / 74);

/** The emulator's speed, changeable at run time (tests): durations are multiplied by `speed`. */
export interface Timing {
  speed: number;
}

/** A duration at the current speed, in whole milliseconds. */
export const scaled = (ms: number, timing: Timing): number => Math.round(ms * timing.speed);
