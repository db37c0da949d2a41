import { createDraft, enableArrayMethods, finishDraft, setAutoFreeze } from "immer";
import { AccountMissing, IdsTaken, isShared, type AccountRow, type Backend, type KeptIds, type RemoteChange, type SharedBackend } from "./db/backend";
import { changesOf, recordKey, SCALARS, withRemote, type Applied } from "./db/changes";
export { recordKey, type Applied } from "./db/changes";
import { detach } from "./drafts";
export { copyOf } from "./drafts";
import { Ids, NeedIds, StateNotSaved } from "./db/ids";
export { Ids, StateNotSaved } from "./db/ids";
import { HttpError } from "./http";
import { DEFAULT_QUOTAS, Usage, type Quotas } from "./db/quota";
import { apiTime, EVENTS_KEPT, newEvent, newUser, type CoreState, type EventEntity, type EventTiming, type User } from "./state";

// The routes change a record they read in place (a status settling as it is read): immer's results are left unfrozen.
setAutoFreeze(false);
// find, filter, some... over a collection's draft read its records without a draft of each (a write that looks
// through 10,000 records to change one drafts one).
enableArrayMethods();

/**
 * The kinds of counter each account keeps for itself: its private addresses (each account's private network is its
 * own: 192.168.128.0/17 whole to each). Every other kind, ids and public addresses, is from one sequence all accounts
 * share (`Ids`): never given twice, in any account, even once its account is deleted.
 */
export const ACCOUNT_COUNTERS: ReadonlySet<string> = new Set(["private_ip"]);

/**
 * One account's state: kept in memory (reads are served from it) and in the emulator's database (emulator/db), each
 * request's changes in one transaction (`write`). A write runs on a draft of the state (immer): when it ends, the
 * records it changed, made and deleted are found by comparing the draft's result with the state (immer keeps each
 * record it did not touch as it was: a write costs what it changes, not the account's size), committed, and only then
 * become the state. A write that is refused or fails, or whose commit fails (a full disk), leaves the state and
 * the database as they were. One write at a time per account; reads are not held.
 */
export class Store<D extends CoreState = CoreState> {
  private committed: D;
  /** How many commits the account has had. */
  private rev: number;
  /** Each record's place in its collection (as the database keeps it): by collection, by key. */
  private readonly ords = new Map<string, Map<string, number>>();
  private lastOrd = 0;
  /** The ids the write under way keeps, by kind (a shared database's commit moves the sequences past them). */
  private readonly kept = new Map<string, KeptIds>();
  /** Whether the account's row is in the database (a new account's first commit makes it). */
  private stored: boolean;
  /** The last write, which the next waits for. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The draft of the write a request runs in, if any (an async context: concurrent requests each see their own). */
  private active: object | undefined;
  /** Whether a read (`read`) is running its synchronous part (what makes a record there is a write's to make). */
  private reading = false;
  /** Called with what each commit changed (the accounts' token index: emulator/accounts.ts). */
  readonly watchers: Array<(applied: readonly Applied[]) => void> = [];
  /** The events kept: the last this many (the oldest tenth let go once past it), so that they do not grow with traffic. */
  eventsKept = EVENTS_KEPT;

  /** What the account holds, as its quotas count it. */
  readonly usage = new Usage();

  /** What the account may hold. */
  get limits(): Quotas {
    return { ...this.quotas };
  }

  private constructor(
    private readonly backend: Backend,
    private readonly ids: Ids,
    private readonly quotas: Quotas,
    private readonly now: () => number,
    data: D,
    rev: number,
    stored: boolean,
  ) {
    this.committed = data;
    this.rev = rev;
    this.stored = stored;
  }

