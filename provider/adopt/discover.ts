/**
 * What an account holds, as `compute-adopt` finds it: every record of the fourteen resource types that the
 * account's token can list, each with its import id (its parents' ids first: `<computeId>/<diskId>`), its parent,
 * what the filters read (region, tags, label), and, for what cannot be adopted, why. Read only: list calls of the
 * contract's rows, nothing else.
 */
import { API } from "../../api/contract";
import { ApiError, type ApiClient } from "../transport/client";

/** One record found: a resource to adopt, or one that cannot be (`reason`). */
export interface Found {
  /** The resource type (`Instance`, `Disk`...). */
  type: string;
  /** The id `pulumi import` takes: the parents' ids, then the record's own. */
  importId: string;
  /** The record's own id (an image's `private/12`). */
  id: string;
  /** Its label (the logical name is made from it), if it has one. */
  label: string;
  /** The record this one belongs to (a disk's instance, a subnet's VPC), adopted with it. */
  parent?: Found;
  /** What the filters read: the region and tags of the record, or of its parent. */
  region?: string;
  tags?: string[];
  /** Why it is not adopted (it is listed with this reason instead). */
  reason?: string;
}

/** The records the filters select from (each type that is not a child of another). */
export const TOP_LEVEL = ["Instance", "Vpc", "Image", "MysqlDatabase", "PostgresDatabase", "SshKey", "Token"] as const;
export type TopLevelType = (typeof TOP_LEVEL)[number];

const child = (parent: Found, type: string, id: string | number, label: string | null | undefined, reason?: string): Found => ({
  type,
  importId: `${parent.importId}/${id}`,
  id: String(id),
  label: label || `${type.toLowerCase()}-${id}`,
  parent,
  region: parent.region,
  tags: parent.tags,
  ...(reason ? { reason } : {}),
});

/** A type whose records could not be listed (the token lacks the scope), with the API's answer. */
export interface Unlisted {
  type: string;
  reason: string;
}

const DEPLOYED = "the Instance manages it (its image, swapSize and interfaces)";

/**
 * Every record of the account, parents before their children, and what another record may refer to (a subnet, a
 * disk) before it; a type the token may not list is `unlisted` when `types` (the filters') is empty or names it. An instance deployed from an image has
 * its disks, profiles and interfaces made by the deploy and managed through the instance's own inputs (`image`,
 * `swapSize`, `interfaces`): they are listed as not adopted, so that no two resources manage one record. A type the
 * token may not list (403) is `unlisted`, with the API's answer; a record whose own lists fail (deleted while the
 * account is read: 404, or refused) is not adopted, with why; any other failure stops the reading.
 */
export async function discover(client: ApiClient, types: readonly string[] = []): Promise<{ found: Found[]; unlisted: Unlisted[] }> {
  const found: Found[] = [];
  const unlisted: Unlisted[] = [];
  /**
   * Lists a top-level type's records: every type, so that each record's name is the same whatever the filters
   * (names are unique in the whole account); one the token may not list is named when the filters select it.
   */
  const family = async <T>(type: string, list: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await list();
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) {
        if (!types.length || types.includes(type)) unlisted.push({ type, reason: e.message });
        return [];
      }
      throw e;
    }
  };
  /** A record and what belongs to it (read by `children`); the record alone, with why, when those reads fail. */
  const withChildren = async (record: Found, children: () => Promise<Found[]>): Promise<void> => {
    found.push(record);
    try {
      found.push(...(await children()));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status < 400 || e.status >= 500) throw e;
      record.reason = e.status === 404 ? "it was deleted while the account was read" : `what belongs to it could not be read: ${e.message}`;
    }
  };
  for (const k of await family("SshKey", () => client.all(API.sshKeys.list, {})))
    found.push({ type: "SshKey", importId: String(k.id), id: String(k.id), label: k.label });
  for (const v of await family("Vpc", () => client.all(API.vpcs.list, {}))) {
    const vpc: Found = { type: "Vpc", importId: String(v.id), id: String(v.id), label: v.label, region: v.region };
    await withChildren(vpc, async () =>
      (await client.all(API.subnets.list, { params: { vpcId: String(v.id) } })).map((s) => child(vpc, "Subnet", s.id, s.label)),
    );
  }
  for (const i of await family("Instance", () => client.all(API.instances.list, {}))) {
    const instance: Found = { type: "Instance", importId: String(i.id), id: String(i.id), label: i.label, region: i.region, tags: i.tags };
    const params = { computeId: String(i.id) };
    const deployed = i.image ? `made by the instance's deploy of ${i.image}: ${DEPLOYED}` : undefined;
    await withChildren(instance, async () => {
      const own: Found[] = [];
      for (const d of await client.all(API.disks.list, { params })) own.push(child(instance, "Disk", d.id, d.label, deployed));
      for (const c of await client.all(API.configs.list, { params })) {
        const config = child(instance, "Config", c.id, c.label, deployed);
        own.push(config, ...(c.interfaces ?? []).map((f) => child(config, "Interface", f.id, f.label || f.purpose, deployed)));
      }
      const backups = await client.call(API.backups.list, { params });
      const snapshot = backups.snapshot.current;
      if (snapshot) own.push(child(instance, "InstanceSnapshot", snapshot.id, snapshot.label));
      for (const b of backups.automatic)
        own.push(
          child(instance, "InstanceSnapshot", b.id, b.label, "an automatic backup, made and deleted by the backup service (the Instance's backupsEnabled)"),
        );
      return own;
    });
  }
  for (const img of await family("Image", () => client.all(API.images.list, {}))) {
    if (img.is_public) continue; // the catalogue's, not the account's
    const reason =
      img.status !== "available"
        ? `its status is ${img.status}: an image is adopted once it is available`
        : img.type === "automatic"
          ? "an automatic image, made by the API when an instance is deleted"
          : undefined;
    found.push({ type: "Image", importId: img.id, id: img.id, label: img.label, tags: img.tags, ...(reason ? { reason } : {}) });
  }
  for (const [type, dbs, backups] of [
    ["MysqlDatabase", API.mysqlDatabases, API.mysqlBackups],
    ["PostgresDatabase", API.postgresqlDatabases, API.postgresqlBackups],
  ] as const) {
    const snapshotType = type === "MysqlDatabase" ? "MysqlDatabaseSnapshot" : "PostgresDatabaseSnapshot";
    for (const db of await family(type, () => client.all(dbs.list, {}))) {
      const database: Found = { type, importId: String(db.id), id: String(db.id), label: db.label, region: db.region };
      await withChildren(database, async () =>
        (await client.all(backups.list, { params: { instanceId: String(db.id) } })).map((b) =>
          child(database, snapshotType, b.id, b.label, b.type === "snapshot" ? undefined : "an automatic backup, made and deleted by the database service"),
        ),
      );
    }
  }
  for (const t of await family("Token", () => client.all(API.tokens.list, {})))
    found.push({
      type: "Token",
      importId: String(t.id),
      id: String(t.id),
      label: t.label,
      reason:
        "a personal access token: its secret is shown only when it is made, and a stack that manages it (the one this program runs with, perhaps) revokes it on destroy. Import one with pulumi import compute:index:Token if you mean to",
    });
  return { found, unlisted };
}

/** Whether a record is a top-level one (the filters select these; children follow their parent). */
export const isTopLevel = (f: Found): boolean => (TOP_LEVEL as readonly string[]).includes(f.type);
