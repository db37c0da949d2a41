// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import type { MaintenanceWindow, MaintenanceWindowFrequency } from "./types";
import provider = require("./providers/postgresDatabase");

/** 1 node, or 3 (a primary and two replicas). Changing it replaces the cluster. The values of `PostgresDatabaseClusterSize`. */
export const PostgresDatabaseClusterSize = {
  V1: 1,
  V3: 3,
} as const;
export type PostgresDatabaseClusterSize = (typeof PostgresDatabaseClusterSize)[keyof typeof PostgresDatabaseClusterSize];

/** `none`, `asynch`: `none` for one node, another for three. Changing it replaces the cluster. The values of `PostgresDatabaseReplicationType`. */
export const PostgresDatabaseReplicationType = {
  None: "none",
  Asynch: "asynch",
} as const;
export type PostgresDatabaseReplicationType = (typeof PostgresDatabaseReplicationType)[keyof typeof PostgresDatabaseReplicationType];

/** Synchronization level of the replicas (default `local`). Changing it replaces the cluster. The values of `PostgresDatabaseReplicationCommitType`. */
export const PostgresDatabaseReplicationCommitType = {
  On: "on",
  Local: "local",
  RemoteWrite: "remote_write",
  RemoteApply: "remote_apply",
  Off: "off",
} as const;
export type PostgresDatabaseReplicationCommitType = (typeof PostgresDatabaseReplicationCommitType)[keyof typeof PostgresDatabaseReplicationCommitType];

/** The arguments of PostgresDatabase: its inputs. */
export interface PostgresDatabaseArgs {
  /** 3..32 characters, unique among your databases; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** Region id (one offering managed databases). Changing it replaces the cluster (a new, empty one). */
  region: pulumi.Input<string>;
  /** Instance type of the nodes. Changed in place, to a type with more disk only: a smaller one is refused at preview. */
  type: pulumi.Input<string>;
  /** `engine/version`. Versions are never upgraded in place: changing it replaces the cluster. */
  engine: pulumi.Input<string>;
  /** 1 node, or 3 (a primary and two replicas). Changing it replaces the cluster. */
  clusterSize?: pulumi.Input<number | PostgresDatabaseClusterSize>;
  /** Encryption at rest (default false). Changing it replaces the cluster. */
  encrypted?: pulumi.Input<boolean>;
  /** Require SSL to connect (default true). Changing it replaces the cluster. */
  sslConnection?: pulumi.Input<boolean>;
  /** `none`, `asynch`: `none` for one node, another for three. Changing it replaces the cluster. */
  replicationType?: pulumi.Input<string | PostgresDatabaseReplicationType>;
  /** Synchronization level of the replicas (default `local`). Changing it replaces the cluster. */
  replicationCommitType?: pulumi.Input<string | PostgresDatabaseReplicationCommitType>;
  /** IP addresses and CIDR ranges that may connect; empty blocks everything, `0.0.0.0/0` admits all. Changed in place (the provider waits until it is applied). */
  allowList?: pulumi.Input<pulumi.Input<string>[]>;
  /** Maintenance window: `frequency` (`weekly`, `monthly`), `duration` (1..3 h), `hourOfDay` (0..23), `dayOfWeek` (1..7), `weekOfMonth` (1..4, monthly). Changed in place. */
  updates?: pulumi.Input<MaintenanceWindow>;
  /** Any value (a date, a counter): a new value resets the root credentials in place (a new random `password`, read back as the secret output), so a rotation is one config change. Left out or removed, nothing is reset. Refused while the cluster restores a backup (a reset then would leave it failed). */
  passwordRotation?: pulumi.Input<string>;
  /** The id of one of this cluster's backups (`getMysqlDatabaseBackups`/`getPostgresDatabaseBackups`, or a `MysqlDatabaseSnapshot`'s id) to restore into it in place: **a restore erases all the cluster's data and replaces it with the backup's** (rule 7). Setting it or changing it restores (the id stays the same; the provider waits until the cluster is active again and reads the credentials again); removing it restores nothing. Checked at preview: the backup must be one of this cluster's. A new cluster (or a replacement) has no backups of its own: there the value is recorded and nothing is restored (a line says so). A restore after a credentials reset leaves the cluster failed (rule 7): in one update, the restore comes first and a `passwordRotation` after it. */
  restoreBackupId?: pulumi.Input<number | string>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 60m), `update` (default 30m), `delete` (default 20m). */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string>; update?: pulumi.Input<string>; delete?: pulumi.Input<string> }>;
}

