// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/mysqlDatabaseSnapshot");

/** The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot. The values of `MysqlDatabaseSnapshotTarget`. */
export const MysqlDatabaseSnapshotTarget = {
  Primary: "primary",
  Secondary: "secondary",
} as const;
export type MysqlDatabaseSnapshotTarget = (typeof MysqlDatabaseSnapshotTarget)[keyof typeof MysqlDatabaseSnapshotTarget];

/** The arguments of MysqlDatabaseSnapshot: its inputs. */
export interface MysqlDatabaseSnapshotArgs {
  /** The MySQL cluster's id (`database.id`). It must be active. Changing it takes a snapshot of the other cluster. */
  databaseId: pulumi.Input<number | string>;
  /** 1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot. */
  label?: pulumi.Input<string>;
  /** The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot. */
  target?: pulumi.Input<string | MysqlDatabaseSnapshotTarget>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). A snapshot can take several minutes. */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string> }>;
}

/** A snapshot backup of a managed MySQL cluster (`POST /databases/mysql/instances/{databaseId}/backups`). Create waits until the cluster has finished it (it is `backing_up` meanwhile); delete removes it. A cluster keeps at most 3 snapshots: a program declares at most 3 per cluster, and the API's refusal names the ones there are. See docs/resources/mysql-database-snapshot.md. */
export class MysqlDatabaseSnapshot extends pulumi.dynamic.Resource {
  /** The MySQL cluster's id (`database.id`). It must be active. Changing it takes a snapshot of the other cluster. */
  declare readonly databaseId: pulumi.Output<number>;
  /** 1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot. */
  declare readonly label: pulumi.Output<string>;
  /** The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot. */
  declare readonly target: pulumi.Output<MysqlDatabaseSnapshotTarget | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). A snapshot can take several minutes. */
  declare readonly timeouts: pulumi.Output<{ create?: string } | undefined>;
  /** `snapshot`. */
  declare readonly type: pulumi.Output<string>;
  /** When the snapshot was started. */
  declare readonly created: pulumi.Output<string>;

  /** Reads an existing MysqlDatabaseSnapshot by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`databaseId`). */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: Partial<MysqlDatabaseSnapshotArgs>,
    opts?: pulumi.CustomResourceOptions,
  ): MysqlDatabaseSnapshot {
    return new MysqlDatabaseSnapshot(name, (state ?? {}) as MysqlDatabaseSnapshotArgs, { ...opts, id });
  }

  constructor(name: string, args: MysqlDatabaseSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("MysqlDatabaseSnapshot", name, args, opts), "compute", "MysqlDatabaseSnapshot");
  }
}
