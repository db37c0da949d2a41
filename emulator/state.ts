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

export interface StateData {
  version: 1;
  nextId: Record<string, number>;
  users: User[];
  tokens: TokenRecord[];
  sshkeys: SshKeyRecord[];
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
      this.data = { version: 1, nextId: {}, users: [], tokens: [], sshkeys: [] };
    }
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
