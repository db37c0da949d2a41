import type { ExampleProps } from "../model/example";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import * as path from "node:path";
import { Readable, Transform } from "node:stream";
import { createGzip } from "node:zlib";
import { z } from "zod";
import { LostAnswerError, type ApiClient } from "../transport/client";
import { Agent, request } from "../transport/http";
import { defineResource } from "../definition";
import { toApiBody } from "../model/mapping";
import { isExisting } from "../model/naming";
import { labelBounds, LENGTH_LIMITS } from "../../api/text";
import type { BodyIn } from "../../api/contract/endpoint";
import { pathOf } from "../../api/contract/endpoint";
import { IMAGE_STATUSES, IMAGE_UPLOAD, imageDescription, imageLabel, imagesApi, type Image, type ImageUploadAnswer } from "../../api/contract/images";
import { putChanged } from "../lifecycle/steps";
import type { CheckFailure } from "../model/check";
import { tableFor } from "../model/api-table";
import { UNKNOWN } from "../model/table";
import { idInput, madeSince } from "../model/rules";
import { resource, ref, emptyHost, bootDisk } from "./example-parents";

/** An image as the API answers it (api/contract/images.ts). */
export type ImageApi = Image;

/** The upload limit in GB, for messages: "at most 5GB compressed" (api/contract/images.ts `IMAGE_UPLOAD`). */
const MAX_UPLOAD_GB = IMAGE_UPLOAD.maxBytes / 1024 ** 3;

export const imageSpec = tableFor({
  create: imagesApi.capture,
  get: imagesApi.get,
  update: imagesApi.update,
  list: imagesApi.list,
  alsoCreate: [imagesApi.upload],
  providerOnly: ["file", "file_hash"],
})({
  type: "Image",
  noun: "image",
  description:
    "A private image (`/images`): captured from a disk (`diskId`), or uploaded from a local file (`file`, `region`). The file is streamed, never read into memory, and gzip-compressed on the way unless it already is; its SHA-256 is kept, so a file whose content changes makes a new image, while a file moved or renamed with the same content does not. Waits until the image is available.",
  idFormat: "The API's image id, `private/<number>`: use it as an Instance's or a Disk's `image`.",
  autoName: { field: "label", ...labelBounds("imageLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  fields: [
    {
      name: "diskId",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: idInput,
      description: "Capture this disk (a Disk's `id`). Changing it makes a new image.",
    },
    {
      name: "file",
      kind: "input",
      writeOnly: true,
      schema: z.string().min(1),
      description: `Upload this local file: a raw disk image, gzip-compressed or not (it is compressed when not), at most ${MAX_UPLOAD_GB} GB compressed. Moving or renaming it changes nothing in the API: only its content (\`fileHash\`) makes a new image.`,
    },
    {
      name: "fileHash",
      kind: "input",
      computed: true,
      forceNew: true,
      writeOnly: true,
      schema: z.string(),
      description: "SHA-256 of `file`, computed by the provider at preview: a file whose content changes makes a new image.",
    },
    {
      name: "region",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.string().min(1),
      description: "Region the upload goes to (required with `file`).",
    },
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: imageLabel,
      description: `${LENGTH_LIMITS.imageLabel.join("..")} characters; auto-named \`<resource name>-<suffix>\` when left out. Changed in place.`,
    },
    {
      name: "description",
      kind: "input",
      computed: true,
      clearTo: null,
      schema: imageDescription,
      description: `${LENGTH_LIMITS.imageDescription.join("..")} characters. Changed in place.`,
    },
    {
      name: "cloudInit",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.boolean(),
      description: "The image supports cloud-init (adds the `cloud-init` capability).",
    },
    {
      name: "status",
      kind: "output",
      schema: z.enum(IMAGE_STATUSES),
      description: "`creating`, `pending_upload` or `available`.",
    },
    { name: "size", kind: "output", outputType: "integer", description: "Minimum deploy size in MB." },
    { name: "capabilities", kind: "output", outputType: "array", description: "Includes `cloud-init` when supported." },
    { name: "isPublic", kind: "output", outputType: "boolean", description: "Always false for these." },
    { name: "createdBy", kind: "output", description: "The user who made it." },
    { name: "type", kind: "output", description: "`manual`." },
    { name: "created", kind: "output", description: "When the image was created." },
    { name: "updated", kind: "output", changesWith: ["label", "description"], description: "When it last changed." },
  ],
  timeouts: { defaults: { create: "30m" }, note: "The create waits until the image is available." },
  waitCreated: { what: "to be available", readyStatus: "available", done: (i) => i.status === "available", progressEveryMs: 15_000 },
  collectionPath: () => pathOf(imagesApi.list, {}),
  itemPath: (id) => pathOf(imagesApi.get, { imageId: id }),
  async findExisting(client, body, _inputs, since) {
    const all = await client.all(imagesApi.list, {});
    return all.find((i) => !i.is_public && i.label === body.label && madeSince(i.created, since));
  },
});

