// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/sshKey");

/** The arguments of SshKey: its inputs. */
export interface SshKeyArgs {
  /** A label for the key, at most 64 characters (auto-named `<resource name>-<suffix>` when left out). Changed in place. */
  label?: pulumi.Input<string>;
  /** The public key, in OpenSSH format (`ssh-ed25519 AAAA... comment`). Changing it replaces the key. */
  sshKey: pulumi.Input<string>;
}

/** A public SSH key stored in the user's profile (`/profile/sshkeys`), for use when deploying instances. See docs/resources/ssh-key.md. */
export class SshKey extends pulumi.dynamic.Resource {
  /** A label for the key, at most 64 characters (auto-named `<resource name>-<suffix>` when left out). Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** The public key, in OpenSSH format (`ssh-ed25519 AAAA... comment`). Changing it replaces the key. */
  declare readonly sshKey: pulumi.Output<string>;
  /** When the key was added (ISO 8601, UTC). */
  declare readonly created: pulumi.Output<string>;

  /** Reads an existing SshKey by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<SshKeyArgs>, opts?: pulumi.CustomResourceOptions): SshKey {
    return new SshKey(name, (state ?? {}) as SshKeyArgs, { ...opts, id });
  }

  constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("SshKey", name, args, opts), "compute", "SshKey");
  }
}
