import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ruleOf } from "../../api/contract/common";
import { databaseUpdate, mysqlCreate, postgresqlCreate, replicationRule, windowRule } from "../../api/contract/databases";
import type { StateHolder } from "../../emulator/family";
import { databaseFamily } from "../../emulator/routes/databases";
import { storedDatabase, storedDatabaseBackup } from "../../emulator/routes/databases/records";
import { sendable } from "../../provider/resources/database/steps";

/**
 * The database family's records as the contract types them (api/contract/databases.ts): the records the
 * emulators of earlier releases saved read by the stored schemas, the family's `references` (a backup's cluster
 * exists), the create bodies' defaults and the rules both sides read.
 */

const FIXTURES = ["upgrade-0.1.0", "upgrade-52033be", "upgrade-abb54eb", "upgrade-plugin-52033be", "upgrade-plugin-6ed01f0"];
const saved = (name: string): Record<string, unknown[]> =>
  JSON.parse(readFileSync(path.join(__dirname, "../fixtures", name, "emulator.json"), "utf8")) as Record<string, unknown[]>;
const holder = (data: Record<string, unknown>): StateHolder => ({ data }) as unknown as StateHolder;

describe("stored database records", () => {
  test.each(FIXTURES)("the records %s saved are the stored schemas' (clusters of both engines, backups)", (name) => {
    const data = saved(name);
    for (const db of data.databases) expect(storedDatabase.safeParse(db).error?.issues).toBeUndefined();
    for (const b of data.databaseBackups ?? []) expect(storedDatabaseBackup.safeParse(b).error?.issues).toBeUndefined();
    expect(databaseFamily.references?.(holder(data))).toEqual([]);
  });

  test("a backup of no cluster is refused, with its place", () => {
    const data = saved("upgrade-plugin-52033be");
    const [, mysql] = data.databases;
    expect(databaseFamily.references?.(holder({ ...data, databases: [data.databases[0]] }))).toEqual([
      { field: "records.databaseBackups[0].database_id", reason: "no database 2 in the account" },
    ]);
    expect(storedDatabase.safeParse({ ...Object(mysql), cluster_size: 2 }).success).toBe(false);
    expect(storedDatabase.safeParse({ ...Object(mysql), extra: 1 }).success).toBe(false);
  });
});

describe("the contract's database rules", () => {
  test("create bodies: the defaults, replication by size, the commit type PostgreSQL's only", () => {
    const base = { label: "db-1", region: "us-east", type: "c1-standard-2" };
    expect(mysqlCreate.parse({ ...base, engine: "mysql/8" })).toMatchObject({
      cluster_size: 1,
      encrypted: false,
      ssl_connection: true,
      replication_type: "none",
      allow_list: [],
    });
    expect(postgresqlCreate.parse({ ...base, engine: "postgresql/16.1", cluster_size: 3 })).toMatchObject({
      replication_type: "asynch",
      replication_commit_type: "local",
    });
    const mixed = mysqlCreate.safeParse({ ...base, engine: "mysql/8", replication_commit_type: "on" });
    expect(mixed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["replication_commit_type", "Only for PostgreSQL"]]);
  });

  test("replication and window rules", () => {
    expect(replicationRule("mysql", 1, "none")).toBeUndefined();
    expect(replicationRule("postgresql", 3, "asynch")).toBeUndefined();
    expect(replicationRule("postgresql", 3, "none")).toBe("a three-node cluster replicates: use asynch");
    expect(windowRule("monthly", 5)).toBe("must be 1 to 4 for a monthly window");
    expect(windowRule("weekly", null)).toBeUndefined();
    const issue = databaseUpdate.safeParse({ updates: { frequency: "weekly", duration: 1, hour_of_day: 25, day_of_week: 1 } }).error?.issues[0];
    expect(issue && [issue.message, ruleOf(issue)]).toEqual(["Must be 0 to 23", "must be 0 to 23"]);
  });

  test("the provider sends what the contract takes, and names the field of what it would refuse", () => {
    expect(sendable(databaseUpdate, { label: "db-2", extra: true }, "the update")).toEqual({ label: "db-2" });
    expect(() => sendable(databaseUpdate, { updates: { frequency: "weekly", duration: 1, hour_of_day: 0, day_of_week: null } }, "the update")).toThrow(
      "the update: updates.day_of_week: Must be 1 (Monday) to 7 (Sunday)",
    );
  });
});
