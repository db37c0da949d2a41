import type { ApiFamily, FamilyContext } from "../../family";
import { registerBackupRoutes } from "./backups";
import { registerClusterListRoute, registerClusterRoutes } from "./clusters";
import { createDatabaseContext } from "./context";
import { registerCredentialRoutes } from "./credentials";
import { databaseState, type DatabaseState, type Engine } from "./records";

/** The database durations, here too for the tests that read them from the database routes. */
export { DB_MS } from "./context";

/**
 * The database family (`/databases/...`): managed MySQL and PostgreSQL clusters with their backups. One
 * context is shared by the route modules, made here once.
 *
 * This folder holds the whole family: its records and collections (`records.ts`), the context its routes
 * share (`context.ts`), and its routes (`clusters.ts`, `backups.ts`, `credentials.ts`).
 */
export const databaseFamily: ApiFamily<DatabaseState> = { name: "databases", state: databaseState, register: registerDatabaseRoutes };

function registerDatabaseRoutes(ctx: FamilyContext): void {
  const databases = createDatabaseContext(ctx);
  for (const engine of ["mysql", "postgresql"] as Engine[]) {
    registerClusterRoutes(ctx.router, databases, engine);
    registerBackupRoutes(ctx.router, databases, engine);
    registerCredentialRoutes(ctx.router, databases, engine);
  }
  registerClusterListRoute(ctx.router, databases);
}
