import { MAX_SNAPSHOTS } from "../../../api/contract/databases";
import { recordField, type Refusal, type Renumber, type StateHolder } from "../../family";
import { databaseState } from "./records";
import { engineNotFound, engineOf, LABEL_TAKEN, regionRefusal, typeNotFound, typeOf } from "./rules";

/**
 * What the database family's records must hold between them and with the catalogue (the family's `references`):
 * a cluster's maker is a user of the account, its label unique among the clusters, its region one of the
 * catalogue's with managed databases, its type and `engine/version` the catalogue's (what its create checked); a
 * backup's cluster exists, which keeps at most MAX_SNAPSHOTS snapshots.
 */
export function databaseReferences(state: StateHolder): Refusal[] {
  const { databases, databaseBackups } = databaseState(state);
  const users = new Set(state.data.users.map((u) => u.username));
  const refusals: Refusal[] = [];
  const refuse = (index: number, field: string, reason: string) => refusals.push({ field: recordField("databases", index, field), reason });
  const labels = new Set<string>();
  databases.forEach((db, i) => {
    if (!users.has(db._owner)) refuse(i, "_owner", `no user ${db._owner} in the account`);
    if (labels.has(db.label)) refuse(i, "label", LABEL_TAKEN);
    labels.add(db.label);
    const region = regionRefusal(db.region);
    if (region) refuse(i, "region", region);
    if (!typeOf(db.type)) refuse(i, "type", typeNotFound(db.type));
    const engine = `${db.engine}/${db.version}`;
    if (!engineOf(db.engine, engine)) refuse(i, "version", engineNotFound(db.engine, engine));
  });
  const ids = new Set(databases.map((db) => db.id));
  const snapshots = new Map<number, number>();
  databaseBackups.forEach((b, i) => {
    const field = recordField("databaseBackups", i, "database_id");
    if (!ids.has(b.database_id)) return refusals.push({ field, reason: `no database ${b.database_id} in the account` });
    if (b.type !== "snapshot") return;
    const n = (snapshots.get(b.database_id) ?? 0) + 1;
    snapshots.set(b.database_id, n);
    if (n > MAX_SNAPSHOTS) refusals.push({ field, reason: `A database keeps at most ${MAX_SNAPSHOTS} snapshots: database ${b.database_id} has more` });
  });
  return refusals;
}

/** The family's ids renumbered (ApiFamily `renumber`): its clusters' (`database`, the restricted users' grants too), its backups' (`dbbackup`, and their cluster). */
export function renumberDatabases(state: StateHolder, to: Renumber): void {
  const { databases, databaseBackups } = databaseState(state);
  for (const db of databases) db.id = to("database", db.id);
  for (const b of databaseBackups) {
    b.id = to("dbbackup", b.id);
    b.database_id = to("database", b.database_id);
  }
  for (const user of state.data.users) if (user.grants) user.grants.database = user.grants.database.map((g) => ({ ...g, id: to("database", g.id) }));
}
