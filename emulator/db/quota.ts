import { HttpError } from "../http";
import type { Change } from "./backend";

/**
 * What one account may hold (issue 53: every tenant bounded), each refused by name when a change would pass it:
 * its records (every collection's but the events, which keep a window of their own: `--events`), their size as
 * JSON, and its users. A change that lowers what an account holds is never refused (an account over a quota
 * lowered since can always delete). Set with `--quota-records`, `--quota-bytes`, `--quota-users`.
 */
export interface Quotas {
  records: number;
  bytes: number;
  users: number;
}

/** The quotas, by name. */
export const QUOTA_NAMES: ReadonlyArray<keyof Quotas> = ["records", "bytes", "users"];

export const DEFAULT_QUOTAS: Quotas = { records: 20_000, bytes: 16 * 1024 * 1024, users: 100 };

/** The least each quota may be: what an empty account holds (its owner and root token), with room. */
export const QUOTA_MINIMUMS: Quotas = { records: 2, bytes: 4096, users: 1 };

/** The flag that sets each quota (named in a refusal). */
const FLAGS: Record<keyof Quotas, string> = { records: "--quota-records", bytes: "--quota-bytes", users: "--quota-users" };
const WHAT: Record<keyof Quotas, string> = { records: "records", bytes: "bytes of records", users: "users" };

/** The refusal of a change that would pass a quota: a 403 naming it, what the change would make, and the flag that sets it. */
export const quotaPassed = (name: keyof Quotas, quota: number, would: number): HttpError =>
  new HttpError(403, [
    {
      reason: `The account's quota of ${quota} ${WHAT[name]} would be passed (${would} with this change): delete some first, or start the emulator with a larger ${FLAGS[name]}`,
    },
  ]);

/** Collections a quota does not count: the events (a window of their own) and the state's own fields. */
const UNCOUNTED = new Set(["events", "$"]);

const slot = (coll: string, key: string) => `${coll}\u0000${key}`;

/** What an account holds, as its quotas count it. */
export class Usage {
  records = 0;
  bytes = 0;
  users = 0;
  /** Each counted record's size (JSON bytes), by collection and key. */
  private readonly sizes = new Map<string, number>();

  /** The usage once `changes` are made: each count's new value, and the sizes to set (undefined: a record gone). */
  after(changes: ReadonlyArray<Pick<Change, "coll" | "key" | "body">>) {
    const next = { records: this.records, bytes: this.bytes, users: this.users };
    const sizes = new Map<string, number | undefined>();
    for (const c of changes) {
      if (UNCOUNTED.has(c.coll)) continue;
      const at = slot(c.coll, c.key);
      const old = sizes.has(at) ? sizes.get(at) : this.sizes.get(at);
      const size = c.body === null ? undefined : Buffer.byteLength(c.body);
      const counted = (old === undefined ? 0 : 1) - (size === undefined ? 0 : 1);
      next.records -= counted;
      if (c.coll === "users") next.users -= counted;
      next.bytes += (size ?? 0) - (old ?? 0);
      sizes.set(at, size);
    }
    return { next, sizes };
  }

  /** The usage once `changes` are made, or a 403 naming the quota a change would pass (one that lowers a count passes). */
  check(changes: ReadonlyArray<Pick<Change, "coll" | "key" | "body">>, quotas: Quotas) {
    const made = this.after(changes);
    for (const name of QUOTA_NAMES) {
      if (made.next[name] > quotas[name] && made.next[name] > this[name]) throw quotaPassed(name, quotas[name], made.next[name]);
    }
    return made;
  }

  apply({ next, sizes }: ReturnType<Usage["after"]>): void {
    Object.assign(this, next);
    for (const [at, size] of sizes) {
      if (size === undefined) this.sizes.delete(at);
      else this.sizes.set(at, size);
    }
  }
}
