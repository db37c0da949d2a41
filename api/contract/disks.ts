import { z } from "zod";
import { apiTime, int, oneOf, page, pageQuery, refuse, text, recordId } from "./common";
import { empty, endpoint, ro, rw } from "./endpoint";
import { BETWEEN_FIELDS, deployFields, INSTANCE_PATH as I, ROOT_PASS_REQUIRED, rootPassword } from "./instances";

/**
 * compute-api.md "Disk" and "Disks": an instance's disks; with the real API's update, resize and per-disk password
 * reset, which the spec does not show (recorded: linodego's disk tests).
 */

/** compute-api.md "Disk": "filesystem | string enum | `raw`, `swap`, `ext3`, `ext4`, `initrd`. Default `ext4`". */
export const FILESYSTEMS = ["raw", "swap", "ext3", "ext4", "initrd"] as const;
export const DEFAULT_FILESYSTEM = "ext4";

/** compute-api.md "Disk": "status | string enum | `ready`, `not ready`, `deleting`". */
export const DISK_STATUSES = ["ready", "not ready", "deleting"] as const;

/** compute-api.md "Disk", with the real API's `disk_encryption` (HEAD answers; absent from the 2024 ones); no `compute_id`. */
export const disk = z.strictObject({
  id: recordId,
  label: z.string(),
  size: int,
  filesystem: z.enum(FILESYSTEMS),
  status: z.enum(DISK_STATUSES),
  created: apiTime,
  updated: apiTime,
  disk_encryption: z.enum(["enabled", "disabled"]).optional(),
});

/** compute-api.md "Limits": "Disk label | 1..48 chars". */
export const diskLabel = text("diskLabel");

export const filesystem = oneOf(FILESYSTEMS);

const SIZE_TEXT = "size is required: a whole number of MB";
/** compute-api.md Disk create body: "`size` (integer MB, required; images require a minimum size)" (what fits is the state's to say). */
export const diskSize = z.number({ error: SIZE_TEXT }).superRefine((v, ctx) => {
  if (!Number.isInteger(v) || v < 1) refuse(ctx, SIZE_TEXT, "must be a whole number of MB, 1 or more");
});

/**
 * compute-api.md "Disk create body": "Without an image, an empty disk is created and `label` is required; without
 * a label, `image` is required. Creating from an image requires `root_pass`. A script requires a compatible image."
 */
export const diskCreate = z
  .object({
    size: diskSize,
    label: diskLabel.optional(),
    filesystem: filesystem.optional(),
    ...deployFields,
  })
  .superRefine((body, ctx) => {
    if (body.label === undefined && body.image == null) refuse(ctx, "label is required for an empty disk", "is required for an empty disk", ["label"]);
    if (body.image != null && body.root_pass == null) refuse(ctx, ROOT_PASS_REQUIRED, "is required when deploying from an image", ["root_pass"]);
  }, BETWEEN_FIELDS);

/** A disk's update (not shown; the real API's): its label. */
export const diskUpdate = z.object({ label: diskLabel.optional() });

/** A disk's resize (not shown; the real API's): its new size. */
export const diskResize = z.object({ size: diskSize });

/** The per-disk password reset (not shown): the real API names the password `password` (recorded), where the instance's reset says `root_pass`. */
export const diskPassword = z.object({ password: rootPassword("password", "password is required: a string of 7 to 128 characters") });

const scope = { ro: ro("computes"), rw: rw("computes") };
const D = `${I}/disks/{diskId}` as const;

/** compute-api.md "Disks", and the real API's disk operations the spec leaves out (recorded). */
export const disksApi = {
  list: endpoint({
    method: "GET",
    path: `${I}/disks`,
    source: "compute-api.md",
    scope: scope.ro,
    auth: "required",
    summary: "List an instance's disks",
    query: pageQuery,
    answer: page(disk),
  }),
  create: endpoint({
    method: "POST",
    path: `${I}/disks`,
    source: "compute-api.md",
    scope: scope.rw,
    auth: "required",
    summary: "Create a disk",
    body: diskCreate,
    answer: disk,
  }),
  get: endpoint({ method: "GET", path: D, source: "compute-api.md", scope: scope.ro, auth: "required", summary: "View a disk", answer: disk }),
  update: endpoint({
    method: "PUT",
    path: D,
    source: "recorded",
    scope: scope.rw,
    auth: "required",
    summary: "Change a disk's label",
    body: diskUpdate,
    answer: disk,
  }),
  resize: endpoint({
    method: "POST",
    path: `${D}/resize`,
    source: "recorded",
    scope: scope.rw,
    auth: "required",
    summary: "Resize a disk (its instance shut down)",
    body: diskResize,
    answer: empty,
  }),
  password: endpoint({
    method: "POST",
    path: `${D}/password`,
    source: "recorded",
    scope: scope.rw,
    auth: "required",
    summary: "Reset a disk's root password (its instance shut down)",
    body: diskPassword,
    answer: empty,
  }),
  delete: endpoint({ method: "DELETE", path: D, source: "compute-api.md", scope: scope.rw, auth: "required", summary: "Delete a disk", answer: empty }),
};

export type Disk = z.output<typeof disk>;
export type Filesystem = (typeof FILESYSTEMS)[number];
export type DiskStatus = (typeof DISK_STATUSES)[number];