/** A managed PostgreSQL cluster (`/databases/postgresql/instances`). Create waits until it is active (the real service takes 15 to 30 minutes; a progress line every 30 s). The root `username`, `password` and `caCertificate` are secret outputs, read again on every refresh (a credentials reset made elsewhere shows up). **A replacement makes a new, empty cluster**: the preview shows it as a replace, and the old cluster is deleted only once the new one is active. See docs/resources/postgres-database.md. */
export class PostgresDatabase extends pulumi.dynamic.Resource {
  /** 3..32 characters, unique among your databases; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** Region id (one offering managed databases). Changing it replaces the cluster (a new, empty one). */
  declare readonly region: pulumi.Output<string>;
  /** Instance type of the nodes. Changed in place, to a type with more disk only: a smaller one is refused at preview. */
  declare readonly type: pulumi.Output<string>;
  /** `engine/version`. Versions are never upgraded in place: changing it replaces the cluster. */
  declare readonly engine: pulumi.Output<string>;
  /** 1 node, or 3 (a primary and two replicas). Changing it replaces the cluster. */
  declare readonly clusterSize: pulumi.Output<PostgresDatabaseClusterSize>;
  /** Encryption at rest (default false). Changing it replaces the cluster. */
  declare readonly encrypted: pulumi.Output<boolean>;
  /** Require SSL to connect (default true). Changing it replaces the cluster. */
  declare readonly sslConnection: pulumi.Output<boolean>;
  /** `none`, `asynch`: `none` for one node, another for three. Changing it replaces the cluster. */
  declare readonly replicationType: pulumi.Output<PostgresDatabaseReplicationType>;
  /** Synchronization level of the replicas (default `local`). Changing it replaces the cluster. */
  declare readonly replicationCommitType: pulumi.Output<PostgresDatabaseReplicationCommitType>;
  /** IP addresses and CIDR ranges that may connect; empty blocks everything, `0.0.0.0/0` admits all. Changed in place (the provider waits until it is applied). */
  declare readonly allowList: pulumi.Output<string[]>;
  /** Maintenance window: `frequency` (`weekly`, `monthly`), `duration` (1..3 h), `hourOfDay` (0..23), `dayOfWeek` (1..7), `weekOfMonth` (1..4, monthly). Changed in place. */
  declare readonly updates: pulumi.Output<{
    frequency: MaintenanceWindowFrequency;
    duration: number;
    hourOfDay: number;
    dayOfWeek: number;
    weekOfMonth: number | null;
  }>;
  /** Any value (a date, a counter): a new value resets the root credentials in place (a new random `password`, read back as the secret output), so a rotation is one config change. Left out or removed, nothing is reset. Refused while the cluster restores a backup (a reset then would leave it failed). */
  declare readonly passwordRotation: pulumi.Output<string | undefined>;
  /** The id of one of this cluster's backups (`getMysqlDatabaseBackups`/`getPostgresDatabaseBackups`, or a `MysqlDatabaseSnapshot`'s id) to restore into it in place: **a restore erases all the cluster's data and replaces it with the backup's** (rule 7). Setting it or changing it restores (the id stays the same; the provider waits until the cluster is active again and reads the credentials again); removing it restores nothing. Checked at preview: the backup must be one of this cluster's. A new cluster (or a replacement) has no backups of its own: there the value is recorded and nothing is restored (a line says so). A restore after a credentials reset leaves the cluster failed (rule 7): in one update, the restore comes first and a `passwordRotation` after it. */
  declare readonly restoreBackupId: pulumi.Output<number | string | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 60m), `update` (default 30m), `delete` (default 20m). */
  declare readonly timeouts: pulumi.Output<{ create?: string; update?: string; delete?: string } | undefined>;
  /** `provisioning`, `active`, `updating`, `backing_up`, `restoring`, `failed`, ... */
  declare readonly status: pulumi.Output<string>;
  /** `primary` and `secondary` host names (set when provisioning completes); `standby` where the API names the replicas' host so (its current platform). */
  declare readonly hosts: pulumi.Output<{ primary: string | null; secondary: string | null; standby?: string | null }>;
  /** The port to connect to. */
  declare readonly port: pulumi.Output<number>;
  /** The engine version. */
  declare readonly version: pulumi.Output<string>;
  /** Disk size in GB. */
  declare readonly totalDiskSizeGb: pulumi.Output<number>;
  /** Disk used in GB. */
  declare readonly usedDiskSizeGb: pulumi.Output<number>;
  /** The root user (secret). */
  declare readonly username: pulumi.Output<string>;
  /** The root password (secret), read again on refresh. */
  declare readonly password: pulumi.Output<string>;
  /** The base64 CA certificate (secret). */
  declare readonly caCertificate: pulumi.Output<string>;
  /** When the cluster was created. */
  declare readonly created: pulumi.Output<string>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;
  /** What it costs an hour: the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`), from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  declare readonly hourlyPrice: pulumi.Output<number | undefined>;
  /** What it costs a month: the price of a cluster of `clusterSize` nodes of its type with its engine (the API's `/databases/types`), from the API's catalogue, in US dollars: known at preview through the plugin (a resize shows its price change), read anew by `pulumi refresh` (a change of the catalogue shows as drift). */
  declare readonly monthlyPrice: pulumi.Output<number | undefined>;

  /** Reads an existing PostgresDatabase by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<PostgresDatabaseArgs>, opts?: pulumi.CustomResourceOptions): PostgresDatabase {
    return new PostgresDatabase(name, (state ?? {}) as PostgresDatabaseArgs, { ...opts, id });
  }

  constructor(name: string, args: PostgresDatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("PostgresDatabase", name, args, opts), "compute", "PostgresDatabase");
  }
}
