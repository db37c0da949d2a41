// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// An enum input is `string | Enum`, Pulumi's convention for generated SDKs: a program passing a plain string compiles.
/* eslint-disable @typescript-eslint/no-redundant-type-constituents */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/postgresDatabaseSnapshot");

/** The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot. The values of `PostgresDatabaseSnapshotTarget`. */
export const PostgresDatabaseSnapshotTarget = {
  Primary: "primary",
  Secondary: "secondary",
} as const;
export type PostgresDatabaseSnapshotTarget = (typeof PostgresDatabaseSnapshotTarget)[keyof typeof PostgresDatabaseSnapshotTarget];

/** The arguments of PostgresDatabaseSnapshot: its inputs. */
export interface PostgresDatabaseSnapshotArgs {
  /** The PostgreSQL cluster's id (`database.id`). It must be active. Changing it takes a snapshot of the other cluster. */
  databaseId: pulumi.Input<number | string>;
  /** 1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot. */
  label?: pulumi.Input<string>;
  /** The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot. */
  target?: pulumi.Input<string | PostgresDatabaseSnapshotTarget>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). A snapshot can take several minutes. */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string> }>;
}

/** A snapshot backup of a managed PostgreSQL cluster (`POST /databases/postgresql/instances/{databaseId}/backups`). Create waits until the cluster has finished it (it is `backing_up` meanwhile); delete removes it. A cluster keeps at most 3 snapshots: a program declares at most 3 per cluster, and the API's refusal names the ones there are. PostgreSQL's backup endpoints are not shown by the spec: they mirror MySQL's (docs/spec-gaps.md). See docs/resources/postgres-database-snapshot.md. */
export class PostgresDatabaseSnapshot extends pulumi.dynamic.Resource {
  /** The PostgreSQL cluster's id (`database.id`). It must be active. Changing it takes a snapshot of the other cluster. */
  declare readonly databaseId: pulumi.Output<number>;
  /** 1..30 ASCII letters and digits, display only; auto-named `<resource name><suffix>` (letters and digits) when left out. Changing it takes a new snapshot. */
  declare readonly label: pulumi.Output<string>;
  /** The node to snapshot: `primary` (the default) or `secondary` (a three-node cluster only). Changing it takes a new snapshot. */
  declare readonly target: pulumi.Output<PostgresDatabaseSnapshotTarget | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). A snapshot can take several minutes. */
  declare readonly timeouts: pulumi.Output<{ create?: string } | undefined>;
  /** `snapshot`. */
  declare readonly type: pulumi.Output<string>;
  /** When the snapshot was started. */
  declare readonly created: pulumi.Output<string>;

  /** Reads an existing PostgresDatabaseSnapshot by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`databaseId`). */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: Partial<PostgresDatabaseSnapshotArgs>,
    opts?: pulumi.CustomResourceOptions,
  ): PostgresDatabaseSnapshot {
    return new PostgresDatabaseSnapshot(name, (state ?? {}) as PostgresDatabaseSnapshotArgs, { ...opts, id });
  }

  constructor(name: string, args: PostgresDatabaseSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("PostgresDatabaseSnapshot", name, args, opts), "compute", "PostgresDatabaseSnapshot");
  }
}
