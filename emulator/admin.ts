import { accountsApi, adminApi } from "./admin-api";
import type { ApiFamily } from "./family";
import type { Faults } from "./faults";
import { exportAccount, loadFixture, readFixture, type FixtureLoaded } from "./fixtures";
import { badRequest, HttpError, notFound } from "./http";
import { Router, rowsOf, type Req } from "./router";
import { MAX_FIXTURE_DEPTH } from "./json";
import { overview } from "./overview";
import type { RequestLogEntry } from "./request-log";
import type { RateLimit } from "./rate-limit";
import { apiTime, emptyGrants, newTokenValue, newUser, type AccountMeta } from "./state";
import { type Store } from "./store";

/** What the admin endpoints act on: an account (emulator/accounts.ts), seen through what they need of it. */
export interface AdminAccount {
  readonly id: number;
  readonly meta: AccountMeta;
  /** Its root token (the only one that may use its /__emulator endpoints). */
  readonly token: string;
  readonly store: Store;
  readonly log: RequestLogEntry[];
  readonly faults: Faults;
  readonly rateLimit: RateLimit;
  readonly families: readonly ApiFamily[];
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** The main account's only: every account of the emulator, for its overview (the page's account picker). */
  listAccounts?: () => Array<{ id: number; label: string }>;
}

/** The emulator's accounts, as the endpoints that make and delete them see them. */
export interface AccountDirectory<A extends AdminAccount = AdminAccount> {
  readonly main: A;
  list(): A[];
  get(id: number): A | undefined;
  readonly size: number;
  /** Makes an account; `init` (a fixture) is part of its making: if it fails, there is no account. */
  create(label?: string, init?: (account: A) => Promise<unknown>): Promise<A>;
  remove(id: number): Promise<boolean>;
  /** The accounts as the database has them now (another emulator sharing it makes and deletes them too). */
  refresh(): Promise<void>;
  /** The requests no account's token signed (emulator/request-log.ts `AnonymousLog`). */
  readonly anonymous: { readonly entries: readonly RequestLogEntry[] };
}

/** What an account's admin rows are given: the account, the clock, the speed. */
interface AdminContext {
  account: AdminAccount;
  now: () => number;
  speed: () => number;
}

const adminRow = rowsOf<AdminContext>();

/** What an account holds and its quotas. */
const usageView = ({ store }: AdminAccount, { records, bytes, users }: { records: number; bytes: number; users: number }) => ({
  records,
  bytes,
  users,
  quotas: store.limits,
});

const rateLimitView = ({ rateLimit }: AdminAccount) => ({ perSecond: rateLimit.limit ?? null, limited: rateLimit.limited });

/** A user of the account (restricted, with the global grants given) and a token of the scopes given (every one by default). */
function addUser({ account: { store }, now }: AdminContext, { body }: Req<typeof adminApi.addUser>) {
  if (store.user(body.username)) throw badRequest("username already exists", "username");
  const user = newUser(body.username, store.nextId("user"), body.restricted ?? false);
  if (user.restricted) user.grants = emptyGrants(body.global ?? {});
  store.data.users.push(user);
  const token = {
    id: store.nextId("token"),
    label: `${body.username} token`,
    scopes: body.scopes ?? "*",
    created: apiTime(now()),
    expiry: null,
    token: newTokenValue(),
    username: user.username,
  };
  store.data.tokens.push(token);
  return { username: user.username, token: token.token };
}

const ADMIN_ROWS = [
  adminRow(adminApi.setRateLimit, ({ account }, { body }) => {
    try {
      account.rateLimit.set(body.perSecond ?? undefined);
    } catch (e) {
      throw badRequest(e instanceof Error ? e.message : String(e), "perSecond");
    }
    return rateLimitView(account);
  }),
  adminRow(adminApi.rateLimit, ({ account }) => rateLimitView(account)),
  adminRow(adminApi.setFaults, ({ account }, { body }) => {
    account.faults.set(body);
    return { config: account.faults.config };
  }),
  adminRow(adminApi.clearFaults, ({ account }) => {
    account.faults.set(undefined);
    return {};
  }),
  adminRow(adminApi.faults, ({ account }) => ({ config: account.faults.config ?? null, counts: account.faults.counts })),
  adminRow(adminApi.addUser, addUser),
  // Fixtures (emulator/fixtures.ts, docs/fixtures.md): the account as a document, and a document loaded into it.
  adminRow(adminApi.export, ({ account, now }) => exportAccount(account.store, now())),
  adminRow(adminApi.import, async ({ account }, { body }) => ({ loaded: await loadFixture(account, readFixture(body, account)) })),
  // What the emulator's page shows (emulator/page.ts).
  adminRow(adminApi.overview, async ({ account, speed }, { query }) => ({
    ...(await overview(account, speed(), query)),
    ...(account.listAccounts ? { accounts: account.listAccounts() } : {}),
  })),
  adminRow(adminApi.reset, ({ account }) => {
    const d = account.store.data;
    // Every collection emptied (the families' too, whichever they are), but the owner and the root token.
    for (const [name, value] of Object.entries(d)) if (Array.isArray(value) && name !== "users" && name !== "tokens") Reflect.set(d, name, []);
    d.tokens = d.tokens.filter((t) => t.token === account.token);
    const owners = new Set(d.tokens.map((t) => t.username));
    d.users = d.users.filter((u) => owners.has(u.username));
    return {};
  }),
  adminRow(adminApi.usage, ({ account }) => usageView(account, account.store.usage)),
  adminRow(adminApi.log, ({ account }) => account.log),
  adminRow(adminApi.clearLog, ({ account }) => {
    account.log.length = 0;
    return {};
  }),
];

