import * as pulumi from "@pulumi/pulumi";
import { registration } from "./secrets";
import { shim } from "./shim";

const provider = shim("SshKey");

export interface SshKeyArgs {
  /** A label for the key, at most 64 characters. Changed in place. */
  label?: pulumi.Input<string>;
  /** The public key in OpenSSH format (`ssh-ed25519 AAAA... comment`). Changing it replaces the key. */
  sshKey: pulumi.Input<string>;
}

/**
 * A public SSH key in the user's profile. Its id is the API's key id.
 *
 * ```ts
 * const key = new compute.SshKey("deploy", { label: "deploy", sshKey: fs.readFileSync("id_ed25519.pub", "utf8") });
 * ```
 */
export class SshKey extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  declare readonly sshKey: pulumi.Output<string>;
  /** When the key was added (ISO 8601, UTC). */
  declare readonly created: pulumi.Output<string>;

  /**
   * Reads an existing SshKey by its id, without managing it (Pulumi's `get`): its outputs are what the API shows.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<SshKeyArgs>, opts?: pulumi.CustomResourceOptions): SshKey {
    return new SshKey(name, (state ?? {}) as SshKeyArgs, { ...opts, id });
  }

  constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("SshKey", name, args, opts), "compute", "SshKey");
  }
}
