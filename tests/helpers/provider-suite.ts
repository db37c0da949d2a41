import type { Emulator, EmulatorOptions } from "../../emulator/server";
import type { ResourceProvider } from "../../provider/lifecycle/hooks";
import { resetSession } from "../../provider/session";
import { emulator, get, list, useEmulator } from "./emulator";
import { waitUntil } from "./wait";

/** The emulator of a provider suite's running test, and a way to start another in its place. */
export interface SuiteEmulator extends Emulator {
  /** Closes the test's emulator and starts one with `options` in its place, the provider pointed at it. */
  restart(options?: EmulatorOptions): Promise<void>;
}

/**
 * The setup of a suite that runs the provider in this process against the emulator. Before each test (or once
 * before the file's tests, with `once`) it starts an emulator with `options`, resets the provider's session and
 * points its settings at the emulator (`useEmulator`); after, it closes the emulator and resets the session.
 * Registers the hooks where it is called (the file, or a `describe`). The answer reads through to the emulator
 * of the running test.
 */
export function useProviderSuite(opts: { options?: EmulatorOptions; once?: boolean } = {}): SuiteEmulator {
  let current: Emulator | undefined;
  const emu = (): Emulator => {
    if (!current) throw new Error("the provider suite's emulator is started in its beforeEach or beforeAll");
    return current;
  };
  const start = async (options: EmulatorOptions = {}) => {
    current = await emulator(options);
    await useEmulator(current);
  };
  const stop = async () => {
    await current?.close();
    current = undefined;
    resetSession();
  };
  (opts.once ? beforeAll : beforeEach)(() => start(opts.options));
  (opts.once ? afterAll : afterEach)(stop);
  return {
    get url() {
      return emu().url;
    },
    get token() {
      return emu().token;
    },
    get accounts() {
      return emu().accounts;
    },
    get store() {
      return emu().store;
    },
    get timing() {
      return emu().timing;
    },
    get faults() {
      return emu().faults;
    },
    get rateLimit() {
      return emu().rateLimit;
    },
    get log() {
      return emu().log;
    },
    close: () => emu().close(),
    restart: async (options) => {
      await stop();
      await start(options);
    },
  };
}

/** Checks `news` (no failure expected) and creates the resource: its id and outputs, and the checked inputs. */
export async function make(p: ResourceProvider, news: Record<string, unknown>) {
  const r = await p.check({}, news);
  expect(r.failures).toEqual([]);
  return { ...(await p.create(r.inputs)), inputs: r.inputs };
}

/** Checks `news` (against `olds`) as the resource named `name` of the program; no failure expected: the checked inputs. */
export async function checked(p: ResourceProvider, news: Record<string, unknown>, olds: Record<string, unknown> = {}, name = "r") {
  const r = await p.check(olds, { __resourceName: name, ...news });
  expect(r.failures).toEqual([]);
  return r.inputs;
}

/** Checks `news` against `outs` and diffs them: the diff, and the update that would follow. */
export async function change(p: ResourceProvider, id: string, outs: Record<string, unknown>, news: Record<string, unknown>) {
  const r = await p.check(outs, news);
  expect(r.failures).toEqual([]);
  const d = await p.diff(id, outs, r.inputs);
  return { diff: d, update: () => p.update(id, outs, r.inputs) };
}

/**
 * What a suite reads of an instance through the API: its status (and a wait for one), its disks and its
 * profiles.
 */
export function instanceReads(emu: Emulator) {
  const status = async (computeId: string) => (await get(emu, `/compute/instances/${computeId}`)).status;
  return {
    status,
    statusIs: (computeId: string, want: string) => waitUntil(async () => (await status(computeId)) === want, { what: `instance ${computeId} ${want}` }),
    disksOf: (computeId: string) => list(emu, `/compute/instances/${computeId}/disks`),
    configsOf: (computeId: string) => list(emu, `/compute/instances/${computeId}/configs`),
  };
}

/** The requests the emulator received (paths without the `/v4` prefix). */
export const apiRequests = (emu: Emulator) => emu.log.map((l) => ({ ...l, path: l.path.replace(/^\/v4/, "") }));
/** The POSTs the emulator received whose path (without the `/v4` prefix) matches `pattern`. */
export const posts = (emu: Emulator, pattern: RegExp) => apiRequests(emu).filter((l) => l.method === "POST" && pattern.test(l.path));

/** What the provider says on stderr while `fn` runs. */
export async function said(fn: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines.join("");
}
