import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { int } from "../../api/contract/common";
import { pathOf } from "../../api/contract/endpoint";
import { READ_ONLY_INSTANCE_TEXT } from "../../api/contract/instances";
import { image, imageDescription, imageLabel, IMAGE_STATUSES, IMAGE_UPLOAD, imagesApi, type Image, type ImageUploadAnswer } from "../../api/contract/images";
import { hasScope } from "../auth";
import { catalog } from "../catalog";
import { collectionsOf, recordField, type ApiFamily, type FamilyContext } from "../family";
import { HttpError, badRequest, forbidden, notFound, paginate } from "../http";
import { FIND_IMAGE, RECEIVE_UPLOAD, type ImageFinder } from "../lookups";
import { rowsOf, type Req } from "../router";
import { apiTime, eventEntity, settle, type User } from "../state";
import { BASE_MS, scaled } from "../timing";
import { computeState } from "./compute/records";

export interface ImageOptions {
  /** The largest upload taken (the spec's 5 GB by default: api/contract/images.ts `IMAGE_UPLOAD`). */
  maxUploadBytes?: number;
  /** How long an upload image waits for its data before it is cancelled and deleted (the spec's 24 hours by default). */
  uploadWindowMs?: number;
}

/** A status change of an image due at a time (emulator/state.ts `Step`): a capture's, with the size of its data once available. */
const imageStep = z.strictObject({ status: z.enum(IMAGE_STATUSES), at: z.number(), patch: z.strictObject({ size: int }).partial().optional() });

/** A private image's id: `private/<number>`, the number the `image` counter gave (1 or more, one a path can name). */
const PRIVATE_ID = /^private\/([1-9]\d{0,14})$/;

/** The number of a private image's id (its `image` counter's). */
const imageNumber = (id: string): number => Number(PRIVATE_ID.exec(id)?.[1] ?? 0);

/**
 * A private image as the state keeps it: the API's record but `tags` (none: the spec gives no way to tag an
 * image), its label and description by the API's rules, its owner, its status changes to come, and for an upload
 * waiting for its data, the secret part of its upload URL, when the window closes (the emulator's clock, ms) and
 * its region.
 */
export const storedImage = image
  .omit({ tags: true })
  .extend({
    id: z.string().regex(PRIVATE_ID, "must be a private image's id: private/<number>"),
    label: imageLabel,
    description: imageDescription.nullable(),
    _owner: z.string(),
    _queue: z.array(imageStep),
    _upload: z.strictObject({ token: z.string(), deadline: z.number(), region: z.string() }).optional(),
  })
  .strict();
export type ImageRecord = z.output<typeof storedImage>;

/** The image family's collection in the state file (private images; the public ones are the catalog's). */
export const imageState = collectionsOf({ images: storedImage });

/** The public images, as the API shows them: the catalogue's, read by the contract's record (no tags). */
const PUBLIC_IMAGES: readonly Image[] = z
  .array(image.omit({ tags: true }))
  .parse(catalog.images)
  .map((i) => ({ ...i, tags: [] }));

/** A new upload URL's token (its last path segment). */
const uploadTokenValue = (): string => randomBytes(24).toString("hex");

/**
 * The image family (`/images...`), with its options: public and private images, captures from disks and
 * uploads. It gives the compute routes an image finder and the server the receiver of upload data.
 */
export const imageFamily = (opts: ImageOptions): ApiFamily<ReturnType<typeof imageState>> => ({
  name: "images",
  state: imageState,
  register: (family) => {
    const c = imageContext(family, opts);
    family.router.serve(ROWS, c);
    family.services.provide(FIND_IMAGE, finder(c));
    family.services.provide(RECEIVE_UPLOAD, (token, req) => receiveUpload(c, token, req));
  },
  references: (state) => {
    const users = new Set(state.data.users.map((u) => u.username));
    const uploads = new Map<string, number>();
    return imageState(state).images.flatMap((img, i) => {
      const out = refusalsOf(img, users);
      // An upload URL is one image's: the data sent to it would go to the first image of its token only.
      const first = img._upload && uploads.get(img._upload.token);
      if (first !== undefined) out.push(["_upload.token", `the upload URL is also ${recordField("images", first)}'s`]);
      else if (img._upload) uploads.set(img._upload.token, i);
      return out.map(([field, reason]) => ({ field: recordField("images", i, field), reason }));
    });
  },
  renumber: (state, to) => {
    for (const img of imageState(state).images) {
      const from = imageNumber(img.id);
      const id = to("image", from);
      img.id = `private/${id}`;
      // A copy given a new id waits for its data at a URL of its own: the original's stays the original's (data sent
      // there reaches it alone), so that the copy's, as its export names it, reaches the copy.
      if (id !== from && img._upload) img._upload = { ...img._upload, token: uploadTokenValue() };
    }
    // A restricted user's grants on images name them by number, as on instances.
    for (const user of state.data.users) if (user.grants) user.grants.image = user.grants.image.map((g) => ({ ...g, id: to("image", g.id) }));
  },
});

