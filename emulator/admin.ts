import { z } from "zod";
import type { ApiFamily } from "./family";
import type { FaultConfig, Faults } from "./faults";
import { exportAccount, loadFixture, readFixture } from "./fixtures";
import { badRequest, HttpError, jsonObject, notFound } from "./http";
import { Router } from "./router";
import { overview } from "./overview";
import type { RequestLogEntry } from "./request-log";
import type { RateLimit } from "./rate-limit";
import { apiTime, emptyGrants, newTokenValue, newUser, type AccountMeta, type Store } from "./state";

/** What the admin endpoints act on: an account (emulator/accounts.ts), seen through what they need of it. */
export interface AdminAccount {
  readonly id: number;
  readonly meta: AccountMeta;
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
  create(label?: string): A;
  remove(id: number): boolean;
}

/**
 * An account's admin endpoints, outside the API (`/__emulator/...`), open only to the account's root token:
 * its faults and rate limit, users (restricted or not) with tokens, its request log.
 */
export function accountAdminRoutes(account: AdminAccount, now: () => number, speed: () => number): Router {
  const { store, log, faults, rateLimit } = account;
  const router = new Router();
  router.add("PUT", "/rate-limit", { scope: null, auth: "required" }, (ctx) => {
    const perSecond = jsonObject(ctx).perSecond;
    try {
      rateLimit.set(perSecond === null || perSecond === undefined ? undefined : Number(perSecond));
    } catch (e) {
      throw badRequest((e as Error).message, "perSecond");
    }
    return { perSecond: rateLimit.limit ?? null, limited: rateLimit.limited };
  });
  router.add("GET", "/rate-limit", { scope: null, auth: "required" }, () => ({ perSecond: rateLimit.limit ?? null, limited: rateLimit.limited }));
  router.add("PUT", "/faults", { scope: null, auth: "required" }, (ctx) => {
    try {
      faults.set(jsonObject(ctx) as unknown as FaultConfig);
    } catch (e) {
      throw badRequest((e as Error).message, "faults");
    }
    return { config: faults.config };
  });
  router.add("DELETE", "/faults", { scope: null, auth: "required" }, () => {
    faults.set(undefined);
    return {};
  });
  router.add("GET", "/faults", { scope: null, auth: "required" }, () => ({ config: faults.config ?? null, counts: faults.counts }));
  router.add("POST", "/users", { scope: null, auth: "required" }, (ctx) => {
    const body = jsonObject(ctx) as { username?: unknown; restricted?: unknown; scopes?: unknown; global?: unknown };
    if (typeof body.username !== "string" || !/^[a-z][a-z0-9_-]{2,31}$/.test(body.username))
      throw badRequest("username must be 3..32 lowercase letters, digits, _ or -", "username");
    if (body.restricted !== undefined && typeof body.restricted !== "boolean") throw badRequest("Must be a boolean", "restricted");
    if (body.scopes !== undefined && typeof body.scopes !== "string") throw badRequest("Must be a string of scopes, or *", "scopes");
    const global = body.global ?? {};
    if (
      typeof global !== "object" ||
      global === null ||
      Array.isArray(global) ||
      Object.values(global).some((v) => typeof v !== "boolean" && typeof v !== "string")
    )
      throw badRequest("Must be an object of global grants", "global");
    if (store.user(body.username)) throw badRequest("username already exists", "username");
    const user = newUser(body.username, store.nextId("user"), body.restricted ?? false);
    if (user.restricted) user.grants = emptyGrants(global);
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
  });
  // Fixtures (emulator/fixtures.ts, docs/fixtures.md): the account as a document, and a document loaded into it.
  router.add("GET", "/export", { scope: null, auth: "required" }, () => exportAccount(store, now()));
  router.add("POST", "/import", { scope: null, auth: "required" }, async (ctx) => {
    const loaded = await loadFixture(account, readFixture(ctx.body, account));
    return { loaded };
  });
  // What the emulator's page shows (emulator/page.ts).
  router.add("GET", "/overview", { scope: null, auth: "required" }, async () => ({
    ...(await overview(account, speed())),
    ...(account.listAccounts ? { accounts: account.listAccounts() } : {}),
  }));
  router.add("GET", "/log", { scope: null, auth: "required" }, () => log);
  router.add("DELETE", "/log", { scope: null, auth: "required" }, () => {
    log.length = 0;
    return {};
  });
  return router;
}

/** Accounts one emulator holds at most (each about 100 KB with nothing in it), so that making them cannot exhaust it. */
export const MAX_ACCOUNTS = 1000;

/** The body of `POST /__emulator/accounts`: a name, and a fixture to start from (checked by emulator/fixtures.ts). */
const newAccountSchema = z.object({
  label: z
    .string("Must be a string")
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, "Must be 1 to 64 letters, digits, spaces, '_', '.' or '-', starting with a letter or digit")
    .optional(),
  fixture: z.unknown().optional(),
});

/** An account as the admin endpoints show it: its number, name, when it was made, its token (to its makers only) and what it holds. */
function accountView(account: AdminAccount, withToken: boolean) {
  const { id, label, created, token } = account.meta;
  return { id, label, created, ...(withToken ? { token } : {}) };
}

/**
 * The emulator's own endpoints, beside the main account's (its root token is the emulator's, `--token`): make
 * an account for each CI job or person (`POST /__emulator/accounts {"label"}` answers its token), list them,
 * delete one with everything in it.
 */
export function addAccountRoutes(router: Router, accounts: AccountDirectory, speed: () => number): void {
  const list = () => accounts.list().map((a) => ({ id: a.id, label: a.meta.label }));
  accounts.main.listAccounts = list;
  // Any account's overview, with the list of accounts to choose from (the page's picker).
  router.add("GET", "/accounts/{accountId}/overview", { scope: null, auth: "required" }, async (ctx) => {
    const account = accounts.get(Number(ctx.params.accountId));
    if (!account) throw notFound();
    return { ...(await overview(account, speed())), accounts: list() };
  });
  router.add("GET", "/accounts", { scope: null, auth: "required" }, () => ({ data: accounts.list().map((a) => accountView(a, false)) }));
  router.add("POST", "/accounts", { scope: null, auth: "required" }, async (ctx) => {
    const parsed = newAccountSchema.safeParse(jsonObject(ctx));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badRequest(issue.message, issue.path.join(".") || undefined);
    }
    const { label, fixture } = parsed.data;
    if (accounts.list().length >= MAX_ACCOUNTS) throw badRequest(`The emulator holds at most ${MAX_ACCOUNTS} accounts: delete one first`);
    const account = accounts.create(label);
    // An account may start from a fixture: made with it, or not at all.
    if (fixture !== undefined) {
      try {
        await loadFixture(account, readFixture(fixture, account));
        account.store.save();
      } catch (err) {
        accounts.remove(account.id);
        if (err instanceof HttpError)
          throw new HttpError(
            err.status,
            err.errors.map((e) => ({ ...e, reason: `fixture: ${e.reason}` })),
          );
        throw err;
      }
    }
    return accountView(account, true);
  });
  router.add("GET", "/accounts/{accountId}", { scope: null, auth: "required" }, (ctx) => {
    const account = accounts.get(Number(ctx.params.accountId));
    if (!account) throw notFound();
    return accountView(account, false);
  });
  router.add("DELETE", "/accounts/{accountId}", { scope: null, auth: "required" }, (ctx) => {
    const id = Number(ctx.params.accountId);
    if (id === accounts.main.id) throw badRequest("The main account (the emulator's own) cannot be deleted", "accountId");
    if (!accounts.remove(id)) throw notFound();
    return {};
  });
}
