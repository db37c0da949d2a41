import type { ExampleProps } from "../model/example";
import { RESOURCE_NAME } from "../model/marks";
import { pause } from "../lifecycle/cancel";
import { ApiError, type ApiClient } from "../transport/client";
import type { CheckFailure } from "../model/check";
import type { ProgramContext } from "../program";
import { defineResource, type ResourceDefinition } from "../definition";
import { act } from "../lifecycle/lost-answers";
import { isExisting } from "../model/naming";
import { waitStatus } from "../lifecycle/steps";
import { containsUnknown, type Props } from "../model/table";
import { tableFor } from "../model/api-table";
import { idInput, madeSince } from "../model/rules";
import { resource, ref, mysql, postgres } from "./example-parents";
import { DATABASE_APIS, type DatabaseApis } from "../../api/contract/database-endpoints";
import {
  databaseSnapshotLabel,
  HIGH_AVAILABILITY_SIZE,
  MAX_SNAPSHOTS,
  SECONDARY_TARGET_RULE,
  snapshotTarget,
  type Database,
  type DatabaseBackup,
  type Engine,
} from "../../api/contract/databases";
import { pathOf } from "../../api/contract/endpoint";
import { DATABASE_SNAPSHOT_LABEL_CHAR } from "../../api/labels";
import { labelBounds } from "../../api/text";

/** A database backup as the API answers it (api/contract/databases.ts). */
export type DatabaseBackupApi = DatabaseBackup;

/** The API keeps at most this many snapshots of a database (rule 5). */
export { MAX_SNAPSHOTS };

const HUMAN: Record<Engine, string> = { mysql: "MySQL", postgresql: "PostgreSQL" };
const TYPE: Record<Engine, string> = { mysql: "MysqlDatabaseSnapshot", postgresql: "PostgresDatabaseSnapshot" };

/** A cluster id as a path takes it: what the inputs hold (a missing one names the parameter it lacks). */
const clusterOf = (props: { databaseId?: number }) => ({ instanceId: props.databaseId ?? "" });

export function databaseSnapshotSpec(engine: Engine) {
  const human = HUMAN[engine];
  const api = DATABASE_APIS[engine].backups;
  const spec = tableFor({ create: api.create, get: api.get, list: api.list })({
    type: TYPE[engine],
    noun: `${human} snapshot`,
    description: `A snapshot backup of a managed ${human} cluster (\`POST /databases/${engine}/instances/{databaseId}/backups\`). Create waits until the cluster has finished it (it is \`backing_up\` meanwhile); delete removes it. A cluster keeps at most ${MAX_SNAPSHOTS} snapshots: a program declares at most ${MAX_SNAPSHOTS} per cluster, and the API's refusal names the ones there are.${engine === "postgresql" ? " PostgreSQL's backup endpoints are not shown by the spec: they mirror MySQL's (docs/spec-gaps.md)." : ""}`,
    idFormat: "The API's integer backup id, as a string.",
    fields: [
      {
        name: "databaseId",
        kind: "input",
        required: true,
        forceNew: true,
        inPath: true,
        schema: idInput,
        description: `The ${human} cluster's id (\`database.id\`). It must be active. Changing it takes a snapshot of the other cluster.`,
      },
      {
        name: "label",
        kind: "input",
        computed: true,
        forceNew: true,
        schema: databaseSnapshotLabel,
        description:
          "1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot.",
      },
      {
        name: "target",
        kind: "input",
        forceNew: true,
        writeOnly: true,
        schema: snapshotTarget,
        description: "The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot.",
      },
      { name: "type", kind: "output", description: "`snapshot`." },
      { name: "created", kind: "output", description: "When the snapshot was started." },
    ],
    autoName: { field: "label", ...labelBounds("databaseSnapshotLabel"), allowed: DATABASE_SNAPSHOT_LABEL_CHAR, separators: "", joiner: "" },
    timeouts: { defaults: { create: "30m" }, note: "A snapshot can take several minutes." },
    collectionPath: (inputs) => pathOf(api.list, clusterOf(inputs)),
    itemPath: (id, props) => pathOf(api.get, { ...clusterOf(props), backupId: id }),
    // The create answers `{}`: the snapshot is found by its label, made since the create began.
    findExisting: (client, body, inputs, since) => findSnapshot(client, DATABASE_APIS[engine], inputs, body.label, since),
  });

  return spec;
}

/** The snapshot of `label` on the cluster, made since `since` (the newest, should there be two). */
async function findSnapshot(
  c: ApiClient,
  api: DatabaseApis,
  props: { databaseId?: number },
  label: unknown,
  since: number,
): Promise<DatabaseBackupApi | undefined> {
  const all = await c.all(api.backups.list, { params: clusterOf(props) });
  return all.filter((b) => b.type === "snapshot" && b.label === label && madeSince(b.created, since)).sort((a, b) => b.id - a.id)[0];
}

/** The API's refusal at its limit of snapshots (rule 5): its text names the limit. */
const atLimit = (err: unknown) => err instanceof ApiError && err.status === 400 && new RegExp(`at most ${MAX_SNAPSHOTS} snapshots`, "i").test(err.reasons);

/**
 * Takes the snapshot. Its answer is `{}`: the record is found by label afterwards; when the answer is lost,
 * the label tells whether it was taken before it is sent again. A refusal at the limit names what is there.
 */
