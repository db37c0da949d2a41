import { RESOURCE_NAME } from "../model/marks";
import { pause } from "../lifecycle/cancel";
import { z } from "zod";
import { ApiError, type ApiClient } from "../transport/client";
import type { CheckFailure } from "../model/check";
import type { ProgramContext } from "../program";
import { defineResource, type ResourceDefinition } from "../definition";
import { act } from "../lifecycle/lost-answers";
import { isExisting } from "../model/naming";
import { waitStatus } from "../lifecycle/steps";
import { containsUnknown, type Props, type ResourceSpec, table } from "../model/table";
import { idInput, madeSince, rule } from "../model/rules";
import type { Engine } from "./database";
import { resource, ref, mysql, postgres } from "./example-parents";
import { databaseSnapshotLabelError } from "../../api/labels";
import { labelBounds } from "../../api/text";

export interface DatabaseBackupApi {
  id: number;
  label: string;
  type: "snapshot" | "auto";
  created: string;
}

/** The API keeps at most this many snapshots of a database (rule 5). */
export const MAX_SNAPSHOTS = 3;

const HUMAN: Record<Engine, string> = { mysql: "MySQL", postgresql: "PostgreSQL" };
const TYPE: Record<Engine, string> = { mysql: "MysqlDatabaseSnapshot", postgresql: "PostgresDatabaseSnapshot" };
const databasePath = (engine: Engine, id: unknown) => `/databases/${engine}/instances/${encodeURIComponent(String(id))}`;

export function databaseSnapshotSpec(engine: Engine) {
  const human = HUMAN[engine];
  const spec = table<DatabaseBackupApi>()({
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
        schema: rule(databaseSnapshotLabelError),
        description:
          "1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot.",
      },
      {
        name: "target",
        kind: "input",
        forceNew: true,
        writeOnly: true,
        schema: z.enum(["primary", "secondary"]),
        description: "The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot.",
      },
      { name: "type", kind: "output", description: "`snapshot`." },
      { name: "created", kind: "output", description: "When the snapshot was started." },
    ],
    autoName: { field: "label", ...labelBounds("databaseSnapshotLabel"), allowed: /[A-Za-z0-9]/, separators: "", joiner: "" },
    timeouts: { defaults: { create: "30m" }, note: "A snapshot can take several minutes." },
    collectionPath: (inputs) => `${databasePath(engine, inputs.databaseId)}/backups`,
    itemPath: (id, props) => `${databasePath(engine, props.databaseId)}/backups/${encodeURIComponent(id)}`,
    // The create answers `{}`: the snapshot is found by its label, made since the create began.
    async findExisting(client, body, inputs, since): Promise<DatabaseBackupApi | undefined> {
      const all = await client.list<DatabaseBackupApi>(spec.collectionPath(inputs));
      return all.filter((b) => b.type === "snapshot" && b.label === body.label && madeSince(b.created, since)).sort((a, b) => b.id - a.id)[0];
    },
  });

  return spec;
}

/**
 * Takes the snapshot. Its answer is `{}`: the record is found by label afterwards; when the answer is lost,
 * the label tells whether it was taken before it is sent again. A refusal at the limit names what is there.
 */
async function take(c: ApiClient, spec: ResourceSpec<DatabaseBackupApi>, body: Props, inputs: Props): Promise<DatabaseBackupApi> {
  const since = Date.now();
  const find = () => spec.findExisting!(c, body, inputs, since);
  try {
    await act(c, spec.collectionPath(inputs), body, async () => (await find()) !== undefined);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400 && /at most 3/i.test(err.reasons)) {
      const there = (await c.list<DatabaseBackupApi>(spec.collectionPath(inputs))).filter((b) => b.type === "snapshot");
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
            .get<{ cluster_size: number }>(databasePath(engine, db), true)
            .catch(() => undefined);
          if (cluster && cluster.cluster_size !== 3) {
            failures.push({
              property: "target",
              reason: `target: secondary applies to a high availability (three-node) cluster, and ${HUMAN[engine]} database ${String(db)} has ${cluster.cluster_size} node${cluster.cluster_size === 1 ? "" : "s"}: use primary`,
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
      send: (_create, { client, body, inputs }) => take(client, spec, body, inputs),
      async afterCreate(ctx, made) {
        // The cluster is `backing_up` until the snapshot is done.
        const who = `${HUMAN[engine]} database ${String(ctx.props.databaseId)}`;
        await waitStatus<{ status: string }>(
          ctx.client,
          databasePath(engine, ctx.props.databaseId),
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
