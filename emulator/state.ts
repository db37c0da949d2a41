import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

export interface GlobalGrants {
  account_access: string | null;
  add_databases: boolean;
  add_domains: boolean;
  add_firewalls: boolean;
  add_images: boolean;
  add_computes: boolean;
  add_monitoring: boolean;
  add_nodebalancers: boolean;
  add_scripts: boolean;
  add_volumes: boolean;
  add_vpcs: boolean;
  cancel_account: boolean;
  child_account_access: boolean;
  monitoring_subscription: boolean;
}

export interface EntityGrant {
  id: number;
  label: string;
  permissions: "read_only" | "read_write" | null;
}

export interface Grants {
  global: GlobalGrants;
  database: EntityGrant[];
  domain: EntityGrant[];
  image: EntityGrant[];
  compute: EntityGrant[];
  monitoring: EntityGrant[];
  nodebalancer: EntityGrant[];
  script: EntityGrant[];
  volume: EntityGrant[];
  vpc: EntityGrant[];
}

export interface User {
  username: string;
  uid: number;
  email: string;
  email_notifications: boolean;
  timezone: string;
  restricted: boolean;
  two_factor_auth: boolean;
  ip_whitelist_enabled: boolean;
  console_auth_method: "password_keys" | "keys_only" | "disabled";
  authorized_keys: string[] | null;
  authentication_type: string;
  verified_phone_number: string | null;
  /** Only for restricted users; unrestricted users have every grant (and GET /profile/grants is 204). */
  grants: Grants | null;
}

export interface TokenRecord {
  id: number;
  label: string;
  scopes: string;
  created: string;
  expiry: string | null;
  /** The full secret value. Only the create response shows all of it. */
  token: string;
  username: string;
}

export interface SshKeyRecord {
  id: number;
  label: string;
  ssh_key: string;
  created: string;
  username: string;
}

/** A status change due at a time, with fields to set when it happens. */
export interface Step {
  status: string;
  at: number;
  patch?: Record<string, unknown>;
}

export interface InterfaceRecord {
  id: number;
  purpose: "public" | "vlan" | "vpc";
  label: string | null;
  ipam_address: string | null;
  primary: boolean;
  subnet_id: number | null;
  vpc_id: number | null;
  ipv4: { vpc: string | null; nat_1_1: string | null } | null;
  ip_ranges: string[] | null;
}

export interface ConfigRecord {
  id: number;
  compute_id: number;
  label: string;
  comments: string | null;
  devices: Record<string, { disk_id: number | null; volume_id: number | null } | null>;
  helpers: { updatedb_disabled: boolean; distro: boolean; modules_dep: boolean; network: boolean; devtmpfs_automount: boolean };
  interfaces: InterfaceRecord[];
  kernel: string;
  memory_limit: number;
  root_device: string;
  run_level: "default" | "single" | "binbash";
  virt_mode: "paravirt" | "fullvirt";
  created: string;
  updated: string;
}

export interface DiskRecord {
  id: number;
  compute_id: number;
  label: string;
  size: number;
  filesystem: "raw" | "swap" | "ext3" | "ext4" | "initrd";
  status: "ready" | "not ready" | "deleting";
  created: string;
  updated: string;
  _queue: Step[];
}

export interface InstanceRecord {
  id: number;
  label: string;
  group: string;
  status: string;
  region: string;
  type: string;
  image: string | null;
  created: string;
  updated: string;
  hypervisor: "kvm";
  host_uuid: string;
  has_user_data: boolean;
  ipv4: string[];
  ipv6: string | null;
  specs: { disk: number; gpus: number; memory: number; transfer: number; vcpus: number };
  alerts: { cpu: number; io: number; network_in: number; network_out: number; transfer_quota: number };
  backups: { available: boolean; enabled: boolean; last_successful: string | null; schedule: { day: string | null; window: string | null } };
  tags: string[];
  watchdog_enabled: boolean;
  /** Internal (never shown): owner, pending status changes, boot state, secrets as hashes. */
  _owner: string;
  _queue: Step[];
  _lastBootedConfig: number | null;
  _activeInterfaces: number[];
  _rootPassHash: string | null;
  _clones: number[];
  _userData: string | null;
}

export interface BackupRecord {
  id: number;
  compute_id: number;
  label: string | null;
  type: "auto" | "snapshot";
  status: "paused" | "pending" | "running" | "needsPostProcessing" | "successful" | "failed" | "userAborted";
  available: boolean;
  configs: string[];
  disks: { label: string; size: number; filesystem: string }[];
  created: string;
  finished: string | null;
  updated: string;
  region: string;
  _queue: Step[];
  _source: {
    disks: { srcId: number; label: string; size: number; filesystem: DiskRecord["filesystem"] }[];
    configs: Omit<ConfigRecord, "id" | "compute_id">[];
    type: string;
    rootPassHash: string | null;
  };
}

export interface EventRecord {
  id: number;
  action: string;
  entity: { id: number | string; type: string; label: string | null } | null;
  created: string;
  username: string;
  status: "finished";
}

export interface VpcRecord {
  id: number;
  label: string;
  description: string;
  region: string;
  created: string;
  updated: string;
  _owner: string;
}

