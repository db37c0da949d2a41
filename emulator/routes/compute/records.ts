import { z } from "zod";
import { backup, backupDisk, snapshotLabel } from "../../../api/contract/backups";
import { int, refuse } from "../../../api/contract/common";
import { memoryLimit, profile, profileLabel, rootDevice } from "../../../api/contract/configs";
import { disk, diskLabel } from "../../../api/contract/disks";
import {
  alertThreshold,
  instance,
  INSTANCE_STATUSES,
  instanceGroup,
  instanceLabel,
  instanceSpecs,
  tags,
  transferQuota,
  userData,
} from "../../../api/contract/instances";
import { iface, interfaceListRefusal, ipamAddress, vlanLabel, vpcAddress, natAddress, ipRanges } from "../../../api/contract/interfaces";
import { collectionsOf } from "../../family";
import { stepOf } from "../../state";

/**
 * The compute family's records as the state keeps them (instances with their profiles, disks and backups): the
 * contract's records (api/contract) without what the views add, with the emulator's own fields (`_`-prefixed,
 * never shown: owner, pending status changes, boot state, secrets as hashes), and its collections in the state file.
 * Each field a request sets is held to the rule of the request's field (a label, tags, an alert threshold, an
 * interface's addresses), so that a fixture's record is one the API could have made (docs/fixtures.md).
 */

/** The status of an instance whose delete has finished: it is then removed (the API never shows it). */
export const GONE = "__gone";

/** The emulator's times (ms): an integer a date can hold (±8.64e15 ms, Date's range), so that a pending change is due some day. */
export const MAX_TIME = 8.64e15;
const TIME_TEXT = `must be a time in ms: an integer from -${MAX_TIME} to ${MAX_TIME}`;
export const emulatorTime = z.number({ error: TIME_TEXT }).int(TIME_TEXT).min(-MAX_TIME, TIME_TEXT).max(MAX_TIME, TIME_TEXT);

/** A record's pending status changes (state.ts `stepOf`), each due at a time the clock reaches. */
const queueOf = <S extends z.ZodType<string>, P extends z.ZodType<object>>(status: S, patch: P) => z.array(stepOf(status, patch).extend({ at: emulatorTime }));

/** The fields of an interface each purpose has (compute-api.md "Interface": `label` and `ipam_address` for `vlan`; subnet, VPC, `ipv4` and `ip_ranges` for `vpc`). */
const PURPOSE_FIELDS = {
  public: [],
  vlan: ["label"],
  vpc: ["subnet_id", "vpc_id", "ipv4", "ip_ranges"],
} as const;
/** The fields a purpose may leave null (a vlan's `ipam_address`), beside those it has not. */
const OPTIONAL_FIELDS = new Set(["ipam_address"]);
const PURPOSE_FIELD_NAMES = ["label", "ipam_address", "subnet_id", "vpc_id", "ipv4", "ip_ranges"] as const;

/**
 * An interface as a profile keeps it: without `active` (the instance's boot state says it) and `ipv6` (none here);
 * its fields by the request's rules (a vlan's label and address, a vpc interface's address an IPv4 address), and
 * each purpose with its fields only (what ifaceRecord writes: the others null).
 */
export const storedInterface = iface
  .omit({ active: true, ipv6: true })
  .extend({
    label: vlanLabel.nullable(),
    ipam_address: ipamAddress.nullable(),
    ipv4: z.strictObject({ vpc: vpcAddress, nat_1_1: natAddress.nullable() }).nullable(),
    ip_ranges: ipRanges.nullable(),
  })
  .strict()
  .superRefine((i, ctx) => {
    const has: readonly string[] = PURPOSE_FIELDS[i.purpose];
    for (const field of PURPOSE_FIELD_NAMES) {
      const set = i[field] !== null;
      if (set && !has.includes(field) && !(i.purpose === "vlan" && OPTIONAL_FIELDS.has(field)))
        refuse(ctx, `must be null for a ${i.purpose} interface`, undefined, [field]);
      if (!set && has.includes(field)) refuse(ctx, `must not be null for a ${i.purpose} interface`, undefined, [field]);
    }
  });

