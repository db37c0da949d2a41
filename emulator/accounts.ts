import { z } from "zod";
import { accountAdminRoutes } from "./admin";
import { ACCOUNT_LOG_BODIES, ACCOUNT_LOG_WINDOW, AnonymousLog, forgetOldBodies, keptEntry, LOG_BODIES, LOG_WINDOW, type RequestLogEntry } from "./request-log";
import { Faults, type FaultConfig } from "./faults";
import { requireScope, signedInNow } from "./auth";
import { HttpError, requestTarget } from "./http";
import { NO_CONTENT, Router, type RequestContext } from "./router";
import { familyCollections, Services, type ApiFamily, type FamilyContext } from "./family";
import { jsonDepth, MAX_JSON_DEPTH } from "./json";
import { RateLimit } from "./rate-limit";
import type { EmulatorState } from "./routes";
import { isShared, type AccountRow, type Backend } from "./db/backend";
import { DEFAULT_QUOTAS, type Quotas } from "./db/quota";
import { ACCOUNT_EVENTS_KEPT, apiTime, EVENTS_KEPT, newTokenValue, type AccountMeta } from "./state";
import { Ids, StateNotSaved, Store } from "./store";
import type { Timing } from "./timing";

/** The API's router: every family's routes, in the list's order, and the services they offer each other. */
export function buildRouter(
  families: readonly ApiFamily[],
  ctx: Omit<FamilyContext, "router" | "services">,
  checkAnswers = false,
): { router: Router; services: Services } {
  const router = new Router({ checkAnswers });
  const services = new Services();
  for (const family of families) family.register({ ...ctx, router, services });
  return { router, services };
}

/** What every account shares: the API families, the clock, the speed, the origin, and what each starts with. */
export interface AccountSetup {
  families: readonly ApiFamily[];
  now: () => number;
  timing: Timing;
  baseUrl: () => string;
  faults?: FaultConfig;
  rateLimit?: number;
  windows?: { log?: number; events?: number };
  /** What each account may hold (emulator/db/quota.ts); the defaults where not given. */
  quotas?: Partial<Quotas>;
  /** Check every answer against the contract (EmulatorOptions.checkAnswers). */
  checkAnswers?: boolean;
}

/**
 * One account of the emulator: its own state (users, tokens, records, events), its own routes over that state, its
 * own faults, rate limit and request log. Nothing of one account reaches another: a token belongs to one account,
 * and a request is served by that account's routes only.
 */
export class Account {
  readonly api: Router;
  readonly services: Services;
  readonly admin: Router;
  readonly faults = new Faults();
  /** The API families it serves (their collections' schemas and references read a fixture: emulator/fixtures.ts). */
  readonly families: readonly ApiFamily[];
  readonly rateLimit: RateLimit;
  /** The requests served, in order: the last LOG_WINDOW, paths cut to LOG_PATH_CHARS. */
  readonly log: RequestLogEntry[] = [];
  private readonly logWindow: number;
  /**
   * Its requests served at most TURNS at a time (the others wait their turn, in order): what one account sends at
   * once, however costly, keeps at most this many of its requests ahead of another account's (docs/emulator-team.md).
   */
  private serving = 0;
  private readonly turns: Array<() => void> = [];