/**
 * What an image's record must hold beside its schema (and another image's upload URL), each `[field, reason]`: its
 * owner is a user of the account;
 * an upload waiting for its data has its upload URL, in a region of the catalogue; an image being made (`creating`)
 * has the step that makes it available to come (else it would never be).
 */
function refusalsOf(img: ImageRecord, users: ReadonlySet<string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (!users.has(img._owner)) out.push(["_owner", `no user ${img._owner} in the account`]);
  if (img.status === "pending_upload" && !img._upload) out.push(["_upload", "an image pending its upload has an upload URL"]);
  if (img._upload && !catalog.regions.some((r) => r.id === img._upload?.region)) out.push(["_upload.region", `Region ${img._upload.region} not found`]);
  if (img.status === "creating" && !img._queue.some((step) => step.status === "available"))
    out.push(["_queue", "an image being made (creating) has its step to available to come"]);
  return out;
}

type ImageContext = ReturnType<typeof imageContext>;

function imageContext({ store, now, timing, baseUrl }: FamilyContext, opts: ImageOptions) {
  return {
    store,
    now,
    timing,
    baseUrl,
    d: imageState(store),
    // Captures read the disks of instances.
    compute: computeState(store),
    maxBytes: opts.maxUploadBytes ?? IMAGE_UPLOAD.maxBytes,
    window: opts.uploadWindowMs ?? IMAGE_UPLOAD.windowMs,
    stamp: () => apiTime(now()),
  };
}

/** An image as an event's entity (recorded: type `image`, its API path). */
const imageEntity = (img: ImageRecord) => eventEntity("image", img.id, img.label, pathOf(imagesApi.get, { imageId: img.id }));

/** A private image as the API shows it: with `tags`, which the real API answers (empty). */
function imageView(img: ImageRecord): Image {
  const { _owner, _queue, _upload, ...shown } = img;
  return { ...shown, tags: [] };
}

/** Applies due status changes; cancels and deletes uploads whose window closed with no data. */
function purge({ d, now }: ImageContext): void {
  for (const i of d.images) settle(i, now());
  d.images = d.images.filter((i) => !(i.status === "pending_upload" && i._upload && i._upload.deadline <= now()));
}

/** A user's private images (none without a user). */
function mine(c: ImageContext, username: string | undefined): ImageRecord[] {
  purge(c);
  return username ? c.d.images.filter((i) => i._owner === username) : [];
}

/** An image this user may deploy or read: public, or one of their private ones. */
const finder =
  (c: ImageContext): ImageFinder =>
  (id, username) => {
    const pub = PUBLIC_IMAGES.find((i) => i.id === id);
    if (pub) return pub;
    const own = mine(c, username).find((i) => i.id === id);
    return own && imageView(own);
  };

/** The caller's private image `imageId` (a public one cannot be changed: 400; another's or none: 404). */
function privateImage(c: ImageContext, imageId: string, username: string | undefined): ImageRecord {
  const img = mine(c, username).find((i) => i.id === imageId);
  if (!img) throw PUBLIC_IMAGES.some((i) => i.id === imageId) ? badRequest("Public images cannot be changed or deleted") : notFound();
  return img;
}

