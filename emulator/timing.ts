/** How fast status changes run: shared by every route group (compute, images, databases). */

/** How long each compute transition lasts at speed 1 (ms); `--speed` multiplies them. Image captures use `provisioning`. */
export const BASE_MS = {
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

/** The emulator's speed, changeable at run time (tests): durations are multiplied by `speed`. */
export interface Timing {
  speed: number;
}

/** A duration at the current speed, in whole milliseconds. */
export const scaled = (ms: number, timing: Timing): number => Math.round(ms * timing.speed);
