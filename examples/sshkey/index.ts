import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

// Settings: `compute:apiUrl` and `compute:token` (secret), or COMPUTE_API_URL / COMPUTE_TOKEN.
const config = new pulumi.Config();

// A demo key; pass your own with `pulumi config set publicKey "$(cat ~/.ssh/id_ed25519.pub)"`.
const demoKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrZ6J1lCqW6l0p6h9bP8y4i0v4r3D1b9nV1bq7z2cXk demo@pulumi-compute";

const key = new compute.SshKey("deploy-key", {
  label: config.get("label") ?? "deploy-key",
  sshKey: config.get("publicKey") ?? demoKey,
});

export const keyId = key.id;
export const keyLabel = key.label;
export const keyCreated = key.created;