  async inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.serving >= TURNS) await new Promise<void>((resolve) => this.turns.push(resolve));
    else this.serving++;
    try {
      return await work();
    } finally {
      const next = this.turns.shift();
      // The turn passes to the next in line (the count stays), or is given back.
      if (next) setImmediate(next);
      else this.serving--;
    }
  }

  /** The main account's only: every account, for its overview (set by emulator/admin.ts addAccountRoutes). */
  listAccounts?: () => Array<{ id: number; label: string }>;

  constructor(
    readonly store: Store<EmulatorState>,
    setup: AccountSetup,
  ) {
    this.families = setup.families;
    // The main account keeps the last 10,000 events; each other, a tenant's among up to 1,000, the last 1,000.
    this.store.eventsKept = setup.windows?.events ?? (store.committedState.account?.id === 1 ? EVENTS_KEPT : ACCOUNT_EVENTS_KEPT);
    const built = buildRouter(setup.families, { store: this.store, now: setup.now, timing: setup.timing, baseUrl: setup.baseUrl }, setup.checkAnswers);
    this.api = built.router;
    this.services = built.services;
    this.faults.set(setup.faults);
    this.rateLimit = new RateLimit(setup.rateLimit);
    // The main account's log is a developer's or a test run's; each other account's, a tenant's among up to 1,000.
    this.logWindow = setup.windows?.log ?? (this.id === 1 ? LOG_WINDOW : ACCOUNT_LOG_WINDOW);
    this.admin = accountAdminRoutes(this, setup.now, () => setup.timing.speed, setup.checkAnswers);
  }

  get id(): number {
    return this.meta.id;
  }

  get meta(): AccountMeta {
    return this.store.data.account!;
  }

  /** The account's root token: every scope, for its owner (`admin`); the only one that may use /__emulator for it. */
  get token(): string {
    return this.meta.token;
  }

  /** True when the bearer value is a token of this account (revoked ones are gone from the state). */
  holds(value: string): boolean {
    return this.store.data.tokens.some((t) => t.token === value);
  }

  /**
   * An API request made inside the emulator as the account's owner (its root token): a fixture's requests. The
   * routes, checks and transaction are a request's (inside a fixture's, part of it); no fault, rate limit or log
   * entry (it is not traffic).
   */
  async call(method: string, target: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const { pathname, query } = requestTarget(target);
    const token = this.store.data.tokens.find((t) => t.token === this.token);
    const user = token && this.store.user(token.username);
    if (!token || !user) throw new Error(`account ${this.id} has lost its root token`);
    try {
      const { route, params } = this.api.match(method, pathname);
      requireScope(token, route.scope);
      const json: unknown = body === undefined ? {} : JSON.parse(JSON.stringify(body));
      // What a request of the API may be: no deeper than a body the server reads (emulator/http.ts parseJsonBody).
      if (jsonDepth(json) > MAX_JSON_DEPTH) throw new HttpError(400, [{ reason: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels` }]);
      const ctx: RequestContext = { method, path: pathname, params, query, body: json, rawBody: Buffer.from(JSON.stringify(json)), headers: {}, user, token };
      // Part of the fixture's transaction when in one (a read reads its draft).
      const result = await this.store.join(() => route.run(signedInNow(this.store, ctx)));
      return result === NO_CONTENT ? { status: 204, body: undefined } : { status: route.status ?? 200, body: result };
    } catch (err) {
      if (err instanceof HttpError) return { status: err.status, body: { errors: err.errors } };
      throw err;
    }
  }

  /**
   * Notes a request in the log: its path cut to LOG_PATH_CHARS, bodies kept for the last LOG_BODIES (an account made at
   * run time: ACCOUNT_LOG_BODIES), the oldest tenth let go once past the window.
   */
  record(entry: RequestLogEntry): void {
    this.log.push(keptEntry(entry));
    forgetOldBodies(this.log, this.id === 1 ? LOG_BODIES : ACCOUNT_LOG_BODIES);
    if (this.log.length > this.logWindow + this.logWindow / 10) this.log.splice(0, this.log.length - this.logWindow);
  }
}

/** Requests of one account served at once (Account.inTurn). */
export const TURNS = 2;

/** What is done in a new account's first transaction (a fixture loaded): with it, the account is made, or not at all. */
export type AccountInit = (account: Account) => Promise<unknown>;

/** The upload token of an image waiting for its data, if the record is one (emulator/routes/images.ts `_upload`). */
const uploadToken = (record: unknown): string | undefined => {
  const r = z.object({ _upload: z.object({ token: z.string() }) }).safeParse(record);
  return r.success ? r.data._upload.token : undefined;
};

/** The token value of a token record. */
const tokenValue = (record: unknown): string | undefined => {
  const r = z.object({ token: z.string() }).safeParse(record);
  return r.success ? r.data.token : undefined;
};

/**
 * The emulator's accounts, in its database (emulator/db): the first (`main`, number 1) is the one of the command
 * line's `--token`; each other is made at run time (`POST /__emulator/accounts`) with a token of its own, its number
 * from a sequence (never one a deleted account had). Requests find their account by their token (an index of every
 * account's tokens: its cost does not depend on how many accounts there are); a request with no token, or one no
 * account holds, is served by the main account's routes (and refused there as before), and logged in no account's
 * log but the emulator's log of them (`anonymous`).
 */
export class Accounts {
  /** The requests no account's token signed (emulator/request-log.ts `AnonymousLog`). */
  readonly anonymous = new AnonymousLog();
  private readonly byId = new Map<number, Account>();
  /** Every account's tokens, by value. */
  private readonly tokens = new Map<string, Account>();
  /** Every upload URL waiting for its data, by its token. */
  private readonly uploads = new Map<string, Account>();

  private constructor(
    private readonly setup: AccountSetup,
    readonly backend: Backend,
    readonly ids: Ids,
  ) {}

  /**
   * The accounts of a database; the main one made (with `init`, a fixture) when it has none yet. Its root token is
   * `rootToken` (the command line's: the one it had before is revoked), or when none is given, the one it has (a
   * random one for a new main account).
   */
  static async open(setup: AccountSetup, rootToken: string | undefined, backend: Backend, init?: AccountInit): Promise<Accounts> {
    const accounts = new Accounts(setup, backend, new Ids(backend));
    const rows = await backend.accounts();
    accounts.rootToken = rootToken ?? rows.find((r) => r.id === 1)?.token ?? newTokenValue();
    accounts.ids.keep(
      "account",
      rows.reduce((top, r) => Math.max(top, r.id), 1),
    );
    for (const row of rows) await accounts.load(row);
    if (!accounts.byId.has(1)) {
      try {
        await accounts.make({ id: 1, label: "main", created: apiTime(setup.now()), token: accounts.rootToken, rev: 0 }, init);
      } catch (err) {
        // Another emulator sharing the database made it first: this one serves it as made.
        const row = isShared(backend) ? await backend.account(1) : undefined;
        if (!row) throw err;
        await accounts.load(row);
      }
    }
    return accounts;
  }

  private rootToken = "";

  /** What each account may hold (emulator/db/quota.ts). */
  get quotas(): Quotas {
    return { ...DEFAULT_QUOTAS, ...this.setup.quotas };
  }

  /** An account's store: its records read from the database (`stored`), or a new one's. */
  private storeOf(row: AccountRow, stored: boolean, rootToken: string): Promise<Store<EmulatorState>> {
    return Store.open<EmulatorState>(this.backend, this.ids, this.setup.now, familyCollections(this.setup.families), row, stored, rootToken, this.quotas);
  }

  /** An account of the database served by this process (its records read). */
  private async load(row: AccountRow): Promise<Account> {
    const held = this.byId.get(row.id);
    if (held) return held;
    const store = await this.storeOf(row, true, row.id === 1 ? this.rootToken : row.token);
    const account = this.byId.get(row.id) ?? new Account(store, this.setup);
    if (!this.byId.has(row.id)) this.add(account);
    return account;
  }

  /**
   * In a shared database, the accounts as the database has them now (other emulators make and delete them): the new
   * ones served, the deleted ones let go. Before listing them.
   */
  async refresh(): Promise<void> {
    const backend = this.backend;
    if (!isShared(backend)) return;
    const rows = await this.reading(() => backend.accounts());
    const ids = new Set(rows.map((r) => r.id));
    for (const account of this.list()) if (!ids.has(account.id) && account !== this.main) this.forget(account);
    for (const row of rows) await this.load(row);
  }

  get main(): Account {
    return this.byId.get(1)!;
  }

  /** Every account, the main one first, then by number. */
  list(): Account[] {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  /** Whether other emulators share the database (their accounts are looked up when asked for). */
  get shared(): boolean {
    return this.backend.shared;
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): Account | undefined {
    return this.byId.get(id);
  }

  /** Makes an account with a fresh root token; `init` (a fixture) is part of its making: if it fails, there is no account. */
  async create(label?: string, init?: AccountInit): Promise<Account> {
    const id = await this.ids.nextAsync("account");
    return this.make({ id, label: label ?? `account-${id}`, created: apiTime(this.setup.now()), token: newTokenValue(), rev: 0 }, init);
  }

  private async make(row: AccountRow, init?: AccountInit): Promise<Account> {
    const store = await this.storeOf(row, false, row.token);
    const account = new Account(store, this.setup);
    await store.write(async () => {
      await store.ensureOwner(row.token);
      if (init) await init(account);
    });
    this.add(account);
    return account;
  }

  /** Deletes an account and everything in it. The main account stays. */
  async remove(id: number): Promise<boolean> {
    const account = this.byId.get(id);
    if (!account || account === this.main) return false;
    await this.backend.removeAccount(id);
    this.forget(account);
    return true;
  }

  /** An account no longer served (deleted, here or by another emulator sharing the database). */
  forget(account: Account): void {
    if (this.byId.get(account.id) !== account) return;
    this.byId.delete(account.id);
    for (const index of [this.tokens, this.uploads]) for (const [value, held] of index) if (held === account) index.delete(value);
  }

  /**
   * The account a bearer token value belongs to, if any: by this process's index, and in a shared database, one
   * another emulator made it in (served from then on).
   */
  async findToken(value: string): Promise<Account | undefined> {
    const held = this.tokens.get(value);
    if (held || !isShared(this.backend)) return held;
    const backend = this.backend;
    return this.loadById(await this.reading(() => backend.accountForToken(value)));
  }

  /** The account whose image waits for its data at an upload URL, as `findToken`. */
  async findUpload(token: string): Promise<Account | undefined> {
    const held = this.uploads.get(token);
    if (held || !isShared(this.backend)) return held;
    const backend = this.backend;
    return this.loadById(await this.reading(() => backend.accountForUpload(token)));
  }

  private async loadById(id: number | undefined): Promise<Account | undefined> {
    const backend = this.backend;
    if (id === undefined || !isShared(backend)) return undefined;
    const row = await this.reading(() => backend.account(id));
    return row && this.load(row);
  }

  /** A read of a shared database: one that fails is a 503 (`StateNotSaved`, read), not the emulator's error. */
  private async reading<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      throw new StateNotSaved(this.backend.kind, err, "read");
    }
  }

  /** The account a bearer token value belongs to, if any. */
  forToken(value: string): Account | undefined {
    return this.tokens.get(value);
  }

  /** The account whose image waits for its data at an upload URL, if any. */
  forUpload(token: string): Account | undefined {
    return this.uploads.get(token);
  }

  /** Ends the database's connection. */
  close(): Promise<void> {
    return this.backend.close();
  }

  /** An account served: its tokens and upload URLs indexed, and kept so as its commits change them. */
  private add(account: Account): void {
    this.byId.set(account.id, account);
    const index = (map: Map<string, Account>, key: string | undefined, add: boolean) => {
      if (key === undefined) return;
      // A key another account holds stays its: an export's pending upload imported into a second account keeps its
      // URL for the account that handed it out (the data went to the importer's copy, the maker's image left waiting).
      if (add) {
        if (!map.has(key)) map.set(key, account);
      } else if (map.get(key) === account) map.delete(key);
    };
    for (const t of account.store.data.tokens) index(this.tokens, t.token, true);
    for (const img of account.store.data.images) index(this.uploads, uploadToken(img), true);
    account.store.watchers.push((applied) => {
      for (const { coll, before, after } of applied) {
        const read = coll === "tokens" ? tokenValue : coll === "images" ? uploadToken : undefined;
        if (!read) continue;
        const map = coll === "tokens" ? this.tokens : this.uploads;
        index(map, read(before), false);
        index(map, read(after), true);
      }
    });
  }
}
