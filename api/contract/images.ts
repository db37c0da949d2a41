import { z } from "zod";
import { apiTime, bool, int, page, pageQuery, text, typeText } from "./common";
import { empty, endpoint, rw } from "./endpoint";
import { regionId } from "./vpcs";

/** compute-api.md "Images": public and private images, captured from a disk or uploaded. */

/** compute-api.md "Image": "status | enum | `creating`, `pending_upload`, `available`". */
export const IMAGE_STATUSES = ["creating", "pending_upload", "available"] as const;

/** compute-api.md "Image": "type | enum | `manual`, `automatic`". */
export const IMAGE_TYPES = ["manual", "automatic"] as const;

/**
 * compute-api.md "Images", upload rules: "data is sent as an HTTP PUT to `upload_to` with header `Content-type:
 * application/octet-stream`; the data is a gzip-compressed raw disk image; maximum compressed size is 5GB; data
 * must arrive within 24 hours of creation" ("Image status": else the "upload [is] canceled and image deleted").
 */
export const IMAGE_UPLOAD = { maxBytes: 5 * 1024 ** 3, windowMs: 24 * 3600_000, contentType: "application/octet-stream" } as const;

/**
 * compute-api.md "Image", with `tags` (the real API answers them, recorded; always empty here: the spec gives no
 * way to tag an image). `description` is `""` for the public images (recorded).
 */
export const image = z.strictObject({
  id: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  capabilities: z.array(z.string()),
  created: apiTime,
  updated: apiTime,
  created_by: z.string(),
  deprecated: z.boolean(),
  eol: apiTime.nullable(),
  expiry: apiTime.nullable(),
  is_public: z.boolean(),
  size: int,
  status: z.enum(IMAGE_STATUSES),
  type: z.enum(IMAGE_TYPES),
  vendor: z.string().nullable(),
  tags: z.array(z.string()),
});

/** `POST /images/upload`'s answer: "object with `image` (image record) and `upload_to` (string URL)". */
export const imageUploadAnswer = z.strictObject({ image, upload_to: z.string() });

/** An image's label: 1..128 characters (not shown: docs/spec-gaps.md "Image labels"), free text (api/text.ts). */
export const imageLabel = text("imageLabel");

/** compute-api.md "Limits": "Image description | 1..65000 chars" (free text: tabs and line breaks allowed). */
export const imageDescription = text("imageDescription", { subject: "Description", notString: "Description must be a string or null", multiline: true });

const diskText = typeText("an integer", "disk_id is required");

/**
 * compute-api.md `POST /images`: `disk_id` (integer, required), `label` (string; defaults to the disk's label),
 * `description` (string; null is none), `cloud_init` (boolean).
 */
export const imageCapture = z.object({
  disk_id: z.number({ error: diskText }).int({ error: diskText }),
  label: imageLabel.optional(),
  description: imageDescription.nullable().optional(),
  cloud_init: bool.optional(),
});

/** compute-api.md `POST /images/upload`: `label` (string, required), `region` (string, required), `description`, `cloud_init`. */
export const imageUpload = z.object({
  label: text("imageLabel", { missing: "label is required" }),
  region: regionId,
  description: imageDescription.nullable().optional(),
  cloud_init: bool.optional(),
});

/** compute-api.md `PUT /images/{imageId}`: `label` (string), `description` (string or null, 1..65000). */
export const imageUpdate = z.object({ label: imageLabel.optional(), description: imageDescription.nullable().optional() });

const source = "compute-api.md";
const imagesRw = rw("images");

/**
 * compute-api.md "Images". Reading takes `images:read_only` "(optional)": public images are read with any token
 * or none, a token's private ones need the scope (the emulator's handlers say so); a capture needs
 * `computes:read_only` as well.
 */
export const imagesApi = {
  list: endpoint({ method: "GET", path: "/images", source, scope: null, auth: "optional", summary: "List images", query: pageQuery, answer: page(image) }),
  capture: endpoint({
    method: "POST",
    path: "/images",
    source,
    scope: imagesRw,
    auth: "required",
    summary: "Capture an image from a disk",
    body: imageCapture,
    answer: image,
  }),
  upload: endpoint({
    method: "POST",
    path: "/images/upload",
    source,
    scope: imagesRw,
    auth: "required",
    summary: "Create an image to upload (its data goes to `upload_to`)",
    body: imageUpload,
    answer: imageUploadAnswer,
  }),
  get: endpoint({ method: "GET", path: "/images/{imageId*}", source, scope: null, auth: "optional", summary: "View an image", answer: image }),
  update: endpoint({
    method: "PUT",
    path: "/images/{imageId*}",
    source,
    scope: imagesRw,
    auth: "required",
    summary: "Update an image's label and description",
    body: imageUpdate,
    answer: image,
  }),
  delete: endpoint({
    method: "DELETE",
    path: "/images/{imageId*}",
    source,
    scope: imagesRw,
    auth: "required",
    summary: "Delete a private image",
    answer: empty,
  }),
};

export type Image = z.output<typeof image>;
export type ImageUploadAnswer = z.output<typeof imageUploadAnswer>;