  /**
   * An account's store: its records read from the database (`row.rev` > 0), or a new account's (nothing written until
   * its first write). The account's owner (`admin`) and its root token are always there.
   */
  static async open<D extends CoreState>(
    backend: Backend,
    ids: Ids,
    now: () => number,
    collections: readonly string[],
    row: AccountRow,
    stored: boolean,
    rootToken: string,
    quotas: Quotas = DEFAULT_QUOTAS,
  ): Promise<Store<D>> {
    const scalars = new Map<string, unknown>([
      ["version", 1],
      ["nextId", {}],
    ]);
    const lists = new Map<string, unknown[]>(["users", "tokens", "events", ...collections].map((k) => [k, []]));
    const ords = new Map<string, Map<string, number>>();
    let lastOrd = 0;
    const rows = stored ? await backend.records(row.id) : [];
    for (const r of rows) {
      const value: unknown = JSON.parse(r.body);
      if (r.coll === SCALARS) {
        scalars.set(r.key, value);
        continue;
      }
      const list = lists.get(r.coll) ?? [];
      lists.set(r.coll, list);
      list.push(value);
      const places = ords.get(r.coll) ?? new Map<string, number>();
      ords.set(r.coll, places);
      places.set(recordKey(r.coll, value), r.ord);
      lastOrd = Math.max(lastOrd, r.ord);
    }
    scalars.set("account", { id: row.id, label: row.label, created: row.created, token: row.token });
    // The records as the database holds them: written by this store from records of these types.
    const data = Object.fromEntries([...scalars, ...lists]) as D;
    const store = new Store<D>(backend, ids, quotas, now, data, row.rev, stored);
    store.usage.apply(store.usage.after(rows));
    for (const [k, v] of ords) store.ords.set(k, v);
    store.lastOrd = lastOrd;
    if (stored) await store.ensureOwner(rootToken);
    return store;
  }

  /** The state: in a write, its draft; elsewhere, the state as last committed. */
  get data(): D {
    // A draft is its state's type, writable (the state's types are writable already).
    return (this.active as D | undefined) ?? this.committed;
  }

  /**
   * The state as last committed, whatever write is under way: what a request is signed in by (before its own
   * transaction begins, while another's may be under way in a shared database).
   */
  get committedState(): D {
    return this.committed;
  }

  /**
   * The account's owner (`admin`) and the root token given to it (the command line's, for the main account), made if
   * missing. A root token given that is not the account's (the main account's, started with another `--token`)
   * becomes its root token, and the one it had is revoked; tokens made through the API stay.
   */
  async ensureOwner(rootToken: string): Promise<void> {
    const has = () =>
      this.data.account?.token === rootToken && this.data.users.some((u) => u.username === "admin") && this.data.tokens.some((t) => t.token === rootToken);
    if (this.stored && has()) return;
    await this.join(() => {
      const meta = this.data.account;
      if (meta && meta.token !== rootToken) {
        const before = meta.token;
        this.data.tokens = this.data.tokens.filter((t) => t.token !== before);
        meta.token = rootToken;
      }
      if (!this.data.users.some((u) => u.username === "admin")) this.data.users.push(newUser("admin", this.nextId("user"), false));
      if (!this.data.tokens.some((t) => t.token === rootToken)) {
        const made = { id: this.nextId("token"), label: "emulator root token", scopes: "*", created: apiTime(this.now()), expiry: null };
        this.data.tokens.push({ ...made, token: rootToken, username: "admin" });
      }
    });
  }

  /**
   * Once no write of the account is under way: a write whose work waits on more than the promises it makes (one that
   * makes an account in a shared database) has its draft as the state meanwhile, which is its own only. What reads
   * the state from outside a write (signing a request in, a read) waits for this first.
   */
  async settled(): Promise<void> {
    while (this.active) await this.queue;
  }

  /**
   * Runs a read (`GET`): on the state as last committed, with no draft and without waiting for the account's writes.
   * A read that would make a record (takes an id: a user's first sign-in seen, an event) is run again as a write
   * (`asWrite`), so that what it makes is kept. What a read settles in place (a status due) follows from the
   * stored times alone: any read works it out alike, and the next write of the record keeps it.
   */
  async read<T>(work: () => T | Promise<T>, asWrite: () => T | Promise<T>): Promise<T> {
    await this.settled();
    this.reading = true;
    // The read's synchronous part (the routes' reads are synchronous) runs with `reading` set.
    const answer = (async () => work())();
    this.reading = false;
    try {
      return await answer;
    } catch (err) {
      if (err instanceof MakesRecords) return this.write(asWrite);
      throw err;
    }
  }

