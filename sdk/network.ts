import * as pulumi from "@pulumi/pulumi";
import { registration } from "./secrets";
import { shim } from "./shim";

const vpcProvider = shim("Vpc");
const subnetProvider = shim("Subnet");
const imageProvider = shim("Image");

export interface VpcArgs {
  /** Auto-named `<resource name>-<suffix>` when left out. */
  label?: pulumi.Input<string>;
  region: pulumi.Input<string>;
  description?: pulumi.Input<string>;
}

/** A VPC. See docs/resources/vpc.md. */
export class Vpc extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly region: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;
  /**
   * Reads an existing Vpc by its id, without managing it (Pulumi's `get`): its outputs are what the API shows.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<VpcArgs>, opts?: pulumi.CustomResourceOptions): Vpc {
    return new Vpc(name, (state ?? {}) as VpcArgs, { ...opts, id });
  }

  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    super(vpcProvider, name, ...registration("Vpc", name, args, opts), "compute", "Vpc");
  }
}

export interface SubnetArgs {
  /** `vpc.id` (string or number). */
  vpcId: pulumi.Input<string | number>;
  /** Auto-named `<resource name>-<suffix>` when left out. */
  label?: pulumi.Input<string>;
  ipv4: pulumi.Input<string>;
}

/** A subnet of a VPC. See docs/resources/subnet.md. */
export class Subnet extends pulumi.dynamic.Resource {
  declare readonly vpcId: pulumi.Output<number>;
  declare readonly label: pulumi.Output<string>;
  declare readonly ipv4: pulumi.Output<string>;
  declare readonly computes: pulumi.Output<Array<{ id: number; interfaces: Array<{ id: number; active: boolean; configId: number }> }>>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;
  /**
   * Reads an existing Subnet by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. A child resource: give its parent's id in `state` (`vpcId`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<SubnetArgs>, opts?: pulumi.CustomResourceOptions): Subnet {
    return new Subnet(name, (state ?? {}) as SubnetArgs, { ...opts, id });
  }

  constructor(name: string, args: SubnetArgs, opts?: pulumi.CustomResourceOptions) {
    super(subnetProvider, name, ...registration("Subnet", name, args, opts), "compute", "Subnet");
  }
}

export interface ImageArgs {
  /** Capture this disk (`disk.id`). */
  diskId?: pulumi.Input<string | number>;
  /** Upload this local file (raw disk image, gzip or not). */
  file?: pulumi.Input<string>;
  region?: pulumi.Input<string>;
  /** Auto-named `<resource name>-<suffix>` when left out. */
  label?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  cloudInit?: pulumi.Input<boolean>;
  timeouts?: pulumi.Input<{ create?: string }>;
}

/** A private image. See docs/resources/image.md. */
export class Image extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly fileHash: pulumi.Output<string | undefined>;
  declare readonly status: pulumi.Output<string>;
  declare readonly size: pulumi.Output<number>;
  declare readonly capabilities: pulumi.Output<string[]>;
  declare readonly isPublic: pulumi.Output<boolean>;
  declare readonly createdBy: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly created: pulumi.Output<string>;
  declare readonly updated: pulumi.Output<string>;
  /**
   * Reads an existing Image by its id, without managing it (Pulumi's `get`): its outputs are what the API shows.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ImageArgs>, opts?: pulumi.CustomResourceOptions): Image {
    return new Image(name, state ?? {}, { ...opts, id });
  }

  constructor(name: string, args: ImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(imageProvider, name, ...registration("Image", name, args, opts), "compute", "Image");
  }
}
