/**
 * The bad-input cases of tests/integration/bad-input.property.test.ts: per resource type, a field and a
 * generator of values `check` must refuse. A module of their own, so that tests/unit/registry-coverage.test.ts
 * reads them without running the property test.
 */
import fc from "fast-check";
import { ed25519Key } from "../../scripts/keys";

const str = (min: number, max: number) => fc.string({ minLength: min, maxLength: max, unit: "grapheme-ascii" });
const tooLong = (max: number) => str(max + 1, max + 40);
const notString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null).map(() => ({})),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const badLabel = fc.oneof(
  str(1, 2).filter((s) => s.trim().length > 0),
  tooLong(64),
  str(3, 20).map((s) => `${s} !`),
  fc.constantFrom("a--b", "-x-y-", "has space"),
);
// Weak by the API's score (api/passwords.ts): common passwords, words with digits, repeats, sequences, keyboard rows; or too short.
const weakPass = fc.oneof(
  fc.constantFrom("password", "Password1", "Password123!", "letmein123", "iloveyou1", "qwerty123", "welcome1", "12345678", "abcdefgh1"),
  fc.integer({ min: 7, max: 40 }).map((n) => "a".repeat(n)),
  str(0, 6),
);
const badCidr = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `${a}.${b}.0.0/16`), // public
  fc.integer({ min: 30, max: 32 }).map((p) => `10.0.0.0/${p}`), // prefix too long
  fc.integer({ min: 1, max: 254 }).map((h) => `10.0.0.${h}/24`), // not canonical
  fc.constantFrom("192.168.200.0/24", "10.0.0.0", "fd00::/64", "banana"),
);
const badIp = fc.oneof(
  fc.constantFrom("999.1.1.1", "10.0.0.0/33", "not-an-ip", "1.2.3"),
  str(1, 10).filter((s) => !/^[0-9a-fA-F:./]+$/.test(s)),
);

/** One field of one resource type: a valid `base`, and values of `field` that `check` must refuse. */
export interface BadInputCase {
  /** The resource type (`spec.type` of a definition in provider/registry.ts). */
  type: string;
  /** Valid inputs: `check` accepts them as they are (the property test holds every base to it). */
  base: Record<string, unknown>;
  field: string;
  gen: fc.Arbitrary<unknown>;
}
const PASS = "Str0ng-Passw0rd!";
const inst = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "web-1" };
/**
 * The cases, in the order the property test draws them from (its seed picks by index: keep the order, add
 * at the end). Every resource type of provider/registry.ts has at least one: tests/unit/registry-coverage.test.ts
 * names a type without one.
 */