async function take(c: ApiClient, api: DatabaseApis, body: Props, inputs: { databaseId?: number }): Promise<DatabaseBackupApi> {
  const since = Date.now();
  const find = () => findSnapshot(c, api, inputs, body.label, since);
  try {
    await act(c, pathOf(api.backups.create, clusterOf(inputs)), body, async () => (await find()) !== undefined);
  } catch (err) {
    if (atLimit(err)) {
      const there = (await c.all(api.backups.list, { params: clusterOf(inputs) })).filter((b) => b.type === "snapshot");
      throw new Error(
        `the database keeps at most ${MAX_SNAPSHOTS} snapshots and has ${there.length} (${there.map((b) => `${b.label}, id ${b.id}`).join("; ")}): delete one (or remove its resource from the program) first`,
      );
    }
    throw err;
  }
  for (let i = 0; i < 20; i++) {
    const made = await find();
    if (made) return made;
    await pause(100 * (i + 1), `looking for the snapshot "${String(body.label)}"`);
  }
  throw new Error(`the snapshot "${String(body.label)}" was taken but does not appear in the database's backups`);
}

/** The snapshot resources of this program on a database, this one included. */
function declareDatabaseSnapshot(program: ProgramContext, databaseId: string, name: string): string[] {
  const all = program.databaseSnapshots;
  const names = all.get(databaseId) ?? new Set<string>();
  names.add(name);
  all.set(databaseId, names);
  return [...names];
}

/** A database snapshot, per engine: at most 3 per cluster in a program, a wait until the cluster has taken it. */
export function databaseSnapshotDefinition(engine: Engine): ResourceDefinition<DatabaseBackupApi> {
  const spec = databaseSnapshotSpec(engine);
  const api = DATABASE_APIS[engine];
  return defineResource({
    spec,
    example:
      engine === "mysql"
        ? () => {
            const db = mysql();
            const snapshot = resource("MysqlDatabaseSnapshot", "before-migration", { databaseId: ref(db), label: "beforemigration" });
            return { title: "A snapshot of a MySQL cluster before a migration", resources: [db, snapshot], outputs: { snapshotId: ref(snapshot) } };
          }
        : () => {
            const db = postgres("app-db");
            const snapshot = resource("PostgresDatabaseSnapshot", "before-upgrade", { databaseId: ref(db), label: "beforeupgrade", target: "primary" });
            return {
              title: "A snapshot of a PostgreSQL cluster's primary node",
              resources: [db, snapshot],
              outputs: { snapshotId: ref(snapshot), snapshotCreated: ref(snapshot, "created") },
            };
          },
    lookup: {
      name: engine === "mysql" ? "getMysqlDatabaseBackups" : "getPostgresDatabaseBackups",
      listKey: "backups",
      // The spec asks read_write to list a cluster's backups (said for MySQL; PostgreSQL's are mirrored).
      scope:
        engine === "mysql"
          ? "`databases:read_write`: the spec asks read_write to list a cluster's backups, a read_only token is refused (403)"
          : "`databases:read_write`: the spec asks read_write to list a cluster's backups (said for MySQL; PostgreSQL's are mirrored), a read_only token is refused (403)",
      description: `The backups of a ${HUMAN[engine]} cluster: daily automatic ones and snapshots.`,
      parents: { databaseId: `${HUMAN[engine]} database` },
    },
    sdk: { file: engine === "mysql" ? "mysqlDatabaseSnapshot" : "postgresDatabaseSnapshot" },
    hooks: {
      async validate(news, olds, { program }, client) {
        const failures: CheckFailure[] = [];
        const db = news.databaseId;
        if (db === undefined || containsUnknown(db)) return failures;
        // Rule 6: a secondary node only in a high availability cluster; asked at preview for a new snapshot.
        if (news.target === "secondary" && !isExisting(olds)) {
          const cluster = await client()
            .find(api.clusters.get, { params: { instanceId: String(db) } })
            .catch(() => undefined);
          if (cluster && cluster.cluster_size !== HIGH_AVAILABILITY_SIZE) {
            failures.push({
              property: "target",
              reason: `target: ${SECONDARY_TARGET_RULE}, and ${HUMAN[engine]} database ${String(db)} has ${cluster.cluster_size} node${cluster.cluster_size === 1 ? "" : "s"}: use primary`,
            });
          }
        }
        const name = typeof news[RESOURCE_NAME] === "string" ? news[RESOURCE_NAME] : String(news.label);
        const names = declareDatabaseSnapshot(program, String(db), name);
        if (names.length > MAX_SNAPSHOTS) {
          failures.push({
            property: "databaseId",
            reason: `databaseId: database ${String(db)} keeps at most ${MAX_SNAPSHOTS} snapshots, and this program declares ${names.length} (${names.join(", ")})`,
          });
        }
        return failures;
      },
      send: (_create, { client, body, inputs }) => take(client, api, body, inputs),
      async afterCreate(ctx, made) {
        // The cluster is `backing_up` until the snapshot is done.
        const who = `${HUMAN[engine]} database ${String(ctx.props.databaseId)}`;
        await waitStatus<Database>(
          ctx.client,
          pathOf(api.clusters.get, clusterOf(ctx.props)),
          who,
          {
            what: `to finish snapshot ${made.id}`,
            done: (d) => d.status === "active",
            failed: (d) => (d.status === "failed" ? "the cluster is in status failed" : undefined),
            maxMs: 5_000,
            progressEveryMs: 15_000,
          },
          ctx.timeoutMs,
        );
        return made;
      },
    },
  });
}

export const mysqlDatabaseSnapshot = databaseSnapshotDefinition("mysql");
export const postgresDatabaseSnapshot = databaseSnapshotDefinition("postgresql");

// The inputs its examples may give (MysqlDatabaseSnapshot, PostgresDatabaseSnapshot): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    MysqlDatabaseSnapshot: ExampleProps<ReturnType<typeof databaseSnapshotSpec>["fields"]>;
    PostgresDatabaseSnapshot: ExampleProps<ReturnType<typeof databaseSnapshotSpec>["fields"]>;
  }
}
