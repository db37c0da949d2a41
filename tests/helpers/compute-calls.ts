import { BASE_MS } from "../../emulator/routes/compute";
import { call, useClockedEmulator } from "./emulator";

/** What the emulator's compute suites (tests/integration/emulator-compute-*.test.ts) share. */

/** A root password strong enough for the API. */
export const PASS = "Str0ng-Passw0rd!";

/** An instance's path. */
export const I = (id: number) => `/compute/instances/${id}`;

/** The fields a 400 answer names. */
export const fields = (r: { body: any }) => r.body.errors.map((e: any) => e.field);

/**
 * The suite's emulator, one per test on a clock the test moves (speed 1: transitions take BASE_MS), and
 * calls on it. Registers the suite's beforeEach and afterEach.
 */
export function useComputeEmulator() {
  const { emu, tick } = useClockedEmulator();
  const create = (body: Record<string, unknown>, token?: string) => call(emu(), "POST", "/compute/instances", { body, token });
  /** An instance deployed from an image, running (the clock moved past its provisioning and its boot). */
  const deployed = async (extra: Record<string, unknown> = {}) => {
    const r = await create({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS, ...extra });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    tick(BASE_MS.provisioning + BASE_MS.booting);
    return r.body;
  };
  /** A GET's body, whatever its status. */
  const get = async (path: string) => (await call(emu(), "GET", path)).body;
  return { emu, tick, create, deployed, get };
}
