/**
 * Keeps a failing program from hanging for minutes. `@pulumi/pulumi` maps its stack frames through its
 * source maps, which point one folder too high (`node_modules/@pulumi/output.ts`, a scope with no package
 * after it), and when the program fails Pulumi prints the error with `util.inspect(err, { colors: true })`.
 * Node's colouring of `node_modules` paths (`markNodeModules`, Node 20 and 22) never ends on such a path: it
 * grows a string until it runs out of memory (seconds to minutes, gigabytes), then Pulumi prints the error
 * again without colours. So an error thrown inside an `apply` took minutes to end a run.
 *
 * The fix: frames mapped to such a path are written as V8 sees them (the compiled file, which exists), so
 * the stack prints at once. It wraps whatever formats stacks (source-map-support, installed after or before
 * this), through an accessor on `Error.prepareStackTrace`. Loaded by `pulumi-compute` and preloaded into
 * every program by the Node.js language host that `scripts/ensure-pulumi` builds.
 */

type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/** A frame line whose path has a scope but no package after it: `.../node_modules/@pulumi/output.ts:519:31)`. */
const SCOPE_WITHOUT_PACKAGE = /[/\\]node_modules[/\\]@[^/\\]+[/\\][^/\\]*$/;

/** The frame lines of a formatted stack whose path would hang Node's colouring, written unmapped. */
export function unmapBrokenFrames(stack: string, frames: NodeJS.CallSite[]): string {
  const lines = stack.split("\n");
  const first = lines.length - frames.length;
  if (first < 1) return stack;
  let changed = false;
  for (let k = 0; k < frames.length; k++) {
    if (!SCOPE_WITHOUT_PACKAGE.test(lines[first + k])) continue;
    lines[first + k] = `    at ${frames[k].toString()}`;
    changed = true;
  }
  return changed ? lines.join("\n") : stack;
}

const INSTALLED = Symbol.for("pulumi-compute.stackTraces");

/** Installs the wrapper once per process (any copy of this module). */
export function installStackTraceGuard(): void {
  const errorCtor = Error as ErrorConstructor & { [INSTALLED]?: boolean };
  if (errorCtor[INSTALLED]) return;
  errorCtor[INSTALLED] = true;
  let inner = Object.getOwnPropertyDescriptor(Error, "prepareStackTrace")?.value as Format | undefined;
  const wrapper: Format = (error, frames) => {
    const formatted = inner ? inner.call(Error, error, frames) : undefined;
    if (formatted === undefined) return `${String(error)}${frames.map((f) => `\n    at ${f.toString()}`).join("")}`;
    return typeof formatted === "string" ? unmapBrokenFrames(formatted, frames) : formatted;
  };
  Object.defineProperty(Error, "prepareStackTrace", {
    configurable: true,
    enumerable: false,
    get: () => wrapper,
    set: (f: Format | undefined) => {
      inner = f === wrapper ? inner : f;
    },
  });
}

installStackTraceGuard();
