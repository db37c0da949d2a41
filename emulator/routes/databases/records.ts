import { collections } from "../../family";
import type { Step } from "../../state";

/** The database family's records (managed clusters and their backups) and its collections in the state file. */

export type Engine = "mysql" | "postgresql";

export interface DatabaseRecord {
  id: number;
  engine: "mysql" | "postgresql";
  label: string;
  version: string;
  region: string;
  type: string;
  cluster_size: 1 | 3;
  encrypted: boolean;
  ssl_connection: boolean;
  replication_type: string;
  replication_commit_type?: string;
  allow_list: string[];
  hosts: { primary: string | null; secondary: string | null };
  port: number;
  status: string;
  total_disk_size_gb: number;
  used_disk_size_gb: number;
  created: string;
  updated: string;
  updates: { frequency: string; duration: number; hour_of_day: number; day_of_week: number; week_of_month: number | null };
  _owner: string;
  _queue: Step[];
  _password: string;
  _ca: string;
  /** Set by a credentials reset: a restore after one leaves the cluster failed (rule 7). */
  _resetSinceBackup: boolean;
}

export interface DatabaseBackupRecord {
  id: number;
  database_id: number;
  label: string;
  type: "snapshot" | "auto";
  created: string;
  /** When the backup finishes (a snapshot takes a while; it blocks other snapshots until then). */
  _doneAt: number;
}

/** The database family's collections in the state file. */
export interface DatabaseState {
  databases: DatabaseRecord[];
  databaseBackups: DatabaseBackupRecord[];
}

export const databaseState = collections<DatabaseState>({ databases: [], databaseBackups: [] });
