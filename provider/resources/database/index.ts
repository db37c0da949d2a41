import { DATABASE_APIS } from "../../../api/contract/database-endpoints";
import { replicationRule, STATUS_NEEDED } from "../../../api/contract/databases";
import { defineResource, type ResourceDefinition } from "../../definition";
import { fromApi, updateBody } from "../../model/mapping";
import { say } from "../../lifecycle/steps";
import type { CheckFailure } from "../../model/check";
import { containsUnknown, convertKeys, isObject, snake, UNKNOWN, type OutputsOf, type Props } from "../../model/table";
import { loadPrices } from "../prices";
import { priceOutputs } from "../price-catalog";
import { active, databaseSpec, type DatabaseApi, type DatabaseFields, type Engine } from "./table";
import { restoreBackup, restoringRefusal, rotatePassword, sendable } from "./steps";
import { typeDisk } from "../instance-types";
import { ref, mysql, postgres } from "../example-parents";

export * from "./table";

/**
 * The maintenance window a PUT sends (the API takes it whole): the cluster's, with what the program gives (API
 * names); a weekly one has no week of the month, unless the program says one (then the API's rule refuses it).
 */
function windowOf(current: object, given: Props): Props {
  const window: Props = { ...current, ...given };
  if (window.frequency === "weekly" && given.week_of_month === undefined) window.week_of_month = null;
  return window;
}

/** The API's engine is the type only ("mysql"); the input and the items are `engine/version`. */
const engineVersion = (api: Pick<DatabaseApi, "engine" | "version">): OutputsOf<DatabaseFields> => ({ engine: `${api.engine}/${api.version}` });

/**
 * A managed database: its table, plus the replication rule, the refusal of a smaller type at preview, the
 * long wait until it is active, the maintenance window set once it is, the credentials read as outputs,
 * and in-place changes made while it is active. A replacement is made first (provider/lifecycle/replacements.ts).
 */
