import { spawnSync } from "node:child_process";

/**
 * The suites that need Go (the SDK generator and the SDKs it makes, the examples compiled against them, a Go
 * program on the Go SDK). Without Go on PATH such a suite fails, naming Go, rather than passing with nothing
 * run: CI (`.ci/run`) never skips them. A developer without Go opts out with `COMPUTE_SKIP_GO=1`: the suite is
 * then skipped, saying so; the opt-out is refused where `CI` is set (docs/development.md, Tests).
 */
const haveGo = spawnSync("go", ["version"]).status === 0;

const inCi = () => !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";
const optedOut = () => process.env.COMPUTE_SKIP_GO === "1" && !inCi();

/**
 * `describe` for a suite that needs Go: the suite itself with Go on PATH; without Go, one failing test naming
 * Go (or, with `COMPUTE_SKIP_GO=1` outside CI, the suite skipped with a note).
 */
export function describeWithGo(suite: string): (name: string, body: () => void) => void {
  if (haveGo) return describe;
  if (optedOut()) {
    console.warn(`${suite}: no Go toolchain on PATH, and COMPUTE_SKIP_GO=1: skipped`);
    return describe.skip;
  }
  return (name: string) =>
    describe(name, () => {
      test("needs Go on PATH", () => {
        throw new Error(
          `${suite} needs Go (>= 1.26.6, https://go.dev/dl) on PATH, and found none (\`go version\` failed). ` +
            (inCi() ? "CI runs every Go suite: install Go." : "Install Go, or set COMPUTE_SKIP_GO=1 to skip the suites that need it."),
        );
      });
    });
}
