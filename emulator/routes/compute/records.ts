import { z } from "zod";
import { backup } from "../../../api/contract/backups";
import { int } from "../../../api/contract/common";
import { profile } from "../../../api/contract/configs";
import { disk } from "../../../api/contract/disks";
import { instance, INSTANCE_STATUSES, instanceSpecs } from "../../../api/contract/instances";
import { iface } from "../../../api/contract/interfaces";
import { collectionsOf } from "../../family";
import { stepOf } from "../../state";

/**
 * The compute family's records as the state keeps them (instances with their profiles, disks and backups): the
 * contract's records (api/contract) without what the views add, with the emulator's own fields (`_`-prefixed,
 * never shown: owner, pending status changes, boot state, secrets as hashes), and its collections in the state file.
 */

/** The status of an instance whose delete has finished: it is then removed (the API never shows it). */
export const GONE = "__gone";

/** An interface as a profile keeps it: without `active` (the instance's boot state says it) and `ipv6` (none here). */
export const storedInterface = iface.omit({ active: true, ipv6: true }).strict();

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
    status: z.enum([...INSTANCE_STATUSES, GONE]),
    specs: instanceSpecs.omit({ accelerated_devices: true }),
    _owner: z.string(),
    /** The profile it last booted with, and the interfaces of it that were there then (`active`). */
    _lastBootedConfig: int.nullable(),
    _activeInterfaces: z.array(int),
    _rootPassHash: z.string().nullable(),
    /** When each clone of it under way ends (ms): a source is not deleted while one runs. */
    _clones: z.array(z.number()),
    _userData: z.string().nullable(),
  });

/** An instance as the state keeps it. */
export const storedInstance = instanceFields
  .extend({ _queue: z.array(stepOf(instanceFields.shape.status, instanceFields.omit({ status: true }).partial())) })
  .strict();

/** A profile as the state keeps it: its instance (`compute_id`, which the API never answers: it is in the path), its interfaces as kept. */
export const storedConfig = profile
  .omit({ initrd: true, interfaces: true })
  .extend({ compute_id: int, interfaces: z.array(storedInterface) })
  .strict();

const diskFields = disk.omit({ disk_encryption: true }).extend({ compute_id: int });

/** A disk as the state keeps it: its instance, and its pending status changes. */
export const storedDisk = diskFields.extend({ _queue: z.array(stepOf(diskFields.shape.status, diskFields.omit({ status: true }).partial())) }).strict();

/** What a backup holds to be restored: its disks (by the source's ids, for the profiles' devices), profiles, type and root password. */
const backupSource = z.strictObject({
  disks: z.array(z.strictObject({ srcId: int, label: z.string(), size: int, filesystem: disk.shape.filesystem })),
  configs: z.array(storedConfig.omit({ id: true, compute_id: true })),
  type: z.string(),
  rootPassHash: z.string().nullable(),
});

const backupFields = backup.extend({ compute_id: int, _source: backupSource });

/** A backup as the state keeps it: its instance, what it holds, and its pending status changes. */
export const storedBackup = backupFields.extend({ _queue: z.array(stepOf(backupFields.shape.status, backupFields.omit({ status: true }).partial())) }).strict();

export type InstanceRecord = z.output<typeof storedInstance>;
export type InterfaceRecord = z.output<typeof storedInterface>;
export type ConfigRecord = z.output<typeof storedConfig>;
export type DiskRecord = z.output<typeof storedDisk>;
export type BackupRecord = z.output<typeof storedBackup>;

/** The compute collections of a store, typed (the image and VPC routes read them too). */
export const computeState = collectionsOf({ instances: storedInstance, configs: storedConfig, disks: storedDisk, backups: storedBackup });
export type ComputeState = ReturnType<typeof computeState>;
