import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { accountAdminRoutes } from "./admin";
import { cut, forgetOldBodies, LOG_PATH_CHARS, LOG_WINDOW, type RequestLogEntry } from "./request-log";
import { Faults, type FaultConfig } from "./faults";
import { requireScope } from "./auth";
import { HttpError, requestTarget } from "./http";
import { NO_CONTENT, Router, type RequestContext } from "./router";
import { familyCollections, Services, type ApiFamily, type FamilyContext } from "./family";
import { jsonDepth, MAX_JSON_DEPTH } from "./json";
import { RateLimit } from "./rate-limit";
import type { EmulatorState } from "./routes";
import { apiTime, newTokenValue, readState, Store, type AccountMeta, accountMeta } from "./state";
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
  /** Check every answer against the contract (EmulatorOptions.checkAnswers). */
  checkAnswers?: boolean;
}

/**
 * One account of the emulator: its own state (users, tokens, records, events; ids from its own range), its own
 * routes over that state, its own faults, rate limit and request log. Nothing of one account reaches another:
 * a token belongs to one account, and a request is served by that account's routes only.
 */
export class Account {
  readonly store: Store<EmulatorState>;
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
  /** The main account's only: every account, for its overview (set by emulator/admin.ts addAccountRoutes). */
  listAccounts?: () => Array<{ id: number; label: string }>;

  constructor(meta: Omit<AccountMeta, "token">, token: string, file: string | undefined, setup: AccountSetup) {
    this.families = setup.families;
    this.store = new Store<EmulatorState>(file, token, setup.now, familyCollections(setup.families), meta);
    if (setup.windows?.events !== undefined) this.store.eventsKept = setup.windows.events;
    const built = buildRouter(setup.families, { store: this.store, now: setup.now, timing: setup.timing, baseUrl: setup.baseUrl }, setup.checkAnswers);
    this.api = built.router;
    this.services = built.services;
    this.faults.set(setup.faults);
    this.rateLimit = new RateLimit(setup.rateLimit);
    this.logWindow = setup.windows?.log ?? LOG_WINDOW;
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
   * routes, checks and saving are a request's; no fault, rate limit or log entry (it is not traffic).
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
      const result = await route.run(ctx);
      if (method !== "GET") this.store.save();
      return result === NO_CONTENT ? { status: 204, body: undefined } : { status: route.status ?? 200, body: result };
    } catch (err) {
      if (err instanceof HttpError) return { status: err.status, body: { errors: err.errors } };
      throw err;
    }
  }

  /** Notes a request in the log: its path cut to LOG_PATH_CHARS, bodies kept for the last LOG_BODIES, the oldest tenth let go once past the window. */
  record(entry: RequestLogEntry): void {
    this.log.push(entry.path.length > LOG_PATH_CHARS ? { ...entry, path: cut(entry.path) } : entry);
    forgetOldBodies(this.log);
    if (this.log.length > this.logWindow + this.logWindow / 10) this.log.splice(0, this.log.length - this.logWindow);
  }
}

/**
 * The emulator's accounts. The first (`main`) is the one of the command line's `--token`, kept in `--state FILE`
 * as before accounts existed; each other is made at run time (`POST /__emulator/accounts`) with a token of its
 * own, and kept beside it in `FILE.accounts/<id>.json`. Requests find their account by their token; a request
 * with no token, or one no account holds, is the main account's (and refused there as before).
 */
export class Accounts {
  readonly main: Account;
  private readonly byId = new Map<number, Account>();
  /** Which account a token value was last found in (checked again at each use: tokens are revoked). */
  private readonly tokenCache = new Map<string, Account>();

  constructor(
    private readonly setup: AccountSetup,
    rootToken: string,
    private readonly stateFile: string | undefined,
  ) {
    this.main = new Account({ id: 1, label: "main", created: apiTime(setup.now()) }, rootToken, stateFile, setup);
    this.byId.set(1, this.main);
    const dir = this.folder();
    if (dir && existsSync(dir)) {
      for (const name of readdirSync(dir).filter((n) => /^\d+\.json$/.test(n))) {
        const file = join(dir, name);
        const read = accountMeta.safeParse(readState(file).account);
        const meta = read.success ? read.data : undefined;
        if (!meta || meta.id !== Number(name.slice(0, -5))) throw new Error(`The account file ${file} does not hold account ${name.slice(0, -5)}`);
        this.byId.set(meta.id, new Account(meta, meta.token, file, setup));
      }
    }
  }

  /** Every account, the main one first, then by number. */
  list(): Account[] {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  get(id: number): Account | undefined {
    return this.byId.get(id);
  }

  /** Makes an account with a fresh root token (kept in its own file when the emulator keeps its state). */
  create(label?: string): Account {
    const id = Math.max(...this.byId.keys()) + 1;
    const dir = this.folder();
    if (dir) mkdirSync(dir, { recursive: true });
    const account = new Account(
      { id, label: label ?? `account-${id}`, created: apiTime(this.setup.now()) },
      newTokenValue(),
      dir ? join(dir, `${id}.json`) : undefined,
      this.setup,
    );
    this.byId.set(id, account);
    account.store.save();
    return account;
  }

  /** Deletes an account and everything in it (its file too). The main account stays. */
  remove(id: number): boolean {
    const account = this.byId.get(id);
    if (!account || account === this.main) return false;
    this.byId.delete(id);
    for (const [value, held] of this.tokenCache) if (held === account) this.tokenCache.delete(value);
    const dir = this.folder();
    if (dir) rmSync(join(dir, `${id}.json`), { force: true });
    return true;
  }

  /** The account a bearer token value belongs to, if any. */
  forToken(value: string): Account | undefined {
    const cached = this.tokenCache.get(value);
    if (cached && this.byId.get(cached.id) === cached && cached.holds(value)) return cached;
    this.tokenCache.delete(value);
    for (const account of this.byId.values()) {
      if (account.holds(value)) {
        this.tokenCache.set(value, account);
        return account;
      }
    }
    return undefined;
  }

  /** Writes every account's state (at close). */
  saveAll(): void {
    for (const account of this.byId.values()) account.store.save();
  }

  private folder(): string | undefined {
    return this.stateFile ? `${this.stateFile}.accounts` : undefined;
  }
}
