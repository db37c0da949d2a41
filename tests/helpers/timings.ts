/** A suite's step timings, printed at its end: `timed(name, f)` runs `f` and notes how long it took. */
export function stepTimer(): { timed: <T>(name: string, f: () => Promise<T> | T) => Promise<T>; lines: string[] } {
  const lines: string[] = [];
  const timed = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
    const t0 = Date.now();
    try {
      return await f();
    } finally {
      lines.push(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    }
  };
  return { timed, lines };
}
