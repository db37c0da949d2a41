import { HttpError, codeOf, messageOf } from "../http";
import { isShared, MAX_ID, type Backend } from "./backend";

/**
 * The ids of one emulator, for all its accounts: each kind from its sequence in the database (`Backend.reserve`),
 * taken a block at a time (as a database's cached sequence: a stopped process loses the rest of its block, and
 * no id is ever given twice).
 */
export class Ids {
  private readonly blocks = new Map<string, { next: number; end: number; size: number }>();
  /** How many ids of each kind the write being run has taken (a write run again asks for as many at once). */
  private readonly taken = new Map<string, number>();
  /** A shared database's: the ids epoch the blocks were taken in, and past what each kind's next block starts (ids kept). */
  epoch = 0;
  private readonly floors = new Map<string, number>();

  constructor(private readonly backend: Backend) {}

  next(kind: string): number {
    let block = this.blocks.get(kind);
    if (!block || block.next > block.end) {
      // A shared database gives a block asynchronously: the write is run again once it has one (`refill`).
      if (this.backend.shared) throw new NeedIds(kind);
      const size = Math.min(block ? block.size * 2 : 8, 1024);
      const first = this.take(kind, size);
      block = { next: first, end: first + size - 1, size };
      this.blocks.set(kind, block);
    }
    const id = block.next++;
    this.taken.set(kind, (this.taken.get(kind) ?? 0) + 1);
    if (id > MAX_ID) throw new HttpError(507, [{ reason: `The emulator has given every ${kind} id (up to ${MAX_ID}); no more can be made` }]);
    return id;
  }

  /** A shared database's next block of a kind, past `floor` (a write that ran out of ids is run again with it). */
  async refill(kind: string): Promise<void> {
    const floor = this.floors.get(kind) ?? 0;
    if (!isShared(this.backend)) return;
    // Enough for the whole write run again (what it took before it ran out, and as much again), a block at least.
    const size = Math.min(Math.max((this.blocks.get(kind)?.size ?? 4) * 2, 2 * (this.taken.get(kind) ?? 0) + 64), 1 << 20);
    let first: number;
    try {
      first = await this.backend.reserveAsync(kind, size, floor);
    } catch (err) {
      throw new StateNotSaved(this.backend.kind, err);
    }
    this.blocks.set(kind, { next: first, end: first + size - 1, size });
  }

  /** A write begins: the ids it takes are counted from here. */
  begin(): void {
    this.taken.clear();
  }

  /** A shared database's epoch moved (another process loaded records of their own ids): the blocks held are dropped. */
  enter(epoch: number): void {
    if (epoch === this.epoch) return;
    this.epoch = epoch;
    this.blocks.clear();
  }

  /**
   * Ids of a kind up to `most` are kept by a write (records loaded with ids of their own, which the sequence had not
   * reached): those given from now on are above it. A shared database's sequence is moved by the write's commit
   * (`SharedTransaction.commit`), which checks that no process took one meanwhile; until then a block is taken past it.
   */
  keep(kind: string, most: number): void {
    this.blocks.delete(kind);
    if (this.backend.shared) this.floors.set(kind, Math.max(this.floors.get(kind) ?? 0, most));
    else this.take(kind, 0, most);
  }

  /** How far each kind's sequence went: ids up to it may have been given (to any account). */
  async heads(): Promise<ReadonlyMap<string, number>> {
    try {
      return isShared(this.backend) ? await this.backend.headsAsync() : this.backend.heads();
    } catch (err) {
      throw new StateNotSaved(this.backend.kind, err, "read");
    }
  }

  /** The next id of a kind, out of a write (an account's number): in a shared database, taking a block if needed. */
  async nextAsync(kind: string): Promise<number> {
    try {
      return this.next(kind);
    } catch (err) {
      if (!(err instanceof NeedIds)) throw err;
      await this.refill(kind);
      return this.next(kind);
    }
  }

  /** A block of ids from the database (a change that cannot take its ids is not made: `StateNotSaved`). */
  private take(kind: string, count: number, atLeast?: number): number {
    try {
      return this.backend.reserve(kind, count, atLeast);
    } catch (err) {
      throw new StateNotSaved(this.backend.kind, err);
    }
  }
}

/** A write in a shared database that ran out of ids of a kind: it is run again once `Ids.refill` has taken more. */
export class NeedIds extends Error {
  constructor(readonly kind: string) {
    super(`out of ${kind} ids`);
  }
}

/** A change the emulator could not commit to its database (and so did not keep). */
export class StateNotSaved extends Error {
  readonly code: string;
  constructor(
    readonly where: string,
    cause: unknown,
    /** What failed: a change's commit (it was not kept), or a read of what the database holds. */
    readonly action: "write" | "read" = "write",
  ) {
    const code = codeOf(cause) ?? "unknown error";
    super(
      action === "write"
        ? `The emulator could not write the change to its ${where} database (${code}: ${messageOf(cause)}); the change was not kept`
        : `The emulator could not read its ${where} database (${code}: ${messageOf(cause)})`,
      { cause },
    );
    this.code = code;
  }
}
