// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/image");

/** The arguments of Image: its inputs. */
export interface ImageArgs {
  /** Capture this disk (a Disk's `id`). Changing it makes a new image. */
  diskId?: pulumi.Input<number | string>;
  /** Upload this local file: a raw disk image, gzip-compressed or not (it is compressed when not), at most 5 GB compressed. Moving or renaming it changes nothing in the API: only its content (`fileHash`) makes a new image. */
  file?: pulumi.Input<string>;
  /** SHA-256 of `file`, computed by the provider at preview: a file whose content changes makes a new image. */
  fileHash?: pulumi.Input<string>;
  /** Region the upload goes to (required with `file`). */
  region?: pulumi.Input<string>;
  /** 1..128 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** 1..65000 characters. Changed in place. */
  description?: pulumi.Input<string>;
  /** The image supports cloud-init (adds the `cloud-init` capability). */
  cloudInit?: pulumi.Input<boolean>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). The create waits until the image is available. */
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string> }>;
}

/** A private image (`/images`): captured from a disk (`diskId`), or uploaded from a local file (`file`, `region`). The file is streamed, never read into memory, and gzip-compressed on the way unless it already is; its SHA-256 is kept, so a file whose content changes makes a new image, while a file moved or renamed with the same content does not. Waits until the image is available. See docs/resources/image.md. */
export class Image extends pulumi.dynamic.Resource {
  /** Capture this disk (a Disk's `id`). Changing it makes a new image. */
  declare readonly diskId: pulumi.Output<number | undefined>;
  /** Upload this local file: a raw disk image, gzip-compressed or not (it is compressed when not), at most 5 GB compressed. Moving or renaming it changes nothing in the API: only its content (`fileHash`) makes a new image. */
  declare readonly file: pulumi.Output<string | undefined>;
  /** SHA-256 of `file`, computed by the provider at preview: a file whose content changes makes a new image. */
  declare readonly fileHash: pulumi.Output<string | undefined>;
  /** Region the upload goes to (required with `file`). */
  declare readonly region: pulumi.Output<string | undefined>;
  /** 1..128 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** 1..65000 characters. Changed in place. */
  declare readonly description: pulumi.Output<string | undefined>;
  /** The image supports cloud-init (adds the `cloud-init` capability). */
  declare readonly cloudInit: pulumi.Output<boolean | undefined>;
  /** How long to wait, each a duration such as 90s, 15m or 1h30m: `create` (default 30m). The create waits until the image is available. */
  declare readonly timeouts: pulumi.Output<{ create?: string } | undefined>;
  /** `creating`, `pending_upload` or `available`. */
  declare readonly status: pulumi.Output<"creating" | "pending_upload" | "available">;
  /** Minimum deploy size in MB. */
  declare readonly size: pulumi.Output<number>;
  /** Includes `cloud-init` when supported. */
  declare readonly capabilities: pulumi.Output<string[]>;
  /** Always false for these. */
  declare readonly isPublic: pulumi.Output<boolean>;
  /** The user who made it. */
  declare readonly createdBy: pulumi.Output<string>;
  /** `manual`. */
  declare readonly type: pulumi.Output<string>;
  /** When the image was created. */
  declare readonly created: pulumi.Output<string>;
  /** When it last changed. */
  declare readonly updated: pulumi.Output<string>;

  /** Reads an existing Image by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ImageArgs>, opts?: pulumi.CustomResourceOptions): Image {
    return new Image(name, state ?? {}, { ...opts, id });
  }

  constructor(name: string, args: ImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Image", name, args, opts), "compute", "Image");
  }
}
