import * as pulumi from "@pulumi/pulumi";
import { registration } from "./secrets";
import { shim } from "./shim";

export interface MaintenanceWindow {
  frequency?: "weekly" | "monthly";
  duration?: number;
  hourOfDay?: number;
  dayOfWeek?: number;
  weekOfMonth?: number | null;
}

export interface DatabaseArgs {
  /** Auto-named `<resource name>-<suffix>` when left out. */
  label?: pulumi.Input<string>;
  region: pulumi.Input<string>;
  type: pulumi.Input<string>;
  /** `mysql/<version>` or `postgresql/<version>`. */
  engine: pulumi.Input<string>;
  clusterSize?: pulumi.Input<1 | 3>;
  encrypted?: pulumi.Input<boolean>;
  sslConnection?: pulumi.Input<boolean>;
  replicationType?: pulumi.Input<string>;
  allowList?: pulumi.Input<pulumi.Input<string>[]>;
  updates?: pulumi.Input<MaintenanceWindow>;
  timeouts?: pulumi.Input<{ create?: string; update?: string; delete?: string }>;
}

export interface PostgresDatabaseArgs extends DatabaseArgs {
  replicationCommitType?: pulumi.Input<"on" | "local" | "remote_write" | "remote_apply" | "off">;
}

abstract class Database extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  declare readonly region: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly engine: pulumi.Output<string>;
  declare readonly clusterSize: pulumi.Output<number>;
  declare readonly encrypted: pulumi.Output<boolean>;
  declare readonly sslConnection: pulumi.Output<boolean>;
  declare readonly replicationType: pulumi.Output<string>;
  declare readonly allowList: pulumi.Output<string[]>;
  declare readonly updates: pulumi.Output<Required<MaintenanceWindow>>;
  declare readonly status: pulumi.Output<string>;
  declare readonly hosts: pulumi.Output<{ primary: string | null; secondary: string | null }>;
  declare readonly port: pulumi.Output<number>;
  declare readonly version: pulumi.Output<string>;
  declare readonly totalDiskSizeGb: pulumi.Output<number>;
  declare readonly usedDiskSizeGb: pulumi.Output<number>;
  /** Secret. */
  declare readonly username: pulumi.Output<string>;
  /** Secret; read again on refresh. */
  declare readonly password: pulumi.Output<string>;
  /** Secret: the base64 CA certificate. */
  declare readonly caCertificate: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;
}

const mysql = shim("MysqlDatabase");
const postgres = shim("PostgresDatabase");

/** A managed MySQL cluster. See docs/resources/mysql-database.md. */
export class MysqlDatabase extends Database {
  /**
   * Reads an existing MysqlDatabase by its id, without managing it (Pulumi's `get`): its outputs are what the API shows.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DatabaseArgs>, opts?: pulumi.CustomResourceOptions): MysqlDatabase {
    return new MysqlDatabase(name, (state ?? {}) as DatabaseArgs, { ...opts, id });
  }

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(mysql, name, ...registration("MysqlDatabase", name, args, opts), "compute", "MysqlDatabase");
  }
}

/** A managed PostgreSQL cluster. See docs/resources/postgres-database.md. */
export class PostgresDatabase extends Database {
  declare readonly replicationCommitType: pulumi.Output<string>;
  /**
   * Reads an existing PostgresDatabase by its id, without managing it (Pulumi's `get`): its outputs are what the API shows.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<PostgresDatabaseArgs>, opts?: pulumi.CustomResourceOptions): PostgresDatabase {
    return new PostgresDatabase(name, (state ?? {}) as PostgresDatabaseArgs, { ...opts, id });
  }

  constructor(name: string, args: PostgresDatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(postgres, name, ...registration("PostgresDatabase", name, args, opts), "compute", "PostgresDatabase");
  }
}
