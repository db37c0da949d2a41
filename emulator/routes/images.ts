import { randomBytes } from "node:crypto";
import { catalog } from "../catalog";
import { collections, type ApiFamily, type FamilyContext } from "../family";
import { FieldErrors, HttpError, badRequest, forbidden, notFound, paginate } from "../http";
import { type RequestContext, type SignedInContext } from "../router";
import { FIND_IMAGE, RECEIVE_UPLOAD, type ImageFinder } from "../lookups";
import { checkText } from "../../api/text";
import { objectOrEmpty, optionalBoolean, readFields, readText } from "../body";
import { apiTime, eventEntity, settle, view, type Step } from "../state";
import { BASE_MS, scaled } from "../timing";
import { computeState } from "./compute/records";

const rw = { group: "images", level: "read_write" } as const;

/** An image as an event's entity (recorded: type `image`, its API path). */
const imageEntity = (img: { id: string; label: string }) => eventEntity("image", img.id, img.label, `/images/${img.id}`);

export interface ImageOptions {
  /** The largest upload taken (the spec's 5 GB by default). */
  maxUploadBytes?: number;
  /** How long an upload image waits for its data before it is cancelled and deleted (24 hours by default). */
  uploadWindowMs?: number;
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

/** The image family's collection in the state file (private images; the public ones are the catalog's). */
export interface ImageState {
  images: ImageRecord[];
}

export const imageState = collections<ImageState>({ images: [] });

/**
 * The image family (`/images...`), with its options: public and private images, captures from disks and
 * uploads. It gives the compute routes an image finder and the server the receiver of upload data.
 */
export const imageFamily = (opts: ImageOptions): ApiFamily<ImageState> => ({
  name: "images",
  state: imageState,
  register: (ctx) => registerImageRoutes(ctx, opts),
});

function registerImageRoutes({ router, store, now, timing, baseUrl, services }: FamilyContext, opts: ImageOptions): void {
  const d = imageState(store);
  // Captures read the disks of instances.
  const compute = computeState(store);
  const maxBytes = opts.maxUploadBytes ?? 5 * 1024 ** 3;
  const window = opts.uploadWindowMs ?? 24 * 3600_000;
  const stamp = () => apiTime(now());

  /** Applies due status changes; cancels and deletes uploads whose window closed with no data. */
  const purge = () => {
    for (const i of d.images) settle(i, now());
    d.images = d.images.filter((i) => !(i.status === "pending_upload" && i._upload && i._upload.deadline <= now()));
  };
  const mine = (username: string | undefined) => {
    purge();
    return username ? d.images.filter((i) => i._owner === username) : [];
  };
  /** An image this user may deploy or read: public, or one of their private ones. */
  const find: ImageFinder = (id, username) => {
    const pub = catalog.images.find((i) => i.id === id);
    if (pub) return pub;
    const own = mine(username).find((i) => i.id === id);
    return own ? (view(own) as never) : undefined;
  };
  /** The data on a disk of `size` MB of an instance deployed from `image` (an approximation: the emulator keeps no data): that public image's size, when known. */
  const dataSize = (size: number, image: string | null) => Math.min(size, catalog.images.find((i) => i.id === image)?.size ?? size);
  /**
   * An image as the API shows it (public from the catalogue, or private): with `tags`, which the real API
   * answers (empty: the spec gives no way to tag an image).
   */
  const imageView = (img: ImageRecord | (typeof catalog.images)[number]) => ({ tags: [] as string[], ...view(img) });
  const privateImage = (ctx: RequestContext) => {
    const img = mine(ctx.user?.username).find((i) => i.id === ctx.params.imageId);
    if (!img) throw catalog.images.some((i) => i.id === ctx.params.imageId) ? badRequest("Public images cannot be changed or deleted") : notFound();
    return img;
  };
  const newImage = (ctx: SignedInContext, fields: Partial<ImageRecord>): ImageRecord => {
    const u = ctx.user;
    if (u.restricted && !u.grants?.global.add_images) throw forbidden("You do not have permission to add images: the add_images grant is needed");
    const img: ImageRecord = {
      id: `private/${store.nextId("image")}`,
      label: "",
      description: null,
      capabilities: [],
      created: stamp(),
      updated: stamp(),
      created_by: u.username,
      deprecated: false,
      eol: null,
      expiry: null,
      is_public: false,
      size: 0,
      status: "creating",
      type: "manual",
      vendor: null,
      _owner: u.username,
      _queue: [],
      ...fields,
    };
    d.images.push(img);
    return img;
  };
  /** An image's texts and its cloud-init flag, as given: a label, a description (or null). */
  const readTexts = (body: Record<string, unknown>, errors: FieldErrors): { label?: string; description?: string | null; cloudInit?: boolean } => {
    const read: { label?: string; description?: string | null; cloudInit?: boolean } = {};
    if (body.label !== undefined) read.label = readText(body.label, "label", (v) => checkText(v, "imageLabel"), errors);
    if (body.description === null) read.description = null;
    else if (body.description !== undefined) {
      const text = (v: string) => checkText(v, "imageDescription", true);
      read.description = readText(body.description, "description", text, errors, { name: "Description", notText: "must be a string or null" });
    }
    read.cloudInit = readFields(body, { cloud_init: optionalBoolean }, errors).cloud_init;
    return read;
  };

  router.add("GET", "/images", { scope: null, auth: "optional" }, (ctx) => {
    const own = ctx.token && (ctx.token.scopes === "*" || /\bimages:read_(only|write)\b/.test(ctx.token.scopes)) ? mine(ctx.user?.username) : [];
    return paginate([...catalog.images, ...own].map(imageView), ctx);
  });
  router.add("POST", "/images", { scope: rw, auth: "required" }, (ctx) => {
    const body = objectOrEmpty(ctx);
    // Capturing reads the instance's disk: computes:read_only as well.
    const scopes = ctx.token.scopes;
    if (scopes !== "*" && !/\bcomputes:read_(only|write)\b/.test(scopes))
      throw forbidden("Your OAuth token is not authorized to use this endpoint: it needs the computes:read_only scope too");
    const errors = new FieldErrors();
    const disk = typeof body.disk_id === "number" ? compute.disks.find((x) => x.id === body.disk_id) : undefined;
    const inst =
      disk && compute.instances.find((i) => i.id === disk.compute_id && (!ctx.user.restricted || ctx.user.grants!.compute.some((g) => g.id === i.id)));
    if (body.disk_id === undefined) errors.add("disk_id", "disk_id is required");
    else if (!disk || !inst) errors.add("disk_id", `Disk ${String(body.disk_id)} not found`);
    // A disk still being made can be captured: the real API answered 200 (the image `creating`) to a capture of a
    // disk `not ready` (recorded). One being deleted cannot.
    else if (settle(disk, now()).status === "deleting") errors.add("disk_id", "The disk is being deleted");
    const texts = readTexts(body, errors);
    errors.throwIfAny();
    // With no refusal, the disk and its instance were found.
    if (!disk || !inst) throw badRequest("disk_id is required");
    const img = newImage(ctx, {
      label: texts.label ?? disk.label,
      description: texts.description ?? null,
      capabilities: texts.cloudInit === true ? ["cloud-init"] : [],
      size: disk.size,
      status: "creating",
      // Once captured, the image's size is that of the data (its minimum deploy size), no longer the disk's: the
      // real API made a 2,000 MB disk from an image captured from a 25,088 MB disk (recorded). The emulator keeps
      // no data: the data is the image the instance was deployed from, or the disk when there is none.
      _queue: [{ status: "available", at: now() + scaled(BASE_MS.provisioning, timing), patch: { size: dataSize(disk.size, inst.image) } }],
    });
    // The real API's capture event (disk_imagize): of the instance the disk is on, the image its secondary entity,
    // started until the image is available (recorded).
    store.event("disk_imagize", ctx.user.username, eventEntity("compute", inst.id, inst.label, `/compute/instances/${inst.id}`), {
      secondary: imageEntity(img),
      finish: img._queue[0].at,
    });
    return imageView(img);
  });
  router.add("POST", "/images/upload", { scope: rw, auth: "required" }, (ctx) => {
    const body = objectOrEmpty(ctx);
    const errors = new FieldErrors();
    if (body.label === undefined) errors.add("label", "label is required");
    const region = catalog.regions.find((r) => r.id === body.region);
    if (body.region === undefined) errors.add("region", "region is required");
    else if (!region) errors.add("region", `Region ${String(body.region)} not found`);
    const texts = readTexts(body, errors);
    errors.throwIfAny();
    // With no refusal, the label was read and the region found.
    if (texts.label === undefined || !region) throw badRequest("label and region are required");
    const token = randomBytes(24).toString("hex");
    const img = newImage(ctx, {
      label: texts.label,
      description: texts.description ?? null,
      capabilities: texts.cloudInit === true ? ["cloud-init"] : [],
      status: "pending_upload",
      _upload: { token, deadline: now() + window, region: region.id },
    });
    store.event("image_upload", ctx.user.username, imageEntity(img));
    return { image: imageView(img), upload_to: `${baseUrl()}/upload/${token}` };
  });
  router.add("GET", "/images/{imageId*}", { scope: null, auth: "optional" }, (ctx) => {
    const pub = catalog.images.find((i) => i.id === ctx.params.imageId);
    if (pub) return imageView(pub);
    if (!ctx.token) throw notFound();
    if (ctx.token.scopes !== "*" && !/\bimages:read_(only|write)\b/.test(ctx.token.scopes))
      throw forbidden("Your OAuth token is not authorized to use this endpoint: it needs the images:read_only scope");
    return imageView(privateImage(ctx));
  });
  router.add("PUT", "/images/{imageId*}", { scope: rw, auth: "required" }, (ctx) => {
    const img = privateImage(ctx);
    const errors = new FieldErrors();
    const texts = readTexts(objectOrEmpty(ctx), errors);
    errors.throwIfAny();
    if (texts.label !== undefined) img.label = texts.label;
    if (texts.description !== undefined) img.description = texts.description;
    img.updated = stamp();
    store.event("image_update", ctx.user.username, imageEntity(img));
    return imageView(img);
  });
  router.add("DELETE", "/images/{imageId*}", { scope: rw, auth: "required" }, (ctx) => {
    const img = privateImage(ctx);
    d.images = d.images.filter((i) => i !== img);
    store.event("image_delete", ctx.user.username, imageEntity(img));
    return {};
  });

  services.provide(FIND_IMAGE, find);
  // The data of an upload (`PUT <upload_to>`), streamed.
  services.provide(RECEIVE_UPLOAD, async (token, req) => {
    purge();
    const img = d.images.find((i) => i._upload?.token === token && i.status === "pending_upload");
    if (!img) throw new HttpError(404, [{ reason: "No upload is waiting at this URL (it was used, or its window closed)" }]);
    if (!/^application\/octet-stream\b/i.test(req.headers["content-type"] ?? ""))
      throw new HttpError(415, [{ reason: "Content-type must be application/octet-stream" }]);
    // Streamed: counted and checked, never held in memory.
    let size = 0;
    let head = Buffer.alloc(0);
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (head.length < 2) head = Buffer.concat([head, chunk as Buffer]).subarray(0, 2);
      if (size > maxBytes) {
        // Answer, then close the connection (the rest of the body is not read).
        throw new HttpError(413, [{ reason: `The upload is larger than ${maxBytes} bytes (the compressed limit)` }], { Connection: "close" });
      }
    }
    if (size === 0 || head[0] !== 0x1f || head[1] !== 0x8b) throw badRequest("The upload must be a gzip-compressed raw disk image");
    img.size = Math.max(1, Math.ceil(size / (1024 * 1024)));
    img.status = "creating";
    img._queue = [{ status: "available", at: now() + scaled(BASE_MS.provisioning, timing) }];
    delete img._upload;
    img.updated = stamp();
    store.save();
  });
}