export function databaseDefinition(engine: Engine): ResourceDefinition<DatabaseApi> {
  const spec = databaseSpec(engine);
  const api = DATABASE_APIS[engine];
  // Rebuilt in every output, so that what a failure keeps in the stack has it too (else the next diff sees a new engine).
  const outputsOf = (rec: DatabaseApi, props: Props): OutputsOf<DatabaseFields> => ({ ...fromApi(spec, rec, props), ...engineVersion(rec) });
  const human = engine === "mysql" ? "MySQL" : "PostgreSQL";
  return defineResource({
    spec,
    example:
      engine === "mysql"
        ? () => {
            const db = mysql();
            return {
              title: "A MySQL cluster open to one subnet, with a weekly maintenance window",
              resources: [db],
              outputs: { hosts: ref(db, "hosts"), port: ref(db, "port"), password: ref(db, "password") },
            };
          }
        : () => {
            const db = postgres("analytics-db", { clusterSize: 3, replicationType: "asynch", replicationCommitType: "local" });
            return {
              title: "A three-node PostgreSQL cluster",
              resources: [db],
              outputs: { hosts: ref(db, "hosts"), port: ref(db, "port"), caCertificate: ref(db, "caCertificate") },
            };
          },
    lookup: {
      name: engine === "mysql" ? "getMysqlDatabases" : "getPostgresDatabases",
      listKey: "databases",
      scope: "`databases:read_only`",
      description: `The ${human} clusters of the account.`,
      extra: engineVersion,
    },
    sdk: { file: engine === "mysql" ? "mysqlDatabase" : "postgresDatabase", ...(engine === "mysql" ? { argsAliases: ["DatabaseArgs"] } : {}) },
    hooks: {
      async validate(news, _olds, { program }, client) {
        // The prices its plan gives at preview (read once per session).
        await loadPrices(program, client());
        const failures: CheckFailure[] = [];
        const size = news.clusterSize ?? 1;
        const repl = news.replicationType;
        // The API's rule between the two (api/contract/databases.ts), said at preview.
        const rule = typeof repl === "string" && repl !== UNKNOWN && (size === 1 || size === 3) ? replicationRule(engine, size, repl) : undefined;
        if (rule) failures.push({ property: "replicationType", reason: `replicationType: ${rule}` });
        return failures;
      },
      async diff(client, id, olds, news, d) {
        // The engine as the API lists it now (`mysql/8`, major only) names the cluster's full version
        // (`mysql/8.0.35`, rebuilt from the record): the same engine, not a replacement.
        if (d.replaces.includes("engine") && typeof news.engine === "string" && typeof olds.engine === "string" && olds.engine.startsWith(`${news.engine}.`)) {
          d.replaces = d.replaces.filter((f) => f !== "engine");
          d.changed = d.changed.filter((f) => f !== "engine");
          d.changes = d.changed.length > 0;
        }
        // A restore: the backup must be one of this cluster's (the API's path), read at preview.
        const restore = news.restoreBackupId;
        if (d.changed.includes("restoreBackupId") && restore !== undefined && restore !== UNKNOWN && !d.replaces.length) {
          const found = await client().find(api.backups.get, { params: { instanceId: id, backupId: restore } });
          if (found === undefined) {
            throw new Error(
              `restoreBackupId: ${String(restore)} is not a backup of ${human} database ${id} (getMysqlDatabaseBackups/getPostgresDatabaseBackups list them); a restore takes a backup of the same cluster`,
            );
          }
        }
        // A credentials reset during a restore leaves the cluster failed (rule 7): refused at preview.
        if (d.changed.includes("passwordRotation") && news.passwordRotation !== undefined) {
          const db = await client().find(api.clusters.get, { params: { instanceId: id } });
          if (db?.status === "restoring") throw new Error(restoringRefusal(id));
        }
        // A smaller type is refused here, at preview: the API only moves a database to more disk.
        if (d.changed.includes("type") && typeof news.type === "string" && news.type !== UNKNOWN) {
          const c = client();
          const [from, to] = [await typeDisk(c, String(olds.type)), await typeDisk(c, news.type)];
          if (to === undefined) throw new Error(`type: ${news.type} is not an instance type`);
          if (from !== undefined && to <= from) {
            const why = `a database can only move to a type with more disk than ${String(olds.type)} (${from} MB); ${news.type} has ${to} MB`;
            throw new Error(`type: ${why}. To shrink, create a new database and move the data.`);
          }
        }
      },
      createBody(table, inputs) {
        if (inputs.restoreBackupId !== undefined) {
          say(
            `restoreBackupId ${String(inputs.restoreBackupId)}: a new ${human} cluster has no backups of its own, so nothing is restored; a later change of restoreBackupId restores into it`,
          );
        }
        const body = { ...table };
        delete body.updates; // not in the create body: set by a PUT once active
        return body;
      },
      async afterCreate({ client: c, id, props: inputs }, last) {
        if (inputs.updates === undefined) return last;
        const body = sendable(
          api.clusters.update.body,
          { updates: windowOf(last.updates, convertKeys(inputs.updates, snake)) },
          `updates of ${human} database ${id}`,
        );
        return c.call(api.clusters.update, { params: { instanceId: id }, body });
      },
      async update(ctx, olds, news, changed) {
        const { client: c, id } = ctx;
        // A restore first: it replaces the data, and the other changes (a new password) apply to what it leaves.
        if (changed.includes("restoreBackupId") && news.restoreBackupId !== undefined) {
          ctx.keep.restoreBackupId = olds.restoreBackupId;
          await restoreBackup(ctx, api, news.restoreBackupId);
        }
        const sent = changed.filter((f) => ["label", "allowList", "type", "updates"].includes(f));
        if (sent.length) {
          // The API takes updates only while the cluster is active.
          const now = (ctx.latest = await ctx.wait(active("to be active before the update")));
          const raw = updateBody(spec, news, sent);
          if (isObject(raw.updates)) raw.updates = windowOf(now.updates, raw.updates);
          const body = sendable(api.clusters.update.body, raw, `the update of ${human} database ${id}`);
          await c.call(api.clusters.update, { params: { instanceId: id }, body });
          const wantList = JSON.stringify([...(news.allowList ?? [])].sort());
          const applied = (d: DatabaseApi) =>
            (!sent.includes("type") || d.type === news.type) && (!sent.includes("allowList") || JSON.stringify([...d.allow_list].sort()) === wantList);
          ctx.latest = await ctx.wait(active("to apply the change", applied));
        }
        if (changed.includes("passwordRotation") && news.passwordRotation !== undefined) {
          await rotatePassword(ctx, api);
        }
        return ctx.latest ?? (await c.call(api.clusters.get, { params: { instanceId: id } }));
      },
      mapOutputs: outputsOf,
      /** preview: its price, from the catalogue its check read (the type and cluster size it will have). */
      plan({ program, news }, outs) {
        // One node unless said (the API's default).
        const size = typeof outs.clusterSize === "number" ? outs.clusterSize : news.clusterSize === undefined ? 1 : undefined;
        if (program.prices && typeof outs.type === "string" && typeof size === "number" && !containsUnknown(outs.type)) {
          Object.assign(outs, priceOutputs(program.prices.database(outs.type, engine, size)));
        }
      },
      /**
       * The credentials and certificate, read when the cluster is active on create and refresh; an update
       * keeps the ones it has (it cannot change them; refresh sees a reset made elsewhere).
       */
      async extraOutputs(c, db, _inputs, { op, olds: old, program }) {
        const id = String(db.id);
        const outs: OutputsOf<DatabaseFields> = priceOutputs((await loadPrices(program, c))?.database(db.type, engine, db.cluster_size));
        // The credentials and the certificate are shown in the statuses the spec says (`active`).
        const shown = STATUS_NEEDED.credentials.includes(db.status) && STATUS_NEEDED.ssl.includes(db.status);
        if (shown && (op !== "update" || old.password === undefined)) {
          const [cred, ssl] = await Promise.all([
            c.call(api.clusters.credentials, { params: { instanceId: id } }),
            c.call(api.clusters.ssl, { params: { instanceId: id } }),
          ]);
          const read: OutputsOf<DatabaseFields> = { username: cred.username, password: cred.password, caCertificate: ssl.ca_certificate };
          Object.assign(outs, read);
        } else {
          for (const k of ["username", "password", "caCertificate"] as const) if (old[k] !== undefined) outs[k] = old[k];
        }
        return outs;
      },
    },
  });
}

export const mysqlDatabase = databaseDefinition("mysql");
export const postgresDatabase = databaseDefinition("postgresql");
export const mysqlSpec = mysqlDatabase.spec;
export const mysqlProvider = mysqlDatabase.provider;
export const postgresProvider = postgresDatabase.provider;
