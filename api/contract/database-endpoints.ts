import type { z } from "zod";
import { page, pageQuery } from "./common";
import {
  database,
  databaseBackup,
  databaseCredentials,
  databaseListItem,
  databaseSnapshotCreate,
  databaseSsl,
  databaseUpdate,
  mysqlCreate,
  postgresqlCreate,
  type Engine,
} from "./databases";
import { empty, endpoint, ro, rw, type Source } from "./endpoint";

/**
 * databases-api.md "Endpoints": the clusters of each engine (`M`, `P`), their backups, and the list across
 * engines. A cluster's endpoints are the same for both engines but their path: the spec's table shows MySQL's
 * whole and PostgreSQL's list, create and delete ("View, update, backups, credentials, credentials reset, patch and
 * SSL certificate operations for PostgreSQL clusters: not shown"); the others are served as the real API serves
 * them (`recorded`: TestDatabase_Postgres_Suite), docs/spec-gaps.md "PostgreSQL view, update, ...".
 */

const scope = { ro: ro("databases"), rw: rw("databases") };
const auth = "required";

/** Where a cluster endpoint comes from: the spec's table, or the recordings for what it does not show of PostgreSQL. */
const sourceOf = (engine: Engine, shownForBoth: boolean): Source => (engine === "mysql" || shownForBoth ? "databases-api.md" : "recorded");

/**
 * An engine's clusters (`/databases/<engine>/instances`): list, create (its body, the engine's), view, update,
 * delete, credentials, reset, patch, SSL. (The paths are typed as either engine's: a path made of a type parameter
 * would leave its parameters unknown to the compiler.)
 */
function clustersApi<B extends z.ZodType>(engine: Engine, createBody: B) {
  const at = `/databases/${engine}/instances` as const;
  const item = `${at}/{instanceId}` as const;
  const source = sourceOf(engine, false);
  return {
    list: endpoint({
      method: "GET",
      path: at,
      source: sourceOf(engine, true),
      scope: scope.ro,
      auth,
      summary: `List ${engine} databases`,
      query: pageQuery,
      answer: page(database),
    }),
    create: endpoint({
      method: "POST",
      path: at,
      source: sourceOf(engine, true),
      scope: scope.rw,
      auth,
      summary: `Create a ${engine} database`,
      body: createBody,
      answer: database,
    }),
    get: endpoint({ method: "GET", path: item, source, scope: scope.ro, auth, summary: "View a database", answer: database }),
    update: endpoint({ method: "PUT", path: item, source, scope: scope.rw, auth, summary: "Update a database", body: databaseUpdate, answer: database }),
    delete: endpoint({ method: "DELETE", path: item, source: sourceOf(engine, true), scope: scope.rw, auth, summary: "Delete a database", answer: empty }),
    credentials: endpoint({
      method: "GET",
      path: `${item}/credentials`,
      source,
      scope: scope.ro,
      auth,
      summary: "View the root credentials",
      answer: databaseCredentials,
    }),
    resetCredentials: endpoint({
      method: "POST",
      path: `${item}/credentials/reset`,
      source,
      scope: scope.rw,
      auth,
      summary: "Reset the root credentials",
      answer: empty,
    }),
    patch: endpoint({ method: "POST", path: `${item}/patch`, source, scope: scope.rw, auth, summary: "Apply operating-system patches now", answer: empty }),
    ssl: endpoint({ method: "GET", path: `${item}/ssl`, source, scope: scope.ro, auth, summary: "View the SSL CA certificate", answer: databaseSsl }),
  };
}

/** An engine's cluster backups: list and view need read_write "(as stated)". */
function backupsApi(engine: Engine) {
  const at = `/databases/${engine}/instances/{instanceId}/backups` as const;
  const item = `${at}/{backupId}` as const;
  const source = sourceOf(engine, false);
  return {
    list: endpoint({
      method: "GET",
      path: at,
      source,
      scope: scope.rw,
      auth,
      summary: "List a database's backups",
      query: pageQuery,
      answer: page(databaseBackup),
    }),
    create: endpoint({
      method: "POST",
      path: at,
      source,
      scope: scope.rw,
      auth,
      summary: "Take a snapshot backup",
      body: databaseSnapshotCreate,
      answer: empty,
    }),
    get: endpoint({ method: "GET", path: item, source, scope: scope.rw, auth, summary: "View a backup", answer: databaseBackup }),
    delete: endpoint({ method: "DELETE", path: item, source, scope: scope.rw, auth, summary: "Delete a backup", answer: empty }),
    restore: endpoint({ method: "POST", path: `${item}/restore`, source, scope: scope.rw, auth, summary: "Restore a backup into its database", answer: empty }),
  };
}

export const mysqlDatabasesApi = clustersApi("mysql", mysqlCreate);
export const postgresqlDatabasesApi = clustersApi("postgresql", postgresqlCreate);
export const mysqlBackupsApi = backupsApi("mysql");
export const postgresqlBackupsApi = backupsApi("postgresql");

/** Each engine's endpoints, by engine (what a side serving or calling both engines reads). */
export const DATABASE_APIS = {
  mysql: { clusters: mysqlDatabasesApi, backups: mysqlBackupsApi },
  postgresql: { clusters: postgresqlDatabasesApi, backups: postgresqlBackupsApi },
} as const;
export type DatabaseApis = (typeof DATABASE_APIS)[Engine];

/** `GET /databases/instances`: "list envelope of all databases, any engine; each has an `instance_uri` for details". */
export const allDatabasesApi = {
  list: endpoint({
    method: "GET",
    path: "/databases/instances",
    source: "databases-api.md",
    scope: scope.ro,
    auth,
    summary: "List the databases of every engine",
    query: pageQuery,
    answer: page(databaseListItem),
  }),
};
