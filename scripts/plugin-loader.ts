/**
 * Both ends of the plugin executable's code cache (scripts/package-plugin.ts).
 *
 * - In the single executable this file is the main script: it runs the bundled plugin, an asset of the
 *   executable (`plugin.js`), compiled with V8's code cache of it (`plugin.cache`) when the executable carries
 *   one. The cache holds the bytecode of every function the plugin ran until it printed its port, so a start
 *   compiles almost nothing (a start without it spends most of its time compiling: docs/plugin-debugging.md).
 *   V8 checks the cache against the source, its own version and its flags; a cache it refuses is ignored (the
 *   script is compiled as without one).
 * - At build time (`node plugin-loader.js <bundle> <cache>`, by the runtime the executable is made of) it
 *   starts the bundled plugin in this process, as the engine would, and writes the cache when the port is
 *   printed. With `--predictable --random-seed` (flags V8 leaves out of the cache's check) the same bundle
 *   gives the same bytes, as the release requires.
 *
 * Node's own `useCodeCache` keeps only what compiling the script compiles eagerly (about a tenth of this), and
 * its bytes differ from build to build.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";

/** The asset names in the executable. */
export const ASSETS = { script: "plugin.js", cache: "plugin.cache" } as const;

/** What became of the cache, for provider/plugin/rpc-times.ts's start line (the same key there). */
const CODE_CACHE = Symbol.for("pulumi-compute.codeCache");

type Main = (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;

/** The bundled plugin as a CommonJS module's function: the same text when the cache is made and when it is used. */
export function compile(source: string, filename: string, cachedData?: Uint8Array): vm.Script {
  const body = source.startsWith("#!") ? `//${source.slice(2)}` : source;
  return new vm.Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, { filename, cachedData });
}

function run(script: vm.Script, filename: string): void {
  (script.runInThisContext() as Main)(module.exports, require, module, filename, path.dirname(filename));
}

/** In the single executable: the plugin from its assets. */
function start(sea: typeof import("node:sea")): void {
  let cachedData: Uint8Array | undefined;
  try {
    cachedData = new Uint8Array(sea.getRawAsset(ASSETS.cache));
  } catch {
    // An executable for another platform than the one that built it carries no cache.
  }
  const script = compile(sea.getAsset(ASSETS.script, "utf8"), __filename, cachedData);
  (globalThis as { [CODE_CACHE]?: string })[CODE_CACHE] = !cachedData ? "none" : script.cachedDataRejected ? "refused" : "used";
  run(script, __filename);
}

/** At build time: start the plugin, and write its code cache when it prints its port. */
function makeCache(bundle: string, out: string): void {
  const script = compile(readFileSync(bundle, "utf8"), bundle);
  process.stdout.write = () => {
    writeFileSync(out, script.createCachedData());
    process.exit(0);
  };
  setTimeout(() => {
    console.error(`plugin-loader: ${bundle} printed no port within 60 s`);
    process.exit(1);
  }, 60_000).unref();
  // As the engine starts it: an engine address (never called before the port is printed).
  process.argv = [process.argv[0], bundle, "127.0.0.1:1"];
  run(script, bundle);
}

const sea = ((): typeof import("node:sea") | undefined => {
  try {
    const m = require("node:sea") as typeof import("node:sea");
    return m.isSea() ? m : undefined;
  } catch {
    return undefined; // Node.js without single executables
  }
})();
if (sea) start(sea);
else if (require.main === module) {
  const [bundle, out] = process.argv.slice(2);
  if (!bundle || !out) {
    console.error("usage: node plugin-loader.js <bundled plugin> <code cache to write>");
    process.exit(2);
  }
  makeCache(bundle, out);
}