/** A profile's interfaces as kept: the list's rules of a request (api/contract/interfaces.ts: at most 3, one primary, one public). */
const storedInterfaces = z.array(storedInterface).superRefine((list, ctx) => {
  const e = interfaceListRefusal(list, true);
  if (e) refuse(ctx, e.reason, e.reason, e.index === undefined ? [] : [e.index, e.field]);
});

/** An instance's alerts as kept: each threshold by the update's rule (a whole number, 0 or more; `transfer_quota` a percentage). */
const storedAlerts = z.strictObject({
  cpu: alertThreshold,
  io: alertThreshold,
  network_in: alertThreshold,
  network_out: alertThreshold,
  transfer_quota: transferQuota,
});

/** The fields of an instance but its pending status changes (what a change may set). */
const instanceFields = instance
  .omit({
    status: true,
    specs: true,
    site_type: true,
    placement_group: true,
    lke_cluster_id: true,
    disk_encryption: true,
    capabilities: true,
    interface_generation: true,
    maintenance_policy: true,
  })
  .extend({
    label: instanceLabel,
    group: instanceGroup,
    tags,
    alerts: storedAlerts,
    status: z.enum([...INSTANCE_STATUSES, GONE]),
    specs: instanceSpecs.omit({ accelerated_devices: true }),
    _owner: z.string(),
    /** The profile it last booted with, and the interfaces of it that were there then (`active`). */
    _lastBootedConfig: int.nullable(),
    _activeInterfaces: z.array(int),
    /** The root password's SHA-256, in hex. */
    _rootPassHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex")
      .nullable(),
    /** When each clone of it under way ends (ms): a source is not deleted while one runs. */
    _clones: z.array(emulatorTime),
    _userData: userData.nullable(),
  });

/** An instance as the state keeps it. */
export const storedInstance = instanceFields.extend({ _queue: queueOf(instanceFields.shape.status, instanceFields.omit({ status: true }).partial()) }).strict();

/** A profile as the state keeps it: its instance (`compute_id`, which the API never answers: it is in the path), its interfaces as kept. */
export const storedConfig = profile
  .omit({ initrd: true, interfaces: true })
  .extend({ label: profileLabel, memory_limit: memoryLimit, root_device: rootDevice, compute_id: int, interfaces: storedInterfaces })
  .strict();

/** A disk's size as kept: a whole number of MB, 1 or more (the create's and the resize's rule). */
const diskSizeKept = z.number().int().min(1, "must be a whole number of MB, 1 or more");

const diskFields = disk.omit({ disk_encryption: true }).extend({ label: diskLabel, size: diskSizeKept, compute_id: int });

/** A disk as the state keeps it: its instance, and its pending status changes. */
export const storedDisk = diskFields.extend({ _queue: queueOf(diskFields.shape.status, diskFields.omit({ status: true }).partial()) }).strict();

/** What a backup holds to be restored: its disks (by the source's ids, for the profiles' devices), profiles, type and root password. */
const backupSource = z.strictObject({
  disks: z.array(z.strictObject({ srcId: int, label: diskLabel, size: diskSizeKept, filesystem: disk.shape.filesystem })),
  configs: z.array(storedConfig.omit({ id: true, compute_id: true })),
  type: z.string(),
  rootPassHash: instanceFields.shape._rootPassHash,
});

const backupFields = backup.extend({
  label: snapshotLabel.nullable(),
  configs: z.array(profileLabel),
  disks: z.array(backupDisk.extend({ label: diskLabel, size: diskSizeKept })),
  compute_id: int,
  _source: backupSource,
});

/** A backup as the state keeps it: its instance, what it holds, and its pending status changes. */
export const storedBackup = backupFields.extend({ _queue: queueOf(backupFields.shape.status, backupFields.omit({ status: true }).partial()) }).strict();

export type InstanceRecord = z.output<typeof storedInstance>;
export type InterfaceRecord = z.output<typeof storedInterface>;
export type ConfigRecord = z.output<typeof storedConfig>;
export type DiskRecord = z.output<typeof storedDisk>;
export type BackupRecord = z.output<typeof storedBackup>;

/** The compute collections of a store, typed (the image and VPC routes read them too). */
export const computeState = collectionsOf({ instances: storedInstance, configs: storedConfig, disks: storedDisk, backups: storedBackup });
export type ComputeState = ReturnType<typeof computeState>;