/** SHA-256 of a file, streamed. */
export async function fileSha256(file: string): Promise<string> {
  const h = createHash("sha256");
  // A stream read without an encoding gives Buffers.
  for await (const chunk of createReadStream(file)) h.update(Buffer.isBuffer(chunk) ? chunk : String(chunk));
  return h.digest("hex");
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** Streams the file to the upload URL, compressing it when it is not gzip already; progress on stderr. */
export async function uploadFile(file: string, url: string): Promise<void> {
  const total = (await stat(file)).size;
  let sent = 0;
  let last = Date.now();
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      if (Date.now() - last > 10_000) {
        last = Date.now();
        process.stderr.write(`pulumi-compute: uploading ${path.basename(file)}: ${Math.round((sent / Math.max(total, 1)) * 100)}% read\n`);
      }
      done(null, chunk);
    },
  });
  let body: Readable = createReadStream(file).pipe(meter);
  if (!(await isGzip(file))) body = body.pipe(createGzip());
  // A connection of its own (the upload URL is another origin than the API's), closed when the upload ends.
  const dispatcher = new Agent();
  try {
    const res = await request(new URL(url), { method: "PUT", body, headers: { "content-type": IMAGE_UPLOAD.contentType }, dispatcher });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`the upload was refused: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  } finally {
    dispatcher.close().catch(() => undefined);
  }
}

/**
 * Asks for an upload. Its answer alone carries the upload URL, so when it is lost, the image it may
 * have made is deleted (it could never get its data) and the request sent again.
 */
async function requestUpload(c: ApiClient, body: BodyIn<typeof imagesApi.upload>): Promise<ImageUploadAnswer> {
  const since = Date.now();
  for (let i = 1; ; i++) {
    try {
      return await c.call(imagesApi.upload, { body, idempotent: false });
    } catch (err) {
      if (!(err instanceof LostAnswerError) || i >= 10) throw err;
      const strays = (await c.all(imagesApi.list, {})).filter(
        (im) => im.status === "pending_upload" && im.label === body.label && madeSince(im.created, since),
      );
      for (const im of strays) await c.find(imagesApi.delete, { params: { imageId: im.id } });
    }
  }
}

/** An image: its table, plus the choice of capture or upload, the file's hash at check, and label/description updates. */
export const image = defineResource({
  spec: imageSpec,
  example: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const golden = resource("Image", "golden", { diskId: ref(boot), label: "golden-debian12", description: "Debian 12 with the deploy key" });
    return {
      title: "A private image captured from a disk",
      resources: [host, boot, golden],
      outputs: { imageId: ref(golden), minimumSize: ref(golden, "size") },
    };
  },
  sdk: { file: "image" },
  hooks: {
    async validate(news, olds, r) {
      const failures: CheckFailure[] = [];
      const hasDisk = news.diskId !== undefined;
      const hasFile = news.file !== undefined;
      // An imported image: the API never shows where it came from, so it may go on without either.
      const originUnknown = isExisting(olds) && olds.diskId === undefined && olds.file === undefined;
      if (hasDisk === hasFile && !(originUnknown && !hasDisk))
        failures.push({ property: hasDisk ? "file" : "diskId", reason: "give either diskId (capture a disk) or file (upload), not both and not neither" });
      if (hasFile && news.region === undefined) failures.push({ property: "region", reason: "region: an upload needs a region" });
      if (hasFile && typeof news.file === "string" && news.file !== UNKNOWN && !r.failures.length && !failures.length) {
        const file = path.resolve(news.file);
        const st = await stat(file).catch(() => undefined);
        if (!st?.isFile()) failures.push({ property: "file", reason: `file: ${news.file} is not a readable file` });
        else if ((await isGzip(file)) && st.size > IMAGE_UPLOAD.maxBytes)
          failures.push({ property: "file", reason: `file: ${st.size} bytes compressed is over the ${MAX_UPLOAD_GB} GB limit` });
        else r.inputs.fileHash = await fileSha256(file);
      }
      return failures;
    },
    diff(_client, _id, _olds, _news, d) {
      d.deleteBeforeReplace = false;
    },
    createBody: (_table, inputs) =>
      inputs.diskId !== undefined
        ? toApiBody(imageSpec, inputs, ["diskId", "label", "description", "cloudInit"])
        : toApiBody(imageSpec, inputs, ["label", "region", "description", "cloudInit"]),
    async send(create, { client: c, body, inputs }) {
      if (inputs.diskId !== undefined) return create();
      // The body the table made (createBody's), as the upload's schema reads it.
      const r = await requestUpload(c, imagesApi.upload.body.parse(body));
      try {
        await uploadFile(path.resolve(String(inputs.file)), r.upload_to);
      } catch (err) {
        // Nothing half-made: an upload image that got no data is deleted.
        await c.find(imagesApi.delete, { params: { imageId: r.image.id } }).catch(() => undefined);
        throw err;
      }
      return r.image;
    },
    async update({ client: c, id }, olds, news, changed) {
      // A moved or renamed file (same content) changes nothing in the API.
      return (await putChanged(c, imageSpec, id, olds, news, changed, { only: ["label", "description"] })).api;
    },
  },
});
export const imageProvider = image.provider;

// The inputs its examples may give (Image): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Image: ExampleProps<typeof imageSpec.fields>;
  }
}