/**
 * An account's admin endpoints, outside the API (`/__emulator/...`), open only to the account's root token:
 * its faults and rate limit, users (restricted or not) with tokens, its fixtures, its overview and request log.
 */
export function accountAdminRoutes(account: AdminAccount, now: () => number, speed: () => number, checkAnswers = false): Router {
  const router = new Router({ checkAnswers });
  // A fixture's document nests deeper than a request of the API (its own levels around the records it carries).
  router.serve(ADMIN_ROWS, { account, now, speed }, { bodyDepth: MAX_FIXTURE_DEPTH });
  return router;
}

/** Accounts one emulator holds at most (each about 100 KB with nothing in it), so that making them cannot exhaust it. */
export const MAX_ACCOUNTS = 1000;

/** An account as the admin endpoints show it: its number, name, when it was made, and its token (to its makers only). */
function accountView(account: AdminAccount, withToken: boolean) {
  const { id, label, created, token } = account.meta;
  return { id, label, created, ...(withToken ? { token } : {}) };
}

/** What the account rows are given: the emulator's accounts, the speed. */
interface AccountsContext {
  accounts: AccountDirectory;
  speed: () => number;
}

const accountRow = rowsOf<AccountsContext>();

const accountList = (accounts: AccountDirectory) => accounts.list().map((a) => ({ id: a.id, label: a.meta.label }));

/** The account `accountId` as the database has it now, or 404. */
async function accountOf(accounts: AccountDirectory, id: number): Promise<AdminAccount> {
  await accounts.refresh();
  const account = accounts.get(id);
  if (!account) throw notFound();
  await account.store.refresh();
  return account;
}

/** An account, made from a fixture when one is given: made with it, or not at all. */
async function makeAccount({ accounts }: AccountsContext, { body }: Req<typeof accountsApi.create>) {
  await accounts.refresh();
  if (accounts.size >= MAX_ACCOUNTS) throw badRequest(`The emulator holds at most ${MAX_ACCOUNTS} accounts: delete one first`);
  const { fixture } = body;
  try {
    let loaded: FixtureLoaded | undefined;
    const account = await accounts.create(
      body.label,
      fixture === undefined ? undefined : async (made) => void (loaded = await loadFixture(made, readFixture(fixture, made))),
    );
    return { ...accountView(account, true), ...(loaded ? { loaded } : {}) };
  } catch (err) {
    if (err instanceof HttpError)
      throw new HttpError(
        err.status,
        err.errors.map((e) => ({ ...e, reason: `fixture: ${e.reason}` })),
      );
    throw err;
  }
}

const ACCOUNT_ROWS = [
  // Any account's overview, with the list of accounts to choose from (the page's picker).
  accountRow(accountsApi.overview, async ({ accounts, speed }, { params, query }) => ({
    ...(await overview(await accountOf(accounts, params.accountId), speed(), query)),
    accounts: accountList(accounts),
  })),
  accountRow(accountsApi.list, async ({ accounts }) => {
    await accounts.refresh();
    return { data: accounts.list().map((a) => accountView(a, false)) };
  }),
  accountRow(accountsApi.create, makeAccount),
  accountRow(accountsApi.anonymousLog, ({ accounts }) => accounts.anonymous.entries),
  accountRow(accountsApi.get, async ({ accounts }, { params }) => accountView(await accountOf(accounts, params.accountId), false)),
  accountRow(accountsApi.delete, async ({ accounts }, { params }) => {
    if (params.accountId === accounts.main.id) throw badRequest("The main account (the emulator's own) cannot be deleted", "accountId");
    await accounts.refresh();
    if (!(await accounts.remove(params.accountId))) throw notFound();
    return {};
  }),
];

/**
 * The emulator's own endpoints, beside the main account's (its root token is the emulator's, `--token`): make
 * an account for each CI job or person (`POST /__emulator/accounts {"label"}` answers its token), list them,
 * delete one with everything in it; and the log of the requests no account's token signed (`GET /log/anonymous`).
 */
export function addAccountRoutes(router: Router, accounts: AccountDirectory, speed: () => number): void {
  accounts.main.listAccounts = () => accountList(accounts);
  router.serve(ACCOUNT_ROWS, { accounts, speed }, { bodyDepth: MAX_FIXTURE_DEPTH });
}
