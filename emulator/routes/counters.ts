/**
 * What a family's `counters` hook (emulator/family.ts) is made of: the highest number among a state's records,
 * for a kind of id the routes number (`store.nextId(kind)`), so that what is made after a fixture is loaded takes
 * the next one, not a loaded record's.
 */

/** The highest of these numbers, 0 for none (no spread: a collection may hold more records than a call takes arguments). */
export const highest = (numbers: Iterable<number>): number => {
  let top = 0;
  for (const n of numbers) if (n > top) top = n;
  return top;
};

/** The highest id of these records, 0 for none. */
export const highestId = (records: ReadonlyArray<{ id: number }>): number => highest(records.map((r) => r.id));
