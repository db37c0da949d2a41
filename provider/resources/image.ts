import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import * as path from "node:path";
import { Readable, Transform } from "node:stream";
import { createGzip } from "node:zlib";
import { request } from "undici";
import { z } from "zod";
import { AmbiguousCreateError, type ApiClient } from "../client";
import {
  checkInputs,
  createOnce,
  declare,
  rule,
  describeFailure,
  diffInputs,
  fromApi,
  keepResourceError,
  restProvider,
  toApiBody,
  UNKNOWN,
  updateBody,
  type DynamicProviderImpl,
  type ResourceSpec,
} from "../resource";
import { lengthError } from "../rules";
import { client as settingsClient } from "../settings";
import { timeoutOf, timeoutsField } from "../timeouts";
import { waitFor } from "../wait";
import { idInput } from "./disk";

type Props = Record<string, unknown>;

export interface ImageApi {
  id: string;
  label: string;
  status: "creating" | "pending_upload" | "available";
  created: string;
  [k: string]: unknown;
}

/** The spec's limit for an upload (compressed). */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

export const imageSpec: ResourceSpec<ImageApi> = {
  type: "Image",
  noun: "image",
  description:
    "A private image (`/images`): captured from a disk (`diskId`), or uploaded from a local file (`file`, `region`). The file is streamed, never read into memory, and gzip-compressed on the way unless it already is; its SHA-256 is kept, so a file whose content changes makes a new image, while a file moved or renamed with the same content does not. Waits until the image is available.",
  idFormat: "The API's image id, `private/<number>`: use it as an Instance's or a Disk's `image`.",
  example: `// From a disk of an instance:
const golden = new compute.Image("golden", { diskId: rootDisk.id, label: "golden", description: "base image" });
// From a local raw disk image (gzip or not):
const custom = new compute.Image("custom", { file: "./build/disk.img", region: "us-east" }); // label: custom-<suffix>`,
  autoName: { field: "label", min: 1, max: 128, allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  fields: [
    { name: "diskId", kind: "input", forceNew: true, schema: idInput, description: "Capture this disk (a Disk's `id`). Changing it makes a new image." },
    {
      name: "file",
      kind: "input",
      schema: z.string().min(1),
      description:
        "Upload this local file: a raw disk image, gzip-compressed or not (it is compressed when not), at most 5 GB compressed. Moving or renaming it changes nothing in the API: only its content (`fileHash`) makes a new image.",
    },
    {
      name: "fileHash",
      kind: "input",
      computed: true,
      forceNew: true,
      schema: z.string(),
      description: "SHA-256 of `file`, computed by the provider at preview: a file whose content changes makes a new image.",
    },
    { name: "region", kind: "input", forceNew: true, schema: z.string().min(1), description: "Region the upload goes to (required with `file`)." },
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: rule((v) => lengthError(v, 1, 128)),
      description: "1..128 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    {
      name: "description",
      kind: "input",
      computed: true,
      clearTo: null,
      schema: z.string().min(1, "must be 1 to 65000 characters").max(65000, "must be 1 to 65000 characters"),
      description: "1..65000 characters. Changed in place.",
    },
    {
      name: "cloudInit",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.boolean(),
      description: "The image supports cloud-init (adds the `cloud-init` capability).",
    },
    timeoutsField("Image", "The create waits until the image is available."),
    { name: "status", kind: "output", description: "`creating`, `pending_upload` or `available`." },
    { name: "size", kind: "output", outputType: "integer", description: "Minimum deploy size in MB." },
    { name: "capabilities", kind: "output", outputType: "array", description: "Includes `cloud-init` when supported." },
    { name: "isPublic", kind: "output", outputType: "boolean", description: "Always false for these." },
    { name: "createdBy", kind: "output", description: "The user who made it." },
    { name: "type", kind: "output", description: "`manual`." },
    { name: "created", kind: "output", description: "When the image was created." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  collectionPath: () => "/images",
  itemPath: (id) => `/images/${id}`,
  async findExisting(client, body, _inputs, since) {
    const all = await client.list<ImageApi>("/images");
    return all.find((i) => !i.is_public && i.label === body.label && Date.parse(`${i.created}Z`) >= since - 60_000);
  },
};

/** SHA-256 of a file, streamed. */
export async function fileSha256(file: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
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
  const res = await request(url, { method: "PUT", body, headers: { "content-type": "application/octet-stream" } });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`the upload was refused: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
}

/**
 * Asks for an upload. Its answer alone carries the upload URL, so when it is lost, the image it may
 * have made is deleted (it could never get its data) and the request sent again.
 */
async function requestUpload(c: ApiClient, body: Record<string, unknown>): Promise<{ image: ImageApi; upload_to: string }> {
  const since = Date.now();
  for (let i = 1; ; i++) {
    try {
      return (await c.request<{ image: ImageApi; upload_to: string }>("POST", "/images/upload", { body, idempotent: false })).body;
    } catch (err) {
      if (!(err instanceof AmbiguousCreateError) || i >= 10) throw err;
      const strays = (await c.list<ImageApi>("/images")).filter(
        (im) => im.status === "pending_upload" && im.label === body.label && Date.parse(`${im.created}Z`) >= since - 60_000,
      );
      for (const im of strays) await c.request("DELETE", `/images/${im.id}`, { accept: [404] });
    }
  }
}

const waitAvailable = async (c: ApiClient, id: string, props: Props) =>
  (await waitFor<ImageApi>({
    client: c,
    path: imageSpec.itemPath(id, props),
    what: `image ${id} to be available`,
    done: (i) => i.status === "available",
    timeoutMs: timeoutOf("Image", props, "create"),
    describe: (i) => `status ${i.status}`,
    progressEveryMs: 15_000,
  }))!;

const base = restProvider(imageSpec);

/** The REST provider's read and delete, with the image's own check, create (disk or upload) and update. */
export const imageProvider: DynamicProviderImpl = {
  ...base,
  async check(olds, news) {
    const r = checkInputs(imageSpec, news, olds);
    const hasDisk = news.diskId !== undefined;
    const hasFile = news.file !== undefined;
    if (hasDisk === hasFile)
      r.failures.push({ property: hasDisk ? "file" : "diskId", reason: "give either diskId (capture a disk) or file (upload), not both and not neither" });
    if (hasFile && news.region === undefined) r.failures.push({ property: "region", reason: "region: an upload needs a region" });
    if (hasFile && typeof news.file === "string" && news.file !== UNKNOWN && !r.failures.length) {
      const file = path.resolve(news.file);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) r.failures.push({ property: "file", reason: `file: ${news.file} is not a readable file` });
      else if ((await isGzip(file)) && st.size > MAX_UPLOAD_BYTES)
        r.failures.push({ property: "file", reason: `file: ${st.size} bytes compressed is over the 5 GB limit` });
      else r.inputs.fileHash = await fileSha256(file);
    }
    return r;
  },
  async diff(_id, olds, news) {
    const d = diffInputs(imageSpec, olds, news);
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: false };
  },
  async create(inputs) {
    let id: string | undefined;
    let last: ImageApi | undefined;
    let c: ApiClient | undefined;
    try {
      c = settingsClient();
      if (inputs.diskId !== undefined) {
        const body = toApiBody(imageSpec, inputs, ["diskId", "label", "description", "cloudInit"]);
        last = await createOnce(c, imageSpec, body, inputs);
        id = last.id;
      } else {
        const body = toApiBody(imageSpec, inputs, ["label", "region", "description", "cloudInit"]);
        const r = await requestUpload(c, body);
        last = r.image;
        id = last.id;
        try {
          await uploadFile(path.resolve(String(inputs.file)), r.upload_to);
        } catch (err) {
          // Nothing half-made: an upload image that got no data is deleted.
          await c.request("DELETE", imageSpec.itemPath(id, inputs), { accept: [404] }).catch(() => undefined);
          id = undefined;
          throw err;
        }
      }
      last = await waitAvailable(c, id, inputs);
      return { id, outs: declare(imageSpec, fromApi(imageSpec, last, inputs), inputs) };
    } catch (err) {
      const e = describeFailure(imageSpec, "create", id, err);
      if (id && last)
        throw keepResourceError(`${e.message}. The image ${id} exists and is kept in the stack.`, id, fromApi(imageSpec, last, inputs), inputs, e);
      throw e;
    }
  },
  async update(id, olds, news) {
    try {
      const { changed } = diffInputs(imageSpec, olds, news);
      const c = settingsClient();
      const sent = changed.filter((f) => f === "label" || f === "description");
      // A moved or renamed file (same content) changes nothing in the API.
      const api = sent.length
        ? (await c.request<ImageApi>("PUT", imageSpec.itemPath(id, olds), { body: updateBody(imageSpec, news, sent) })).body
        : (await c.get<ImageApi>(imageSpec.itemPath(id, olds)))!;
      return { outs: declare(imageSpec, fromApi(imageSpec, api, news), news) };
    } catch (err) {
      throw describeFailure(imageSpec, "update", id, err);
    }
  },
};
