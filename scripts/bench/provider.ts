/** The provider in this process against an emulator (sections 1 and 2), and values the benchmark's resources take. */
import * as path from "node:path";
import type { Emulator } from "../../emulator/server";
import type { ResourceProvider } from "../../provider/lifecycle/hooks";
import { resetSession } from "../../provider/session";
import { ed25519Key } from "../keys";
import { ROOT } from "./common";

export const PASS = "B3nch-R00t-Passw0rd!";

export const publicKey = (i: number) => ed25519Key(i, `bench-${i}`);

/** Loads the provider as the dynamic provider process does, configured for this emulator. */
export async function providerFor(emu: Emulator): Promise<Record<string, ResourceProvider>> {
  const mod = require(path.join(ROOT, "dist", "provider")) as typeof import("../../provider");
  resetSession();
  await mod.configure({ config: { get: (k: string) => ({ "compute:apiUrl": emu.url, "compute:token": emu.token })[k] } });
  return mod.providers;
}
