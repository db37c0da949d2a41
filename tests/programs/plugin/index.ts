/**
 * The SDK generated from schema.json (`@pulumi-compute/plugin-sdk`), served by the pulumi-resource-compute
 * plugin: resources made out of band adopted with the `import` option, a second API through an explicit
 * provider, and `customTimeouts`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "@pulumi-compute/plugin-sdk";

const config = new pulumi.Config();
const publicKey = config.require("publicKey");

// The default provider: compute:apiUrl and compute:token from the stack's config.
const home = new compute.SshKey("home", { sshKey: publicKey });

// A key adopted with `pulumi import` (the program declares it as it is: the next preview plans nothing).
const laptopKey = config.get("laptopKey");
const laptop = laptopKey ? new compute.SshKey("laptop", { label: "laptop", sshKey: laptopKey }) : undefined;

// Adopted with the import option: an instance (made empty) and its disk, made out of band (the disk's
// import id is `<instance id>/<disk id>`).
const legacyId = config.get("legacyInstanceId");
const legacy = legacyId
  ? new compute.Instance("legacy", { label: "legacy-1", region: "us-east", type: "c1-standard-2", tags: ["legacy"] }, { import: legacyId })
  : undefined;
const legacyDiskId = config.get("legacyDiskId");
const legacyData =
  legacy && legacyDiskId
    ? new compute.Disk("legacy-data", { computeId: legacy.id, label: "data", size: 1024, filesystem: "ext4" }, { import: `${legacyId}/${legacyDiskId}` })
    : undefined;

// A second API (another region's endpoint, another account's token) through an explicit provider.
const eu = new compute.Provider("eu", { apiUrl: config.require("euApiUrl"), token: config.requireSecret("euToken") });
const euKey = new compute.SshKey("eu-key", { label: "eu-key", sshKey: publicKey }, { provider: eu });

// customTimeouts reach the plugin: the instance's boot wait gives up after `slowTimeout`.
const slowTimeout = config.get("slowTimeout");
const slow = slowTimeout
  ? new compute.Instance(
      "slow",
      { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: config.requireSecret("rootPass") },
      { customTimeouts: { create: slowTimeout } },
    )
  : undefined;

export const homeLabel = home.label;
export const laptopId = laptop?.id;
export const legacyStatus = legacy?.status;
export const legacyDataSize = legacyData?.size;
export const euKeyId = euKey.id;
export const slowId = slow?.id;
