/**
 * Many reads of one collection (the refresh of a large stack) served from the collection's list: once 8
 * reads of a collection have begun within 2 s, its list is fetched (pages of 500, no more pages than reads
 * seen), and reads that begin in the next 5 s take their record from it (the same record the item's GET answers: only collections whose
 * list items are their items' records opt in, `readsFromList` in their table). 1,000 keys are then read with
 * 9 requests instead of 1,000 (7 GETs, then 2 list pages: docs/reliability.md), which is most of a refresh's time against a rate-limited API.
 *
 * What is never taken from a list: an id the list lacks (the item's GET says whether it is gone, or new since);
 * anything after a write through the same API and token by this process (any request other than a GET starts a
 * new generation: lists fetched before it are dropped, and a read waiting on one reads the item instead). A
 * record taken from a list is at most 5 s older than its read's start, as if the refresh had reached it then.
 */
/** What the reads need of the API client (client.ts, which holds one ListReads per API and token). */
export interface Reader {
  get<T>(path: string, accept404?: boolean): Promise<T | undefined>;
  list<T>(path: string, maxPages?: number): Promise<T[]>;
}

/** Reads of one collection within this window count towards fetching its list. */
export const WINDOW_MS = 2_000;
/**
 * So many reads within the window fetch the list: the engine's first wave of reads (`--parallel`: 8 steps at
 * once here, the CLI's default on this machine), so that the waves after it wait on one list, not a GET each. A list costs no
 * more requests than the reads it serves (no more pages than reads seen), and each GET waited on is a
 * round trip on the refresh's critical path (bench/results.md, "Where the plugin's time goes").
 */
export const THRESHOLD = 8;
/** How long a list serves reads, from when it was asked for. */
export const TTL_MS = 5_000;

interface Listing {
  started: number;
  generation: number;
  records: Promise<Map<string, unknown> | undefined>;
}

interface Collection {
  /** When the reads of the window began. */
  recent: number[];
  listing?: Listing;
}

export class ListReads {
  private readonly collections = new Map<string, Collection>();
  private generation = 0;

  /** A write through this API and token began or ended: what was listed may have changed. */
  written(): void {
    this.generation++;
    for (const c of this.collections.values()) c.listing = undefined;
  }

  /** The item's record, from a recent list of its collection when there is one, else its GET (undefined: 404). */
  async read<T>(client: Reader, collection: string, id: string, itemPath: string): Promise<T | undefined> {
    const now = Date.now();
    let c = this.collections.get(collection);
    if (!c) this.collections.set(collection, (c = { recent: [] }));
    c.recent.push(now);
    while (c.recent.length && c.recent[0] < now - WINDOW_MS) c.recent.shift();
    if (c.listing && (now - c.listing.started > TTL_MS || c.listing.generation !== this.generation)) c.listing = undefined;
    if (!c.listing && c.recent.length >= THRESHOLD) {
      c.listing = { started: now, generation: this.generation, records: this.list(client, collection, c.recent.length) };
    }
    const listing = c.listing;
    if (listing) {
      const record = (await listing.records)?.get(id);
      // Not after a write that began since the list was asked for.
      if (record !== undefined && listing.generation === this.generation) return structuredClone(record) as T;
    }
    return client.get<T>(itemPath, true);
  }

  private async list(client: Reader, collection: string, reads: number): Promise<Map<string, unknown> | undefined> {
    try {
      // At most as many pages as reads were seen in the window (each would have been a request): a small stack in
      // a large account does not list it all; what is past the pages fetched is read by its GET.
      const items = await client.list<{ id: unknown }>(collection, reads);
      return new Map(items.map((item) => [String(item.id), item]));
    } catch {
      // The reads go one by one, as without a list.
      return undefined;
    }
  }
}
