import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";

/**
 * The emulator's version: the pulumi-compute package's it runs from (found upwards from this file, which runs from
 * emulator/ in the tests and from dist/emulator/ built), read once.
 */
export const EMULATOR_VERSION = ((): string => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = z.object({ name: z.string(), version: z.string() }).safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (pkg.success && pkg.data.name === "pulumi-compute") return pkg.data.version;
  }
  return "unknown";
})();