/** A new private image of the user (who needs the add_images grant when restricted). */
function newImage(
  c: ImageContext,
  user: User,
  fields: Pick<ImageRecord, "label" | "description" | "capabilities" | "status"> & Partial<ImageRecord>,
): ImageRecord {
  if (user.restricted && !user.grants?.global.add_images) throw forbidden("You do not have permission to add images: the add_images grant is needed");
  const img: ImageRecord = {
    id: `private/${c.store.nextId("image")}`,
    created: c.stamp(),
    updated: c.stamp(),
    created_by: user.username,
    deprecated: false,
    eol: null,
    expiry: null,
    is_public: false,
    size: 0,
    type: "manual",
    vendor: null,
    _owner: user.username,
    _queue: [],
    ...fields,
  };
  c.d.images.push(img);
  return img;
}

/**
 * The data on a disk of `size` MB of an instance deployed from `image` (an approximation: the emulator keeps no
 * data): that public image's size, when known.
 */
const dataSize = (size: number, image: string | null) => Math.min(size, PUBLIC_IMAGES.find((i) => i.id === image)?.size ?? size);

/** The capabilities an image's `cloud_init` gives. */
const capabilitiesOf = (cloudInit: boolean | undefined) => (cloudInit === true ? ["cloud-init"] : []);

/** A capture of a disk of an instance the user can access: the body's rules passed (api/contract/images.ts). */
function capture(c: ImageContext, { user, token, body }: Req<typeof imagesApi.capture>): Image {
  // Capturing reads the instance's disk: computes:read_only as well.
  if (!hasScope(token.scopes, "computes", "read_only"))
    throw forbidden("Your OAuth token is not authorized to use this endpoint: it needs the computes:read_only scope too");
  const disk = c.compute.disks.find((x) => x.id === body.disk_id);
  // A restricted user's grant on the instance: none (or null) does not see the disk; read_only sees it but may not
  // make an image of it, as it may not change the instance (emulator/routes/compute/access.ts): 403.
  const grant = (id: number) => (user.restricted ? user.grants?.compute.find((g) => g.id === id)?.permissions : "read_write");
  const inst = disk && c.compute.instances.find((i) => i.id === disk.compute_id && grant(i.id));
  if (!disk || !inst) throw badRequest(`Disk ${body.disk_id} not found`, "disk_id");
  if (grant(inst.id) !== "read_write") throw forbidden(READ_ONLY_INSTANCE_TEXT);
  // A disk still being made can be captured: the real API answered 200 (the image `creating`) to a capture of a
  // disk `not ready` (recorded). One being deleted cannot.
  if (settle(disk, c.now()).status === "deleting") throw badRequest("The disk is being deleted", "disk_id");
  const img = newImage(c, user, {
    label: body.label ?? disk.label,
    description: body.description ?? null,
    capabilities: capabilitiesOf(body.cloud_init),
    size: disk.size,
    status: "creating",
    // Once captured, the image's size is that of the data (its minimum deploy size), no longer the disk's: the
    // real API made a 2,000 MB disk from an image captured from a 25,088 MB disk (recorded). The emulator keeps
    // no data: the data is the image the instance was deployed from, or the disk when there is none.
    _queue: [{ status: "available", at: c.now() + scaled(BASE_MS.imagize, c.timing), patch: { size: dataSize(disk.size, inst.image) } }],
  });
  // The real API's capture event (disk_imagize): of the instance the disk is on, the image its secondary entity,
  // started until the image is available (recorded).
  c.store.event("disk_imagize", user.username, eventEntity("compute", inst.id, inst.label, `/compute/instances/${inst.id}`), {
    secondary: imageEntity(img),
    finish: img._queue[0].at,
  });
  return imageView(img);
}

/** An image waiting for its data at a new upload URL, for the upload window. */
function upload(c: ImageContext, { user, body }: Req<typeof imagesApi.upload>): ImageUploadAnswer {
  const region = catalog.regions.find((r) => r.id === body.region);
  if (!region) throw badRequest(`Region ${body.region} not found`, "region");
  const token = uploadTokenValue();
  const img = newImage(c, user, {
    label: body.label,
    description: body.description ?? null,
    capabilities: capabilitiesOf(body.cloud_init),
    status: "pending_upload",
    _upload: { token, deadline: c.now() + c.window, region: region.id },
  });
  // Started until the data is in (then finished), failed if the window closes first (or the image is deleted).
  c.store.event("image_upload", user.username, imageEntity(img), { finish: img._upload?.deadline, fails: true });
  return { image: imageView(img), upload_to: `${c.baseUrl()}/upload/${token}` };
}

