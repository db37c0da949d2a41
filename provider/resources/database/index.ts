import { defineResource, type ResourceDefinition } from "../../definition";
import { fromApi, updateBody } from "../../model/mapping";
import { say } from "../../lifecycle/steps";
import type { CheckFailure } from "../../model/check";
import { containsUnknown, convertKeys, snake, UNKNOWN, type OutputsOf, type Props } from "../../model/table";
import { loadPrices } from "../prices";
import { priceOutputs } from "../price-catalog";
import { active, databaseSpec, type DatabaseApi, type DatabaseFields, type Engine } from "./table";
import { restoreBackup, restoringRefusal, rotatePassword } from "./steps";
import { typeDisk } from "../instance-types";
import { ref, mysql, postgres } from "../example-parents";

export * from "./table";

/** The API's engine is the type only ("mysql"); the input and the items are `engine/version`. */
const engineVersion = (api: Props): Props => ({ engine: `${String(api.engine)}/${String(api.version)}` });

/**
 * A managed database: its table, plus the replication rule, the refusal of a smaller type at preview, the
 * long wait until it is active, the maintenance window set once it is, the credentials read as outputs,
 * and in-place changes made while it is active. A replacement is made first (provider/lifecycle/replacements.ts).
 */
export function databaseDefinition(engine: Engine): ResourceDefinition<DatabaseApi> {
  const spec = databaseSpec(engine);
  // Rebuilt in every output, so that what a failure keeps in the stack has it too (else the next diff sees a new engine).
  const outputsOf = (api: DatabaseApi, props: Props): Props => ({ ...fromApi(spec, api, props), ...engineVersion(api) });
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
        if (typeof repl === "string" && repl !== UNKNOWN) {
          const fail = (reason: string) => failures.push({ property: "replicationType", reason: `replicationType: ${reason}` });
          if (size === 1 && repl !== "none") fail("a one-node cluster has no replication: use none, or clusterSize 3");
          if (size === 3 && repl === "none") fail("a three-node cluster replicates: choose a replication type other than none");
        }
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
          const found = await client().get(`${spec.itemPath(id, olds)}/backups/${String(restore)}`, true);
          if (found === undefined) {
            throw new Error(
              `restoreBackupId: ${String(restore)} is not a backup of ${human} database ${id} (getMysqlDatabaseBackups/getPostgresDatabaseBackups list them); a restore takes a backup of the same cluster`,
            );
          }
        }
        // A credentials reset during a restore leaves the cluster failed (rule 7): refused at preview.
        if (d.changed.includes("passwordRotation") && news.passwordRotation !== undefined) {
          const db = await client().get<DatabaseApi>(spec.itemPath(id, olds), true);
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
        const updates = { ...last.updates, ...(convertKeys(inputs.updates, snake) as object) };
        return (await c.request<DatabaseApi>("PUT", spec.itemPath(id, inputs), { body: { updates } })).body;
      },
      async update(ctx, olds, news, changed) {
        const { client: c, id } = ctx;
        // A restore first: it replaces the data, and the other changes (a new password) apply to what it leaves.
        if (changed.includes("restoreBackupId") && news.restoreBackupId !== undefined) {
          ctx.keep.restoreBackupId = olds.restoreBackupId;
          await restoreBackup(ctx, spec, olds, news.restoreBackupId);
        }
        const sent = changed.filter((f) => ["label", "allowList", "type", "updates"].includes(f));
        if (sent.length) {
          // The API takes updates only while the cluster is active.
          const now = (ctx.latest = await ctx.wait(active("to be active before the update")));
          const body = updateBody(spec, news, sent);
          if (body.updates) body.updates = { ...now.updates, ...body.updates };
          await c.request("PUT", spec.itemPath(id, olds), { body });
          const wantList = JSON.stringify([...(news.allowList ?? [])].sort());
          const applied = (d: DatabaseApi) =>
            (!sent.includes("type") || d.type === news.type) && (!sent.includes("allowList") || JSON.stringify([...d.allow_list].sort()) === wantList);
          ctx.latest = await ctx.wait(active("to apply the change", applied));
        }
        if (changed.includes("passwordRotation") && news.passwordRotation !== undefined) {
          await rotatePassword(ctx, spec, olds);
        }
        return ctx.latest ?? (await c.get<DatabaseApi>(spec.itemPath(id, olds)));
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
      async extraOutputs(c, api, inputs, { op, olds: old, program }) {
        const id = String(api.id);
        const outs: OutputsOf<DatabaseFields> = priceOutputs((await loadPrices(program, c))?.database(api.type, engine, Number(api.cluster_size ?? 1)));
        if (api.status === "active" && (op !== "update" || old.password === undefined)) {
          const [cred, ssl] = await Promise.all([
            c.get<{ username: string; password: string }>(`${spec.itemPath(id, inputs)}/credentials`),
            c.get<{ ca_certificate: string }>(`${spec.itemPath(id, inputs)}/ssl`),
          ]);
          Object.assign(outs, { username: cred?.username, password: cred?.password, caCertificate: ssl?.ca_certificate });
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
