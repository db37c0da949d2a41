import type { ExampleProps } from "../model/example";
import { defineResource } from "../definition";
import { labelBounds } from "../../api/text";
import { madeSince } from "../model/rules";
import { tableFor } from "../model/api-table";
import { sshKeyLabel, sshKeyLine, sshKeysApi, type SshKey } from "../../api/contract/profile";
import { pathOf } from "../../api/contract/endpoint";
import { PUBLIC_KEY, ref, resource } from "./example-parents";

/** An SSH key as the API answers it (api/contract/profile.ts). */
export type SshKeyApi = SshKey;

const publicKey = sshKeyLine.transform((v) => v.trim());

export const sshKeySpec = tableFor(sshKeysApi)({
  type: "SshKey",
  noun: "SSH key",
  description: "A public SSH key stored in the user's profile (`/profile/sshkeys`), for use when deploying instances.",
  idFormat: 'The API\'s integer key id, as a string (for example `"42"`).',
  fields: [
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: sshKeyLabel,
      description: "A label for the key, at most 64 characters (auto-named `<resource name>-<suffix>` when left out). Changed in place.",
    },
    {
      name: "sshKey",
      kind: "input",
      required: true,
      forceNew: true,
      schema: publicKey,
      description: "The public key, in OpenSSH format (`ssh-ed25519 AAAA... comment`). Changing it replaces the key.",
    },
    { name: "created", kind: "output", outputType: "string", description: "When the key was added (ISO 8601, UTC)." },
  ],
  autoName: { field: "label", ...labelBounds("sshKeyLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  collectionPath: () => pathOf(sshKeysApi.list, {}),
  readsFromList: true,
  itemPath: (id) => pathOf(sshKeysApi.get, { sshKeyId: id }),
  // A lost create answer: the key we sent, with our label, added since this create began, so an older copy
  // of the same key is never taken over.
  async findExisting(client, body, _inputs, since) {
    const keys = await client.all(sshKeysApi.list, {});
    const matches = keys.filter((k) => k.ssh_key === body.ssh_key && k.label === (body.label ?? "") && madeSince(k.created, since));
    return matches.sort((a, b) => b.id - a.id)[0];
  },
});

export const sshKey = defineResource({
  spec: sshKeySpec,
  example: () => {
    const deploy = resource("SshKey", "deploy", { label: "deploy", sshKey: PUBLIC_KEY });
    return { title: "A public SSH key in the profile", resources: [deploy], outputs: { keyId: ref(deploy) } };
  },
  lookup: { name: "getSshKeys", scope: "`account:read_only`", listKey: "sshKeys", description: "The SSH keys of the profile." },
  sdk: { file: "sshKey" },
});
export const sshKeyProvider = sshKey.provider;

// The inputs its examples may give (SshKey): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    SshKey: ExampleProps<typeof sshKeySpec.fields>;
  }
}