/** An upload's event ended now: finished (its data is in), or failed (its image deleted while it waited). */
function endUpload(c: ImageContext, img: ImageRecord, received: boolean): void {
  const e = c.store.data.events.filter((x) => x.action === "image_upload" && x.entity?.id === img.id && x._fails).at(-1);
  if (!e) return;
  e._finish = c.now();
  if (received) delete e._fails;
}

/** The data of an upload (`PUT <upload_to>`: a pre-signed URL, served by emulator/server.ts before the API's routes), streamed. */
async function receiveUpload(c: ImageContext, token: string, req: IncomingMessage): Promise<void> {
  purge(c);
  const img = c.d.images.find((i) => i._upload?.token === token && i.status === "pending_upload");
  if (!img) throw new HttpError(404, [{ reason: "No upload is waiting at this URL (it was used, or its window closed)" }]);
  // The media type, its parameters aside (`; charset=...`).
  if (req.headers["content-type"]?.split(";")[0].trim().toLowerCase() !== IMAGE_UPLOAD.contentType)
    throw new HttpError(415, [{ reason: `Content-type must be ${IMAGE_UPLOAD.contentType}` }]);
  // Streamed: counted and checked, never held in memory (a request without an encoding gives Buffers).
  let size = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.alloc(0);
    size += bytes.length;
    if (head.length < 2) head = Buffer.concat([head, bytes]).subarray(0, 2);
    if (size > c.maxBytes) {
      // Answer, then close the connection (the rest of the body is not read).
      throw new HttpError(413, [{ reason: `The upload is larger than ${c.maxBytes} bytes (the compressed limit)` }], { Connection: "close" });
    }
  }
  if (size === 0 || head[0] !== 0x1f || head[1] !== 0x8b) throw badRequest("The upload must be a gzip-compressed raw disk image");
  // The data is in: the image's change is one transaction (the account is not held while the data streams in).
  await c.store.write(() => {
    const waiting = c.d.images.find((i) => i._upload?.token === token && i.status === "pending_upload");
    if (!waiting) throw new HttpError(404, [{ reason: "No upload is waiting at this URL (it was used, or its window closed)" }]);
    waiting.size = Math.max(1, Math.ceil(size / (1024 * 1024)));
    waiting.status = "creating";
    waiting._queue = [{ status: "available", at: c.now() + scaled(BASE_MS.uploaded, c.timing) }];
    delete waiting._upload;
    waiting.updated = c.stamp();
    endUpload(c, waiting, true);
  });
}

const row = rowsOf<ImageContext>();

const ROWS = [
  // Public images to all; a token's private ones with an images scope.
  row(imagesApi.list, (c, req) => {
    const own = req.token && hasScope(req.token.scopes, "images", "read_only") ? mine(c, req.user?.username).map(imageView) : [];
    return paginate([...PUBLIC_IMAGES, ...own], req);
  }),
  row(imagesApi.capture, capture),
  row(imagesApi.upload, upload),
  row(imagesApi.get, (c, { params, token, user }) => {
    const pub = PUBLIC_IMAGES.find((i) => i.id === params.imageId);
    if (pub) return pub;
    if (!token) throw notFound();
    if (!hasScope(token.scopes, "images", "read_only"))
      throw forbidden("Your OAuth token is not authorized to use this endpoint: it needs the images:read_only scope");
    return imageView(privateImage(c, params.imageId, user?.username));
  }),
  row(imagesApi.update, (c, { params, user, body }) => {
    const img = privateImage(c, params.imageId, user.username);
    if (body.label !== undefined) img.label = body.label;
    if (body.description !== undefined) img.description = body.description;
    img.updated = c.stamp();
    c.store.event("image_update", user.username, imageEntity(img));
    return imageView(img);
  }),
  row(imagesApi.delete, (c, { params, user }) => {
    const img = privateImage(c, params.imageId, user.username);
    if (img.status === "pending_upload") endUpload(c, img, false);
    c.d.images = c.d.images.filter((i) => i !== img);
    c.store.event("image_delete", user.username, imageEntity(img));
    return {};
  }),
];
