import { ENGINES } from "../../../api/contract/databases";
import type { ApiFamily } from "../../family";
import { backupRows } from "./backups";
import { allDatabasesRow, clusterRows } from "./clusters";
import { databaseContext } from "./context";
import { credentialRows } from "./credentials";
import { databaseState, type DatabaseState } from "./records";
import { renumberDatabases, databaseReferences } from "./references";

/** The database durations, here too for the tests that read them from the database routes. */
export { DB_MS } from "./context";

/**
 * The database family (`/databases/...`): managed MySQL and PostgreSQL clusters with their backups, served from
 * the contract's rows (api/contract/database-endpoints.ts), the same for both engines but their path.
 *
 * This folder holds the whole family: its records and collections (`records.ts`), what they must hold between
 * them and with the catalogue (`references.ts`, `rules.ts`), the context its routes share (`context.ts`), and its
 * rows (`clusters.ts`, `backups.ts`, `credentials.ts`).
 */
const ROWS = [...ENGINES.flatMap((engine) => [...clusterRows(engine), ...backupRows(engine), ...credentialRows(engine)]), allDatabasesRow];

export const databaseFamily: ApiFamily<DatabaseState> = {
  name: "databases",
  state: databaseState,
  register: (family) => family.router.serve(ROWS, databaseContext(family)),
  references: databaseReferences,
  renumber: renumberDatabases,
};
