/**
 * The lost-answer cases of the chaos run (tests/e2e/chaos.e2e.test.ts): per resource type, the request
 * that makes it, whose first answer the emulator loses after the request took effect (the client sees a
 * reset connection). The provider must find what it made and adopt it (a token, whose value went with the
 * answer, is revoked and made again), never make two: the run then counts one of each in the API.
 *
 * At least one per resource type of provider/registry.ts, the first being its create (the POST to its
 * collection): tests/unit/registry-coverage.test.ts names a type without one. A module of its own, so that
 * the coverage test reads the cases without running the chaos run.
 */
export interface LostAnswerCase {
  /** The resource type (`spec.type` of a definition in provider/registry.ts). */
  type: string;
  /** A regular expression matched against the emulator's `METHOD /path` (as `FaultRule.match`). */
  request: string;
  /** What the request does, for a failure's message. */
  what: string;
}

export const lostAnswerCases: LostAnswerCase[] = [
  { type: "Instance", request: "^POST /v4/compute/instances$", what: "an instance's create" },
  { type: "Instance", request: "^POST /v4/compute/instances/\\d+/clone$", what: "a clone (an instance with cloneFrom)" },
  { type: "Disk", request: "^POST /v4/compute/instances/\\d+/disks$", what: "a disk's create" },
  { type: "Config", request: "^POST /v4/compute/instances/\\d+/configs$", what: "a configuration profile's create" },
  { type: "Interface", request: "^POST /v4/compute/instances/\\d+/configs/\\d+/interfaces$", what: "an interface's create" },
  { type: "InstanceSnapshot", request: "^POST /v4/compute/instances/\\d+/backups$", what: "an instance snapshot" },
  { type: "Vpc", request: "^POST /v4/vpcs$", what: "a VPC's create" },
  { type: "Subnet", request: "^POST /v4/vpcs/\\d+/subnets$", what: "a subnet's create" },
  { type: "Image", request: "^POST /v4/images$", what: "an image captured from a disk" },
  { type: "MysqlDatabase", request: "^POST /v4/databases/mysql/instances$", what: "a MySQL cluster's create" },
  { type: "PostgresDatabase", request: "^POST /v4/databases/postgresql/instances$", what: "a PostgreSQL cluster's create" },
  { type: "MysqlDatabaseSnapshot", request: "^POST /v4/databases/mysql/instances/\\d+/backups$", what: "a MySQL snapshot" },
  { type: "PostgresDatabaseSnapshot", request: "^POST /v4/databases/postgresql/instances/\\d+/backups$", what: "a PostgreSQL snapshot" },
  { type: "SshKey", request: "^POST /v4/profile/sshkeys$", what: "an SSH key's create" },
  { type: "Token", request: "^POST /v4/profile/tokens$", what: "a token's create" },
];