export const badInputCases: BadInputCase[] = [
  { type: "SshKey", base: { label: "k", sshKey: ed25519Key(1) }, field: "label", gen: tooLong(64) },
  {
    type: "SshKey",
    base: { label: "k", sshKey: ed25519Key(1) },
    field: "sshKey",
    gen: fc.oneof(str(0, 40), fc.constant(ed25519Key(2).replace("ssh-ed25519", "ssh-rsa")), notString),
  },
  { type: "Instance", base: inst, field: "label", gen: badLabel },
  { type: "Instance", base: inst, field: "rootPass", gen: weakPass },
  { type: "Instance", base: inst, field: "tags", gen: fc.array(str(0, 2), { minLength: 1, maxLength: 3 }) },
  { type: "Instance", base: inst, field: "swapSize", gen: fc.integer({ min: -1000, max: -1 }) },
  {
    type: "Instance",
    base: inst,
    field: "interfaces",
    gen: fc.oneof(fc.constant([]), fc.constant([{ purpose: "vpc" }]), fc.constant(Array(4).fill({ purpose: "public" })), fc.constant([{ purpose: "wifi" }])),
  },
  { type: "Instance", base: inst, field: "type", gen: notString },
  {
    type: "Disk",
    base: { computeId: "1", label: "d", size: 100 },
    field: "size",
    gen: fc.oneof(fc.integer({ min: -100, max: 0 }), fc.double({ min: 0.1, max: 9.9, noNaN: true })),
  },
  { type: "Disk", base: { computeId: "1", label: "d", size: 100 }, field: "label", gen: tooLong(48) },
  {
    type: "Disk",
    base: { computeId: "1", label: "d", size: 100 },
    field: "filesystem",
    gen: str(1, 8).filter((s) => !["raw", "swap", "ext3", "ext4", "initrd"].includes(s)),
  },
  {
    type: "Disk",
    base: { computeId: "1", label: "d", size: 100 },
    field: "computeId",
    gen: fc.oneof(
      str(1, 5).filter((s) => !/^\d+$/.test(s)),
      fc.integer({ max: 0 }),
    ),
  },
  { type: "Config", base: { computeId: 1, label: "c", devices: { sda: { diskId: 1 } } }, field: "label", gen: tooLong(48) },
  {
    type: "Config",
    base: { computeId: 1, label: "c", devices: { sda: { diskId: 1 } } },
    field: "devices",
    gen: fc.constantFrom({ sdz: { diskId: 1 } }, { sda: { diskId: "x" } }, { sda: { bogus: 1 } }),
  },
  {
    type: "Config",
    base: { computeId: 1, label: "c", devices: { sda: { diskId: 1 } } },
    field: "runLevel",
    gen: str(1, 10).filter((s) => !["default", "single", "binbash"].includes(s)),
  },
  {
    type: "Interface",
    base: { computeId: 1, configId: 2, purpose: "vlan", label: "v" },
    field: "ipamAddress",
    gen: fc.constantFrom("10.0.0.1", "x/24", "10.0.0.1/"),
  },
  {
    type: "Vpc",
    base: { label: "net", region: "us-east" },
    field: "label",
    gen: fc.oneof(
      tooLong(64),
      str(1, 10).map((x) => `${x}_x`),
      fc.constantFrom("a--b", "has space", ""),
    ),
  },
  { type: "Vpc", base: { label: "net", region: "us-east" }, field: "description", gen: tooLong(255) },
  { type: "Subnet", base: { vpcId: "1", label: "s", ipv4: "10.0.1.0/24" }, field: "ipv4", gen: badCidr },
  {
    type: "Image",
    base: { diskId: 1, label: "img" },
    field: "description",
    gen: fc.oneof(
      fc.constant(""),
      tooLong(65000).map((s) => s.padEnd(65001, "x")),
    ),
  },
  {
    type: "MysqlDatabase",
    base: { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" },
    field: "label",
    gen: fc.oneof(str(1, 2), tooLong(32)),
  },
  {
    type: "MysqlDatabase",
    base: { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" },
    field: "allowList",
    gen: fc.array(badIp, { minLength: 1, maxLength: 3 }),
  },
  {
    type: "MysqlDatabase",
    base: { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" },
    field: "clusterSize",
    gen: fc.integer({ min: 4, max: 9 }),
  },
  {
    type: "PostgresDatabase",
    base: { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" },
    field: "replicationCommitType",
    gen: str(1, 10).filter((s) => !["on", "local", "remote_write", "remote_apply", "off"].includes(s)),
  },
  {
    type: "PostgresDatabase",
    base: { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" },
    field: "engine",
    gen: fc.constantFrom("mysql/8.0.35", "postgresql", "postgres/16"),
  },
  {
    type: "Instance",
    base: { region: "us-east", type: "c1-standard-2", cloneFrom: { computeId: 1 } },
    field: "cloneFrom",
    gen: fc.oneof(
      notString,
      str(1, 8).map((s) => ({ computeId: `x${s}` })),
    ),
  },
  {
    type: "MysqlDatabase",
    base: { label: "app-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" },
    field: "restoreBackupId",
    gen: fc.oneof(
      fc.integer({ min: -99, max: 0 }),
      fc.constantFrom(1.5, true, "latest", "12a", ""),
      str(1, 6).map((x) => `x${x}`),
    ),
  },
  {
    type: "Instance",
    base: { ...inst, backupsEnabled: true },
    field: "restore",
    gen: fc.oneof(
      fc.integer(),
      fc.constant({}),
      str(1, 6).map((x) => ({ backupId: `b${x}` })),
      fc.constantFrom({ backupId: 1, overwrite: "yes" }, { backupId: 1, sourceComputeId: "web" }, { backupId: 1, when: "now" }),
    ),
  },
  { type: "Instance", base: { ...inst, backupsEnabled: true }, field: "snapshotBeforeChange", gen: fc.oneof(fc.integer(), str(1, 5)) },
  {
    type: "Disk",
    base: { computeId: 1, size: 4096, image: "compute/debian12", rootPass: PASS, scriptId: 1, label: "root" },
    field: "scriptData",
    gen: fc.integer({ min: 65_530, max: 70_000 }).map((n) => ({ data: "x".repeat(n) })),
  },
  { type: "Token", base: { scopes: "computes:read_only" }, field: "label", gen: tooLong(100) },
  {
    type: "Token",
    base: { scopes: "computes:read_only" },
    field: "scopes",
    gen: fc.oneof(fc.constantFrom("", "computes", "computes:write", "everything:read_only", "* computes:admin"), notString),
  },
  {
    type: "Token",
    base: { scopes: "*" },
    field: "expiry",
    gen: fc.oneof(
      fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2020-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom("tomorrow", "2027-13-45", "not a date"),
    ),
  },
  { type: "InstanceSnapshot", base: { __resourceName: "snap", computeId: 1, label: "before" }, field: "label", gen: tooLong(255) },
  {
    type: "InstanceSnapshot",
    base: { __resourceName: "snap", computeId: 1, label: "before" },
    field: "computeId",
    gen: fc.constantFrom("abc", "-1", "1.5", 0),
  },
  {
    type: "MysqlDatabaseSnapshot",
    base: { __resourceName: "snap", databaseId: 1, label: "nightly" },
    field: "label",
    gen: fc.oneof(
      tooLong(30),
      str(1, 20).filter((s) => !/^[A-Za-z0-9]+$/.test(s)),
    ),
  },
  {
    type: "MysqlDatabaseSnapshot",
    base: { __resourceName: "snap", databaseId: 1, label: "nightly" },
    field: "target",
    gen: str(1, 12).filter((s) => !["primary", "secondary"].includes(s)),
  },
  {
    type: "PostgresDatabaseSnapshot",
    base: { __resourceName: "snap", databaseId: 1, label: "nightly" },
    field: "label",
    gen: fc.oneof(
      tooLong(30),
      str(1, 20).filter((s) => !/^[A-Za-z0-9]+$/.test(s)),
    ),
  },
];