export interface SubnetRecord {
  id: number;
  vpc_id: number;
  label: string;
  ipv4: string;
  created: string;
  updated: string;
}

export interface ImageRecord {
  id: string;
  label: string;
  description: string | null;
  capabilities: string[];
  created: string;
  updated: string;
  created_by: string;
  deprecated: boolean;
  eol: string | null;
  expiry: string | null;
  is_public: boolean;
  size: number;
  status: "creating" | "pending_upload" | "available";
  type: "manual" | "automatic";
  vendor: string | null;
  _owner: string;
  _queue: Step[];
  /** Upload images: the secret part of the upload URL, and when the upload window closes. */
  _upload?: { token: string; deadline: number; region: string };
}

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

export interface StateData {
  version: 1;
  nextId: Record<string, number>;
  users: User[];
  tokens: TokenRecord[];
  sshkeys: SshKeyRecord[];
  instances: InstanceRecord[];
  configs: ConfigRecord[];
  disks: DiskRecord[];
  backups: BackupRecord[];
  events: EventRecord[];
  vpcs: VpcRecord[];
  subnets: SubnetRecord[];
  images: ImageRecord[];
  databases: DatabaseRecord[];
  databaseBackups: DatabaseBackupRecord[];
}

export function defaultGlobalGrants(all: boolean): GlobalGrants {
  return {
    account_access: all ? "read_write" : null,
    add_databases: all,
    add_domains: all,
    add_firewalls: all,
    add_images: all,
    add_computes: all,
    add_monitoring: all,
    add_nodebalancers: all,
    add_scripts: all,
    add_volumes: all,
    add_vpcs: all,
    cancel_account: all,
    child_account_access: all,
    monitoring_subscription: all,
  };
}

export function emptyGrants(global: Partial<GlobalGrants> = {}): Grants {
  return {
    global: { ...defaultGlobalGrants(false), ...global },
    database: [],
    domain: [],
    image: [],
    compute: [],
    monitoring: [],
    nodebalancer: [],
    script: [],
    volume: [],
    vpc: [],
  };
}

export function newUser(username: string, uid: number, restricted: boolean): User {
  return {
    username,
    uid,
    email: `${username}@example.com`,
    email_notifications: true,
    timezone: "UTC",
    restricted,
    two_factor_auth: false,
    ip_whitelist_enabled: false,
    console_auth_method: "password_keys",
    authorized_keys: null,
    authentication_type: "password",
    verified_phone_number: null,
    grants: restricted ? emptyGrants() : null,
  };
}

/** A random token value like the real service's: 64 lowercase hex characters. */
export const newTokenValue = (): string => randomBytes(32).toString("hex");

/** API timestamps: ISO 8601 UTC with no zone suffix and no fraction. */
export const apiTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

/**
 * Applies the status changes that are due. Every record with a `_queue` moves through its steps as time
 * passes; nothing runs in the background, so the state file always holds the whole truth.
 */
export function settle<T extends { status: string; _queue: Step[] }>(rec: T, now: number): T {
  while (rec._queue.length && rec._queue[0].at <= now) {
    const step = rec._queue.shift()!;
    rec.status = step.status;
    if (step.patch) Object.assign(rec, step.patch);
  }
  return rec;
}

/** Strips internal (`_`-prefixed) fields for a response. */
export function view<T extends object>(rec: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(rec).filter(([k]) => !k.startsWith("_")));
}

/**
 * The emulator's whole state, kept in memory and, with `--state FILE`, written to the file after every
 * change (write to a temporary file, then rename: a crash never leaves half a file).
 */
export class Store {
  data: StateData;

  constructor(
    private readonly file: string | undefined,
    rootToken: string,
    private readonly now: () => number,
  ) {
    if (file && existsSync(file)) {
      this.data = JSON.parse(readFileSync(file, "utf8")) as StateData;
    } else {
      this.data = {
        version: 1,
        nextId: {},
        users: [],
        tokens: [],
        sshkeys: [],
        instances: [],
        configs: [],
        disks: [],
        backups: [],
        events: [],
        vpcs: [],
        subnets: [],
        images: [],
        databases: [],
        databaseBackups: [],
      };
    }
    for (const k of ["instances", "configs", "disks", "backups", "events", "vpcs", "subnets", "images", "databases", "databaseBackups"] as const)
      this.data[k] ??= [];
    // The token given on the command line always works, with every scope, for the account's owner.
    if (!this.data.users.some((u) => u.username === "admin")) this.data.users.push(newUser("admin", this.nextId("user"), false));
    if (!this.data.tokens.some((t) => t.token === rootToken)) {
      this.data.tokens.push({
        id: this.nextId("token"),
        label: "emulator root token",
        scopes: "*",
        created: apiTime(this.now()),
        expiry: null,
        token: rootToken,
        username: "admin",
      });
    }
    this.save();
  }

  nextId(kind: string): number {
    const n = (this.data.nextId[kind] ?? 0) + 1;
    this.data.nextId[kind] = n;
    return n;
  }

  event(action: string, username: string, entity: EventRecord["entity"]): void {
    this.data.events.push({ id: this.nextId("event"), action, entity, created: apiTime(this.now()), username, status: "finished" });
  }

  user(username: string): User | undefined {
    return this.data.users.find((u) => u.username === username);
  }

  save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
  }
}