  /**
   * Runs `work` as one transaction of the account (a request, a fixture): its changes are committed together when it
   * returns, or, when it throws (or the commit fails: `StateNotSaved`), none is kept. A write inside a write is part
   * of it. What `work` returns is copied out of the draft.
   */
  write<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.transact(work));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * `work` as part of the write that is running (a fixture's requests, the account's owner made with the account),
   * or as a write of its own when none is.
   */
  join<T>(work: () => T | Promise<T>): Promise<T> {
    return this.active ? Promise.resolve(work()) : this.write(work);
  }

  private async transact<T>(work: () => T | Promise<T>): Promise<T> {
    if (isShared(this.backend)) return this.transactShared(this.backend, work);
    const before = this.committed.account;
    const { result, next, found } = await this.draftOf(work);
    const usage = this.usage.check(found.changes, this.quotas);
    const row = this.rowOf(next, before);
    if (found.changes.length || row) {
      try {
        await this.backend.commit(this.committed.account!.id, found.changes, this.rev + 1, row);
      } catch (err) {
        throw new StateNotSaved(this.backend.kind, err);
      }
      this.rev += 1;
      this.stored = true;
    }
    this.usage.apply(usage);
    this.settle(next, found);
    return result;
  }

  /**
   * A write in a shared database: the account's row locked, what other processes committed since this one last
   * read it applied first, then the work, then the commit; run again when it ran out of ids (`NeedIds`).
   */
  private async transactShared<T>(backend: SharedBackend, work: () => T | Promise<T>): Promise<T> {
    const meta = this.committed.account!;
    for (let attempt = 0; ; attempt++) {
      let tx;
      try {
        tx = await backend.begin(meta.id, this.rev, !this.stored);
      } catch (err) {
        if (err instanceof AccountMissing) throw new AccountGone();
        throw new StateNotSaved(backend.kind, err);
      }
      try {
        this.ids.enter(tx.epoch);
        this.ids.begin();
        if (tx.rev !== this.rev) this.catchUp(tx.changes, tx.rev);
        const before = this.committed.account;
        const { result, next, found } = await this.draftOf(work);
        const usage = this.usage.check(found.changes, this.quotas);
        const row = this.rowOf(next, before);
        if (!found.changes.length && !row && !this.kept.size) {
          await tx.rollback();
          this.settle(next, found);
          return result;
        }
        try {
          await tx.commit(found.changes, this.rev + 1, row, this.kept);
        } catch (err) {
          throw err instanceof IdsTaken ? err : new StateNotSaved(backend.kind, err);
        }
        this.rev += 1;
        this.stored = true;
        this.usage.apply(usage);
        this.settle(next, found);
        return result;
      } catch (err) {
        await tx.rollback().catch(() => undefined);
        // Ids the write kept were taken by another process meanwhile: it is run again, reading how far they went.
        if (err instanceof IdsTaken && attempt < 100) continue;
        if (err instanceof NeedIds && attempt < 100) {
          await this.ids.refill(err.kind);
          continue;
        }
        throw err;
      }
    }
  }

  /**
   * The account's row to write with a commit: a new account's (its first commit makes it), or one whose root token
   * changed (`ensureOwner`); none otherwise.
   */
  private rowOf(next: D, before: D["account"]): AccountRow | undefined {
    const meta = next.account!;
    return !this.stored || meta !== before ? { ...meta, rev: this.rev + 1 } : undefined;
  }

  /** `work` on a draft of the state: what it returns, the state it leaves, and what changed. */
  private async draftOf<T>(work: () => T | Promise<T>) {
    const base = this.committed;
    // A draft of the state (immer): finished when the work succeeds, dropped when it throws.
    const draft = createDraft(base);
    this.active = draft;
    this.kept.clear();
    let result: T;
    try {
      result = detach(await work());
    } finally {
      this.active = undefined;
    }
    // What immer finishes is of its draft's type: the state's.
    const next = finishDraft(draft) as D;
    return { result, next, found: changesOf(base, next, this.ords, this.lastOrd) };
  }

  /** A committed write's state made the state, its records' places kept, its watchers told. */
  private settle(next: D, { applied, places, renumbered, lastOrd }: ReturnType<typeof changesOf>): void {
    this.committed = next;
    for (const [coll, all] of renumbered) this.ords.set(coll, all);
    for (const { coll, key, ord } of places) {
      if (renumbered.has(coll)) continue;
      const m = this.ords.get(coll) ?? new Map<string, number>();
      this.ords.set(coll, m);
      if (ord === undefined) m.delete(key);
      else m.set(key, ord);
    }
    this.lastOrd = lastOrd;
    for (const watch of this.watchers) watch(applied);
  }

  /** In a shared database, what other processes committed to the account since this one last read it, applied (before a request). */
  async refresh(): Promise<void> {
    await this.settled();
    if (!isShared(this.backend) || !this.stored) return;
    let seen;
    try {
      seen = await this.backend.since(this.committed.account!.id, this.rev);
    } catch (err) {
      throw new StateNotSaved(this.backend.kind, err, "read");
    }
    if (!seen) throw new AccountGone();
    if (seen.rev !== this.rev) this.catchUp(seen.changes, seen.rev);
  }

  /** Other processes' changes (in the order they were committed), applied to the state. */
  private catchUp(changes: readonly RemoteChange[], rev: number): void {
    this.usage.apply(this.usage.after(changes));
    const { next, applied, lastOrd } = withRemote(this.committed, changes, this.ords, this.lastOrd);
    // The records as another emulator wrote them, of this state's types.
    this.committed = next as D;
    this.lastOrd = lastOrd;
    this.rev = rev;
    for (const watch of this.watchers) watch(applied);
  }

  nextId(kind: string): number {
    if (this.reading) throw new MakesRecords();
    if (!ACCOUNT_COUNTERS.has(kind)) return this.ids.next(kind);
    const n = (this.data.nextId[kind] ?? 0) + 1;
    this.data.nextId[kind] = n;
    return n;
  }

  /** Ids of a kind from `least` to `most` are kept (a fixture's own): those given from now on are above them. */
  keepIds(kind: string, least: number, most: number): void {
    if (ACCOUNT_COUNTERS.has(kind)) return void (this.data.nextId[kind] = Math.max(this.data.nextId[kind] ?? 0, most));
    this.ids.keep(kind, most);
    const k = this.kept.get(kind);
    this.kept.set(kind, { least: Math.min(k?.least ?? least, least), most: Math.max(k?.most ?? most, most) });
  }

  /** How far each kind's shared sequence went (ids up to it may be any account's). */
  idHeads(): Promise<ReadonlyMap<string, number>> {
    return this.ids.heads();
  }

  /** Records an event of the account (the last `eventsKept` are kept). */
  event(action: string, username: string, entity: EventEntity, timing: EventTiming = {}): void {
    const events = this.data.events;
    events.push(newEvent(this.nextId("event"), action, username, entity, timing, this.now()));
    if (events.length > this.eventsKept + this.eventsKept / 10) events.splice(0, events.length - this.eventsKept);
  }

  user(username: string): User | undefined {
    return this.data.users.find((u) => u.username === username);
  }
}

/** A read that makes a record: it is run again as a write (`Store.read`). */
class MakesRecords extends Error {}

/** An account deleted by another emulator process sharing the database: its tokens are refused as any unknown one. */
export class AccountGone extends HttpError {
  constructor() {
    super(401, [{ reason: "Invalid Token" }], { "WWW-Authenticate": 'Bearer realm="compute"' });
  }
}
